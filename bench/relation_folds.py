#!/usr/bin/env python
"""Held-out relation quality: tagger and relation model trained without a fold, scored on that fold.

    kg train runs/fold1 --holdout 1 && kg train-relations runs/fold1 --holdout 1
    python bench/relation_folds.py runs/fold1 [runs/fold2 ...]

Scores relations (``kg eval --relations``: micro F1 over relations whose two arguments are
Method, Task, Dataset or Metric; exact and partial arguments) on the SciERC train.json abstracts
of the held-out fold, and on SciERC's dev.json, which picked the relation model's epoch and
threshold (so dev is optimistic). Two settings: end to end (the extractor's own entities), and
with the gold entities given. Prints one JSON object and a table.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.extract.evaluation import score_relation_docs  # noqa: E402
from kg.extract import Extractor, relations, training  # noqa: E402

BENCH = ROOT.parent / "shared" / "bench"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+", type=Path, help="tagger folders with a relation model, both --holdout K")
    ap.add_argument("--bench", type=Path, default=BENCH, help="the shared bench folder (default: %(default)s)")
    args = ap.parse_args()
    report = {}
    for model in args.models:
        info_path = model / "relations-training.json"
        if not relations.exists(model) or not info_path.is_file():
            sys.exit(f"{model}: no relation model (run `kg train-relations {model} --holdout K`)")
        k = json.loads(info_path.read_text()).get("holdout")
        tagger_k = json.loads((model / "training.json").read_text()).get("holdout")
        if k is None or k != tagger_k:
            sys.exit(f"{model}: tagger and relation model must both be trained with the same --holdout")
        sets = {f"SciERC fold {k}": training.read_docs([args.bench / "scierc" / "train.json"], keep=k),
                "SciERC dev": training.read_docs([args.bench / "scierc" / "dev.json"])}
        extractor = Extractor(model=model, use_keybert=False)
        report[str(model)] = {name: {"documents": len(docs), **score_relation_docs(docs, extractor)}
                              for name, docs in sets.items()}
    print(json.dumps(report, indent=1))
    for model, sets in report.items():
        print(f"\n{model}")
        print(f"{'set':<16}{'setting':<16}{'exact F1':>9}{'partial F1':>11}{'P/R exact':>14}{'gold':>6}")
        for name, r in sets.items():
            for setting in ("end_to_end", "gold_entities"):
                e, p = r[setting]["exact"], r[setting]["partial"]
                print(f"{name:<16}{setting:<16}{e['micro']['f1']:>9.3f}{p['micro']['f1']:>11.3f}"
                      f"{e['micro']['precision']:>8.3f}/{e['micro']['recall']:.3f}{e['gold']:>6}")


if __name__ == "__main__":
    main()
