#!/usr/bin/env python
"""Train the span typer shipped as kg/extract/model/typer.npz (see kg/extract/typer.py).

Training data: ../shared/bench/scierc/train.json only. Every gold span is an
example of its SciERC type (Material as Dataset); every noun chunk that overlaps
no gold span is an example of NONE. Deterministic (lbfgs, fixed data order).

    python scripts/train_typer.py            # ~1 minute
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", type=Path, default=ROOT.parent / "shared" / "bench" / "scierc")
    ap.add_argument("--out", type=Path, default=ROOT / "kg" / "extract" / "model" / "typer.npz")
    ap.add_argument("--C", type=float, default=1.0)
    args = ap.parse_args()

    from sklearn.linear_model import LogisticRegression

    from kg.extract.models import load_nlp
    from kg.extract.typer import SpanTyper, features, span_info
    from kg.scierc import read_scierc

    nlp = load_nlp()
    infos, labels = [], []
    docs = list(read_scierc(args.bench / "train.json"))
    for d, doc in zip(docs, nlp.pipe([d.text for d in docs])):
        gold = [(e.start, e.end) for e in d.entities]
        for e in d.entities:
            infos.append(span_info(doc, e.start, e.end))
            labels.append(e.type)
        for ch in doc.noun_chunks:
            if not any(a < ch.end_char and ch.start_char < b for a, b in gold):
                infos.append(span_info(doc, ch.start_char, ch.end_char))
                labels.append("NONE")
    clf = LogisticRegression(max_iter=3000, C=args.C)
    clf.fit(features(infos), labels)
    SpanTyper(list(clf.classes_), clf.coef_, clf.intercept_).save(args.out)
    print(f"{len(labels)} examples, classes {list(clf.classes_)}; wrote {args.out}")


if __name__ == "__main__":
    main()
