"""From record to paper, in every format: ids, duplicates, cleaning, and a warning for each record skipped."""
import json

from kg.corpus import MAX_WORDS, paper_id, read_corpus, rejoin_broken_words
from tests.helpers import A1, A2, write


def test_ids_are_stable_hashes_of_normalized_text(tmp_path):
    c1 = read_corpus(write(tmp_path, "a.txt", f"{A1}\n\n{A2}\n"))
    c2 = read_corpus(write(tmp_path, "b.txt", f"{A2}\n\n{A1.upper()}\n"))
    assert c1.papers[0].id == c2.papers[1].id == paper_id(A1)
    assert c1.papers[0].id != c1.papers[1].id


def test_a_derived_id_hashes_the_abstract_as_given_not_the_cleaned_text(tmp_path):
    # Ids must survive improvements to the markup cleaner: they hash what the user wrote.
    raw = r"We propose \textbf{FastNet}~\cite{x}, a network for <i>fast</i> parsing of long documents."
    (p,) = read_corpus(write(tmp_path, "m.txt", raw + "\n")).papers
    assert p.id == paper_id(raw) != paper_id(p.text)
    assert p.id == paper_id("  " + raw.upper() + "\n")  # case and spacing are not part of it


def test_duplicates_are_merged_with_a_warning(tmp_path):
    corpus = read_corpus(write(tmp_path, "d.txt", f"{A1}\n\n{A2}\n\n{A1}\n"))
    assert len(corpus.papers) == 2 and corpus.merged == 1
    assert any("d.txt:5" in w and "duplicate" in w for w in corpus.warnings)


def test_latex_is_cleaned_and_raw_text_kept(tmp_path):
    raw = r"The \textbf{i}nexact \textbf{s}tochastic point method ($k$ steps), as in \citet{smith20}, i.e.\ \emph{fast}."
    corpus = read_corpus(write(tmp_path, "l.txt", raw + " " + A2))
    (p,) = corpus.papers
    assert p.abstract.startswith(raw)
    assert p.text.startswith("The inexact stochastic point method (k steps), as in, i.e. fast.")


def test_words_a_pdf_broke_at_line_ends_are_whole_again(tmp_path):
    text = ("Transformers have become the dominant archi-\ntecture for natural language pro-\ncessing;\n"
            "we study self-\nsupervised, state-of-the-\nart models such as GPT-\n4 on the QM9 data set.\n")
    (p,) = read_corpus(write(tmp_path, "pdf.txt", text)).papers
    assert p.text == ("Transformers have become the dominant architecture for natural language processing; "
                      "we study self-supervised, state-of-the-art models such as GPT-4 on the QM9 data set.")
    # Repaired in the text extraction reads, not in the abstract kept: the paper's id does not change.
    assert " ".join(p.abstract.split()) == " ".join(text.split()) and p.id == paper_id(" ".join(text.split()))
    assert rejoin_broken_words("pre-\nand post-training, T-\ncell, end-\nto-end, under-\nstanding, soft-\r\nware") \
        == "pre- and post-training, T-cell, end-to-end, understanding, software"
    # A hyphen typed before a space is the author's, in any format.
    typed = "encoder- only and character- as well as word-level models"
    assert rejoin_broken_words(typed) == typed
    (q,) = read_corpus(write(tmp_path, "typed.jsonl", json.dumps({"abstract": typed + " are compared here."}))).papers
    assert q.text.startswith(typed)


def test_bad_records_are_skipped_with_warnings_and_counts_add_up(tmp_path):
    lines = [json.dumps({"abstract": A1}), json.dumps({"abstract": ""}), json.dumps(["not", "an", "object"]),
             json.dumps({"abstract": {"x": 1}}), json.dumps({"abstract": A2})]
    corpus = read_corpus(write(tmp_path, "m.jsonl", "\n".join(lines)))
    assert len(corpus.papers) == 2 and corpus.skipped == 3
    assert len(corpus.warnings) == 3 and all(w.startswith(str(tmp_path / "m.jsonl")) for w in corpus.warnings)
    # Kinds are named as JSON names them, not as Python does.
    assert "got a list" in corpus.warnings[1] and "'abstract' is an object, not text" in corpus.warnings[2]
    (warning,) = read_corpus(write(tmp_path, "n.jsonl", json.dumps({"abstract": A1}) + "\nnull\n")).warnings
    assert warning.endswith("got null; skipped")


def test_an_id_shaped_like_an_entity_id_is_skipped_with_a_warning(tmp_path):
    rows = [{"id": "Method:large language model", "abstract": A1}, {"id": "2", "abstract": A2}]
    corpus = read_corpus(write(tmp_path, "c.jsonl", "\n".join(json.dumps(r) for r in rows)))
    assert [p.id for p in corpus.papers] == ["2"] and corpus.skipped == 1
    assert "form of a kg entity id" in corpus.warnings[0]


def test_huge_abstract_is_truncated_with_a_warning(tmp_path):
    huge = " ".join(["word"] * 100_000) + " end."
    corpus = read_corpus(write(tmp_path, "h.jsonl", json.dumps({"abstract": huge})))
    assert len(corpus.papers[0].text.split()) == MAX_WORDS
    assert any("h.jsonl:1" in w and "truncated" in w for w in corpus.warnings)


def test_a_year_that_is_no_year_is_left_out_with_a_warning(tmp_path):
    p = write(tmp_path, "y.jsonl", '{"abstract": "We study parsing of long sentences.", "year": "abc"}\n'
                                   '{"abstract": "We study tagging of short sentences.", "year": "2024"}\n'
                                   '{"abstract": "We study chunking of odd sentences.", "year": "2023-05-17"}\n')
    corpus = read_corpus(p)
    assert [paper.year for paper in corpus.papers] == [None, 2024, 2023]
    assert [w for w in corpus.warnings if "year" in w] == [f"{p}:1: year 'abc' is not a four-digit year; left out"]


def test_a_one_word_abstract_is_read_with_a_warning(tmp_path):
    corpus = read_corpus(write(tmp_path, "t.jsonl", json.dumps({"abstract": "Photosynthesis."}) + "\n"))
    assert len(corpus.papers) == 1
    assert corpus.warnings == [f"{tmp_path / 't.jsonl'}:1: abstract has only 1 word; is it an abstract?"]


def test_abstracts_run_together_on_one_line_get_a_warning(tmp_path):
    text = " ".join(f"{A1} Variant {i}. {A2}" for i in range(40))
    corpus = read_corpus(write(tmp_path, "one.txt", text + "\n"))
    assert len(corpus.papers) == 1
    assert len(text.split()) > 1_000
    assert corpus.warnings == [f"{tmp_path / 'one.txt'}:1: abstract has {len(text.split()):,} words; several "
                               "abstracts run together? (one abstract per paragraph, or per line)"]


def test_non_english_abstract_gets_a_warning(tmp_path):
    de = "Wir stellen eine neue Methode vor, die große Sprachmodelle effizient macht und viele Aufgaben löst."
    corpus = read_corpus(write(tmp_path, "de.txt", de))
    assert len(corpus.papers) == 1
    assert any("de.txt:1" in w and "English" in w for w in corpus.warnings)


def test_a_chinese_abstract_is_flagged_as_not_english(tmp_path):
    corpus = read_corpus(write(tmp_path, "zh.jsonl", json.dumps({"abstract": "我们提出了一种用于机器翻译的新型神经网络模型。"}) + "\n"))
    assert corpus.warnings == [f"{tmp_path / 'zh.jsonl'}:1: abstract does not look like English; "
                               "extraction may find little"]
