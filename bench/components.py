#!/usr/bin/env python
"""Seconds per spaCy component of kg's pipeline, and what dropping the recognizer's unused labels saves.

    python bench/components.py                  # 400 SciERC abstracts, 3 rounds
    python bench/components.py --n 200 --rounds 5

Loads the pipeline twice: as kg runs it (the recognizer's actions for labels it was never trained
on dropped, models.TRAINED_LABELS) and with every action of the weights on disk. Each round parses
the abstracts once with each, component by component (``nlp.pipe`` with batch 32, as the
extractor), alternating so that a busy moment of the machine hurts both. Prints JSON: the fastest
round per component, the totals, and whether both found the same recognizer spans.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.extract import models  # noqa: E402
from kg.scierc import read_scierc  # noqa: E402


def corpus(n: int) -> list[str]:
    bench = ROOT.parent / "shared" / "bench" / "scierc"
    texts: list[str] = []
    for split in ("train", "dev"):
        texts += [d.text for d in read_scierc(bench / f"{split}.json")]
    return texts[:n]


def one_round(nlp, texts: list[str]) -> tuple[dict[str, float], list]:
    docs = [nlp.make_doc(t) for t in texts]
    seconds = {}
    for name, proc in nlp.pipeline:
        t0 = time.perf_counter()
        docs = list(proc.pipe(docs, batch_size=32)) if hasattr(proc, "pipe") else [proc(d) for d in docs]
        seconds[name] = time.perf_counter() - t0
    spans = [[(s.start, s.end, s.label_) for key in sorted(d.spans) for s in d.spans[key]] for d in docs]
    return seconds, spans


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=400, help="abstracts (SciERC train then dev)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    texts = corpus(args.n)
    pipelines = {"trained_labels": models.load_nlp(),
                 "every_label": models.load_nlp(models.Recognition(labels=None))}
    best: dict[str, dict[str, float]] = {k: {} for k in pipelines}
    found = {}
    for _ in range(args.rounds):
        for key, nlp in pipelines.items():
            seconds, found[key] = one_round(nlp, texts)
            for name, s in seconds.items():
                best[key][name] = round(min(s, best[key].get(name, s)), 3)
    actions = {k: models.recognizers_of(nlp)[0].moves.n_moves for k, nlp in pipelines.items()}
    print(json.dumps({"abstracts": len(texts), "words": sum(len(t.split()) for t in texts), "rounds": args.rounds,
                      "recognizer_actions": actions, "fastest_round_s": best,
                      "total_s": {k: round(sum(v.values()), 2) for k, v in best.items()},
                      "same_spans": found["trained_labels"] == found["every_label"]}, indent=1))


if __name__ == "__main__":
    main()
