#!/usr/bin/env python
"""Several recognizers decoded as one (kg's way, kg/extract/recognizers.py) against the first alone.

    python bench/score_averaging.py ../shared/bench/scierc/dev.json \\
        --recognizers kg/extract/model/ner-*
    # a fold kept by `bench/heldout_folds.py --seeds 0 1 2 --keep build/folds3` (its own typer):
    cd build/folds3/fold0/repo && PYTHONPATH=. python ../../../../bench/score_averaging.py \\
        ../heldout.json --recognizers kg/extract/model/ner-*

At every step of the transition system each recognizer scores the actions for the same state,
the mean of their probabilities picks the action. Until 5 December kg voted on the recognizers'
finished spans instead, and one recognizer shipped; the vote and a mean of raw scores were
measured with this script's earlier version (commit efac974), docs/extraction.md has the figures.

Prints one JSON line per combination (``alone``: the first recognizer; ``averaged``: all of them):
exact and partial micro F1 (KeyBERT off, as in bench/heldout_folds.py; it changes no mention),
and the extraction seconds. ``--save DIR`` also writes each run's gold and predicted pairs,
``DIR/<combination>-<gold file>.json``, for bench/paired_bootstrap.py.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

# Not inserted first, as the other scripts do: in a fold's copy, PYTHONPATH names the kg to score.
if importlib.util.find_spec("kg") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kg.evaluate import MATCH_MODES, score  # noqa: E402
from kg.extract import Extractor, models  # noqa: E402
from kg.records import Paper  # noqa: E402
from kg.scierc import read_gold  # noqa: E402

COMBINATIONS = ("alone", "averaged")


def extract(gold: Path, recognition: models.Recognition) -> tuple[list, list]:
    """The gold abstracts' (text, type) pairs, and kg's."""
    docs = list(read_gold(gold))
    papers = [Paper(id=d.doc_key, title="", abstract=d.text, text=d.text) for d in docs]
    extractor = Extractor(use_keybert=False, recognition=recognition)
    preds = [[(m.text, m.type) for m in e.mentions] for e in extractor.extract(papers)]
    return [[(e.text, e.type) for e in d.entities] for d in docs], preds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gold", type=Path, nargs="+")
    ap.add_argument("--recognizers", type=Path, nargs="+", required=True)
    ap.add_argument("--combine", choices=COMBINATIONS, nargs="+", default=list(COMBINATIONS))
    ap.add_argument("--save", type=Path, default=None, help="write each run's predictions here")
    args = ap.parse_args()
    dirs = [p.resolve() for p in args.recognizers]
    for combine in args.combine:
        recognition = models.Recognition(dirs=tuple(dirs[:1] if combine == "alone" else dirs))
        row = {"combine": combine, "recognizers": len(recognition.dirs)}
        for gold in args.gold:
            t0 = time.perf_counter()
            golds, preds = extract(gold, recognition)
            seconds = time.perf_counter() - t0
            row[gold.name] = {m: round(score(golds, preds, m)["micro"]["f1"], 4) for m in MATCH_MODES}
            row[gold.name]["seconds"] = round(seconds, 1)
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"{combine}-{gold.stem}.json").write_text(
                    json.dumps({"gold_file": str(gold), "golds": golds, "preds": preds}), encoding="utf-8")
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
