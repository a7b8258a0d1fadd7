"""JSON Lines as kg reads them: one object a line, errors naming the file and line."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from kg.errors import KgError


def lines(text: str) -> list[str]:
    """The file's lines as editors count them: split at a newline only.

    ``str.splitlines`` also breaks at U+2028, U+0085, form feeds and other
    characters that JSON strings and CSV cells may hold raw, which would cut
    a record in two and number every later line wrongly.
    """
    return [line.removesuffix("\r") for line in text.split("\n")]


def json_lines(path: Path, text: str) -> Iterator[tuple[int, object]]:
    """(line number, parsed value) for every non-blank line of ``text``."""
    for i, line in enumerate(lines(text), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise KgError(f"{path}:{i}: malformed JSON line ({why(exc)})") from None
        yield i, obj


def why(exc: json.JSONDecodeError) -> str:
    """The decoder's reason with its column, as one phrase: "Expecting value at column 5",
    "Unterminated string starting at column 23" (some reasons already end in "at")."""
    return f"{exc.msg} column {exc.colno}" if exc.msg.endswith(" at") else f"{exc.msg} at column {exc.colno}"
