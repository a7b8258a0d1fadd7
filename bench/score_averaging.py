#!/usr/bin/env python
"""Recognizers combined by averaging their action scores at every step, against their span vote.

    python bench/score_averaging.py ../shared/bench/scierc/dev.json \\
        --recognizers kg/extract/model/ner-0 NER1 NER2
    # a fold kept by `bench/heldout_folds.py --seeds 0 1 2 --keep build/folds3` (its own typer):
    cd build/folds3/fold0/repo && PYTHONPATH=. python ../../../../bench/score_averaging.py \\
        ../heldout.json --recognizers kg/extract/model/ner-*

kg's way of combining several recognizers (``kg/extract/model/ner-*``) is a vote on their
finished spans (``Extractor._ner_spans``). The alternative measured here decodes once: at each
step of the transition system every recognizer scores the actions for the same state, the
scores are combined (``prob``: the mean of each recognizer's softmax; ``logit``: the mean of the
raw scores) and the best valid action is taken. It costs the same as the vote (each recognizer
still runs its own network); it is not shipped (docs/extraction.md). The script patches the
pipeline loader of ``kg.extract.models`` for its own process only.

Prints one JSON line per combination: exact and partial micro F1 (KeyBERT off, as in
bench/heldout_folds.py; it changes no mention), and the extraction seconds. ``--save DIR``
also writes each run's gold and predicted pairs, ``DIR/<combination>-<gold file>.json``, for
bench/paired_bootstrap.py.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

# Not inserted first, as the other scripts do: in a fold's copy, PYTHONPATH names the kg to score.
if importlib.util.find_spec("kg") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kg.evaluate import MATCH_MODES, score  # noqa: E402
from kg.extract import Extractor, models  # noqa: E402
from kg.records import Paper  # noqa: E402
from kg.scierc import read_gold  # noqa: E402

COMBINATIONS = ("alone", "vote", "prob", "logit")


class ScoreAveraging:
    """One greedy decode over several recognizers' action scores (same labels, any action order)."""

    def __init__(self, ners, combine: str):
        self.ners, self.combine = ners, combine
        names = [ners[0].moves.get_class_name(i) for i in range(ners[0].moves.n_moves)]
        # Each recognizer's column for each of the first one's actions.
        self.columns = []
        for ner in ners:
            mine = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
            if sorted(mine) != sorted(names):
                sys.exit("bench: the recognizers do not have the same actions")
            self.columns.append(np.array([mine.index(n) for n in names]))

    def _scores(self, step, states, cols):
        s = step.predict(states)[:, cols]
        if self.combine == "logit":
            return s
        s = np.exp(s - s.max(axis=1, keepdims=True))
        return s / s.sum(axis=1, keepdims=True)

    def run(self, docs):
        base = self.ners[0]
        if not any(len(d) for d in docs):
            return docs
        states = base.moves.init_batch(docs)
        steps = [ner.model.predict(docs) for ner in self.ners]
        todo = [s for s in states if not s.is_final()]
        while todo:
            total = sum(self._scores(step, todo, cols) for step, cols in zip(steps, self.columns))
            todo = base.transition_states(todo, np.ascontiguousarray(total, dtype="float32"))
        for step in steps:
            step.clear_memory()
        base.set_annotations(docs, states)
        return docs

    def __call__(self, doc):
        return self.run([doc])[0]

    def pipe(self, docs, batch_size: int = 64):
        batch = []
        for doc in docs:
            batch.append(doc)
            if len(batch) == batch_size:
                yield from self.run(batch)
                batch = []
        if batch:
            yield from self.run(batch)


def patch_loader(combine: str) -> None:
    """Make models.load_nlp() put one score-averaging component where the recognizers were."""
    from spacy.language import Language

    load = models._load_nlp.__wrapped__

    def averaging_nlp(dirs, outside_penalty, labels):
        nlp = load(dirs, outside_penalty, labels)
        names = models.ner_names(nlp)
        component = ScoreAveraging([nlp.get_pipe(n) for n in names], combine)
        for n in names[1:]:
            nlp.remove_pipe(n)
            nlp.remove_pipe("stash_" + n.rsplit("_", 1)[1])
        factory = f"bench_score_averaging_{id(component)}"  # a factory per pipeline: it returns this one
        Language.factory(factory, func=lambda nlp, name: component)
        nlp.replace_pipe(names[0], factory)  # keeps the name, so its spans land where kg reads them
        return nlp

    models._load_nlp = lru_cache(maxsize=2)(averaging_nlp)


def extract(gold: Path) -> tuple[list, list]:
    """The gold abstracts' entities, and kg's mentions of them: (text, type, start, end) each."""
    docs = list(read_gold(gold))
    papers = [Paper(id=d.doc_key, title="", abstract=d.text, text=d.text) for d in docs]
    preds = [[(m.text, m.type, m.start, m.end) for m in e.mentions]
             for e in Extractor(use_keybert=False).extract(papers)]
    return [[(e.text, e.type) for e in d.entities] for d in docs], preds


def check_decoder(gold: Path, first: Path, loader) -> None:
    """The decode loop, given one recognizer, must find what spaCy's own greedy decode finds."""
    models.NER_OVERRIDE = [first]
    models._load_nlp = loader
    expected = extract(gold)[1]
    patch_loader("prob")
    if extract(gold)[1] != expected:
        sys.exit("bench: one recognizer averaged alone does not give kg's own mentions")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gold", type=Path, nargs="+")
    ap.add_argument("--recognizers", type=Path, nargs="+", required=True)
    ap.add_argument("--combine", choices=COMBINATIONS, nargs="+", default=list(COMBINATIONS),
                    help="alone: the first recognizer only; vote: kg's span vote")
    ap.add_argument("--save", type=Path, default=None, help="write each run's predictions here")
    args = ap.parse_args()
    dirs = [p.resolve() for p in args.recognizers]
    loader = models._load_nlp
    check_decoder(args.gold[0], dirs[0], loader)
    for combine in args.combine:
        models._load_nlp = loader
        if combine in ("prob", "logit"):
            patch_loader(combine)
        models.NER_OVERRIDE = dirs[:1] if combine == "alone" else dirs
        row = {"combine": combine, "recognizers": len(models.NER_OVERRIDE)}
        for gold in args.gold:
            t0 = time.perf_counter()
            golds, preds = extract(gold)
            seconds = time.perf_counter() - t0
            pairs = [[(text, etype) for text, etype, _, _ in doc] for doc in preds]
            row[gold.name] = {m: round(score(golds, pairs, m)["micro"]["f1"], 4) for m in MATCH_MODES}
            row[gold.name]["seconds"] = round(seconds, 1)
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"{combine}-{gold.stem}.json").write_text(
                    json.dumps({"gold_file": str(gold), "golds": golds, "preds": pairs}), encoding="utf-8")
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
