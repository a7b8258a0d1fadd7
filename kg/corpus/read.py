"""``read_corpus``: a file's records, in whatever format, as the papers of one ``Corpus``."""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from kg.corpus.formats import detect, format_named
from kg.corpus.papers import normalized, to_paper
from kg.corpus.source import read_source
from kg.errors import KgError
from kg.records import Paper


@dataclass
class Corpus:
    """The papers of one input file, and what was said about it while reading."""

    name: str
    path: Path
    papers: list[Paper] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # "file:line: message"
    skipped: int = 0  # records not turned into papers (each has a warning)
    merged: int = 0  # duplicate abstracts merged into an earlier paper


def read_corpus(path: str | Path, format: str | None = None) -> Corpus:
    """Read ``path`` into a Corpus; raises KgError when nothing usable is in it.

    The format is told by the file's name and content (``kg.corpus.formats``) unless ``format``
    names one (``"csv"``, ``"json"``, ...: ``kg.corpus.FORMAT_NAMES``). Problems with the whole
    file raise a one-line ``KgError`` naming the file (and line); a record that cannot be a paper
    becomes a warning and is skipped, so ``papers + skipped + merged`` always adds up to the
    records in the file.
    """
    path = Path(path)
    fmt = format_named(format) if format else None
    source = read_source(path)
    corpus = Corpus(name=_corpus_name(path), path=path)
    records = (fmt or detect(source)).read(source)
    seen: dict[str, str] = {}  # normalized abstract -> paper id
    ids: set[str] = set()
    for line, rec in records:
        # A line number, or "item N" for the items of a JSON array (which have no lines of their own)
        where = f"{path}:{line}" if isinstance(line, int) else f"{path}, {line}"
        paper = to_paper(rec, where, corpus.warnings.append)
        if paper is None:
            corpus.skipped += 1
            continue
        key = normalized(paper.text)
        if key in seen:
            corpus.warnings.append(f"{where}: duplicate of paper {seen[key]}; merged")
            corpus.merged += 1
            continue
        if paper.id in ids:
            # Another abstract under an id already taken (two BibTeX entries with one key): kept.
            new_id = next(f"{paper.id}-{n}" for n in itertools.count(2) if f"{paper.id}-{n}" not in ids)
            corpus.warnings.append(f"{where}: id {paper.id!r} used twice; this paper kept as {new_id!r}")
            paper = dataclasses.replace(paper, id=new_id)
        seen[key] = paper.id
        ids.add(paper.id)
        corpus.papers.append(paper)
    if not corpus.papers:
        raise KgError(f"{path}: no abstracts found{_why_none(corpus)}")
    return corpus


def _why_none(corpus: Corpus) -> str:
    """The last warning, as the reason a file gave no paper."""
    path = corpus.path
    last = corpus.warnings[-1].removeprefix(str(path)).removesuffix("; skipped") if corpus.warnings else ""
    if corpus.skipped > 1:
        where, _, what = last.partition(": ")
        place = f"line {where[1:]}" if where.startswith(":") else where.removeprefix(", ")
        return f" ({corpus.skipped} records skipped; the last, {place}: {what})"
    return f" ({last.partition(': ')[2]})" if last else ""


def _corpus_name(path: Path) -> str:
    name = re.sub(r"[^\w.-]+", "_", path.stem).strip("._")
    return name or "corpus"
