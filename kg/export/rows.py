"""The graph as typed rows, grouped the way every export route writes them.

Nodes are grouped by label and relationships by (type, start label, end
label), each row carrying exactly the kg.schema properties of its group with
values already valid for Neo4j (kg.export.values). Absent values are kept as
None in ``props`` so a re-export can remove a property that went away.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from kg import schema
from kg.errors import KgError
from kg.export.values import PropertyValue, to_property

ID = "id"


@dataclass(frozen=True)
class NodeRow:
    id: str
    props: dict[str, PropertyValue | None]  # every schema property but id


@dataclass(frozen=True)
class RelRow:
    start: str
    end: str
    props: dict[str, PropertyValue | None]


@dataclass
class NodeGroup:
    label: str
    properties: dict[str, str]  # schema name -> schema type, id included
    rows: list[NodeRow] = field(default_factory=list)


@dataclass
class RelGroup:
    type: str
    start_label: str
    end_label: str
    properties: dict[str, str]
    rows: list[RelRow] = field(default_factory=list)


@dataclass(frozen=True)
class ExportGraph:
    nodes: list[NodeGroup]
    relationships: list[RelGroup]

    def node_counts(self) -> dict[str, int]:
        return {g.label: len(g.rows) for g in self.nodes}

    def relationship_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for g in self.relationships:
            counts[g.type] = counts.get(g.type, 0) + len(g.rows)
        return counts


def export_graph(g: nx.DiGraph) -> ExportGraph:
    """Every node and edge of ``g`` as schema-typed rows, in a stable order."""
    nodes = {label: NodeGroup(label, dict(schema.node_properties(label))) for label in schema.NODE_LABELS}
    label_of: dict[str, str] = {}
    for n, data in g.nodes(data=True):
        label = data.get("label")
        if label not in nodes:
            raise KgError(f"node {n!r}: label {label!r} is not one of kg's labels {', '.join(schema.NODE_LABELS)}")
        group = nodes[label]
        label_of[n] = label
        group.rows.append(NodeRow(str(n), _props(group.properties, data, f"{label} {n!r}", skip=ID)))

    rels: dict[tuple[str, str, str], RelGroup] = {}
    for u, v, data in g.edges(data=True):
        rtype = data.get("type")
        key = (rtype, label_of[u], label_of[v])
        if key not in rels:
            if rtype not in {t for t, _, _ in schema.relationship_types()}:
                raise KgError(f"edge {u!r}->{v!r}: type {rtype!r} is not one of kg's relationship types")
            rels[key] = RelGroup(rtype, key[1], key[2], dict(schema.relationship_properties(rtype)))
        group = rels[key]
        group.rows.append(RelRow(str(u), str(v), _props(group.properties, data, f"{rtype} {u!r}->{v!r}")))

    for group in nodes.values():
        group.rows.sort(key=lambda r: r.id)
    for group in rels.values():
        group.rows.sort(key=lambda r: (r.start, r.end))
    return ExportGraph(
        nodes=[nodes[label] for label in schema.NODE_LABELS],
        relationships=[rels[k] for k in sorted(rels)],
    )


def _props(types: dict[str, str], data: dict, owner: str, skip: str | None = None) -> dict[str, PropertyValue | None]:
    return {
        name: to_property(data.get(name), stype, f"{owner}.{name}")
        for name, stype in types.items()
        if name != skip
    }
