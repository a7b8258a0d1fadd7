"""The related-paper benchmarks docs/related.md quotes still run, at a tiny size (slow: subprocesses, a cold extraction)."""
from __future__ import annotations

import pytest

from tests.test_bench_smoke import REAL, bench, report

pytestmark = pytest.mark.slow
needs_emnlp = pytest.mark.skipif(not (REAL / "emnlp2020_labels.json").exists(), reason="no ../shared/bench/real here")
needs_csfcube = pytest.mark.skipif(not (REAL / "csfcube" / "qrels_dev.tsv").exists(),
                                   reason="no ../shared/bench/real/csfcube here")


@needs_emnlp
def test_related_floor(tmp_path):
    r = report(bench("related_floor.py", "--limit", "60", "--cache", str(tmp_path)))
    assert r["papers"] == 60 and r["any_pair"]["pairs"] == 60 * 59 // 2
    assert r["wording_only_pairs"]["pairs"] + r["pairs_sharing_a_concept"]["pairs"] == r["any_pair"]["pairs"]
    assert sum(b["wording_only"]["pairs"] for b in r["bins"]) == r["wording_only_pairs"]["pairs"]


@needs_csfcube
def test_related_method_facet(tmp_path):
    r = report(bench("related_method_facet.py", "--limit", "3", "--cache", str(tmp_path)))
    assert r["pools"]["A"] + r["pools"]["B"] >= 1
    assert all(0.0 <= v <= 100.0 for scores in r["ndcg_at"].values() for v in scores.values())
    assert r["chosen_on_A"]["shipped"]["setting"] == "shipped"


@needs_csfcube
def test_related_task_facet(tmp_path):
    r = report(bench("related_task_facet.py", "--limit", "3", "--no-dense", "--cache", str(tmp_path)))
    assert r["pools"]["A"] + r["pools"]["B"] == 1  # the first 3 pools hold one background pool
    assert all(0.0 <= v <= 100.0 for scores in r["ndcg_at"].values() for v in scores.values())
    # kg's --by task ranks as no facet (FACET_WEIGHTS["task"] is None).
    assert r["ndcg_at"]["shipped"] == r["ndcg_at"]["no_facet"]


@needs_emnlp
def test_related_reasons(tmp_path):
    r = report(bench("related_reasons.py", "--corpus", str(REAL / "emnlp2020_tracks.jsonl"), "--limit", "40",
                     "--cache", str(tmp_path), "--workers", "1", "-k", "3"))
    assert r["papers"] == 40 and set(r["rankings"]) == {"no facet", "method", "task", "dataset"}
    for ranking in r["rankings"].values():
        assert 0 < ranking["links"] <= 40 * 3 and 0.0 <= ranking["with_reasons"] <= 1.0
    assert all(0.0 <= r["rankings"][by]["reasons_of_the_facet"] <= 1.0 for by in ("method", "task", "dataset"))


@pytest.mark.skipif(not (REAL / "acl_2017_2019_pwc.json").exists(), reason="no ../shared/bench/real here")
def test_related_datasets(tmp_path):
    r = report(bench("related_datasets.py", "--limit", "80", "--no-dense", "--cache", str(tmp_path), "--workers", "1"))
    assert r["papers"] == 80 and 0 < r["queries"] <= 80
    assert set(r["precision_at_k"]) == {"kg", "kg_vectors", "kg_by_dataset", "kg_concepts", "tfidf"}
    assert all(0.0 <= v <= 1.0 for v in r["precision_at_k"].values())
    # Some tagged paper's top 5 holds a paper sharing its dataset: the labels are read and matched.
    assert max(r["precision_at_k"].values()) > 0
