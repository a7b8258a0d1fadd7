"""bench/corpora.py: replicas whose vocabulary grows per Heaps' law, as measured on SciERC + SciREX."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "bench"
pytestmark = pytest.mark.skipif(not (SHARED / "scierc" / "train.json").exists() or not (SHARED / "scirex").is_dir(),
                                reason="no ../shared/bench/scierc and scirex here")
sys.path.insert(0, str(ROOT / "bench"))

import corpora  # noqa: E402


def distinct(n: int, growth: bool = True) -> int:
    seen: set[str] = set()
    for _, ents in corpora.replicas(n, growth=growth):
        seen |= ents
    return len(seen)


def test_the_exponent_is_the_one_measured_on_the_data():
    assert corpora.heaps_fit()["beta"] == pytest.approx(corpora.HEAPS_BETA, abs=0.002)


def test_replicas_grow_their_vocabulary_per_heaps_law():
    n0 = len(corpora.base_abstracts())
    v0 = distinct(n0)
    for k in (2, 4, 8):
        assert distinct(k * n0) / v0 == pytest.approx(k ** corpora.HEAPS_BETA, rel=0.03)
    assert distinct(4 * n0, growth=False) == v0  # without growth copies add no entity


def test_renamed_entities_are_in_the_text_and_the_copy_keeps_the_rest():
    n0 = len(corpora.base_abstracts())
    recs = list(corpora.replicas(n0 + 50))
    found = total = 0
    for (rec, ents), (orig, orig_ents) in zip(recs[n0:], recs[:50]):
        renamed = {e for e in ents if e.endswith("-ro")}  # copy 1's suffix
        assert {e[:-3] for e in renamed} <= orig_ents and ents - renamed <= orig_ents
        # As written in the text (normalization folds only case and spacing, mostly).
        found += sum(e in rec["abstract"].lower() for e in renamed)
        total += len(renamed)
        assert rec["id"] == orig["id"] + "~1"
    assert total > 20 and found / total > 0.8
