#!/usr/bin/env python
"""Cost of a rebuild after adding 1% new abstracts, against the cold build (issue 6: <= 10%).

    python bench/incremental.py                 # 2,000 abstracts, then 2,020
    python bench/incremental.py --n 2000 --added 20

Runs three builds through `kg.pipeline.build` with one cache folder: cold (empty cache),
the same corpus plus `--added` new abstracts (only those are extracted), and prints their times.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from corpora import replicate, write_jsonl  # noqa: E402


def timed_build(corpus: Path, out: Path, cache: Path) -> tuple[float, int]:
    from kg.pipeline import BuildOptions, build

    t0 = time.perf_counter()
    r = build(corpus, BuildOptions(out=out, cache_dir=cache))
    return time.perf_counter() - t0, r.extracted


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--added", type=int, default=None, help="new abstracts (default: 1%% of --n)")
    args = ap.parse_args()
    added = args.added if args.added is not None else max(1, args.n // 100)
    records = list(replicate(args.n + added))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_jsonl(records[: args.n], tmp / "corpus.jsonl")
        cold, n_cold = timed_build(tmp / "corpus.jsonl", tmp / "out", tmp / "cache")
        write_jsonl(records, tmp / "corpus.jsonl")
        warm, n_warm = timed_build(tmp / "corpus.jsonl", tmp / "out", tmp / "cache")
    print(json.dumps({
        "abstracts": args.n, "added": added,
        "cold_s": round(cold, 2), "cold_extracted": n_cold,
        "incremental_s": round(warm, 2), "incremental_extracted": n_warm,
        "ratio": round(warm / cold, 3),
    }, indent=2))


if __name__ == "__main__":
    main()
