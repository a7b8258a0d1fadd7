#!/usr/bin/env python
"""Cost of `kg add` of 1% new abstracts to a build, against the cold build of the union (issue 28: <= 10%).

    python bench/incremental.py                 # 2,000 abstracts, then 20 added
    python bench/incremental.py --n 2000 --added 20
    python bench/incremental.py --workers 2     # every command with `--workers 2`

Runs whole CLI processes as a user does (so model loading counts): `kg build --cache DIR` of
the first --n abstracts, then `kg add` of a file holding all --n + --added (the --n already in the
build are found and skipped; only the new ones are extracted), then a cold `kg build --no-cache`
of the same --n + --added, the reference. Prints the times, the add's share of the cold build,
each command's stage timings from its build.json, and whether the add's graph equals the cold
build's (papers' `source`, the file and line each was read from, left out).

Also the floor of any add that has something to extract: a process that starts Python, imports
kg's CLI and loads the extraction models (spaCy, the entity tagger, KeyBERT's embedder) and
extracts one short abstract, the fastest of three runs.
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from _common import floor_s, kg_build, kg_run, report

from corpora import replicate, write_jsonl  # noqa: E402

from kg.builds import GRAPH_JSON, Manifest  # noqa: E402


def graph_without_sources(build: Path) -> dict:
    data = json.loads((build / GRAPH_JSON).read_text(encoding="utf-8"))
    for node in data["nodes"]:
        node.pop("source", None)
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--added", type=int, default=None, help="new abstracts (default: 1%% of --n)")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    added = args.added if args.added is not None else max(1, args.n // 100)
    records = list(replicate(args.n + added))
    workers = ("--workers", str(args.workers))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_jsonl(records[: args.n], tmp / "first.jsonl")
        write_jsonl(records, tmp / "union" / "corpus.jsonl")
        first = kg_build(tmp / "first.jsonl", tmp / "add" / "corpus", "--cache", str(tmp / "cache"), *workers)
        add = kg_run("add", str(tmp / "union" / "corpus.jsonl"), "--db", str(tmp / "add" / "corpus"), "--quiet",
                     "--cache", str(tmp / "cache"), *workers)
        cold = kg_build(tmp / "union" / "corpus.jsonl", tmp / "cold" / "corpus", "--no-cache", *workers)
        t_add, t_cold = Manifest.read(tmp / "add" / "corpus").timings, Manifest.read(tmp / "cold" / "corpus").timings
        equal = graph_without_sources(tmp / "add" / "corpus") == graph_without_sources(tmp / "cold" / "corpus")
    floor = floor_s()
    report({
        "abstracts": args.n, "added": added, "workers": args.workers,
        "first_build_s": round(first, 2), "add_s": round(add, 2), "cold_union_s": round(cold, 2),
        "ratio": round(add / cold, 3), "add_graph_equals_cold": equal,
        "start_and_load_models_s": round(floor, 2), "ten_percent_of_cold_s": round(cold / 10, 2),
        "add_stages_s": t_add, "cold_stages_s": t_cold,
    })


if __name__ == "__main__":
    main()
