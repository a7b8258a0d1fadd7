"""RIS, as reference managers and publishers export it."""
from kg.corpus import read_corpus
from tests.helpers import A2, write


def test_ris_entries_become_papers(tmp_path):
    ris = ("TY  - JOUR\nTI  - Policy mirror descent\nAU  - Doe, Jane\nAU  - Roe, Richard\nPY  - 2024/05/17/\n"
           f"T2  - ICLR\nAB  - {A2}\nKW  - reinforcement learning\nUR  - https://x.org/2\nER  - \n\n"
           "TY  - CONF\nTI  - Without abstract\nER  - \n")
    corpus = read_corpus(write(tmp_path, "refs.ris", ris))
    (p,) = corpus.papers
    assert (p.title, p.year, p.venue, p.url) == ("Policy mirror descent", 2024, "ICLR", "https://x.org/2")
    assert p.authors == ("Doe, Jane", "Roe, Richard") and p.keywords == ("reinforcement learning",)
    assert corpus.warnings == [f"{tmp_path / 'refs.ris'}:12: no abstract; skipped"]


def test_a_word_broken_across_two_abstract_lines_of_a_ris_file_is_whole(tmp_path):
    ris = "TY  - JOUR\nTI  - One\nAB  - We propose a new archi-\nAB  - tecture for parsing.\nER  - \n"
    (p,) = read_corpus(write(tmp_path, "refs.ris", ris)).papers
    assert p.text == "We propose a new architecture for parsing."


def test_ris_entries_stand_alone(tmp_path):
    # A publisher's header, an entry without its "ER" line, an abstract over two AB lines.
    ris = ("Provider: Some Publisher\nDatabase: Journals\n\n"                          # 1-3
           "TY  - JOUR\nTI  - One\nAB  - We propose FastNet for parsing.\n\n"           # 4-7
           "TY  - JOUR\nTI  - Two\nAB  - We study dependency parsing of long documents\n"   # 8-10
           "AB  - with transformers.\nER  - \n")                                         # 11-12
    corpus = read_corpus(write(tmp_path, "refs.ris", ris))
    one, two = corpus.papers
    assert (one.title, one.source) == ("One", f"{tmp_path / 'refs.ris'}:4")
    assert (two.title, two.source) == ("Two", f"{tmp_path / 'refs.ris'}:8")
    assert two.abstract == "We study dependency parsing of long documents\nwith transformers."  # as in the file
    assert two.text == "We study dependency parsing of long documents with transformers."
