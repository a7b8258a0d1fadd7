#!/usr/bin/env python
"""Is B better than A on the same abstracts? A paired bootstrap over saved predictions.

    python bench/score_averaging.py GOLD --recognizers ... --save build/preds/fold0
    python bench/paired_bootstrap.py build/preds/fold*/alone-*.json --against build/preds/fold*/averaged-*.json

Each file holds one run's gold and predicted (text, type) pairs per abstract (the ``--save``
output of bench/score_averaging.py). The A files and the B files are pooled, in the order given,
and must hold the same gold abstracts. Each of 1,000 (``--samples``) resamples draws abstracts
with replacement and rescores both runs on the same draw; the printed interval (2.5th and 97.5th
percentiles) is of B's micro F1 minus A's, for exact and partial matching.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.evaluate import MATCH_MODES, score  # noqa: E402


def pooled(paths: list[Path]) -> tuple[list, list]:
    golds, preds = [], []
    for p in paths:
        run = json.loads(p.read_text(encoding="utf-8"))
        golds += run["golds"]
        preds += run["preds"]
    return golds, preds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", type=Path, nargs="+", help="the baseline's prediction files")
    ap.add_argument("--against", type=Path, nargs="+", required=True, help="the other run's files")
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    golds, a = pooled(args.a)
    golds_b, b = pooled(args.against)
    if golds != golds_b:
        sys.exit("bench: the two sets of files do not hold the same gold abstracts in the same order")
    rng = random.Random(args.seed)
    draws = [[rng.randrange(len(golds)) for _ in golds] for _ in range(args.samples)]
    out = {"abstracts": len(golds), "samples": args.samples}
    for m in MATCH_MODES:
        fa, fb = score(golds, a, m)["micro"]["f1"], score(golds, b, m)["micro"]["f1"]
        diffs = sorted(score([golds[i] for i in d], [b[i] for i in d], m)["micro"]["f1"]
                       - score([golds[i] for i in d], [a[i] for i in d], m)["micro"]["f1"] for d in draws)
        low, high = diffs[int(0.025 * len(diffs))], diffs[int(0.975 * len(diffs)) - 1]
        out[m] = {"a": round(fa, 4), "b": round(fb, 4), "b_minus_a": round(fb - fa, 4),
                  "interval_95": [round(low, 4), round(high, 4)],
                  "resamples_b_better": round(sum(d > 0 for d in diffs) / len(diffs), 3)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
