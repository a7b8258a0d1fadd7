"""Every exported value obeys Neo4j's property rules, and batch sizes are what the driver sends."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from neo4j._codec.packstream.v1 import Packer

from kg import schema
from kg.errors import KgError
from kg.export.packsize import packed_size
from kg.export.rows import export_graph
from kg.export.values import to_property
from tests.test_export_samples import sample_graph

INT64 = (-(2**63), 2**63 - 1)


def neo4j_accepts(value) -> bool:
    """Neo4j's property value rules, written out independently of kg.export.values:
    a boolean, a 64-bit integer, a float or a string, or a list of one of those kinds
    (all elements the same kind, no nulls, no nesting). Maps are never properties."""
    def kind(v):
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return "int" if INT64[0] <= v <= INT64[1] else None
        if isinstance(v, float):
            return "float"
        if isinstance(v, str):
            return "str"
        return None

    if isinstance(value, list):
        kinds = {kind(v) for v in value}
        return None not in kinds and len(kinds) <= 1
    return kind(value) is not None


def matches_schema(value, schema_type: str) -> bool:
    py = {"STRING": str, "INT64": int, "DOUBLE": float, "BOOL": bool}
    if schema_type.endswith("[]"):
        return isinstance(value, list) and all(type(v) is py[schema_type[:-2]] for v in value)
    return type(value) is py[schema_type]


SCHEMA_TYPES = sorted({t for props in (schema.PAPER_PROPERTIES, schema.ENTITY_PROPERTIES, schema.MENTION_PROPERTIES,
                                       schema.RELATED_PROPERTIES) for t in props.values()})
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=True), st.text(max_size=20))
anything = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.tuples(inner, inner),
                                                         st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                        max_leaves=10)


@settings(max_examples=400, deadline=None)
@given(value=anything, schema_type=st.sampled_from(SCHEMA_TYPES))
def test_any_value_becomes_a_neo4j_property_of_its_schema_type_or_a_named_error(value, schema_type):
    try:
        out = to_property(value, schema_type, "Paper 'p1'.prop")
    except KgError as exc:
        assert str(exc).startswith("Paper 'p1'.prop") and "\n" not in str(exc)
        return
    if value is None:
        assert out is None  # null: no property at all
        return
    assert neo4j_accepts(out), out
    assert matches_schema(out, schema_type), (out, schema_type)


@pytest.mark.parametrize("value,schema_type", [
    ({"a": 1}, "STRING"),  # a map: Neo4j rejects it as a property
    ([["a"]], "STRING[]"),  # nested list
    (["a", None], "STRING[]"),  # null inside a list
    (2**63, "INT64"),  # past 64 bits
    (True, "INT64"),  # a boolean is not a count
    ("2024", "INT64"),
    ("a", "STRING[]"),  # a bare string where a list belongs
    ({"x": 1}, "DOUBLE"),
])
def test_values_neo4j_would_reject_are_refused_by_name(value, schema_type):
    with pytest.raises(KgError, match=r"^Paper 'p1'\.year"):
        to_property(value, schema_type, "Paper 'p1'.year")


def test_coercions_keep_the_schema_type():
    assert to_property(2024.0, "INT64", "w") == 2024 and type(to_property(2024.0, "INT64", "w")) is int
    assert type(to_property(1, "DOUBLE", "w")) is float
    assert to_property(("a", "b"), "STRING[]", "w") == ["a", "b"]
    assert to_property([], "INT64[]", "w") == []


def test_every_property_of_an_exported_graph_is_valid_and_typed():
    eg = export_graph(sample_graph())
    seen = 0
    for group in eg.nodes:
        for row in group.rows:
            for k, v in row.props.items():
                if v is not None:
                    seen += 1
                    assert neo4j_accepts(v) and matches_schema(v, group.properties[k]), (group.label, k, v)
    for group in eg.relationships:
        for row in group.rows:
            for k, v in row.props.items():
                assert v is not None
                seen += 1
                assert neo4j_accepts(v) and matches_schema(v, group.properties[k]), (group.type, k, v)
    assert seen > 100


def test_a_map_in_the_graph_stops_the_export_naming_node_and_property():
    g = sample_graph()
    g.nodes["p2"]["venue"] = {"name": "ICLR"}
    with pytest.raises(KgError, match=r"Paper 'p2'\.venue: a map"):
        export_graph(g)


def _packed(value) -> int:
    buf = Packer.new_packable_buffer()
    Packer(buf).pack(value)
    return len(buf.data)


bolt_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
              st.floats(allow_nan=False), st.text(max_size=300)),
    lambda inner: st.one_of(st.lists(inner, max_size=40), st.dictionaries(st.text(max_size=20), inner, max_size=20)),
    max_leaves=60,  # the length-field boundaries have their own test below
)


@settings(max_examples=200, deadline=None)
@given(bolt_values)
def test_packed_size_is_what_the_neo4j_driver_encodes(value):
    assert packed_size(value) == _packed(value)


def test_packed_size_at_the_length_field_boundaries():
    for n in (15, 16, 255, 256, 65535, 65536):
        for value in ("x" * n, ["x"] * n, {str(i): 0 for i in range(n)}):
            assert packed_size(value) == _packed(value), (type(value).__name__, n)
    assert not math.isnan(packed_size(1.5))
