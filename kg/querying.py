"""Cypher text and parameters as the user gives them: inline, from a file, NAME=VALUE."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kg.errors import KgError


# The ready queries of a source checkout, beside the package: `kg query top_methods` finds them
# from any folder.
READY_QUERIES = Path(__file__).resolve().parent.parent / "queries"


def ready_queries() -> list[str]:
    return sorted(p.stem for p in READY_QUERIES.glob("*.cypher"))


def _query_path(arg: str) -> Path | None:
    """The file ``arg`` names, or None when ``arg`` is Cypher text."""
    if "\n" in arg or len(arg) >= 4096:
        return None
    path = Path(arg)
    if path.is_file():
        return path
    if len(arg.split()) == 1 or arg.endswith(".cypher"):
        # One word is never a Cypher statement: a file, or a ready query by name
        # ("top_methods", "queries/top_methods.cypher" run from another folder).
        ready = READY_QUERIES / (path.stem + ".cypher")
        if ready.is_file() and path.suffix in ("", ".cypher") and str(path.parent) in (".", "queries"):
            return ready
        if path.is_dir():
            raise KgError(f"{arg}: is a directory, expected a .cypher file or a Cypher statement")
        names = ", ".join(ready_queries())
        raise KgError(f"{arg}: no such query file" + (f" (ready queries: {names})" if names else ""))
    return None


def read_query(arg: str) -> str:
    """The Cypher text of ``arg``: the file or ready query it names, else ``arg`` itself."""
    path = _query_path(arg)
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8")
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
