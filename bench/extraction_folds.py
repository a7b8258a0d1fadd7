#!/usr/bin/env python
"""Held-out extraction quality: taggers trained without a fold, scored on that fold.

    kg train runs/fold0 --holdout 0            # ~15-25 min on 2 cores; the same for folds 1-4
    python bench/extraction_folds.py runs/fold0 [runs/fold1 ...] [--steps-ablation]

``kg train --holdout K`` leaves fold K (``kg.extract.training.fold_of``: a hash of each abstract's
key) out of SciERC's and SciREX's train.json and out of SciREX's full text. This scores each
such tagger, through the whole extractor (spaCy, the tagger, the post-processing steps; KeyBERT
off, since it changes no mention), on the abstracts of its fold in both files, and on SciERC's
dev.json, which picked its epoch. The fold columns are the held-out estimate; dev is optimistic.
With ``--steps-ablation`` it also scores the tagger with no steps and with each default step
left out, from the same parses: a step is kept only if it gains on the folds.
Prints one JSON object and a table.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.evaluate import score  # noqa: E402
from kg.extract import Extractor, postprocess, training  # noqa: E402

BENCH = ROOT.parent / "shared" / "bench"


def variants(ablation: bool) -> dict[str, tuple[str, ...]]:
    out = {"shipped steps": postprocess.DEFAULT_STEPS}
    if ablation:
        out["no steps"] = ()
        for s in postprocess.DEFAULT_STEPS:
            out[f"without {s}"] = tuple(x for x in postprocess.DEFAULT_STEPS if x != s)
        for s in postprocess.STEPS:
            if s not in postprocess.DEFAULT_STEPS:
                out[f"with {s}"] = postprocess.DEFAULT_STEPS + (s,)
    return out


def score_sets(model: Path, sets: dict[str, list], runs: dict[str, tuple[str, ...]]) -> dict:
    out: dict = {}
    pooled_gold: dict[str, list] = {}
    pooled_pred: dict[str, list] = {}
    base = Extractor(model=model, use_keybert=False, steps=())
    nlp = base._nlp()
    for set_name, docs in sets.items():
        parsed = list(nlp.pipe([d.text for d in docs], batch_size=32))
        golds = [[(e.text, e.type) for e in d.entities] for d in docs]
        for run, steps in runs.items():
            ex = Extractor(model=model, use_keybert=False, steps=steps)
            preds = [[(m.text, m.type) for m in ex.mentions(doc)] for doc in parsed]
            if "fold" in set_name:  # the held-out sets, pooled: the figure steps are chosen on
                pooled_gold.setdefault(run, []).extend(golds)
                pooled_pred.setdefault(run, []).extend(preds)
            out.setdefault(set_name, {})[run] = {
                m: {"f1": r["micro"]["f1"], "precision": r["micro"]["precision"], "recall": r["micro"]["recall"],
                    "per_type_f1": {t: v["f1"] for t, v in r["per_type"].items()}, "gold": r["gold"],
                    "predicted": r["predicted"]}
                for m in ("exact", "partial") for r in (score(golds, preds, m),)}
            out[set_name]["documents"] = len(docs)
    out["folds pooled"] = {run: {m: {k: r["micro"][k] for k in ("f1", "precision", "recall")}
                                 for m in ("exact", "partial") for r in (score(pooled_gold[run], pooled_pred[run], m),)}
                           for run in pooled_gold}
    out["folds pooled"]["documents"] = sum(len(d) for n, d in sets.items() if "fold" in n)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+", type=Path, help="tagger folders written by `kg train --holdout K`")
    ap.add_argument("--bench", type=Path, default=BENCH, help="the shared bench folder (default: %(default)s)")
    ap.add_argument("--steps-ablation", action="store_true", help="also score each step left out")
    args = ap.parse_args()
    runs = variants(args.steps_ablation)
    report = {}
    for model in args.models:
        if not (model / "training.json").is_file():
            sys.exit(f"{model}: no training.json (not a folder written by `kg train`)")
        info = json.loads((model / "training.json").read_text())
        k = info.get("holdout")
        if k is None:
            sys.exit(f"{model}: trained on every fold (no --holdout); it has no held-out text")
        sets = {
            f"SciERC fold {k}": training.read_docs([args.bench / "scierc" / "train.json"], keep=k),
            f"SciREX fold {k}": training.read_docs([args.bench / "scirex" / "train.json"], keep=k),
            "SciERC dev": training.read_docs([args.bench / "scierc" / "dev.json"]),
        }
        report[str(model)] = score_sets(model, sets, runs)
    print(json.dumps(report, indent=1))
    for model, sets in report.items():
        print(f"\n{model}")
        print(f"{'set':<16}{'run':<30}{'exact':>8}{'partial':>9}{'P/R exact':>14}")
        for set_name, by_run in sets.items():
            for run, r in by_run.items():
                if run == "documents":
                    continue
                e, p = r["exact"], r["partial"]
                print(f"{set_name:<16}{run:<30}{e['f1']:>8.3f}{p['f1']:>9.3f}"
                      f"{e['precision']:>8.3f}/{e['recall']:.3f}")


if __name__ == "__main__":
    main()
