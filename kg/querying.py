"""Cypher text and parameters as the user gives them: inline, from a file, NAME=VALUE."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kg.errors import KgError


def read_query(arg: str) -> str:
    """The Cypher text of ``arg``: the file it names (``*.cypher``), else ``arg`` itself."""
    path = Path(arg)
    if arg.endswith(".cypher") or ("\n" not in arg and len(arg) < 4096 and path.is_file()):
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise KgError(f"{arg}: no such query file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise KgError(f"{arg}: cannot read query file ({exc})") from None
    else:
        text = arg
    text = text.strip().rstrip(";").strip()
    if not text:
        raise KgError("empty query")
    return text


def query_params(text: str) -> dict[str, str]:
    """Parameters a query file documents in lines like ``// param paper: id of the paper``."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("// param "):
            name, _, doc = line[len("// param "):].partition(":")
            out[name.strip()] = doc.strip()
    return out


def parse_params(items: list[str]) -> dict[str, Any]:
    """NAME=VALUE pairs; VALUE is read as JSON when it parses (numbers, lists), else as text."""
    params: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise KgError(f"--param {item!r}: expected NAME=VALUE")
        try:
            params[name.strip()] = json.loads(value)
        except ValueError:
            params[name.strip()] = value
    return params
