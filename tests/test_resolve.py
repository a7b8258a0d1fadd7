"""Entity resolution: one node per real-world entity, versions kept apart."""
import pytest

from kg.resolve import normalize, resolve, singular
from tests.helpers import extraction, paper, small_corpus


@pytest.mark.parametrize("word,expected", [
    ("models", "model"), ("LLMs", "LLM"), ("policies", "policy"), ("analysis", "analysis"),
    ("bias", "bias"), ("losses", "loss"), ("corpus", "corpus"), ("GAN", "GAN"), ("series", "series"),
])
def test_singular(word, expected):
    assert singular(word) == expected


def test_normalize_folds_case_determiners_plurals_and_hyphen_spacing():
    assert normalize("The Large Language Models") == normalize("large language model")
    assert normalize("Flow - Matching") == "flow-matching"
    assert normalize("Llama-3.1") != normalize("LLaMA")


def test_acronym_and_long_form_merge_across_papers():
    papers, ex = small_corpus()
    r = resolve(papers, ex)
    pmd = r.entities["Method:policy mirror descent"]
    assert pmd.name == "Policy Mirror Descent"
    assert set(pmd.aliases) == {"Policy Mirror Descent", "PMD"}
    # p2 never defines PMD, yet its mention joins the node defined in p1.
    assert "Method:policy mirror descent" in r.mention_entity["p2"]
    assert set(r.entities["Method:natural policy gradient"].aliases) == {"Natural Policy Gradient", "NPG"}
    assert set(r.entities["Method:large language model"].aliases) == {"Large Language Models", "LLMs"}


def test_same_text_of_different_types_stays_apart():
    p = paper("a", "Transformer models solve the Transformer task.")
    r = resolve([p], [extraction(p, ("Transformer", "Method"), ("Transformer", "Task"))])
    assert set(r.entities) == {"Method:transformer", "Task:transformer"}


def test_versions_stay_apart():
    p = paper("a", "We fine-tune LLaMA and Llama-3.1 and Llama-2 models.")
    r = resolve([p], [extraction(p, ("LLaMA", "Method"), ("Llama-3.1", "Method"), ("Llama-2", "Method"))])
    assert len(r.entities) == 3


def test_a_parenthesis_that_is_not_an_acronym_does_not_merge():
    p = paper("a", "We train Gaussian processes (GP) and Deep Networks (XYZ) here.")
    r = resolve([p], [extraction(p, ("Gaussian processes", "Method"), ("GP", "Method"),
                                 ("Deep Networks", "Method"), ("XYZ", "Method"))])
    assert "Method:gaussian process" in r.entities and "Method:xyz" in r.entities
    assert set(r.entities["Method:gaussian process"].aliases) == {"Gaussian processes", "GP"}


def test_a_long_form_written_with_its_acronym_is_one_entity():
    p = paper("a", "Large Language Models (LLMs) are big. LLMs and a large language model help.")
    q = paper("b", "We study LLMs here.")
    r = resolve([p, q], [extraction(p, ("Large Language Models (LLMs)", "Method"), ("LLMs", "Method"),
                                    ("large language model", "Method")),
                         extraction(q, ("LLMs", "Method"))])
    assert set(r.entities) == {"Method:large language model"}
    assert normalize("Policy Mirror Descent (PMD)") == "policy mirror descent"
