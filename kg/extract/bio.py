"""BIO tags over word pieces: gold character spans to tags, and scores back to spans.

The entity tagger (kg/extract/tagger.py) labels every word piece ``O``, ``B-<type>`` or
``I-<type>``. This module is the numpy half of it, kept apart so it can be read and tested
without torch: ``encode`` turns gold character spans into tag ids for training, ``decode``
turns per-piece log-probabilities into character spans with the best tag sequence that
obeys BIO (an ``I-X`` follows ``B-X`` or ``I-X``), which fixes the broken spans a piece-by-
piece argmax leaves (an ``I`` with no ``B``, a type that changes inside a name).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

IGNORE = -100  # a piece that takes no part in the loss (special tokens); torch's default


@dataclass(frozen=True)
class TagSet:
    """``O`` then ``B-L``, ``I-L`` for each label L, in that order."""

    labels: tuple[str, ...]

    @property
    def tags(self) -> tuple[str, ...]:
        return ("O",) + tuple(f"{p}-{label}" for label in self.labels for p in ("B", "I"))

    def begin(self, label: str) -> int:
        return 1 + 2 * self.labels.index(label)

    def allowed(self) -> np.ndarray:
        """allowed[i, j]: tag j may follow tag i."""
        n = len(self.tags)
        ok = np.ones((n, n), dtype=bool)
        for k in range(len(self.labels)):
            inside = 2 + 2 * k
            ok[:, inside] = False
            ok[inside - 1, inside] = ok[inside, inside] = True
        return ok

    def starts(self) -> np.ndarray:
        """Tags a sequence may start with (no ``I``)."""
        return np.array([t == "O" or t.startswith("B-") for t in self.tags])


@dataclass(frozen=True)
class Span:
    start: int  # characters, end exclusive
    end: int
    label: str
    score: float  # mean probability of the span's tags


def encode(offsets: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int, str]], tagset: TagSet) -> list[int]:
    """The tag id of each piece (``offsets``: its characters; (0, 0) for a special token).

    Spans must not overlap (``non_overlapping``). A piece belongs to the span its first
    character falls in; the first piece of a span is its ``B``.
    """
    out = []
    ordered = sorted(spans)
    j = 0
    prev = None
    for s, e in offsets:
        if s == e:
            out.append(IGNORE)
            continue
        while j < len(ordered) and ordered[j][1] <= s:
            j += 1
        if j < len(ordered) and ordered[j][0] <= s < ordered[j][1]:
            span = ordered[j]
            out.append(tagset.begin(span[2]) + (span == prev))
            prev = span
        else:
            out.append(0)
            prev = None
    return out


def non_overlapping(spans: Sequence[tuple[int, int, str]], prefer: Sequence[str] = ()) -> list[tuple[int, int, str]]:
    """Spans that BIO can hold: where gold spans nest or overlap, labels in ``prefer`` first,
    then the longer span (SciERC nests terms inside tasks: "[[word] sense disambiguation]")."""
    rank = {label: i for i, label in enumerate(prefer)}
    kept: list[tuple[int, int, str]] = []
    for s in sorted(set(spans), key=lambda x: (rank.get(x[2], len(rank)), x[0] - x[1], x[0])):
        if all(s[1] <= k[0] or k[1] <= s[0] for k in kept):
            kept.append(s)
    return sorted(kept)


def decode(logp: np.ndarray, offsets: Sequence[tuple[int, int]], tagset: TagSet) -> list[Span]:
    """Character spans from per-piece log-probabilities (pieces in text order, no special tokens)."""
    if len(offsets) == 0:
        return []
    path = viterbi(logp, tagset)
    prob = np.exp(logp[np.arange(len(path)), path])
    tags = tagset.tags
    spans: list[Span] = []
    i = 0
    while i < len(path):
        tag = tags[path[i]]
        if tag == "O":
            i += 1
            continue
        label = tag[2:]
        j = i + 1
        while j < len(path) and tags[path[j]] == f"I-{label}":
            j += 1
        spans.append(Span(offsets[i][0], offsets[j - 1][1], label, float(prob[i:j].mean())))
        i = j
    return spans


def viterbi(logp: np.ndarray, tagset: TagSet) -> np.ndarray:
    """The most probable tag sequence that BIO allows."""
    n, k = logp.shape
    forbid = np.where(tagset.allowed(), 0.0, -np.inf)
    score = np.where(tagset.starts(), logp[0], -np.inf)
    back = np.zeros((n, k), dtype=np.int64)
    for i in range(1, n):
        total = score[:, None] + forbid  # from tag (rows) to tag (columns)
        back[i] = total.argmax(axis=0)
        score = total[back[i], np.arange(k)] + logp[i]
    path = np.empty(n, dtype=np.int64)
    path[-1] = int(score.argmax())
    for i in range(n - 1, 0, -1):
        path[i - 1] = back[i, path[i]]
    return path
