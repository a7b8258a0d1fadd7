"""kg/text: one rule for each text decision, shared by every stage that makes it."""
from kg.text.acronyms import acronym_singular, definitions
from kg.text.names import name_strength
from kg.text.normalize import normalize, singular


def test_an_acronym_plural_is_its_acronym_everywhere():
    for plural, acro in (("LLMs", "LLM"), ("PLMs", "PLM"), ("LMs", "LM"), ("BiLSTMs", "BiLSTM")):
        assert acronym_singular(plural) == acro
        assert singular(plural) == acro and normalize(f"the {plural}") == acro.lower()
    # Ordinary words and names that end in "s" keep it here.
    assert [acronym_singular(w) for w in ("ResNets", "analyses", "bus", "GPT-4s")] == ["ResNets", "analyses", "bus", "GPT-4s"]
    (d,) = definitions("Pre-trained language models (PLMs) are large.")
    assert d.acronym == "PLM"
    assert name_strength("LLMs") == name_strength("LLM")


def test_a_two_or_four_in_an_acronym_stands_for_to_or_for():
    from kg.text.acronyms import definitions, stands_for

    assert stands_for("Seq2Seq", ["sequence-to-sequence"])
    assert stands_for("Text2SQL", ["text-to-SQL"])
    assert not stands_for("GPT2", ["generative", "pre-trained", "transformer"])
    assert [d.long_form for d in definitions("A sequence-to-sequence (Seq2Seq) model.")] == ["sequence-to-sequence"]
