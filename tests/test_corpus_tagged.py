"""Tagged exports: PubMed's MEDLINE and Web of Science's plain text."""

import pytest

from kg.corpus import read_corpus
from tests.helpers import A1, write


MEDLINE = """PMID- 38012345
OWN - NLM
DP  - 2023 Nov 28
TI  - Machine learning prediction of sepsis mortality: a
      retrospective cohort study.
LID - 10.1000/s.1 [doi]
AB  - We trained gradient boosted trees on the MIMIC-IV database to predict
      28-day mortality.
FAU - Smith, John
AU  - Smith J
JT  - Critical care medicine
OT  - sepsis

PMID- 38012346
TI  - Enzyme design.
AB  - We use AlphaFold2 to predict structures of designed enzymes.
AU  - Lee K
"""


WOS = """FN Clarivate Analytics Web of Science
VR 1.0
PT J
AU Smith, J
   Doe, J
AF Smith, John
   Doe, Jane
TI Deep learning for coral reef monitoring from
   underwater imagery
SO MARINE ECOLOGY
DE coral reefs; deep
   learning
AB We train a convolutional neural network on the ReefCloud dataset to
   classify benthic cover.
PY 2023
DI 10.1/reef
UT WOS:000111
ER

EF
"""


@pytest.mark.parametrize("name", ["pubmed.nbib", "pubmed-export.txt"])
def test_a_pubmed_export_is_read_record_by_record(tmp_path, name):
    one, two = read_corpus(write(tmp_path, name, MEDLINE)).papers
    assert (one.id, one.title, one.year, one.venue, one.url, one.authors, one.keywords) == (
        "38012345", "Machine learning prediction of sepsis mortality: a retrospective cohort study.", 2023,
        "Critical care medicine", "https://doi.org/10.1000/s.1", ("Smith, John",), ("sepsis",))
    assert one.abstract == "We trained gradient boosted trees on the MIMIC-IV database to predict 28-day mortality."
    assert (two.id, two.authors, two.source) == ("38012346", ("Lee K",), f"{tmp_path / name}:14")


def test_web_of_science_exports_are_read(tmp_path):
    (p,) = read_corpus(write(tmp_path, "savedrecs.txt", WOS)).papers
    assert (p.id, p.title, p.authors, p.year, p.venue, p.url, p.keywords) == (
        "WOS:000111", "Deep learning for coral reef monitoring from underwater imagery", ("Smith, John", "Doe, Jane"),
        2023, "MARINE ECOLOGY", "https://doi.org/10.1/reef", ("coral reefs", "deep learning"))
    assert p.abstract == "We train a convolutional neural network on the ReefCloud dataset to classify benthic cover."
    tab = "PT\tAF\tTI\tAB\tPY\tUT\nJ\tSmith, John; Doe, Jane\tReefs\t" + A1 + "\t2023\tWOS:1\n"
    (q,) = read_corpus(write(tmp_path, "savedrecs_tab.txt", tab)).papers
    assert (q.id, q.title, q.authors, q.year, q.abstract) == ("WOS:1", "Reefs", ("Smith, John", "Doe, Jane"), 2023, A1)


def test_characters_that_python_counts_as_line_breaks_stay_inside_tagged_records(tmp_path):
    # U+0085 (NEL) and U+2028 inside an abstract are characters of the text, not line ends:
    # nothing after them is lost, and later records keep their line numbers.
    text = MEDLINE.replace("boosted trees", "boosted\x85trees").replace("structures of", "structures\u2028of")
    one, two = read_corpus(write(tmp_path, "pubmed.nbib", text)).papers
    assert "MIMIC-IV database" in one.abstract and "designed enzymes" in two.abstract
    assert two.source == f"{tmp_path / 'pubmed.nbib'}:14"
    wos = WOS.replace("neural network", "neural\u2028network")
    (p,) = read_corpus(write(tmp_path, "savedrecs.txt", wos)).papers
    assert "ReefCloud dataset" in p.abstract


def test_classic_mac_line_ends_are_read_in_every_format(tmp_path):
    one, two = read_corpus(write(tmp_path, "pubmed.nbib", MEDLINE.replace("\n", "\r"))).papers
    assert (one.id, two.id) == ("38012345", "38012346")
