"""Papers and their extractions as Parquet shards: what a build was made from, kept in the build.

A build keeps them under ``records/`` (``part-00000.parquet``, ...), one row per paper: the
``Paper``'s fields, and its ``Extraction`` (mentions, relations, key concepts) as nested
columns, its abstract's vector as float16 bytes (``embedding``; a shard written before vectors
were kept has no such column, and its papers read back without one). ``kg add`` reads them back instead of re-reading and re-extracting the corpus, and
``kg.export.shard_import`` writes ``neo4j-admin`` import files from them without building the
graph in memory. Shards are immutable once written: an add copies (hard-links) the previous
build's shards and writes one more for the papers it adds.
"""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from kg.layout import RECORDS  # the folder in a build
from kg.errors import KgError
from kg.records import Extraction, Mention, Paper, Relation

__all__ = ["RECORDS", "SCHEMA", "write_shards", "copy_shards", "iter_tables", "iter_records", "read_records"]
SHARD_ROWS = 10_000  # papers per shard written by a build
SHARD_FILE = re.compile(r"part-(\d{5})\.parquet")

_MENTION = pa.struct([("text", pa.string()), ("type", pa.string()), ("start", pa.int32()), ("end", pa.int32()),
                      ("sentence", pa.string()), ("score", pa.float64()), ("source", pa.string())])
_RELATION = pa.struct([("head", pa.int32()), ("tail", pa.int32()), ("label", pa.string()), ("score", pa.float64())])
_CONCEPT = pa.struct([("phrase", pa.string()), ("score", pa.float64())])
# Scores as float64, as the extractor gives them: a build added to must equal a cold build.
SCHEMA = pa.schema([
    ("id", pa.string()), ("title", pa.string()), ("abstract", pa.string()), ("text", pa.string()),
    ("source", pa.string()), ("authors", pa.list_(pa.string())), ("year", pa.int32()), ("venue", pa.string()),
    ("url", pa.string()), ("keywords", pa.list_(pa.string())),
    ("mentions", pa.list_(_MENTION)), ("relations", pa.list_(_RELATION)), ("key_concepts", pa.list_(_CONCEPT)),
    ("embedding", pa.binary()),
])


def shard_path(folder: Path, n: int) -> Path:
    return Path(folder) / f"part-{n:05d}.parquet"


def shard_paths(folder: Path) -> list[Path]:
    """The shards under ``folder``, in the order they were written."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if SHARD_FILE.fullmatch(p.name))


def is_records_folder(folder: Path) -> bool:
    """Whether ``folder`` holds only shards (a build's own ``records/``)."""
    return all(SHARD_FILE.fullmatch(p.name) for p in Path(folder).iterdir())


def _rows(papers: Sequence[Paper], extractions: Sequence[Extraction]) -> dict[str, list]:
    cols: dict[str, list] = {name: [] for name in SCHEMA.names}
    for p, ex in zip(papers, extractions, strict=True):
        if p.id != ex.paper_id:
            raise ValueError(f"extraction of {ex.paper_id!r} given for paper {p.id!r}")
        for name in ("id", "title", "abstract", "text", "source", "year", "venue", "url"):
            cols[name].append(getattr(p, name))
        cols["authors"].append(list(p.authors))
        cols["keywords"].append(list(p.keywords))
        cols["mentions"].append([m.__dict__ for m in ex.mentions])
        cols["relations"].append([r.__dict__ for r in ex.relations])
        cols["key_concepts"].append([{"phrase": k, "score": s} for k, s in ex.key_concepts])
        cols["embedding"].append(ex.embedding or None)
    return cols


def write_shard(path: Path, papers: Sequence[Paper], extractions: Sequence[Extraction]) -> Path:
    """Write one shard of ``papers`` and their ``extractions`` (same order) to ``path``."""
    table = pa.Table.from_pydict(_rows(papers, extractions), schema=SCHEMA)
    pq.write_table(table, path, compression="zstd")
    return path


def write_shards(folder: Path, papers: Sequence[Paper], extractions: Sequence[Extraction],
                 first: int = 0, rows: int = SHARD_ROWS) -> list[Path]:
    """Write ``papers`` in shards of ``rows`` papers, numbered from ``first``."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    out = []
    for i, start in enumerate(range(0, len(papers), rows)):
        out.append(write_shard(shard_path(folder, first + i), papers[start:start + rows],
                               extractions[start:start + rows]))
    return out


def copy_shards(src: Path, dst: Path) -> int:
    """Put ``src``'s shards into ``dst`` (hard links where the file system allows: shards are
    never written twice); the number of the next shard."""
    Path(dst).mkdir(parents=True, exist_ok=True)
    last = -1
    for p in shard_paths(src):
        target = Path(dst) / p.name
        try:
            os.link(p, target)
        except OSError:  # another file system, or one without hard links
            shutil.copy2(p, target)
        last = max(last, int(SHARD_FILE.fullmatch(p.name).group(1)))
    return last + 1


def iter_tables(folder: Path, columns: Iterable[str] | None = None) -> Iterator[pa.Table]:
    """Each shard as an Arrow table (only ``columns``, if given): one shard in memory at a time."""
    for p in shard_paths(folder):
        yield pq.read_table(p, columns=list(columns) if columns is not None else None)


def iter_records(folder: Path) -> Iterator[tuple[Paper, Extraction]]:
    """(Paper, Extraction) of every row of every shard, in order."""
    for table in iter_tables(folder):
        yield from _records(table)


def _records(table: pa.Table) -> Iterator[tuple[Paper, Extraction]]:
    # Column by column: the nested columns flattened to one Python list per field, then cut
    # at the lists' offsets. Arrow's row dicts (to_pylist) were most of the time `kg add` took
    # to read a build's records.
    cols = {name: table.column(name).to_pylist() for name in _PAPER_COLUMNS}
    mentions = _nested(table, "mentions", Mention)
    relations = _nested(table, "relations", Relation)
    concepts = _nested(table, "key_concepts", lambda phrase, score: (phrase, score))
    vectors = (table.column("embedding").to_pylist() if "embedding" in table.column_names
               else [None] * table.num_rows)
    for i in range(table.num_rows):
        row = {name: col[i] for name, col in cols.items()}
        yield _paper(row), Extraction(paper_id=row["id"], mentions=mentions[i], relations=relations[i],
                                      key_concepts=concepts[i], embedding=vectors[i] or b"")


_PAPER_COLUMNS = ("id", "title", "abstract", "text", "source", "authors", "year", "venue", "url", "keywords")


def _nested(table: pa.Table, name: str, make) -> list[tuple]:
    """Each row's list of structs as a tuple of ``make(*fields)``."""
    lists = table.column(name).combine_chunks()
    structs = lists.flatten()  # the structs of every row, one after another (null lists hold none)
    items = [make(*values) for values in zip(*(structs.field(f).to_pylist() for f in range(structs.type.num_fields)))]
    offsets = lists.offsets.to_pylist()
    first = offsets[0]  # not 0 where the column is a slice of a larger array
    return [tuple(items[offsets[i] - first:offsets[i + 1] - first]) for i in range(len(lists))]


def read_records(folder: Path) -> tuple[list[Paper], list[Extraction]]:
    """Every paper and its extraction, in the order written; KgError if there are none."""
    papers, extractions = [], []
    for p, ex in iter_records(folder):
        papers.append(p)
        extractions.append(ex)
    if not papers:
        raise KgError(f"{folder}: no extraction records")
    return papers, extractions


def _paper(row: dict) -> Paper:
    return Paper(id=row["id"], title=row["title"], abstract=row["abstract"], text=row["text"],
                 source=row["source"], authors=tuple(row["authors"] or ()), year=row["year"],
                 venue=row["venue"], url=row["url"], keywords=tuple(row["keywords"] or ()))
