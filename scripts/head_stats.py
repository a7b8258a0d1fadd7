#!/usr/bin/env python
"""How often a head noun's type (kg.extract.rules.phrase_type) is the gold type, on train.json.

    python scripts/head_stats.py ../shared/bench/scierc/train.json

For every head word of rules' head lists that ends a gold Method, Task or Dataset span, prints
the gold types and the share the head's type gets right. Heads right for under 80% of their
spans are the ones listed in rules.UNRELIABLE_HEADS: the extractor does not retype by them.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kg.extract import rules  # noqa: E402
from kg.corpus.scierc import read_gold  # noqa: E402

SCORED = ("Method", "Task", "Dataset")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("train", type=Path)
    ap.add_argument("--below", type=float, default=0.8, help="share under which a head is unreliable")
    args = ap.parse_args()
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for doc in read_gold(args.train):
        for e in doc.entities:
            head_type = rules.phrase_type(e.text)
            if head_type in SCORED and e.type in SCORED:
                head = rules.head_word(e.text)
                counts[(head_type, head)][e.type] += 1
    unreliable = []
    for (head_type, head), c in sorted(counts.items(), key=lambda kv: -sum(kv[1].values())):
        share = c[head_type] / sum(c.values())
        print(f"{head:16} {head_type:8} {share:5.2f}  {dict(c)}")
        if share < args.below:
            unreliable.append(head)
    print("unreliable:", " ".join(sorted(unreliable)))


if __name__ == "__main__":
    main()
