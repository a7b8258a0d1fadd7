"""Read and write the graph files of a build: node-link JSON and GraphML.

Both writers stream node by node and edge by edge: building NetworkX's
node-link dict and then one JSON string, or its in-memory XML tree, costs
several times the graph itself, gigabytes at 100k papers. JSON is written by
orjson, several times faster than the standard library's encoder.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import networkx as nx
import orjson

from kg.errors import KgError


def write_json(g: nx.DiGraph, path: Path) -> None:
    """NetworkX node-link JSON (``edges="links"``), the layout ``read_json`` and ``nx.node_link_graph`` read.

    A MultiDiGraph's links carry their ``key`` (kg's: the relationship type)."""
    multi = g.is_multigraph()
    with open(path, "wb") as f:
        f.write(b'{"directed":%s,"multigraph":%s,"graph":%s,"nodes":['
                % (orjson.dumps(g.is_directed()), orjson.dumps(multi), orjson.dumps(g.graph)))
        for i, (n, d) in enumerate(g.nodes(data=True)):
            f.write((b"," if i else b"") + orjson.dumps({**d, "id": n}))
        f.write(b'],"links":[')
        edges = g.edges(keys=True, data=True) if multi else ((u, v, None, d) for u, v, d in g.edges(data=True))
        for i, (u, v, k, d) in enumerate(edges):
            link = {**d, "source": u, "target": v} if k is None else {**d, "source": u, "target": v, "key": k}
            f.write((b"," if i else b"") + orjson.dumps(link))
        f.write(b"]}")


def read_json(path: Path) -> nx.MultiDiGraph:
    """The graph of a build's graph.json, or a KgError naming the file if it is no such graph.

    Always kg's MultiDiGraph keyed by relationship type, also from a graph.json written
    before entity-to-entity relationships existed (a DiGraph's, whose links have no key)."""
    try:
        data = orjson.loads(Path(path).read_bytes())
        g = nx.MultiDiGraph()
        g.graph.update(data.get("graph") or {})
        # Built directly: several times faster than nx.node_link_graph on a large graph.
        g.add_nodes_from((node.pop("id"), node) for node in data["nodes"])
        g.add_edges_from((link.pop("source"), link.pop("target"), link.pop("key", None) or link.get("type"), link)
                         for link in data["links"])
        return g
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise KgError(f"{path}: not a readable kg graph file ({exc})") from None


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _flat(attrs: dict) -> Iterator[tuple[str, object]]:
    """GraphML holds no lists or nulls: lists become JSON text, nulls are dropped."""
    for k, v in attrs.items():
        if v is not None:
            yield k, orjson.dumps(v).decode("utf-8") if isinstance(v, (list, tuple, dict)) else v


def _kind(v: object) -> str:
    """The GraphML type of a value as _flat writes it (lists are JSON text)."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "long"
    if isinstance(v, float):
        return "double"
    return "string"


def _clean(v: object) -> str:
    # XML 1.0 cannot carry most control characters, even escaped.
    return _XML_INVALID.sub("\ufffd", str(v))


def _text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)  # nothing to clean or escape
    return escape(_clean(v))


def write_graphml(g: nx.DiGraph, path: Path) -> None:
    """GraphML readable by ``nx.read_graphml``, Gephi and yEd; lists as JSON text, nulls dropped."""
    keys: dict[tuple[str, str], str] = {}  # (for, name) -> GraphML type
    for domain, rows in (("node", (d for _, d in g.nodes(data=True))),
                         ("edge", (d for _, _, d in g.edges(data=True)))):
        for d in rows:
            for k, v in d.items():
                if v is None:
                    continue
                t, seen = _kind(v), keys.get((domain, k))
                if seen is None or seen == t:
                    keys[(domain, k)] = t
                elif {seen, t} <= {"long", "double"}:
                    keys[(domain, k)] = "double"
                else:
                    keys[(domain, k)] = "string"
    ids = {key: f"d{i}" for i, key in enumerate(sorted(keys))}
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n'
                '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
        for (domain, name), kid in ids.items():
            f.write(f'  <key id="{kid}" for="{domain}" attr.name={quoteattr(name)} '
                    f'attr.type="{keys[(domain, name)]}" />\n')
        f.write('  <graph edgedefault="%s">\n' % ("directed" if g.is_directed() else "undirected"))

        def data(domain: str, d: dict) -> str:
            return "".join(f'<data key="{ids[(domain, k)]}">{_text(v)}</data>' for k, v in _flat(d))

        for n, d in g.nodes(data=True):
            f.write(f"    <node id={quoteattr(_clean(n))}>{data('node', d)}</node>\n")
        for u, v, d in g.edges(data=True):
            f.write(f"    <edge source={quoteattr(_clean(u))} target={quoteattr(_clean(v))}>{data('edge', d)}</edge>\n")
        f.write("  </graph>\n</graphml>\n")
