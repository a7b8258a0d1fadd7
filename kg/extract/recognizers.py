"""The shipped SciERC recognizers decoded as one: their action probabilities averaged at each step.

Each recognizer is a spaCy transition-based NER (scripts/train_ner.py, one per seed). Run one
after another and combined by a vote on their finished spans, several recognizers disagree
about edges and the vote has to arbitrate between spans. Decoding once instead, with every
recognizer scoring the actions for the same state and the mean of their probabilities picking
the action, gives one consistent sequence of spans: on held-out folds of train.json this beat
both one recognizer and the vote (docs/extraction.md). It costs each recognizer's network, not
three decodes. With one recognizer this is spaCy's own greedy decode.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

KEY = "sci_ner"  # the component's name and the doc.spans key its spans are left under
FACTORY = "kg_recognizers"


class Recognizers:
    """A pipeline component: the recognizers' spans in ``doc.spans[KEY]``; ``doc.ents`` is left empty
    (the extractor merges these spans with the rules' before anything becomes an entity)."""

    def __init__(self) -> None:
        self.ners: list = []
        self._columns: list[np.ndarray] = []

    def set_recognizers(self, ners: Sequence) -> None:
        """Use these NER pipes (same labels; their actions may be numbered differently)."""
        ners = list(ners)
        if not ners:
            raise ValueError("no recognizer given")
        names = _actions(ners[0])
        columns = []
        for ner in ners:
            mine = _actions(ner)
            if sorted(mine) != sorted(names):
                raise ValueError("the recognizers were trained on different labels; they cannot be averaged")
            # Each recognizer's score column for each of the first one's actions.
            columns.append(np.array([mine.index(n) for n in names]))
        self.ners, self._columns = ners, columns

    def __call__(self, doc):
        return self._decode([doc])[0]

    def pipe(self, docs: Iterable, batch_size: int = 32) -> Iterator:
        from spacy.util import minibatch

        for batch in minibatch(docs, size=batch_size):
            yield from self._decode(list(batch))

    def _decode(self, docs: list) -> list:
        first = self.ners[0]
        if len(self.ners) == 1:
            first.set_annotations(docs, first.predict(docs))
        elif any(len(d) for d in docs):
            states = first.moves.init_batch(docs)
            steps = [ner.model.predict(docs) for ner in self.ners]
            todo = [s for s in states if not s.is_final()]
            while todo:
                mean = sum(_probabilities(step.predict(todo)[:, cols]) for step, cols in zip(steps, self._columns))
                todo = first.transition_states(todo, np.ascontiguousarray(mean / len(steps), dtype="float32"))
            for step in steps:
                step.clear_memory()
            first.set_annotations(docs, states)
        for doc in docs:
            doc.spans[KEY] = list(doc.ents)
            doc.ents = []
        return docs


def _actions(ner) -> list[str]:
    return [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]


def _probabilities(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def register() -> None:
    from spacy.language import Language

    if not Language.has_factory(FACTORY):
        Language.factory(FACTORY, func=lambda nlp, name: Recognizers())
