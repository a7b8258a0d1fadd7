"""KeyBERT salience: how close a phrase's embedding is to its abstract's.

Candidates come from spaCy (noun chunks and the typed mentions), passed to
KeyBERT's ranking instead of its n-gram vectorizer. Each distinct phrase is
embedded once per process (a cache shared by every batch), documents and
phrases in large batches, so the sentence-transformer runs few, full calls.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

_DROP_FIRST = {"DET", "PRON", "PUNCT", "CCONJ", "ADP", "PART", "NUM", "SYM"}
_STOP_HEADS = {"we", "it", "they", "this", "that", "which", "paper", "work", "approach", "method", "results",
               "result", "one", "ones", "way", "use", "number", "lot", "part", "kind", "type", "order", "case",
               "cases", "fact", "terms", "set", "variety", "range", "question", "example", "instance"}


def chunk_candidates(doc, max_words: int = 6) -> list[str]:
    """Noun chunks of a spaCy Doc as candidate key phrases (leading determiners trimmed)."""
    seen: dict[str, None] = {}
    for chunk in doc.noun_chunks:
        toks = list(chunk)
        while toks and (toks[0].pos_ in _DROP_FIRST or toks[0].is_stop):
            toks = toks[1:]
        if not toks or len(toks) > max_words or toks[-1].lower_ in _STOP_HEADS:
            continue
        if toks[-1].pos_ == "PRON" or not any(t.is_alpha for t in toks):
            continue
        phrase = doc[toks[0].i: toks[-1].i + 1].text
        if len(phrase) > 2:
            seen.setdefault(phrase, None)
    return list(seen)


class PhraseEmbedder:
    """Embeds texts with KeyBERT's backend, caching phrase vectors (normalized)."""

    def __init__(self, keybert, cache_size: int = 200_000, batch_size: int = 256):
        self.kw = keybert
        self.cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.cache_size = cache_size
        self.batch_size = batch_size

    def _embed(self, texts: Sequence[str], batch_size: int) -> np.ndarray:
        backend = self.kw.model  # KeyBERT's embedding backend
        if hasattr(backend, "encode_kwargs"):  # sentence-transformers: batch size, no progress bar
            backend.encode_kwargs.update(batch_size=batch_size)
        # Shortest first: less padding per batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vecs = np.asarray(backend.embed([texts[i] for i in order]), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        vecs = vecs / np.where(norms == 0, 1, norms)
        out = np.empty_like(vecs)
        out[order] = vecs
        return out

    def phrases(self, phrases: Sequence[str]) -> dict[str, np.ndarray]:
        """The vector of each distinct phrase. The cache keeps the ``cache_size`` phrases used
        last; what this call returns is gathered before any is evicted, since a corpus of tens of
        thousands of abstracts fills the cache within one call's reach."""
        out: dict[str, np.ndarray] = {}
        todo = []
        for p in dict.fromkeys(phrases):
            v = self.cache.get(p)
            if v is None:
                todo.append(p)
            else:
                self.cache.move_to_end(p)
                out[p] = v
        if todo:
            for p, v in zip(todo, self._embed(todo, self.batch_size)):
                self.cache[p] = out[p] = v
            while len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)
        return out

    def documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, 16)


def rank(doc_vec: np.ndarray, phrases: Sequence[str], vecs: dict[str, np.ndarray], top_n: int = 10,
         diversity: float = 0.3) -> tuple[dict[str, float], list[tuple[str, float]]]:
    """Salience of every phrase, and the top key phrases picked with KeyBERT's MMR."""
    if not phrases:
        return {}, []
    from keybert._mmr import mmr

    mat = np.stack([vecs[p] for p in phrases])
    sims = mat @ doc_vec
    salience = {p: float(max(0.0, min(1.0, s))) for p, s in zip(phrases, sims)}
    n = min(top_n, len(phrases))
    picked = mmr(doc_vec.reshape(1, -1), mat, list(phrases), top_n=n, diversity=diversity)
    return salience, [(p, round(float(s), 4)) for p, s in sorted(picked, key=lambda t: -t[1])]
