"""The extractor: interface, mention invariants, rule cues on modern names, smoke checks."""
from pathlib import Path

import pytest

from kg.extract import Extractor, models, recognizers, rules
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


# ---------------------------------------------------------------- rules (no models)
@pytest.mark.parametrize("word,strength", [
    ("MinAtar", 2), ("LLaMA", 2), ("Llama-3.1", 2), ("Flickr30K", 2), ("KIVI", 2), ("MIMIC-III", 2),
    ("GPT-4o", 2), ("MT-Bench", 2), ("isPPA", 2), ("NPG", 1), ("LLMs", 1),
    ("Model", 0), ("model", 0), ("GPU", 0), ("III", 0), ("human-AI", 0), ("text-to-3D", 0), ("REward", 0),
    # hyphenated: a strong part makes a name; capitalised words or short acronyms alone do not
    ("MS-COCO", 2), ("BERT-base", 2), ("DALL-E", 2), ("RoBERTa-large", 2),
    ("English-Spanish", 1), ("AS-closed", 1), ("Qwen-VL", 1), ("N-best", 0), ("T-cell", 0),
    ("Fine-tuning", 0), ("Large-scale", 0), ("In-context", 0), ("Parameter-efficient", 0),
])
def test_name_shapes(word, strength):
    assert rules.name_strength(word) == strength


def test_acronym_definitions():
    text = "We study Policy Mirror Descent (PMD) and the natural policy gradient (NPG) method, not a (B)."
    pairs = [(text[a:b], text[c:d]) for (a, b), (c, d) in rules.acronym_pairs(text)]
    assert pairs == [("Policy Mirror Descent", "PMD"), ("natural policy gradient", "NPG")]


def test_phrase_type_by_head():
    assert rules.phrase_type("a query-dependent cache pruning method") == "Method"
    assert rules.phrase_type("the MinAtar suite") == "Dataset"
    assert rules.phrase_type("visual question answering") == "Task"
    assert rules.phrase_type("top-1 accuracy") == "Metric"
    assert rules.phrase_type("blue sky") is None


# ---------------------------------------------------------------- the extractor
def test_construction_is_cheap_and_version_is_a_cache_key():
    models._load_nlp.cache_clear()
    a = Extractor(use_keybert=True)
    assert models._load_nlp.cache_info().currsize == 0  # nothing loaded yet
    assert a.version == Extractor(use_keybert=True).version
    assert a.version != Extractor(use_keybert=False).version
    assert isinstance(a.version, str) and len(a.version) >= 8


def test_head_nouns_type_learned_mentions_unless_the_head_is_ambiguous():
    from kg.extract.extractor import _types_by_head
    from kg.records import Mention

    def m(text: str, etype: str, source: str = "ner") -> Mention:
        return Mention(text, etype, 0, len(text), text, 0.7, source)

    got = _types_by_head([m("image classification", "Dataset"), m("parsing system", "Task"),
                          m("Korean news corpus", "Method"), m("offline reinforcement learning", "Method"),
                          m("dependency parsing", "Method"), m("MinAtar suite", "Method", "rule:cue")])
    assert [x.type for x in got] == ["Task", "Method", "Dataset", "Method", "Method", "Method"]


def test_on_after_a_topic_noun_is_no_evaluation_cue():
    nlp = models.load_nlp()

    def cued(text: str) -> dict[str, str]:
        return {text[c.start:c.end]: c.type for c in rules.find_candidates(nlp(text))}

    assert cued("Our experiments on MinAtar and Atari show gains in training.") == {
        "MinAtar": "Dataset", "Atari": "Dataset"}
    assert "RNNs" not in cued("We train a transformer on parity, extending the work on RNNs by prior authors.")


def test_a_proper_noun_before_a_dataset_head_is_a_dataset():
    nlp = models.load_nlp()

    def cued(text: str) -> dict[str, str]:
        return {text[c.start:c.end]: c.type for c in rules.find_candidates(nlp(text))}

    # "on the X benchmark" with a plain capitalised word: no name shape, the head says what it is.
    assert cued("We test it on the Atari benchmark.") == {"Atari": "Dataset"}
    # A method head after such a word is not enough ("the Markov model" is no Method "Markov").
    assert cued("We fit the Markov model to the data.") == {}
    assert cued("Ablations on the Gaussian data show gains.") == {}  # "data" only describes


def test_task_phrases_need_a_noun_before_a_trusted_task_head():
    nlp = models.load_nlp()
    text = "We study word sense disambiguation, a challenging task, and dependency parsing."
    cands = {text[c.start:c.end]: (c.type, c.source) for c in rules.find_candidates(nlp(text))}
    assert cands.get("word sense disambiguation") == ("Task", "rule:task-head")
    assert "challenging task" not in cands  # only rated, not named
    assert "dependency parsing" not in cands  # "parsing" heads methods as often as tasks


def test_extracting_does_not_import_torch_or_transformers():
    """A command that extracts starts in about 3 s: kg's pipelines run no torch code, and thinc's and
    KeyBERT's optional imports of torch, transformers and sentence-transformers cost 3.5 s more."""
    import subprocess
    import sys

    code = ("import sys; from kg.extract import Extractor; from kg.records import Paper; "
            "t = 'We propose LoRA for fine-tuning Llama-3.1 on MMLU.'; "
            "ex = next(iter(Extractor(use_keybert=True).extract([Paper(id='p', title='p', abstract=t, text=t)]))); "
            "assert ex.mentions and ex.key_concepts; "
            "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
    # Hidden only while spaCy and KeyBERT are imported: torch itself still imports afterwards.
    code += "; import torch; print(torch.__version__)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


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
def test_modern_names_typed_by_general_cues(ex):
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


def test_an_acronym_long_form_is_kept_whole():
    # The recognizer reads only "Karush" (the dashes split the name); the letters K, K, T fix the
    # edges. (Other recognizers placed beside it may not see the name at all; this is about one.)
    first = models.Recognition(dirs=(models.MODEL_DIR / "ner-0",))
    text = "We derive the Karush–Kuhn–Tucker (KKT) conditions of the problem and solve them exactly."
    doc = models.load_nlp(first)(text)
    assert [s.text for s in doc.spans[recognizers.KEY]] == ["Karush"]  # what the rule below has to mend
    t = typed(next(Extractor(use_keybert=False, recognition=first).extract([paper(text)])))
    assert "Karush" not in t
    assert t["Karush–Kuhn–Tucker"] == t["KKT"] and len(t["KKT"]) == 1


def test_the_outside_penalty_lowers_only_the_outside_score_and_changes_the_version():
    def output_bias(penalty):
        recognition = models.Recognition(outside_penalty=penalty)
        ner = models.recognizers_of(models.load_nlp(recognition))[0]
        names = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
        return (names, ner.model.get_ref("upper").get_param("b").copy(),
                Extractor(use_keybert=False, recognition=recognition).version)

    names, plain, plain_version = output_bias(0.0)
    _, penalised, penalised_version = output_bias(1.5)
    moved = {names[i]: float(penalised[i] - plain[i]) for i in range(len(names)) if penalised[i] != plain[i]}
    assert set(moved) == {"O"} and moved["O"] == pytest.approx(-1.5, abs=1e-5)
    assert penalised_version != plain_version  # a cached extraction made without it is not reused


def test_the_recognizer_drops_the_labels_it_was_not_trained_on_and_finds_the_same_spans():
    def actions(nlp):
        moves = models.recognizers_of(nlp)[0].moves
        return [moves.get_class_name(i) for i in range(moves.n_moves)]

    def spans(nlp, texts):
        return [[(s.start, s.end, s.label_) for s in d.spans[recognizers.KEY]] for d in nlp.pipe(texts)]

    every_label = models.load_nlp(models.Recognition(labels=None))
    trained = models.load_nlp()
    assert "B-PERSON" in actions(every_label) and "B-Method" in actions(every_label)
    assert {a.split("-", 1)[1] for a in actions(trained) if "-" in a} - {""} <= models.TRAINED_LABELS
    assert len(actions(trained)) < len(actions(every_label)) and "B-Method" in actions(trained)
    seed = (ROOT / "seeds" / "iclr2025_abstracts.txt").read_text(encoding="utf-8").split("\n\n")[1:]
    found = spans(trained, seed)
    assert sum(map(len, found)) > 100 and found == spans(every_label, seed)


def test_a_capitalised_hyphenated_word_is_a_name_inside_a_sentence_only(ex):
    text = ("Fine-tuning is costly. Large-scale pretraining helps. Zero-shot transfer is weak. "
            "Our method improves the error on Peptides-struct and the precision on Peptides-func.")
    t = typed(next(ex.extract([paper(text)])))
    assert not {"Fine-tuning", "Large-scale", "Zero-shot"} & set(t)
    assert t["Peptides-struct"] == t["Peptides-func"] == {"Dataset"}


def test_a_name_introduced_as_a_kind_of_thing_takes_that_type(ex):
    # "a dataset called X (AC)": the noun before "called" types the name and its acronym, and a
    # recognizer span that took only the end of the long form gives way to the whole long form.
    text = ("To close this gap, we build a large-scale dataset called Multi-target and Multi-granularity "
            "Reasoning (MMR). Experiments on MMR follow. We also release a benchmark named ToolBench "
            "and train a model called FastNet on it, then a new suite, called AgentQuest.")
    t = typed(next(ex.extract([paper(text)])))
    assert t["Multi-target and Multi-granularity Reasoning"] == t["MMR"] == {"Dataset"}
    assert t["ToolBench"] == t["AgentQuest"] == {"Dataset"} and t["FastNet"] == {"Method"}


@pytest.mark.slow
def test_seed_smoke_checks(ex):
    seeds = (ROOT / "seeds" / "iclr2025_abstracts.txt").read_text(encoding="utf-8").split("\n\n")[1:]
    lol = next(s for s in seeds if "Latent Optimal Linear combinations" in s)
    think = next(s for s in seeds if "we propose ThinK" in s)
    a, b = ex.extract([paper(lol, "lol"), paper(think, "think")])
    ta, tb = typed(a), typed(b)
    assert "Method" in ta.get("LOL", set())
    for name in ("LLaMA", "Mistral", "KIVI", "ThinK"):
        assert "Method" in tb.get(name, set()), name


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
    # Two spaCy processes (recognizers included) give the very same extractions, in input order.
    # (a generator: a short list is run in one process)
    two = list(Extractor(use_keybert=True, workers=2).extract(p for p in papers))
    assert two == list(Extractor(use_keybert=True, workers=1).extract(papers))
    assert [e.paper_id for e in two] == [p.id for p in papers]


@pytest.mark.slow
def test_modern_gold_partial_f1():
    """Hand-annotated modern-ML abstracts (written for this test, not the seeds): partial micro F1 >= 0.55."""
    from kg.evaluate import evaluate

    report = evaluate(ROOT / "tests" / "data" / "modern_gold.jsonl", Extractor(use_keybert=False), "partial")
    assert report["documents"] == 6
    assert report["micro"]["f1"] >= 0.55, report


@pytest.mark.slow
def test_independent_modern_gold_partial_f1():
    """14 modern-ML abstracts written and annotated by a session that never saw the extractor
    (conventions: tests/data/modern_gold_independent.md). Issue 3's bar for such abstracts is 0.50."""
    from kg.evaluate import evaluate

    report = evaluate(ROOT / "tests" / "data" / "modern_gold_independent.jsonl", Extractor(use_keybert=False),
                      "partial")
    assert report["documents"] == 14
    assert report["micro"]["f1"] >= 0.55, report


def test_span_typer_second_opinion():
    from kg.extract import typer
    from kg.extract.models import load_nlp

    model = typer.load_typer()
    assert model is not None and set(model.classes) >= {"Method", "Task", "Dataset", "Metric", "NONE"}
    doc = load_nlp()("We train a conditional random field for named entity recognition and report accuracy.")
    spans = [("conditional random field", "Method"), ("named entity recognition", "Task"), ("accuracy", "Metric")]
    infos = [typer.span_info(doc, doc.text.index(t), doc.text.index(t) + len(t)) for t, _ in spans]
    assert infos[0][:4] == ("conditional random field", "field", "a", "for")
    p = model.proba(infos)
    assert p.shape == (3, len(model.classes))
    assert abs(float(p.sum(axis=1).max()) - 1) < 1e-4
    for row, (_, want) in list(zip(p, spans))[1:]:
        assert model.classes[int(row.argmax())] == want


BENCH = ROOT.parent / "shared" / "bench" / "scierc"


@pytest.mark.slow
@pytest.mark.skipif(not (BENCH / "dev.json").exists(), reason="../shared/bench/scierc is absent (not a developer machine)")
def test_scierc_dev_does_not_regress():
    """docs/extraction.md reports 0.615 exact / 0.733 partial on dev; a drop of more than ~2 points fails."""
    from kg.evaluate import evaluate_many

    r = evaluate_many(BENCH / "dev.json", Extractor(use_keybert=False))
    assert r["exact"]["documents"] == 50
    assert r["exact"]["micro"]["f1"] >= 0.59, r["exact"]["micro"]
    assert r["partial"]["micro"]["f1"] >= 0.70, r["partial"]["micro"]


@pytest.mark.slow
def test_ner_spans_are_cut_back_to_the_name():
    """A recognizer span that ran into a clause or stopped on a preposition keeps only the name;
    a bare model size is no entity."""
    from spacy.tokens import Span

    from kg.extract.extractor import _trim
    from kg.extract.models import load_nlp

    nlp = load_nlp()

    def trimmed(text: str, phrase: str):
        doc = nlp(text)
        a = text.index(phrase)
        sp = doc.char_span(a, a + len(phrase), label="Method")
        out = _trim(Span(doc, sp.start, sp.end, label="Method"))
        return None if out is None else out.text

    assert trimmed("We show that REDS facilitates generalization to new tasks.",
                   "REDS facilitates generalization") == "REDS"
    assert trimmed("A KL penalty between the two policies is added.", "KL penalty between") == "KL penalty"
    assert trimmed("We evaluate Llama models at 8B/405B scale.", "8B/405B") is None
    assert trimmed("We evaluate the Llama-3.1 model.", "Llama-3.1 model") == "Llama-3.1 model"


def test_several_recognizers_decode_as_one_and_alone_each_is_spacys_own_decode():
    """The averaged decode (kg/extract/recognizers.py) over copies of one recognizer is that
    recognizer's own greedy decode: its loop, not spaCy's, picks every action."""
    seed = (ROOT / "seeds" / "iclr2025_abstracts.txt").read_text(encoding="utf-8").split("\n\n")[1:]
    shipped = models.ner_dirs()

    def spans(dirs):
        nlp = models.load_nlp(models.Recognition(dirs=tuple(dirs)))
        assert len(models.recognizers_of(nlp)) == len(dirs)
        return [[(s.start, s.end, s.label_) for s in d.spans[recognizers.KEY]] for d in nlp.pipe(seed)]

    first = shipped[0]
    alone = spans([first])
    assert sum(map(len, alone)) > 100
    assert spans([first, first, first]) == alone
    if len(shipped) > 1:  # the shipped recognizers do differ: averaging them changes some spans
        assert spans(shipped) != alone


def test_recognizers_with_different_labels_are_refused():
    from kg.extract.recognizers import Recognizers

    class Moves:
        def __init__(self, names):
            self.names, self.n_moves = names, len(names)

        def get_class_name(self, i):
            return self.names[i]

    class Ner:
        def __init__(self, names):
            self.moves = Moves(names)

    both = Recognizers()
    both.set_recognizers([Ner(["O", "B-Method", "U-Task"]), Ner(["U-Task", "O", "B-Method"])])
    assert [list(c) for c in both._columns] == [[0, 1, 2], [1, 2, 0]]  # each one's column per action
    with pytest.raises(ValueError, match="different labels"):
        Recognizers().set_recognizers([Ner(["O", "B-Method"]), Ner(["O", "B-Task"])])
