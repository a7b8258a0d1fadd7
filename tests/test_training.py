"""kg train: a lab's own annotations make a tagger that kg build and kg eval use, saved small and exact."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kg.extract import tagger, training

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "data" / "modern_gold.jsonl"


def run_kg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("tagger") / "mine"
    spec = training.TrainingSpec(train=(GOLD,), dev=GOLD, epochs=1, batch_size=4)
    info = training.train(spec, out, log=lambda s: None)
    return out, info


@pytest.mark.slow
def test_a_trained_tagger_is_saved_without_the_frozen_embeddings_and_reloads_to_the_same_output(trained):
    out, info = trained
    assert info["abstracts"] == 6 and [h["epoch"] for h in info["history"]] == [1]
    assert "dev" in info["history"][0]
    assert (out / "weights.safetensors").stat().st_size < 25e6  # the word embeddings come from the package
    assert json.loads((out / "training.json").read_text())["train"] == ["data/modern_gold.jsonl"]  # no machine paths
    texts = [json.loads(line)["text"] for line in GOLD.read_text().splitlines()]
    first = tagger.load(out).predict(texts)
    tagger._load.cache_clear()
    tagger._digest.cache_clear()
    again = tagger.load(out)
    assert again.predict(texts) == first
    assert again.digest == tagger.digest(out)


def test_training_keeps_a_held_out_fold_out_of_every_file():
    keys = [json.loads(line)["id"] for line in GOLD.read_text().splitlines()]
    folds = {k: training.fold_of(k) for k in keys}
    for k in set(folds.values()):
        kept = {d.doc_key for d in training.read_docs([GOLD], holdout=k)}
        only = {d.doc_key for d in training.read_docs([GOLD], keep=k)}
        assert kept.isdisjoint(only) and kept | only == set(keys)
        assert all(folds[key] == k for key in only)


def test_the_shipped_tagger_is_small_enough_for_git():
    from kg.extract.models import TAGGER_DIR

    assert (TAGGER_DIR / "weights.safetensors").stat().st_size <= 25 * 2 ** 20
    config = json.loads((TAGGER_DIR / "tagger.json").read_text())
    assert {"Method", "Task", "Dataset", "Metric"} <= set(config["labels"])


@pytest.mark.slow
def test_kg_train_refuses_a_folder_with_files_and_missing_data(tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("x")
    r = run_kg("train", str(tmp_path / "busy"), "--train", str(GOLD))
    assert r.returncode == 2 and "not an empty folder" in r.stderr and "Traceback" not in r.stderr
    r = run_kg("train", str(tmp_path / "new"), "--train", str(tmp_path / "missing.jsonl"))
    assert r.returncode == 2 and "missing.jsonl: no such file" in r.stderr


@pytest.mark.slow
def test_kg_build_refuses_a_model_folder_that_holds_no_tagger(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("We propose a method for parsing. " * 5)
    r = run_kg("build", str(corpus), "--out", str(tmp_path / "b"), "--model", str(tmp_path))
    assert r.returncode == 2 and "not a kg tagger" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "b").exists()


@pytest.mark.slow
def test_kg_build_and_eval_use_a_trained_tagger(trained, tmp_path):
    out, _ = trained
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(GOLD.read_text())
    r = run_kg("build", str(corpus), "--out", str(tmp_path / "b"), "--model", str(out), "--no-views", "--no-cache")
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "b" / "build.json").read_text())["model"] == str(out)
    r = run_kg("eval", str(GOLD), "--model", str(out), "--format", "json", "--no-keybert")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["documents"] == 6


def test_an_entity_of_the_generic_format_is_trained_at_each_whole_word_occurrence():
    from kg.corpus.scierc import parse_generic

    doc = parse_generic({"id": "x", "text": "RoBERTa beats BERT, and BERT is small.",
                         "entities": [{"text": "BERT", "type": "Method"}]})
    spans = training._gold_spans(doc, tagger.LABELS)
    assert [doc.text[s:e] for s, e, _ in spans] == ["BERT", "BERT"] and spans[0][0] == 14


@pytest.mark.slow
def test_a_broken_tagger_folder_is_one_line_not_a_traceback(tmp_path):
    from kg.extract.models import TAGGER_DIR

    (tmp_path / "tagger.json").write_text("{not json")
    (tmp_path / "weights.safetensors").write_bytes((TAGGER_DIR / "weights.safetensors").read_bytes()[:100])
    r = run_kg("eval", str(GOLD), "--model", str(tmp_path), "--no-keybert")
    assert r.returncode == 2 and "not a tagger kg can load" in r.stderr and "Traceback" not in r.stderr
