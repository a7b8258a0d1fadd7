"""neo4j-admin import files written from extraction shards, never holding the graph in memory.

The route for corpora whose graph outgrows one machine's NetworkX and embedded store
(docs/neo4j.md, "Corpora too big for one machine"). It reads the Parquet shards of papers and
their extractions (``kg.store.shards``: a build's ``records/``) one at a time and resolves entities as a
group-by:

1. map, per shard: each Paper becomes a row of ``nodes_Paper.csv``; each mention gets its key
   (``kg.text.normalize``, the paper's own acronym definitions applied: "PMD" in a paper that
   defines "Policy Mirror Descent (PMD)" is that) and is spilled, with its paper, type, surface
   form, score and span, into one of ``buckets`` Parquet files chosen by a hash of the key;
2. reduce, per bucket: every mention of a key is in one bucket, so a bucket alone gives its
   entities (the type most papers give the key, as ``kg.concepts`` decides; the name and aliases
   from the surface forms) and their relationships from papers (one per paper and entity, its
   mentions gathered in the paper's order), appended to the node and relationship files.

Memory holds one shard or one bucket at a time. What this route leaves out, against a build:
the merges ``kg.concepts`` makes with the whole corpus in view (an acronym defined in one paper
read so in another, long forms spelled two ways, "the X model" as X, the known dataset names of
kg.concepts.known and those written as a dataset's of kg.concepts.discover, a narrower concept's papers linked to the broader one, kg.concepts.broader); the
RELATED_TO links and the papers' themes, which need the related-paper ranking of
kg.analysis.related over the whole graph; and
the relations between entities (USED_FOR, ...), whose two arguments' keys fall in different
buckets (a pass joining them is not written).
"""
from __future__ import annotations

import shutil
import tempfile
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from kg import schema
from kg.store import shards
from kg.errors import KgError
from kg.export.neo4j_import import (ImportFiles, check_out_folder, field, header_type, import_command, readme,
                                    replace_folder)
from kg.text.acronyms import definitions as acronym_definitions
from kg.records import ENTITY_TYPES
from kg.concepts.resolve import acronym_of, display_name, normalize, unified_types
from kg.concepts.specificity import level_of
from kg.text.names import written_as_name

BUCKETS = 16  # enough that a bucket of a 10M-abstract corpus's mentions fits in memory
_SPILL = pa.schema([("paper", pa.string()), ("seq", pa.int64()), ("idx", pa.int32()), ("type", pa.string()),
                    ("key", pa.string()), ("surface", pa.string()), ("score", pa.float64()), ("start", pa.int64()),
                    ("end", pa.int64()), ("sentence", pa.string())])


@dataclass
class _Csv:
    """One import CSV being appended to, and how many rows it has."""

    path: Path
    rows: int = 0

    def __post_init__(self) -> None:
        self.file = self.path.open("w", encoding="utf-8", newline="")

    def write(self, fields: list[str]) -> None:
        self.file.write(",".join(fields) + "\n")
        self.rows += 1


def write_import_from_shards(records: Path, folder: Path, buckets: int = BUCKETS) -> ImportFiles:
    """Write ``neo4j-admin`` import files for the shards under ``records`` into ``folder``
    (replaced whole once every file is written, as ``kg.export.neo4j_import.write_import`` does)."""
    if not shards.shard_paths(records):
        raise KgError(f"{records}: no extraction shards (part-NNNNN.parquet) there")
    folder = check_out_folder(folder)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    spill = Path(tempfile.mkdtemp(prefix=".kg-spill-", dir=folder.parent))
    files: dict[str, _Csv] = {}
    try:
        papers = _open(files, tmp, schema.PAPER, ["id:ID", ":LABEL"] + _headers(schema.PAPER_PROPERTIES, skip="id"))
        seq = 0
        for n, table in enumerate(shards.iter_tables(records)):
            spilled: list[list[dict]] = [[] for _ in range(buckets)]
            for row in table.to_pylist():
                _paper_line(papers, row)
                for m in _keyed_mentions(row, seq):
                    spilled[zlib.crc32(m["key"].encode("utf-8")) % buckets].append(m)
                seq += 1
            for b, rows in enumerate(spilled):
                if rows:
                    (spill / str(b)).mkdir(exist_ok=True)
                    pq.write_table(pa.Table.from_pylist(rows, schema=_SPILL), spill / str(b) / f"{n:05d}.parquet")
        for b in range(buckets):
            if (spill / str(b)).is_dir():
                _reduce(pq.read_table(spill / str(b)), files, tmp, seq)
        for f in files.values():
            f.file.close()
        nodes = [files[k].path for k in (schema.PAPER, *ENTITY_TYPES) if k in files]
        rels = [files[k].path for k in sorted(files) if k.startswith("rel:")]
        final_nodes, final_rels = [folder / p.name for p in nodes], [folder / p.name for p in rels]
        command = import_command(final_nodes, final_rels)
        in_docker = import_command([Path("/import", p.name) for p in nodes], [Path("/import", p.name) for p in rels])
        counts = {k: f.rows for k, f in files.items() if not k.startswith("rel:")}
        counts.update({k[4:]: f.rows for k, f in files.items() if k.startswith("rel:")})
        (tmp / "README.md").write_text(readme(counts, command, in_docker), encoding="utf-8")
        replace_folder(tmp, folder)
    except BaseException:
        for f in files.values():
            f.file.close()
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(spill, ignore_errors=True)
    return ImportFiles(folder, final_nodes, final_rels, command)


def _headers(props: dict[str, str], skip: str | None = None) -> list[str]:
    return [f"{k}:{header_type(t)}" for k, t in props.items() if k != skip]


def _open(files: dict[str, _Csv], tmp: Path, key: str, header: list[str], name: str | None = None) -> _Csv:
    if key not in files:
        files[key] = _Csv(tmp / (name or f"nodes_{key}.csv"))
        files[key].file.write(",".join(header) + "\n")
    return files[key]


def _paper_line(out: _Csv, row: dict) -> None:
    where = f"Paper {row['id']!r}"
    values = {
        "title": row["title"], "abstract": row["abstract"],
        "text": row["text"] if row["text"] != row["abstract"] else None,  # as kg.graph stores it
        "source": row["source"], "authors": list(row["authors"] or []), "year": row["year"], "venue": row["venue"],
        "url": row["url"], "keywords": list(row["keywords"] or []),
        "key_concepts": [c["phrase"] for c in row["key_concepts"] or []],
        # Themes come from the whole related-papers graph, which this route never builds (as RELATED_TO).
        "topic": None, "topic_label": None,
    }
    out.write([field(row["id"], where), schema.PAPER]
              + [field(values[k], f"{where}.{k}") for k in schema.PAPER_PROPERTIES if k != "id"])


def _keyed_mentions(row: dict, seq: int) -> list[dict]:
    """The paper's mentions with their keys: normalized, and an acronym the paper defines read as its long form."""
    text, mentions = row["text"] or "", row["mentions"] or []
    pairs = {(normalize(d.acronym), normalize(d.long_form)) for d in acronym_definitions(text)}
    for m in mentions:
        acro = acronym_of(_Mention(m), text)
        if acro:
            pairs.add((normalize(acro), normalize(m["text"])))
    own: dict[str, Counter[str]] = defaultdict(Counter)
    for acro, long in pairs:
        if acro != long:
            own[acro][long] += 1
    longs = {a: c.most_common(1)[0][0] for a, c in own.items()}
    out = []
    for i, m in enumerate(mentions):
        key = normalize(m["text"])
        out.append({"paper": row["id"], "seq": seq, "idx": i, "type": m["type"], "key": longs.get(key, key),
                    "surface": m["text"], "score": m["score"], "start": m["start"], "end": m["end"],
                    "sentence": m["sentence"]})
    return out


class _Mention:
    """The attributes of a Mention that ``acronym_of`` reads, over a shard's row."""

    def __init__(self, m: dict):
        self.text, self.end = m["text"], m["end"]


def _reduce(table: pa.Table, files: dict[str, _Csv], tmp: Path, corpus_papers: int) -> None:
    """The entities of one bucket's mentions and their relationships from papers, each entity's
    level from what the bucket holds (``kg.concepts.specificity.level_of``: its name and how its
    mentions write it; the corpus's word counts, which keyphraseness needs, are not read here)."""
    rows = sorted(table.to_pylist(), key=lambda r: (r["seq"], r["idx"]))
    best = unified_types((r["paper"], r["type"], r["key"], r["score"]) for r in rows)
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    papers: dict[str, set[str]] = defaultdict(set)
    as_name: Counter[str] = Counter()
    edges: dict[tuple[str, str], dict] = {}
    for r in rows:
        eid = f"{best[r['key']]}:{r['key']}"
        forms[eid][r["surface"].strip()] += 1
        as_name[eid] += written_as_name(r["surface"], r["sentence"] or "")
        papers[eid].add(r["paper"])
        e = edges.setdefault((r["paper"], eid), {"mentions": 0, "score": 0.0, "surface": [], "span_starts": [],
                                                 "span_ends": [], "sentences": []})
        e["mentions"] += 1
        e["score"] = max(e["score"], round(float(r["score"]), 4))  # as kg.graph does
        if r["surface"] not in e["surface"]:
            e["surface"].append(r["surface"])
        e["span_starts"].append(r["start"])
        e["span_ends"].append(r["end"])
        e["sentences"].append(r["sentence"])
    for eid, f in forms.items():
        etype, key = eid.split(":", 1)
        out = _open(files, tmp, etype, ["id:ID", ":LABEL"] + _headers(schema.ENTITY_PROPERTIES, skip="id"))
        level, specificity = level_of(key, as_name[eid] / sum(f.values()), len(papers[eid]), corpus_papers)
        values = {"name": display_name(key, f), "type": etype, "aliases": sorted(f), "papers": len(papers[eid]),
                  "mentions": sum(f.values()), "level": level, "specificity": specificity}
        where = f"{etype} {eid!r}"
        out.write([field(eid, where), etype] + [field(values[k], f"{where}.{k}")
                                               for k in schema.ENTITY_PROPERTIES if k != "id"])
    for (paper, eid), e in edges.items():
        etype = eid.split(":", 1)[0]
        rtype = schema.MENTION_REL[etype]
        out = _open(files, tmp, f"rel:{rtype}", [":START_ID", ":END_ID", ":TYPE"] + _headers(schema.MENTION_PROPERTIES),
                    name=f"relationships_{rtype}_{schema.PAPER}_{etype}.csv")
        where = f"{rtype} {paper!r}->{eid!r}"
        out.write([field(paper, where), field(eid, where), rtype]
                  + [field(e[k], f"{where}.{k}") for k in schema.MENTION_PROPERTIES])
