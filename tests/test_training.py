"""scripts/train_ner.py: what the recognizer is trained on."""
import sys
from pathlib import Path

import pytest

spacy = pytest.importorskip("spacy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
train_ner = pytest.importorskip("train_ner")

from spacy.tokens import DocBin  # noqa: E402


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def _docbin(nlp, docs: list[tuple[str, list[tuple[str, str]]]]) -> DocBin:
    db = DocBin(store_user_data=False)
    for text, ents in docs:
        doc = nlp.make_doc(text)
        spans = []
        for name, label in ents:
            start = text.index(name)
            spans.append(doc.char_span(start, start + len(name), label=label))
        doc.ents = spans
        db.add(doc)
    return db


DOCS = [("We apply conditional random fields to named entity recognition on the Penn Treebank .",
         [("conditional random fields", "Method"), ("named entity recognition", "Task"),
          ("Penn Treebank", "Dataset")]),
        ("A parser based on neural networks is tested on the WSJ corpus for parsing .",
         [("parser", "Method"), ("neural networks", "Method"), ("WSJ corpus", "Dataset"), ("parsing", "Task")])]


def _pairs(doc):
    return [(e.text, e.label_) for e in doc.ents]


def test_augmented_copies_swap_mentions_within_their_type_and_keep_the_context(nlp):
    db = _docbin(nlp, DOCS)
    out = list(train_ner.augment(nlp, db, copies=3, rate=1.0, seed=0).get_docs(nlp.vocab))
    assert len(out) == 2 + 3 * 2  # the originals come first, unchanged
    assert [_pairs(d) for d in out[:2]] == [_pairs(d) for d in db.get_docs(nlp.vocab)]
    by_type = {}
    for _, ents in DOCS:
        for name, label in ents:
            by_type.setdefault(label, set()).add(name)
    for copy, (text, ents) in zip(out[2:], DOCS * 3):
        assert [label for _, label in _pairs(copy)] == [label for _, label in ents]
        assert all(name in by_type[label] for name, label in _pairs(copy))
        rest = copy.text
        for name, _ in _pairs(copy):
            rest = rest.replace(name, "<E>", 1)
        expected = text
        for name, _ in ents:
            expected = expected.replace(name, "<E>", 1)
        assert rest == expected  # only the names changed
    # Over three copies of each abstract, some name does move to the other abstract.
    assert any(_pairs(c) != ents for c, (_, ents) in zip(out[2:], DOCS * 3))


def test_no_replacement_gives_plain_copies(nlp):
    db = _docbin(nlp, DOCS)
    out = list(train_ner.augment(nlp, db, copies=1, rate=0.0, seed=0).get_docs(nlp.vocab))
    assert [(d.text, _pairs(d)) for d in out[2:]] == [(d.text, _pairs(d)) for d in out[:2]]
