"""The entity tagger as a spaCy pipeline component.

Part of the pipeline rather than a step after it, so that the worker processes of
``--workers`` (kg/extract/parallel.py) run it with the parse. It leaves its spans, snapped to
spaCy's tokens, in ``doc.spans[KEY]`` with their probabilities in ``.attrs["scores"]``;
``doc.ents`` stays empty (the extractor decides what becomes a mention).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

KEY = "kg_entities"  # the component's name and the doc.spans key of its spans
FACTORY = "kg_tagger"


class TaggerComponent:
    def __init__(self) -> None:
        self.tagger = None

    def set_tagger(self, tagger) -> None:
        self.tagger = tagger

    def __call__(self, doc):
        return self._annotate([doc])[0]

    def pipe(self, docs: Iterable, batch_size: int = 32) -> Iterator:
        from spacy.util import minibatch

        for batch in minibatch(docs, size=batch_size):
            yield from self._annotate(list(batch))

    def _annotate(self, docs: list) -> list:
        for doc, spans in zip(docs, self.tagger.predict([d.text for d in docs])):
            kept, scores = [], []
            for s in spans:
                span = doc.char_span(s.start, s.end, label=s.label, alignment_mode="expand")
                # Snapped to whole tokens, two spans cut inside one token could overlap: the first stands.
                if span is not None and len(span) and (not kept or span.start >= kept[-1].end):
                    kept.append(span)
                    scores.append(round(s.score, 4))
            doc.spans[KEY] = kept
            doc.spans[KEY].attrs["scores"] = scores
        return docs


def register() -> None:
    from spacy.language import Language

    if not Language.has_factory(FACTORY):
        Language.factory(FACTORY, func=lambda nlp, name: TaggerComponent())
