"""JSON corpora: an array of objects, one object (a record, or an API response holding a list of
them), JSON Lines, or objects written over several lines one after another (as ``jq`` prints them).

Records are objects with ``abstract`` (or ``text``) and optional ``id``, ``title``, ``authors``,
``year``, ``venue``, ``url``, ``keywords`` under the names common exports give them
(``kg.corpus.papers``). SciERC's JSON Lines are JSON Lines too (``kg.corpus.scierc``).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from kg.corpus.fields import is_record
from kg.corpus.source import Located, Source, split_lines
from kg.errors import KgError

SUFFIXES = (".json", ".jsonl", ".ndjson")
# '[{' or '{"key":' open JSON records; '[[Draft notes]]', '["Under review"] We ...' are prose.
_JSON_OPENING = re.compile(r'\[\s*\{|\{\s*"[^"\n]*"\s*:')
_WHITESPACE = re.compile(r"\s*")


def sniff(source: Source) -> bool:
    """JSON by its content: an array or object that parses, JSON Lines (even with a broken line
    among the first), or text that opens like JSON records. "[1] A numbered list" or
    "[ICLR 2025] abstracts" in a text file is text, not broken JSON."""
    head = source.head
    if head.startswith("["):
        return not isinstance(source.json, json.JSONDecodeError) or bool(_JSON_OPENING.match(head))
    if head.startswith("{"):
        return (isinstance(source.json, dict) or any(_is_object(line) for line in head.split("\n", 5)[:5])
                or bool(_JSON_OPENING.match(head)))
    return False


def read(source: Source) -> Iterator[Located]:
    """(line, record) for JSON Lines and objects one after another; ("item N", record) for the
    items of an array, which have no lines of their own."""
    path, head = source.path, source.head
    whole = source.json
    if head.startswith("["):
        if isinstance(whole, json.JSONDecodeError):
            raise KgError(f"{path}:{whole.lineno}: malformed JSON ({why(whole)})")
        return _array_records(path, whole)
    if head.startswith("{"):
        if isinstance(whole, dict):
            return _object_records(path, whole)
        # JSON Lines under any name, even when one of its first lines is broken (that line is reported).
        if any(_is_object(line) for line in head.split("\n", 5)[:5]):
            return json_lines(path, source.text)
        return _sequence_records(path, source.text)
    raise KgError(f"{path}: expected a JSON array of objects or one JSON object per line")


def json_lines(path: Path, text: str) -> Iterator[tuple[int, object]]:
    """(line number, parsed value) for every non-blank line of ``text``."""
    for i, line in enumerate(split_lines(text), 1):
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


def _array_records(path: Path, data: object) -> Iterator[Located]:
    if not isinstance(data, list):
        raise KgError(f"{path}: expected a JSON array of objects")
    return ((f"item {i}", rec) for i, rec in enumerate(data, 1))


def _object_records(path: Path, data: dict) -> Iterator[Located]:
    """One JSON object: a record itself, or an API response holding one list of records
    ({"data": [...]} from Semantic Scholar, {"notes": [...]} from OpenReview)."""
    if is_record(data):
        return iter([(1, data)])
    lists = {k: v for k, v in data.items() if isinstance(v, list) and all(isinstance(x, dict) for x in v)}
    if len(lists) == 1:
        return _array_records(path, next(iter(lists.values())))
    found = f"lists {', '.join(map(repr, lists))}" if lists else f"keys {', '.join(map(repr, list(data)[:8]))}"
    raise KgError(f"{path}: a JSON object that is neither a record (no 'abstract') nor a response holding "
                  f"one list of records (found {found})")


def _sequence_records(path: Path, text: str) -> Iterator[Located]:
    """(line, value) for JSON values written one after another, each over any number of lines."""
    decoder, found = json.JSONDecoder(), []
    at, line, counted = 0, 1, 0  # lines are counted as the reading moves on, not from the start each time
    while (gap := _WHITESPACE.match(text, at)) and gap.end() < len(text):
        at = gap.end()
        line += text.count("\n", counted, at)
        counted = at
        try:
            value, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise KgError(f"{path}:{exc.lineno}: malformed JSON ({why(exc)})") from None
        found.append((line, value))
    return iter(found)


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False
