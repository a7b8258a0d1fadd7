#!/usr/bin/env python
"""Cost of a rebuild after adding 1% new abstracts, against the cold build (issue 6: <= 10%).

    python bench/incremental.py                 # 2,000 abstracts, then 2,020
    python bench/incremental.py --n 2000 --added 20
    python bench/incremental.py --workers 2     # both builds with `--workers 2`

Runs `kg build --cache DIR` twice as a user does, each a whole CLI process (so model loading
counts): cold (empty cache), then the same corpus plus `--added` new abstracts (only those are
extracted). Prints both times, their ratio and each build's stage timings from its build.json.

Also the floor of any rebuild that has something to extract: a process that starts Python,
imports kg's CLI and loads the extraction models (spaCy, the entity tagger, KeyBERT's
embedder) and extracts one short abstract, the fastest of three runs. Set
beside 10% of the cold build, it shows how much of the budget is spent before the corpus is read.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from _common import floor_s, kg_build, report

from corpora import replicate, write_jsonl  # noqa: E402

from kg.builds import Manifest  # noqa: E402


def timed_build(corpus: Path, out: Path, cache: Path, workers: int) -> tuple[float, dict]:
    """Seconds of a whole `kg build --cache` process, and its stage timings from its manifest."""
    dt = kg_build(corpus, out, "--cache", str(cache), "--workers", str(workers))
    return dt, Manifest.read(out).timings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--added", type=int, default=None, help="new abstracts (default: 1%% of --n)")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    added = args.added if args.added is not None else max(1, args.n // 100)
    records = list(replicate(args.n + added))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_jsonl(records[: args.n], tmp / "corpus.jsonl")
        cold, t_cold = timed_build(tmp / "corpus.jsonl", tmp / "out", tmp / "cache", args.workers)
        write_jsonl(records, tmp / "corpus.jsonl")
        warm, t_warm = timed_build(tmp / "corpus.jsonl", tmp / "out", tmp / "cache", args.workers)
    floor = floor_s()
    report({
        "abstracts": args.n, "added": added, "workers": args.workers,
        "cold_s": round(cold, 2), "incremental_s": round(warm, 2), "ratio": round(warm / cold, 3),
        "start_and_load_models_s": round(floor, 2), "ten_percent_of_cold_s": round(cold / 10, 2),
        "cold_stages_s": t_cold, "incremental_stages_s": t_warm,
    })


if __name__ == "__main__":
    main()
