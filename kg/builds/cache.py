"""Per-abstract extraction cache, keyed by the abstract's text and the extractor's version.

A changed extractor has a new version and so misses every old entry. Each
entry is one JSON file written to a temporary name and renamed into place,
so a killed build never leaves half an entry; an entry that fails to parse
or names another text is treated as a miss and rewritten.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path

from kg.errors import KgError
from kg.records import Extraction, Mention, Paper, Relation

DEFAULT_CACHE_DIR = Path(".kg-cache")


class ExtractionCache:
    """One file per abstract under ``root``, in a folder per extractor version: a changed
    extractor never reads another's extractions."""

    def __init__(self, root: Path | str, extractor_version: str):
        self.root = Path(root) / _digest(extractor_version)[:16]
        self.version = extractor_version

    def check_writable(self) -> None:
        """Fail now, in one line, if entries cannot be written: not after the extraction they keep."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=self.root, suffix=".tmp")
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            raise KgError(f"{self.root.parent}: cannot hold the extraction cache ({e.strerror or e}); "
                          f"give another --cache folder or pass --no-cache") from None

    def _path(self, paper: Paper) -> Path:
        key = _digest(paper.text)
        return self.root / key[:2] / f"{key}.json"

    def get(self, paper: Paper) -> Extraction | None:
        try:
            data = json.loads(self._path(paper).read_text(encoding="utf-8"))
            if data["version"] != self.version or data["text_sha"] != _digest(paper.text):
                return None
            return Extraction(
                paper_id=paper.id,
                mentions=tuple(Mention(**m) for m in data["mentions"]),
                relations=tuple(Relation(**r) for r in data["relations"]),
                key_concepts=tuple((str(k), float(s)) for k, s in data["key_concepts"]),
                # An entry written before vectors were kept has none: the ranking then uses concepts alone.
                embedding=base64.b64decode(data.get("embedding") or ""),
            )
        except (OSError, ValueError, KeyError, TypeError):  # binascii.Error is a ValueError
            return None

    def get_many(self, papers: Iterable[Paper]) -> dict[str, Extraction]:
        found = {}
        for p in papers:
            ex = self.get(p)
            if ex is not None:
                found[p.id] = ex
        return found

    def put(self, paper: Paper, extraction: Extraction) -> None:
        path = self._path(paper)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "version": self.version,
            "text_sha": _digest(paper.text),
            "mentions": [asdict(m) for m in extraction.mentions],
            "relations": [asdict(r) for r in extraction.relations],
            "key_concepts": [list(k) for k in extraction.key_concepts],
        }
        if extraction.embedding:
            data["embedding"] = base64.b64encode(extraction.embedding).decode("ascii")
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
