"""Read and write the graph files of a build: node-link JSON and GraphML."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from kg.errors import KgError


def write_json(g: nx.DiGraph, path: Path) -> None:
    data = nx.node_link_data(g, edges="links")
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def read_json(path: Path) -> nx.DiGraph:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return nx.node_link_graph(data, directed=True, multigraph=False, edges="links")
    except (OSError, ValueError, KeyError) as exc:
        raise KgError(f"{path}: not a readable kg graph file ({exc})") from None


def write_graphml(g: nx.DiGraph, path: Path) -> None:
    """GraphML holds no lists or nulls: lists become JSON text, nulls are dropped."""
    h = nx.DiGraph()

    def flat(attrs: dict) -> dict:
        return {
            k: json.dumps(v, ensure_ascii=False) if isinstance(v, list) else v
            for k, v in attrs.items()
            if v is not None
        }

    h.add_nodes_from((n, flat(d)) for n, d in g.nodes(data=True))
    h.add_edges_from((u, v, flat(d)) for u, v, d in g.edges(data=True))
    nx.write_graphml(h, path, encoding="utf-8")
