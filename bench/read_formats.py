#!/usr/bin/env python
"""Seconds to read N records in each input format (kg.corpus.read_corpus, no extraction).

    python bench/read_formats.py            # 5,000 records per format
    python bench/read_formats.py --n 20000

Each format holds the same synthetic records (distinct ids, titles and abstracts of about
25 words), written as kg would meet them: JSON Lines, CSV, plain text, BibTeX, RIS.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

from _common import report

from kg.corpus import read_corpus  # noqa: E402


def records(n: int) -> list[dict]:
    return [{"id": f"r{i}", "title": f"Title number {i}", "authors": ["Doe, Jane", "Roe, Rick"], "year": 2020,
             "abstract": f"We propose FooNet {i}, a network for parsing long documents, and evaluate it on "
                         f"the Penn Treebank with strong results across {i % 97} settings."} for i in range(n)]


def write_all(recs: list[dict], folder: Path) -> dict[str, Path]:
    paths = {name: folder / f"corpus.{name}" for name in ("jsonl", "csv", "txt", "bib", "ris")}
    paths["jsonl"].write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    with paths["csv"].open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "title", "authors", "year", "abstract"])
        for r in recs:
            w.writerow([r["id"], r["title"], "; ".join(r["authors"]), r["year"], r["abstract"]])
    paths["txt"].write_text("Abstracts\n\n" + "\n\n".join(r["abstract"] for r in recs) + "\n", encoding="utf-8")
    paths["bib"].write_text("".join(
        f"@article{{{r['id']},\n  title = {{{r['title']}}},\n  author = {{{' and '.join(r['authors'])}}},\n"
        f"  year = {{{r['year']}}},\n  abstract = {{{r['abstract']}}}\n}}\n\n" for r in recs), encoding="utf-8")
    paths["ris"].write_text("".join(
        f"TY  - JOUR\nID  - {r['id']}\nTI  - {r['title']}\n" + "".join(f"AU  - {a}\n" for a in r["authors"])
        + f"PY  - {r['year']}\nAB  - {r['abstract']}\nER  - \n\n" for r in recs), encoding="utf-8")
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=5000)
    args = ap.parse_args()
    recs = records(args.n)
    out: dict = {"records": args.n, "seconds": {}, "records_per_s": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in write_all(recs, Path(tmp)).items():
            t0 = time.perf_counter()
            corpus = read_corpus(path)
            dt = time.perf_counter() - t0
            if len(corpus.papers) != args.n:
                sys.exit(f"bench: {name}: read {len(corpus.papers)} papers, expected {args.n}")
            out["seconds"][name] = round(dt, 2)
            out["records_per_s"][name] = round(args.n / dt)
    report(out)


if __name__ == "__main__":
    main()
