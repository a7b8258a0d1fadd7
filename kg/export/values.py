"""Property values as Neo4j stores them.

Neo4j keeps a property only if it is a primitive (boolean, integer in the
signed 64-bit range, float, string) or a homogeneous list of primitives; maps,
nested lists, lists holding nulls or mixed types are rejected, and a null
means "no property". The graph's attributes are typed by kg.schema, so each
value is coerced to its declared type here and anything that cannot be is a
one-line KgError naming the node or relationship, before a single write.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kg.errors import KgError

Primitive = bool | int | float | str
PropertyValue = Primitive | list[bool] | list[int] | list[float] | list[str]

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def is_list_type(schema_type: str) -> bool:
    return schema_type.endswith("[]")


def element_type(schema_type: str) -> str:
    return schema_type[:-2] if is_list_type(schema_type) else schema_type


def to_property(value: Any, schema_type: str, where: str) -> PropertyValue | None:
    """``value`` as a Neo4j property of ``schema_type`` (kg.schema's names), None for "absent".

    ``where`` names the owner and property for the error message.
    """
    if value is None:
        return None
    if is_list_type(schema_type):
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple)):
            raise KgError(f"{where}: expected a list ({schema_type}), got {type(value).__name__}")
        elem = element_type(schema_type)
        out = []
        for i, item in enumerate(value):
            if item is None:  # Neo4j lists cannot hold nulls
                raise KgError(f"{where}[{i}]: a list holds null; Neo4j lists cannot")
            out.append(_scalar(item, elem, f"{where}[{i}]"))
        return out
    return _scalar(value, schema_type, where)


def _scalar(value: Any, schema_type: str, where: str) -> Primitive:
    if isinstance(value, (Mapping, list, tuple, set)):
        kind = "map" if isinstance(value, Mapping) else "list"
        raise KgError(f"{where}: a {kind} where Neo4j needs a single {schema_type} value")
    if schema_type == "STRING":
        if isinstance(value, str):
            return value
        if isinstance(value, (bool, int, float)):
            return str(value)
    elif schema_type == "INT64":
        # bool is an int in Python but not in Neo4j; a whole float (2024.0 from JSON) is fine.
        if isinstance(value, int) and not isinstance(value, bool):
            if INT64_MIN <= value <= INT64_MAX:
                return value
            raise KgError(f"{where}: {value} is outside Neo4j's 64-bit integer range")
        if isinstance(value, float) and value.is_integer():
            return _scalar(int(value), schema_type, where)
    elif schema_type == "DOUBLE":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif schema_type == "BOOL":
        if isinstance(value, bool):
            return value
    else:
        raise KgError(f"{where}: unknown schema type {schema_type!r}")
    raise KgError(f"{where}: {type(value).__name__} value {value!r:.40} is not a {schema_type}")
