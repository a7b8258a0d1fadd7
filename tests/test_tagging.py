"""BIO tags and their decoding, acronym definitions, and the steps after the tagger (no model needed)."""
import numpy as np
import pytest

from kg.text.acronyms import definitions, stands_for
from kg.extract import bio
from kg.extract.postprocess import drop_generic, is_generic
from kg.records import Extraction, Mention

TAGS = bio.TagSet(("Method", "Task"))


def test_gold_spans_become_begin_and_inside_tags_of_the_pieces_they_cover():
    # "we use graph neural networks for link prediction", pieces with their characters
    offsets = [(0, 0), (0, 2), (3, 6), (7, 12), (13, 19), (20, 28), (29, 32), (33, 37), (38, 48), (0, 0)]
    spans = [(7, 28, "Method"), (33, 48, "Task")]
    tags = [TAGS.tags[i] if i >= 0 else "-" for i in bio.encode(offsets, spans, TAGS)]
    assert tags == ["-", "O", "O", "B-Method", "I-Method", "I-Method", "O", "B-Task", "I-Task", "-"]


def test_adjacent_spans_each_begin_with_b():
    offsets = [(0, 4), (5, 9)]
    tags = bio.encode(offsets, [(0, 4, "Method"), (5, 9, "Method")], TAGS)
    assert [TAGS.tags[i] for i in tags] == ["B-Method", "B-Method"]


def test_nested_gold_keeps_the_preferred_type_then_the_longer_span():
    spans = [(0, 25, "Task"), (0, 4, "Method"), (30, 40, "Method"), (30, 35, "Task")]
    assert bio.non_overlapping(spans, prefer=("Method",)) == [(0, 4, "Method"), (30, 40, "Method")]
    assert bio.non_overlapping(spans) == [(0, 25, "Task"), (30, 40, "Method")]


def _logp(rows):
    p = np.array(rows, dtype=float) + 1e-6
    return np.log(p / p.sum(axis=1, keepdims=True))


def test_decoding_never_starts_a_span_with_inside():
    # Argmax would read O, I-Task, I-Task: an entity with no beginning. The best allowed sequence
    # starts it with B-Task.
    assert TAGS.tags == ("O", "B-Method", "I-Method", "B-Task", "I-Task")
    logp = _logp([[0.9, 0.02, 0.02, 0.03, 0.03], [0.1, 0.05, 0.05, 0.35, 0.45], [0.1, 0.05, 0.05, 0.05, 0.75]])
    spans = bio.decode(logp, [(0, 3), (4, 8), (9, 12)], TAGS)
    assert [(s.start, s.end, s.label) for s in spans] == [(4, 12, "Task")]
    assert 0 < spans[0].score <= 1


def test_decoding_a_clear_sequence_gives_its_spans_with_their_characters():
    order = ["O", "B-Method", "I-Method", "B-Task", "I-Task"]
    seq = ["B-Method", "I-Method", "O", "B-Task"]
    logp = _logp([[0.96 if t == want else 0.01 for t in order] for want in seq])
    spans = bio.decode(logp, [(0, 5), (5, 9), (10, 13), (14, 20)], TAGS)
    assert [(s.start, s.end, s.label) for s in spans] == [(0, 9, "Method"), (14, 20, "Task")]
    assert bio.decode(np.zeros((0, 5)), [], TAGS) == []


@pytest.mark.parametrize("text,acro,long_form", [
    ("We study Long Form (LF) here.", "LF", "Long Form"),
    ("We study LF (Long Form) here.", "LF", "Long Form"),
    ("We study LF, or Long Form, here.", "LF", "Long Form"),
    ("LF, which stands for Long Form, is used.", "LF", "Long Form"),
    ("The Long Form, LF, is used.", "LF", "Long Form"),
    ("Fine-tuning with Low-Rank Adaptation (LoRA) is cheap.", "LoRA", "Low-Rank Adaptation"),
    ("We use Reinforcement Learning from Human Feedback (RLHF) to align.", "RLHF",
     "Reinforcement Learning from Human Feedback"),
    ("Large language models (LLMs) are used.", "LLM", "Large language models"),
    ("the Karush–Kuhn–Tucker (KKT) conditions", "KKT", "Karush–Kuhn–Tucker"),
    # after the acronym, a later letter drawn from inside a word must not end the long form early
    ("We use LoRA (Low-Rank Adaptation) here.", "LoRA", "Low-Rank Adaptation"),
    ("We train GPT (Generative Pre-trained Transformer) models.", "GPT", "Generative Pre-trained Transformer"),
    ("SGD (stochastic gradient descent) converges.", "SGD", "stochastic gradient descent"),
    ("BERT (Bidirectional Encoder Representations from Transformers) reads.", "BERT",
     "Bidirectional Encoder Representations from Transformers"),
])
def test_acronym_definitions_in_the_forms_abstracts_write(text, acro, long_form):
    assert [(d.acronym, d.long_form) for d in definitions(text)] == [(acro, long_form)]
    d = definitions(text)[0]
    assert text[d.long_span[0]:d.long_span[1]] == long_form


@pytest.mark.parametrize("text", [
    "Results (Table 1) show gains.", "We train BERT (Devlin et al.) models.", "On ImageNet (IN), we win.",
    "using GPT-4, a model, we", "the loss (ours) is lower",
])
def test_a_parenthesis_or_apposition_that_defines_nothing_is_no_definition(text):
    assert definitions(text) == []


def test_an_acronym_stands_for_words_it_gives_every_initial_of():
    assert stands_for("PMD", ["Policy", "Mirror", "Descent"])
    assert stands_for("RLHF", ["Reinforcement", "Learning", "from", "Human", "Feedback"])
    assert not stands_for("PMD", ["the", "Policy", "Mirror", "Descent"])  # a word without its letter
    assert not stands_for("PMD", ["Policy", "Mirror"])


@pytest.mark.parametrize("text", ["applications", "downstream tasks", "our method", "general-purpose method",
                                  "real-world tasks", "the proposed approach", "existing models", "these datasets"])
def test_generic_phrases_are_never_mentions(text):
    assert is_generic(text)
    m = Mention(text, "Task", 0, len(text), text, 0.9)
    assert drop_generic(None, [m]) == []


@pytest.mark.parametrize("text", ["ImageNet", "downstream task adaptation", "graph neural networks", "GPT-3",
                                  "Flow Matching", "question answering"])
def test_named_or_specific_phrases_are_kept(text):
    assert not is_generic(text)


class _Text:
    """What tidy_edges reads of a parsed abstract: its text."""

    def __init__(self, text: str) -> None:
        self.text = text


@pytest.mark.parametrize("text,phrase,expected", [
    ("the state space model (SSM) works", "state space model (", "state space model"),
    ("we use isPPA) here", "isPPA)", "isPPA"),
    ("an LLM) pre-training (PT) step", "LLM) pre-training (PT)", "pre-training (PT)"),
    ("the fusion of models", "fusion of", "fusion"),
    ("the stochastic proximal point algorithm (SPPA) wins", "stochastic proximal point algorithm (SPPA)",
     "stochastic proximal point algorithm (SPPA)"),
    ("image- and video-based data", "image-", None),
    ("a model\n( x", "model\n(", "model"),
])
def test_spans_cut_inside_a_phrase_are_mended_at_their_edges(text, phrase, expected):
    from kg.extract.postprocess import tidy_edges

    at = text.index(phrase)
    out = tidy_edges(_Text(text), [Mention(phrase, "Method", at, at + len(phrase), text, 0.5)])
    assert [m.text for m in out] == ([expected] if expected else [])
    assert all(text[m.start:m.end] == m.text for m in out)


def test_a_mention_that_is_one_adjective_is_dropped_by_default():
    import spacy

    from kg.extract.models import SPACY_MODEL
    from kg.extract.postprocess import DEFAULT_STEPS, drop_lone_adjectives

    doc = spacy.load(SPACY_MODEL, exclude=["ner", "lemmatizer"])("This result is fundamental for robust parsing with BERT.")

    def mention(word, etype):
        at = doc.text.index(word)
        return Mention(word, etype, at, at + len(word), doc.text, 0.9)

    kept = drop_lone_adjectives(doc, [mention("fundamental", "Task"), mention("robust parsing", "Task"),
                                      mention("parsing", "Task"), mention("BERT", "Method")])
    assert [m.text for m in kept] == ["robust parsing", "parsing", "BERT"]
    assert "drop_lone_adjectives" in DEFAULT_STEPS


def test_a_mention_cut_short_of_an_acronyms_long_form_takes_the_whole_long_form():
    from kg.extract.postprocess import DEFAULT_STEPS, bound_by_acronyms
    from kg.concepts.resolve import resolve
    from tests.helpers import paper

    text = "The inexact stochastic proximal point algorithm (isPPA) is popular. We improve isPPA."
    p = paper("a", text)

    def mention(words, nth=0):
        at = [i for i in range(len(text)) if text.startswith(words, i)][nth]
        return Mention(words, "Method", at, at + len(words), text, 0.9)

    # The tagger's reading: the first word apart, the rest of the long form, the acronym twice.
    found = [mention("inexact"), mention("stochastic proximal point algorithm"), mention("isPPA"),
             mention("isPPA", 1)]
    out = bound_by_acronyms(_Text(text), found)
    assert [m.text for m in out] == ["inexact stochastic proximal point algorithm", "isPPA", "isPPA"]
    assert all(text[m.start:m.end] == m.text for m in out)
    # So the long form and its acronym are one entity, and no "inexact" entity is left.
    r = resolve([p], [Extraction(paper_id="a", mentions=tuple(out))])
    assert len(r.entities) == 1
    assert set(next(iter(r.entities.values())).aliases) == {"inexact stochastic proximal point algorithm", "isPPA"}
    assert "bound_by_acronyms" in DEFAULT_STEPS


@pytest.mark.parametrize("text,words", [
    ("The stochastic proximal point algorithm (SPPA) wins.", "stochastic proximal point algorithm"),  # the long form
    ("A proximal point algorithm converges.", "proximal point algorithm"),  # no acronym defined
    ("The inexact proximal point (isPPA) step wins.", "step"),  # ends elsewhere
])
def test_a_mention_that_is_a_long_form_or_beside_none_is_kept_as_it_is(text, words):
    from kg.extract.postprocess import bound_by_acronyms

    at = text.index(words)
    m = Mention(words, "Method", at, at + len(words), text, 0.9)
    assert bound_by_acronyms(_Text(text), [m]) == [m]
