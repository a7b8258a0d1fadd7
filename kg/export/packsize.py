"""Bytes a value takes in Bolt's PackStream encoding, to bound each message before it is sent.

Batches are cut by encoded size (kg.export.bolt_plan), which is cheap to
compute exactly: a marker byte, a length field that grows with
the size, then the payload. tests/test_export_bolt.py checks these numbers
against the neo4j driver's own packer.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _header(n: int) -> int:
    # Tiny sizes share the marker byte; then 8-, 16- or 32-bit length fields.
    if n < 16:
        return 1
    if n < 0x100:
        return 2
    if n < 0x10000:
        return 3
    return 5


def packed_size(value: Any) -> int:
    if value is None or isinstance(value, bool):
        return 1
    if isinstance(value, int):
        if -16 <= value <= 127:
            return 1
        if -128 <= value < 128:
            return 2
        if -(2**15) <= value < 2**15:
            return 3
        if -(2**31) <= value < 2**31:
            return 5
        return 9
    if isinstance(value, float):
        return 9
    if isinstance(value, str):
        n = len(value.encode("utf-8"))
        return _header(n) + n
    if isinstance(value, Mapping):
        return _header(len(value)) + sum(packed_size(k) + packed_size(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return _header(len(value)) + sum(packed_size(v) for v in value)
    raise TypeError(f"no PackStream size for {type(value).__name__}")


def run_message_size(query: str, params: Mapping[str, Any]) -> int:
    """Size of a RUN message inside a transaction: struct marker and tag, query, parameters, empty extra."""
    return 2 + packed_size(query) + packed_size(params) + 1
