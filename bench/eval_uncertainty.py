#!/usr/bin/env python
"""How sure is a `kg eval` figure? A bootstrap over the gold file's abstracts.

    python bench/eval_uncertainty.py ../shared/bench/scierc/dev.json
    python bench/eval_uncertainty.py tests/data/modern_gold_independent.jsonl --samples 2000

Extracts once, then rescores 1,000 (``--samples``) resamples of the abstracts, drawn with
replacement, and prints the micro F1 of the whole file with the 2.5th and 97.5th percentiles
of the resamples, for exact and partial matching. The interval says how much the figure
would move on another sample of the same kind of abstracts (a held-out split, say); it says
nothing about abstracts of another kind.
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
from kg.extract import Extractor  # noqa: E402
from kg.records import Paper  # noqa: E402
from kg.corpus.scierc import read_gold  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gold", type=Path)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    docs = list(read_gold(args.gold))
    papers = [Paper(id=d.doc_key, title=d.doc_key, abstract=d.text, text=d.text) for d in docs]
    preds = [[(m.text, m.type) for m in ex.mentions] for ex in Extractor().extract(papers, progress=False)]
    golds = [[(e.text, e.type) for e in d.entities] for d in docs]
    rng = random.Random(args.seed)
    out: dict = {"gold_file": str(args.gold), "documents": len(docs), "samples": args.samples}
    draws = [[rng.randrange(len(docs)) for _ in docs] for _ in range(args.samples)]
    for match in MATCH_MODES:
        f1s = sorted(score([golds[i] for i in draw], [preds[i] for i in draw], match)["micro"]["f1"]
                     for draw in draws)
        out[match] = {
            "f1": score(golds, preds, match)["micro"]["f1"],
            "interval_95": [round(f1s[int(0.025 * len(f1s))], 4), round(f1s[int(0.975 * len(f1s)) - 1], 4)],
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
