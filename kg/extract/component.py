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
        encodings = self.tagger.encode([d.text for d in docs])
        kept_spans = []
        for doc, enc in zip(docs, encodings):
            kept, scores = [], []
            for s in self.tagger.spans(enc):
                span = doc.char_span(s.start, s.end, label=s.label, alignment_mode="expand")
                # Snapped to whole tokens, two spans cut inside one token could overlap: the first stands.
                if span is not None and len(span) and (not kept or span.start >= kept[-1].end):
                    kept.append(span)
                    scores.append(round(s.score, 4))
            doc.spans[KEY] = kept
            doc.spans[KEY].attrs["scores"] = scores
            kept_spans.append(kept)
        for doc, found in zip(docs, self._relations(docs, encodings, kept_spans)):
            doc.spans[KEY].attrs["relations"] = found
        return docs

    def _relations(self, docs: list, encodings: list, spans: list[list]) -> list[list]:
        """Per doc, [head, tail, label, score] between its spans of the graph's types, as span
        indices. Every span of the tagger is marked in the relation model's input, as in training;
        relations with an OtherScientificTerm or Generic span are not kept."""
        from kg.extract.relations import SpanRef, sentences
        from kg.records import ENTITY_TYPES

        model = self.tagger.relations
        if model is None:
            return [[] for _ in docs]
        prepared = []
        for doc, enc, kept in zip(docs, encodings, spans):
            # A doc without a parse is one sentence.
            sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
            first = {s.start: i for i, s in enumerate(sents)}
            refs = [SpanRef(s.start_char, s.end_char, s.label_, first.get(s.sent.start, 0) if len(sents) > 1 else 0)
                    for s in kept]
            prepared.append(sentences(enc.hidden, enc.offsets, refs, [(s.start_char, s.end_char) for s in sents],
                                      model.config, pair_types=ENTITY_TYPES) if len(kept) > 1 else [])
        return [[[h, t, label, score] for h, t, label, score in found
                 if kept[h].label_ in ENTITY_TYPES and kept[t].label_ in ENTITY_TYPES]
                for kept, found in zip(spans, model.predict_many(prepared))]


def register() -> None:
    from spacy.language import Language

    if not Language.has_factory(FACTORY):
        Language.factory(FACTORY, func=lambda nlp, name: TaggerComponent())
