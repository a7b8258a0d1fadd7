"""Plain text: one abstract per paragraph, or per line; a header said and skipped."""

import pytest

from kg.corpus import read_corpus
from tests.helpers import A1, A2, LONG1, LONG2, SEED, write


def test_seed_list_has_19_papers_and_skips_its_header():
    corpus = read_corpus(SEED)
    assert len(corpus.papers) == 19
    assert corpus.name == "iclr2025_abstracts"
    assert not any("论文" in p.abstract for p in corpus.papers)
    assert corpus.papers[0].title == "LOL"
    assert [p.title for p in corpus.papers if p.title == "ThinK"] == ["ThinK"]


def test_text_without_header_keeps_first_abstract(tmp_path):
    corpus = read_corpus(write(tmp_path, "a.txt", f"{A1}\n\n{A2}\n"))
    assert [p.abstract for p in corpus.papers] == [A1, A2]


def test_one_abstract_per_line_without_blank_lines(tmp_path):
    corpus = read_corpus(write(tmp_path, "lines.txt", f"{LONG1}\n{LONG2}\n"))
    assert [p.abstract for p in corpus.papers] == [LONG1, LONG2]
    wrapped = "\n".join(LONG1[i:i + 70] for i in range(0, len(LONG1), 70))  # one paragraph, hard-wrapped
    assert len(read_corpus(write(tmp_path, "wrapped.txt", wrapped)).papers) == 1


def test_a_short_abstract_among_one_per_line_ones_stays_a_paper_of_its_own(tmp_path):
    short = "We fit a Bayesian state-space model to sea otter counts from SCUBA transects along the coast of California."
    corpus = read_corpus(write(tmp_path, "lines.txt", f"{LONG1}\n{short}\n{LONG2}\n"))
    assert [p.abstract for p in corpus.papers] == [LONG1, short, LONG2]
    # A title line above an abstract is no abstract of its own (nor is "Code: URL").
    titled = f"Do large language models write correct code?\n{LONG1}\n\nCode: https://github.com/x/y.\n{LONG2}\n"
    corpus = read_corpus(write(tmp_path, "titled.txt", titled))
    assert len(corpus.papers) == 2
    # A placeholder among many abstracts is a record of its own (and skipped as one).
    lines = [LONG1, LONG2, "No abstract available.", LONG1.replace("LOL", "MOM"), LONG2.replace("PMD", "QMD")]
    corpus = read_corpus(write(tmp_path, "na.txt", "\n".join(lines) + "\n"))
    assert len(corpus.papers) == 4 and corpus.warnings == [f"{tmp_path / 'na.txt'}:3: empty abstract; skipped"]


def test_one_abstract_per_line_may_end_in_a_url_and_hold_a_short_one(tmp_path):
    long_1 = " ".join([A1] * 5)
    long_2 = " ".join([A2] * 4) + " Code is at https://github.com/x/y"
    short = "We study parsing of long documents with a new model. It helps a lot on three benchmarks today."
    corpus = read_corpus(write(tmp_path, "lines.txt", "\n".join([long_1, long_2, short, long_1 + " Again."]) + "\n"))
    assert len(corpus.papers) == 4


@pytest.mark.parametrize("ending", [" …", " called “GraphFormer.”", " Code: github.com/x/y", " and more"])
def test_one_abstract_per_line_ends_in_many_ways(tmp_path, ending):
    long_1, long_2 = " ".join([A1] * 4), " ".join([A2] * 4)
    short = "We study parsing of long documents with a new model. It helps a lot on three benchmarks today."
    corpus = read_corpus(write(tmp_path, "lines.txt", "\n".join([long_1, long_2 + ending, short, long_1 + " X."]) + "\n"))
    assert len(corpus.papers) == 4


def test_a_long_line_ending_in_a_colon_stays_in_its_abstract(tmp_path):
    first = ("Large language models are increasingly used to annotate data for many tasks across the "
             "sciences, yet how far their labels can be trusted, and where they fail, remains unclear to "
             "most of their users, and we organise the questions this raises as follows:")
    second = ("whether the labels agree with those of experts, whether they stay the same when asked "
              "again, and whether they transfer to new domains.")
    corpus = read_corpus(write(tmp_path, "a.txt", f"{first}\n{second}\n\n{A2}\n"))
    assert len(first.split()) >= 40 and len(second.split()) >= 15 and len(corpus.papers) == 2


def test_a_first_abstract_in_chinese_or_ending_in_a_quote_is_no_header(tmp_path):
    zh = "我们提出了一种用于机器翻译的新型神经网络模型，并在多个基准数据集上取得了最好的结果"
    quoted = 'We call this model "FastNet."'
    for first in (zh, quoted):
        corpus = read_corpus(write(tmp_path, "f.txt", f"{first}\n\n{A1}\n"))
        assert [p.abstract for p in corpus.papers] == [first, A1]


def test_a_header_is_said_and_a_question_is_no_header(tmp_path):
    question = "Can deep learning predict protein stability from AlphaFold2 structures?"
    corpus = read_corpus(write(tmp_path, "q.txt", f"{question}\n\n{A1}\n\n{A2}\n"))
    assert [p.abstract for p in corpus.papers] == [question, A1, A2]
    corpus = read_corpus(write(tmp_path, "h.txt", f"My reading list\nAutumn 2024\n\n{A1}\n\n{A2}\n"))
    assert [p.abstract for p in corpus.papers] == [A1, A2]
    assert corpus.warnings == [f"{tmp_path / 'h.txt'}:1: 'My reading list Autumn 2024' taken for the list's "
                               "header, not an abstract; skipped"]


def test_bracketed_prose_is_still_text(tmp_path):
    corpus = read_corpus(write(tmp_path, "list.txt", f"[1] {A1}\n\n[2] {A2}\n"))
    assert len(corpus.papers) == 2


def test_classic_mac_line_ends_with_a_last_lf_are_read(tmp_path):
    corpus = read_corpus(write(tmp_path, "mac.txt", f"{A1}\r\r{A2}\r\r{A1} Again.\r\n"))
    assert len(corpus.papers) == 3
