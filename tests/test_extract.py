"""The extractor: interface, mention invariants, modern names typed right, quality floors."""
from pathlib import Path

import pytest

from kg.extract import Extractor, models
from kg.records import ENTITY_TYPES, Extraction, Paper

ROOT = Path(__file__).resolve().parents[1]


def paper(text: str, pid: str = "p") -> Paper:
    return Paper(id=pid, title=pid, abstract=text, text=text)


@pytest.fixture(scope="module")
def ex():
    return Extractor(use_keybert=True, workers=1)


def typed(extraction: Extraction) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for m in extraction.mentions:
        out.setdefault(m.text, set()).add(m.type)
    return out


# ---------------------------------------------------------------- the extractor
def test_construction_is_cheap_and_version_is_a_cache_key(tmp_path):
    models._load_nlp.cache_clear()
    a = Extractor(use_keybert=True)
    assert models._load_nlp.cache_info().currsize == 0  # nothing loaded yet
    assert a.version == Extractor(use_keybert=True).version
    assert a.version != Extractor(use_keybert=False).version
    assert a.version != Extractor(steps=()).version
    assert isinstance(a.version, str) and len(a.version) >= 8
    # Another tagger is another version: a cache made with the shipped model is not reused.
    other = tmp_path / "other"
    other.mkdir()
    for name in ("tagger.json", "weights.safetensors"):
        (other / name).write_bytes((models.TAGGER_DIR / name).read_bytes())
    (other / "tagger.json").write_text((models.TAGGER_DIR / "tagger.json").read_text() + " ")
    assert Extractor(model=other).version != a.version


def test_unknown_steps_are_refused():
    with pytest.raises(ValueError, match="unknown step"):
        Extractor(steps=("drop_generic", "no-such-step"))


@pytest.mark.slow
def test_mentions_are_exact_spans_in_input_order(ex):
    texts = [
        "We propose FlowMix, a novel diffusion model for image generation. On the CIFAR-10 and ImageNet "
        "benchmarks, FlowMix improves FID over Stable Diffusion.",
        "",
        "Named entity recognition (NER) is evaluated on the CoNLL-2003 dataset with F1.",
    ]
    papers = [paper(t, f"p{i}") for i, t in enumerate(texts)]
    out = list(ex.extract(papers))
    assert [e.paper_id for e in out] == ["p0", "p1", "p2"]
    assert out[1].mentions == ()
    for p, e in zip(papers, out):
        for m in e.mentions:
            assert m.text == p.text[m.start:m.end]
            assert m.type in ENTITY_TYPES
            assert 0.0 <= m.score <= 1.0
            assert m.text in m.sentence and m.sentence in p.text
            assert m.source
    t0 = typed(out[0])
    assert "Method" in t0.get("FlowMix", set())
    assert "Dataset" in t0.get("CIFAR-10", set())
    t2 = typed(out[2])
    assert "Dataset" in t2.get("CoNLL-2003", set()) or "Dataset" in t2.get("CoNLL-2003 dataset", set())
    # Key concepts: KeyBERT salience, best first.
    kc = out[0].key_concepts
    assert kc and all(0.0 <= s <= 1.0 for _, s in kc)
    assert [s for _, s in kc] == sorted((s for _, s in kc), reverse=True)


@pytest.mark.slow
def test_modern_names_come_out_with_their_types(ex):
    text = ("We introduce Policy Mirror Descent (PMD) variants for offline reinforcement learning. "
            "Experiments on MinAtar and the Procgen suite show that PMD outperforms PPO. "
            "We further fine-tune Llama-3.1 and Qwen2.5 models on MIMIC-III and report results on "
            "two retrieval benchmarks, i.e., Flickr30K and MS-COCO. Our code builds on KIVI.")
    t = typed(next(ex.extract([paper(text)])))
    assert "Method" in t.get("Policy Mirror Descent", set()) | t.get("Policy Mirror Descent (PMD)", set())
    assert "Method" in t["PMD"]
    assert "Method" in t["Llama-3.1"]
    assert "Dataset" in t["MinAtar"]
    assert "Dataset" in t["MIMIC-III"]
    assert "Dataset" in t["Flickr30K"] and "Dataset" in t["MS-COCO"]
    assert "Method" in t["KIVI"]


@pytest.mark.slow
def test_seed_smoke_checks(ex):
    seeds = (ROOT / "seeds" / "iclr2025_abstracts.txt").read_text(encoding="utf-8").split("\n\n")[1:]
    lol = next(s for s in seeds if "Latent Optimal Linear combinations" in s)
    think = next(s for s in seeds if "we propose ThinK" in s)
    a, b = ex.extract([paper(lol, "lol"), paper(think, "think")])
    ta, tb = typed(a), typed(b)
    assert "Method" in ta.get("LOL", set())
    for name in ("LLaMA", "KIVI"):
        assert "Method" in tb.get(name, set()), name
    assert "Method" in tb.get("Mistral", set()) | tb.get("Mistral models", set())  # resolution drops "models"


@pytest.mark.slow
def test_the_progress_bar_counts_every_abstract_when_the_caller_stops_at_the_last(capsys):
    """kg build pairs papers with their extractions (zip), so the generator is never resumed after
    the last one: the bar must still end at the total, not a batch behind."""
    papers = [paper("We train BERT on SQuAD.", "a"), paper("We propose KIVI for caching.", "b")]
    pairs = list(zip(papers, Extractor(use_keybert=False).extract(papers, progress=True)))
    assert [e.paper_id for _, e in pairs] == ["a", "b"]
    bar = capsys.readouterr().err.split("\r")[-1]
    assert "2/2" in bar, bar

@pytest.mark.slow
def test_batching_and_workers_do_not_change_output():
    """Batch size and --workers are speed settings only."""
    seeds = (ROOT / "seeds" / "iclr2025_abstracts.txt").read_text(encoding="utf-8").split("\n\n")[1:6]
    papers = [paper(s.strip(), str(i)) for i, s in enumerate(seeds)]
    one = [e.mentions for e in Extractor(use_keybert=False, batch_size=1).extract(papers)]
    many = [e.mentions for e in Extractor(use_keybert=False, batch_size=64).extract(papers)]
    assert one == many
    # Two spaCy processes (the tagger included) give the very same extractions, in input order.
    # (a generator: a short list is run in one process)
    import torch

    threads = torch.get_num_threads()
    two = list(Extractor(use_keybert=True, workers=2).extract(p for p in papers))
    # This process ran its part (the document vectors) on one thread beside the workers, and has
    # its threads back once they are done.
    assert torch.get_num_threads() == threads
    assert two == list(Extractor(use_keybert=True, workers=1).extract(papers))
    assert [e.paper_id for e in two] == [p.id for p in papers]


@pytest.mark.slow
def test_modern_gold_partial_f1():
    """Hand-annotated modern-ML abstracts (written for this test, not the seeds): 0.794 partial micro F1
    today (docs/extraction.md); a drop of more than ~4 points fails."""
    from kg.extract.evaluation import evaluate

    report = evaluate(ROOT / "tests" / "data" / "modern_gold.jsonl", Extractor(use_keybert=False), "partial")
    assert report["documents"] == 6
    assert report["micro"]["f1"] >= 0.75, report


@pytest.mark.slow
def test_independent_modern_gold_partial_f1():
    """14 modern-ML abstracts written and annotated by a session that never saw the extractor
    (conventions: tests/data/modern_gold_independent.md). Issue 3's bar for such abstracts is 0.50."""
    from kg.extract.evaluation import evaluate

    report = evaluate(ROOT / "tests" / "data" / "modern_gold_independent.jsonl", Extractor(use_keybert=False),
                      "partial")
    assert report["documents"] == 14
    assert report["micro"]["f1"] >= 0.70, report  # 0.741 today


BENCH = ROOT.parent / "shared" / "bench" / "scierc"


@pytest.mark.slow
@pytest.mark.skipif(not (BENCH / "dev.json").exists(), reason="../shared/bench/scierc is absent (not a developer machine)")
def test_scierc_dev_does_not_regress():
    """docs/extraction.md reports 0.636 exact / 0.745 partial on dev; a drop of more than ~2 points fails."""
    from kg.extract.evaluation import evaluate_many

    r = evaluate_many(BENCH / "dev.json", Extractor(use_keybert=False))
    assert r["exact"]["documents"] == 50
    assert r["exact"]["micro"]["f1"] >= 0.61, r["exact"]["micro"]
    assert r["partial"]["micro"]["f1"] >= 0.72, r["partial"]["micro"]


def test_phrase_vectors_survive_a_full_cache():
    """A build of tens of thousands of abstracts fills the phrase cache: a call that needs a cached
    phrase and brings enough new ones to evict it still gets every vector (it once raised KeyError
    at about 50,000 abstracts), and the cache stays within its size, keeping the phrases used last."""
    import numpy as np

    from kg.extract.keyphrases import PhraseEmbedder

    class Backend:
        calls: list[list[str]] = []

        def embed(self, texts):
            self.calls.append(list(texts))
            return np.array([[len(t), 1.0] for t in texts])

    class KeyBERT:
        model = Backend()

    emb = PhraseEmbedder(KeyBERT(), cache_size=3)
    emb.phrases(["a", "bb"])
    emb.phrases(["ccc", "a"])  # "a" used again: "bb" is now the one used longest ago
    out = emb.phrases(["a", "dddd", "eeeee", "ffffff"])  # three new ones evict "a" itself
    assert set(out) == {"a", "dddd", "eeeee", "ffffff"}
    for p, v in out.items():
        assert np.allclose(v, np.array([len(p), 1.0]) / np.linalg.norm([len(p), 1.0]))
    assert len(emb.cache) == 3 and list(emb.cache) == ["dddd", "eeeee", "ffffff"]
    assert KeyBERT.model.calls == [["a", "bb"], ["ccc"], ["dddd", "eeeee", "ffffff"]]
    # Asked again, a phrase the cache still holds is not embedded again.
    emb.phrases(["eeeee"])
    assert KeyBERT.model.calls[-1] == ["dddd", "eeeee", "ffffff"]
