"""Reading corpora: every format a user brings, and a clear word on every bad one."""
import json
import re
from pathlib import Path

import pytest

from kg.corpus import MAX_WORDS, paper_id, read_corpus, rejoin_broken_words
from kg.errors import KgError
from kg.corpus.latex import clean_latex
from kg.corpus.titles import derive_title

SEED = Path(__file__).parent.parent / "seeds" / "iclr2025_abstracts.txt"
A1 = "We propose Latent Optimal Linear combinations (LOL) as a general method. It works well on images."
A2 = "Policy Mirror Descent (PMD) is a popular framework in reinforcement learning with many algorithms."


def write(tmp_path, name, content, mode="w"):
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return p


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


LONG1 = " ".join([A1] * 4)  # 60+ words: a line this long is a whole abstract
LONG2 = " ".join([A2] * 4)


@pytest.mark.parametrize("name,content", [
    ("bracket header.txt", f"[ICLR 2025] selected abstracts\n\n{A1}\n\n{A2}\n"),  # text, not broken JSON
    ("numbered.txt", f"[1] {A1}\n\n[2] {A2}\n"),
    ("braced.txt", f"{{1}} {A1}\n\n{{2}} {A2}\n"),
    ("papers_csv.txt", f'id,title,abstract\n1,One,"{A1}"\n2,Two,"{A2}"\n'),  # a CSV under another name
    ("papers.tsv", f"id\ttitle\tabstract\n1\tOne\t{A1}\n2\tTwo\t{A2}\n"),
    ("mac.txt", f"Header\r\r{A1}\r\r{A2}\r"),  # classic Mac line ends
])
def test_other_shapes_of_a_list_are_read_by_content(tmp_path, name, content):
    corpus = read_corpus(write(tmp_path, name, content))
    assert [re.sub(r"^\{\d\} ", "", p.abstract) for p in corpus.papers] == [A1, A2]  # "[1] " is a list marker


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


def test_a_lone_surrogate_in_json_is_replaced_with_a_warning_not_a_crash(tmp_path):
    line = '{"title": "Reefs \\ud83d", "abstract": "We study coral reefs \\udc00 with a network.", "authors": ["A \\ud800"]}'
    corpus = read_corpus(write(tmp_path, "s.jsonl", line + "\n"))
    (p,) = corpus.papers
    assert (p.title, p.abstract, p.authors) == ("Reefs \ufffd", "We study coral reefs \ufffd with a network.", ("A \ufffd",))
    p.id.encode("utf-8")  # what the store and the graph files need
    assert corpus.warnings == [f"{tmp_path / 's.jsonl'}:1: broken characters (lone UTF-16 surrogates) replaced by \ufffd"]


@pytest.mark.parametrize("name", ["papers.ndjson", "papers.txt"])
def test_json_lines_with_a_broken_first_line_are_reported_as_json_under_any_name(tmp_path, name):
    good = json.dumps({"abstract": A1})
    with pytest.raises(KgError, match=r":1: malformed JSON"):
        read_corpus(write(tmp_path, name, '{"title": "x", "abstract": "y"\n' + good + "\n" + good + "\n"))


def test_items_of_a_json_array_are_named_by_position_not_line(tmp_path):
    data = '[\n {"abstract": "%s"},\n {"title": "B"}\n]' % A1
    corpus = read_corpus(write(tmp_path, "arr.json", data))
    assert corpus.warnings == [f"{tmp_path / 'arr.json'}, item 2: no abstract; skipped"]
    assert corpus.papers[0].source == f"{tmp_path / 'arr.json'}, item 1"
    with pytest.raises(KgError, match=r"2 records skipped; the last, item 2: no abstract"):
        read_corpus(write(tmp_path, "none.json", '[{"title": "A"}, {"title": "B"}]'))


@pytest.mark.parametrize("delimiter", ["\t", ";"])
def test_a_csv_file_is_read_with_the_delimiter_its_header_uses(tmp_path, delimiter):
    rows = [delimiter.join(["title", "abstract", "Why I saved this paper"]), delimiter.join(["One", A1, "x"]),
            delimiter.join(["Two", A2, "y"])]
    corpus = read_corpus(write(tmp_path, "papers.csv", "\n".join(rows) + "\n"))
    assert [(p.title, p.abstract) for p in corpus.papers] == [("One", A1), ("Two", A2)]


def test_a_csv_row_is_located_at_its_first_line_and_scopus_dois_and_zotero_dates_are_read(tmp_path):
    text = f'Title,Abstract,DOI,Date\nOne,"{A1}\nsecond line",10.1/x,5/17/2024\nTwo,"{A2}",,\n'
    corpus = read_corpus(write(tmp_path, "scopus.csv", text))
    one, two = corpus.papers
    assert (one.source, two.source) == (f"{tmp_path / 'scopus.csv'}:2", f"{tmp_path / 'scopus.csv'}:4")
    assert (one.url, one.year) == ("https://doi.org/10.1/x", 2024)
    assert (two.url, two.year) == (None, None)


def test_a_one_word_abstract_is_read_with_a_warning(tmp_path):
    corpus = read_corpus(write(tmp_path, "t.jsonl", json.dumps({"abstract": "Photosynthesis."}) + "\n"))
    assert len(corpus.papers) == 1
    assert corpus.warnings == [f"{tmp_path / 't.jsonl'}:1: abstract has only 1 word; is it an abstract?"]


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


def test_a_chinese_abstract_is_flagged_as_not_english(tmp_path):
    corpus = read_corpus(write(tmp_path, "zh.jsonl", json.dumps({"abstract": "我们提出了一种用于机器翻译的新型神经网络模型。"}) + "\n"))
    assert corpus.warnings == [f"{tmp_path / 'zh.jsonl'}:1: abstract does not look like English; "
                               "extraction may find little"]


@pytest.mark.parametrize("first", [
    "We compare the blood groups A, B, AB, and O in a cohort of donors.",  # commas and "AB": no CSV header
    "We fuse three modalities: images; text; and audio, with attention.",
    "{\\em Graph} networks are studied here, over\n2023 and 2024.",  # a brace and a bare number: no JSON Lines
    "We embed images, text, and audio into one shared space for\nretrieval across modalities.",
])
def test_prose_that_looks_like_a_header_or_json_is_read_as_text(tmp_path, first):
    corpus = read_corpus(write(tmp_path, "t.txt", f"{first}\n\n{A1}\n"))
    assert len(corpus.papers) == 2


def test_web_of_science_tab_ids_are_accession_numbers_and_dois_and_years_are_checked(tmp_path):
    tab = "PT\tTI\tAB\tID\tDI\tUT\nJ\tReefs\t" + A1 + "\tNEURAL-NETWORKS; CLASSIFICATION\t10.1/reef\tWOS:1\n"
    (p,) = read_corpus(write(tmp_path, "savedrecs.txt", tab)).papers
    assert (p.id, p.url) == ("WOS:1", "https://doi.org/10.1/reef")
    rows = [{"abstract": A1, "doi": "http://dx.doi.org/10.1000/xyz", "date": 1700000000000},
            {"abstract": A2, "doi": "doi:10.1000/abc", "year": 2024},
            {"abstract": A2 + " It is new.", "year": "0000-00-00"}]
    one, two, three = read_corpus(write(tmp_path, "d.jsonl", "\n".join(json.dumps(r) for r in rows))).papers
    assert (one.url, one.year, two.url, two.year) == ("https://doi.org/10.1000/xyz", None,
                                                      "https://doi.org/10.1000/abc", 2024)
    assert three.year is None


def test_a_lone_surrogate_in_a_scierc_record_is_replaced_too(tmp_path):
    rec = '{"doc_key": "X1", "sentences": [["We", "study", "reefs", "\\ud83d", "."]], "ner": [[]]}'
    corpus = read_corpus(write(tmp_path, "s.json", rec + "\n"))
    (p,) = corpus.papers
    p.text.encode("utf-8")
    assert "\ufffd" in p.text and "surrogates" in corpus.warnings[0]


def test_ids_are_stable_hashes_of_normalized_text(tmp_path):
    c1 = read_corpus(write(tmp_path, "a.txt", f"{A1}\n\n{A2}\n"))
    c2 = read_corpus(write(tmp_path, "b.txt", f"{A2}\n\n{A1.upper()}\n"))
    assert c1.papers[0].id == c2.papers[1].id == paper_id(A1)
    assert c1.papers[0].id != c1.papers[1].id


def test_jsonl_with_metadata(tmp_path):
    rows = [
        {"id": "x1", "title": "LOL paper", "abstract": A1, "authors": ["A. B", "C. D"], "year": "2025",
         "venue": "ICLR", "url": "https://example.org/1", "keywords": "latent, diffusion"},
        {"abstract": A2},
    ]
    corpus = read_corpus(write(tmp_path, "c.jsonl", "\n".join(json.dumps(r) for r in rows)))
    p, q = corpus.papers
    assert (p.id, p.title, p.authors, p.year, p.venue, p.keywords) == (
        "x1", "LOL paper", ("A. B", "C. D"), 2025, "ICLR", ("latent", "diffusion"))
    assert q.id == paper_id(A2) and q.title.startswith("Policy Mirror Descent")


def test_json_array_and_csv(tmp_path):
    arr = read_corpus(write(tmp_path, "c.json", json.dumps([{"abstract": A1}, {"abstract": A2}])))
    assert len(arr.papers) == 2
    csv_text = 'id,title,abstract\nq1,First,"' + A1 + '"\nq2,Second,"' + A2.replace("a", "a") + '"\n'
    c = read_corpus(write(tmp_path, "c.csv", csv_text))
    assert [(p.id, p.title) for p in c.papers] == [("q1", "First"), ("q2", "Second")]


def test_scierc_jsonl_reads_as_natural_text(tmp_path):
    doc = {"doc_key": "CVPR_2003_18_abs", "sentences": [["We", "use", "-LRB-", "SVMs", "-RRB-", "."]],
           "ner": [[[3, 3, "Method"]]], "relations": [[]], "clusters": []}
    c = read_corpus(write(tmp_path, "s.json", json.dumps(doc) + "\n"))
    (p,) = c.papers
    assert p.id == "CVPR_2003_18_abs" and p.venue == "CVPR"
    assert p.text == "We use (SVMs)."


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


def test_clean_latex_handles_html_and_escapes():
    assert clean_latex("A <i>deep</i> net with 5\\% error &amp; more") == "A deep net with 5% error & more"
    assert clean_latex("a $9\\times$ speed-up, $\\leq 3$ steps, $\\alpha$") == "a 9× speed-up, ≤ 3 steps, α"
    # A root or a gradient reads as its symbol, not as the command's name run into its argument.
    assert clean_latex("an $O(\\sqrt{n})$ bound, $\\sqrt n$ and $\\nabla_\\theta$") == "an O(√n) bound, √n and ∇_θ"
    assert clean_latex("in $O(\\sqrt{n \\log n})$ time") == "in O(√(n log n)) time"


def test_markup_leaves_no_stray_spaces_inside_words_or_before_punctuation():
    assert clean_latex("We propose <b>FastNet</b>, a net.") == "We propose FastNet, a net."
    assert clean_latex("H<sub>2</sub>O at 10<SUP>3</SUP> K") == "H2O at 103 K"
    assert clean_latex("as shown \\cite{smith20}. Next") == "as shown. Next"
    assert clean_latex("accuracy on ImageNet~\\cite{deng09}.") == "accuracy on ImageNet."
    assert clean_latex("code at \\href{https://github.com/x}{GitHub}.") == "code at GitHub."
    # No tag: a tag's attributes have values. The words between the comparisons stay.
    assert clean_latex("for x<a and b>y") == "for x<a and b>y"
    assert clean_latex("if p<q and r>s holds") == "if p<q and r>s holds"
    assert clean_latex("<jats:p>H<jats:sub>2</jats:sub>O</jats:p><jats:p>Next</jats:p>") == "H2O Next"
    assert clean_latex('<jats:p>We study <jats:italic>X</jats:italic>.</jats:p>') == "We study X."
    assert clean_latex('A<br/>B <img src=x onerror=alert(1)>C <p class="a b">D</p>') == "A B C D"
    # Block tags still separate words.
    assert clean_latex("<p>One.</p><p>Two.</p>A<br>B") == "One. Two. A B"


def test_titles_name_the_contribution():
    assert derive_title("In this paper we propose ThinK, a pruning method. It is good.") == "ThinK"
    assert derive_title("We introduce Graph Kernel Networks (GKN) for molecules.") == "GKN"
    assert derive_title("Deep nets are large, and slow. We study them.") == "Deep nets are large"
    # A scene-setting opener names nothing: the clause after it does.
    assert derive_title("In this paper, we present a corpus of dialogues. It is big.") == "we present a corpus of dialogues"
    assert derive_title("In recent years, deep nets have grown. We study them.") == "deep nets have grown"
    assert derive_title("In the absence of labels we learn. More text.") == "In the absence of labels we learn"
    # So does a clause giving a reason or a purpose.
    assert derive_title("Because rewards are hard to specify, agents learn from proxies. We fix it.") == \
        "agents learn from proxies"
    assert derive_title("To address this, we build a benchmark of tasks. More.") == "we build a benchmark of tasks"
    # A method the paper only uses is not its contribution.
    assert derive_title("Feedback is scarce. We propose utilizing Federated Learning (FL) for it.") == "Feedback is scarce"


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("empty.txt", "", "file is empty"),
        ("blank.txt", "\n\n   \n", "file is empty"),
        ("bad.jsonl", '{"abstract": "ok text here"}\n{"abstract": oops}\n', "bad.jsonl:2: malformed JSON line"),
        ("nocol.csv", "id,title\n1,x\n", "nocol.csv:1: CSV has no 'abstract' column"),
        ("noabs.jsonl", '{"title": "x"}\n{"title": "y"}\n', "no abstracts found"),
        ("arr.json", '{"abstract": 3}\n', "no abstracts found"),
        ("null.json", "null\n", "expected a JSON array of objects or one JSON object per line"),
        ("open.csv", 'abstract,title\n"an unclosed quote, and a title\n', "malformed CSV"),
    ],
)
def test_bad_files_raise_one_line_errors_naming_the_file(tmp_path, name, content, message):
    with pytest.raises(KgError) as exc:
        read_corpus(write(tmp_path, name, content))
    text = str(exc.value)
    assert message in text and name in text and "\n" not in text


def test_missing_and_undecodable_files(tmp_path):
    with pytest.raises(KgError, match="no such file"):
        read_corpus(tmp_path / "nope.txt")
    p = write(tmp_path, "latin.txt", b"good line\n\ncaf\xe9 au lait\n", mode="wb")
    with pytest.raises(KgError, match=r"latin.txt:3: not UTF-8"):
        read_corpus(p)


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


def test_non_english_abstract_gets_a_warning(tmp_path):
    de = "Wir stellen eine neue Methode vor, die große Sprachmodelle effizient macht und viele Aufgaben löst."
    corpus = read_corpus(write(tmp_path, "de.txt", de))
    assert len(corpus.papers) == 1
    assert any("de.txt:1" in w and "English" in w for w in corpus.warnings)


def test_a_derived_id_hashes_the_abstract_as_given_not_the_cleaned_text(tmp_path):
    # Ids must survive improvements to the markup cleaner: they hash what the user wrote.
    raw = r"We propose \textbf{FastNet}~\cite{x}, a network for <i>fast</i> parsing of long documents."
    (p,) = read_corpus(write(tmp_path, "m.txt", raw + "\n")).papers
    assert p.id == paper_id(raw) != paper_id(p.text)
    assert p.id == paper_id("  " + raw.upper() + "\n")  # case and spacing are not part of it


# ---------------------------------------------------------------- what reference managers and APIs export
def test_a_zotero_csv_export_is_read_under_its_own_column_names(tmp_path):
    csv_text = ('"Key","Item Type","Publication Year","Author","Title","Publication Title","Url","Abstract Note",'
                '"Manual Tags"\n'
                f'"ABCD1234","journalArticle","2017","Vaswani, Ashish; Shazeer, Noam","LOL paper","NeurIPS",'
                f'"https://x.org/1","{A1}","attention; transformers"\n'
                '"EFGH5678","journalArticle","2019","Devlin, Jacob","No abstract","NAACL","","",""\n'
                f'"IJKL9012","journalArticle","2020","Doe, Jane","One author","ACL","","{A2}",""\n')
    corpus = read_corpus(write(tmp_path, "My Library.csv", csv_text))
    p, q = corpus.papers
    assert q.authors == ("Doe, Jane",)  # one author, surname first
    assert (p.id, p.title, p.year, p.venue, p.url) == ("ABCD1234", "LOL paper", 2017, "NeurIPS", "https://x.org/1")
    assert p.authors == ("Vaswani, Ashish", "Shazeer, Noam") and p.keywords == ("attention", "transformers")
    assert corpus.warnings == [f"{tmp_path / 'My Library.csv'}:3: no abstract; skipped"]


def test_a_database_placeholder_is_no_abstract(tmp_path):
    rows = ["Authors,Title,Year,Source title,Abstract",
            f'"Doe J., Roe R.",One,2020,ACL,"{A1}"',
            "Roe R.,Two,2021,EMNLP,[No abstract available]",
            "Poe P.,Three,2021,EMNLP,[No abstract available]"]
    corpus = read_corpus(write(tmp_path, "scopus.csv", "\n".join(rows) + "\n"))
    assert [p.title for p in corpus.papers] == ["One"] and corpus.papers[0].authors == ("Doe J.", "Roe R.")
    assert corpus.skipped == 2 and corpus.merged == 0  # not one "abstract" and a duplicate of it


def test_bibtex_entries_become_papers(tmp_path):
    bib = ("% exported by Zotero\n@string{nips = \"NeurIPS\"}\n\n"
           "@article{lol2025,\n  title = {{LOL}: Latent Optimal {L}inear combinations},\n"
           "  author = {Doe, Jane and Roe, Richard},\n  year = {2025},\n  journal = nips,\n"
           f"  abstract = {{{A1}}},\n  keywords = {{linear, latent}},\n  doi = {{10.1/xyz}}\n}}\n\n"
           "@inproceedings{bare, title={Only a title}, year=2020, booktitle={ACL}}\n")
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    (p,) = corpus.papers
    assert (p.id, p.title, p.year, p.venue) == ("lol2025", "LOL: Latent Optimal Linear combinations", 2025, "NeurIPS")
    assert p.authors == ("Doe, Jane", "Roe, Richard") and p.url == "https://doi.org/10.1/xyz"
    assert p.text == A1
    assert corpus.warnings == [f"{tmp_path / 'refs.bib'}:14: no abstract; skipped"]


def test_ris_entries_become_papers(tmp_path):
    ris = ("TY  - JOUR\nTI  - Policy mirror descent\nAU  - Doe, Jane\nAU  - Roe, Richard\nPY  - 2024/05/17/\n"
           f"T2  - ICLR\nAB  - {A2}\nKW  - reinforcement learning\nUR  - https://x.org/2\nER  - \n\n"
           "TY  - CONF\nTI  - Without abstract\nER  - \n")
    corpus = read_corpus(write(tmp_path, "refs.ris", ris))
    (p,) = corpus.papers
    assert (p.title, p.year, p.venue, p.url) == ("Policy mirror descent", 2024, "ICLR", "https://x.org/2")
    assert p.authors == ("Doe, Jane", "Roe, Richard") and p.keywords == ("reinforcement learning",)
    assert corpus.warnings == [f"{tmp_path / 'refs.ris'}:12: no abstract; skipped"]


def test_openreview_notes_and_semantic_scholar_responses(tmp_path):
    note = {"id": "abc123", "content": {"title": {"value": "LOL"}, "abstract": {"value": A1},
                                        "authors": {"value": ["Jane Doe"]}, "venue": {"value": "ICLR 2025"}}}
    (p,) = read_corpus(write(tmp_path, "notes.json", json.dumps([note]))).papers
    assert (p.id, p.title, p.authors, p.venue, p.text) == ("abc123", "LOL", ("Jane Doe",), "ICLR 2025", A1)
    # The record's own fields come first; its content fills what they leave out.
    both = {"id": "x1", "abstract": A2, "content": {"title": {"value": "From content"}, "abstract": {"value": A1}}}
    (b,) = read_corpus(write(tmp_path, "both.jsonl", json.dumps(both) + "\n")).papers
    assert (b.title, b.text) == ("From content", A2)
    response = {"total": 1, "data": [{"paperId": "649def", "title": "PMD", "abstract": A2, "year": 2024,
                                      "authors": [{"authorId": "1", "name": "Jane Doe"}]}]}
    (q,) = read_corpus(write(tmp_path, "s2.json", json.dumps(response, indent=2))).papers
    assert (q.id, q.title, q.year, q.authors) == ("649def", "PMD", 2024, ("Jane Doe",))


def test_a_bibliography_loses_no_entry_silently(tmp_path):
    # A header line before the first entry, an entry the parser cannot read, a key used twice,
    # LaTeX accents and a brace-protected name with "and" inside.
    bib = ("Exported from MyRefs on 2024-01-01\n\n"                                     # 1
           f"@article{{a1, title={{On G\\\"odel}}, author={{M\\\"uller, T. and {{Barnes and Noble}}}},\n"
           f"  abstract={{{A1}}}}}\n"                                                       # 3-4
           "@article{broken, title={Never closed, abstract={We propose nothing at all here.}\n"  # 5
           f"@article{{a1, title={{Again}}, abstract={{{A2}}}}}\n")                          # 6
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    p, again = corpus.papers
    assert (p.title, p.authors) == ("On Gödel", ("Müller, T.", "Barnes and Noble"))
    where = str(tmp_path / "refs.bib")
    assert p.source == f"{where}:3"
    # The second abstract under key a1 is another paper: kept, under an id of its own.
    assert (again.id, again.title, again.source) == ("a1-2", "Again", f"{where}:6")
    assert corpus.warnings == [f"{where}:5: BibTeX entry 'broken' could not be read (an unclosed brace or quote?); "
                               "skipped", f"{where}:6: id 'a1' used twice; this paper kept as 'a1-2'"]


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


def test_json_objects_that_hold_no_records_are_one_clear_error(tmp_path):
    with pytest.raises(KgError, match="neither a record .*found lists 'a', 'b'"):
        read_corpus(write(tmp_path, "r.json", '{"a": [{"x": 1}], "b": [{"y": 2}]}'))
    with pytest.raises(KgError, match="no abstracts found"):
        read_corpus(write(tmp_path, "empty.json", '{"total": 0, "data": []}'))
    # A single record is a record, even when a list of objects sits inside it.
    rec = {"paperId": "1", "title": "T", "abstract": None, "authors": [{"name": "Jane Doe"}]}
    with pytest.raises(KgError, match="no abstracts found \\(no abstract\\)"):
        read_corpus(write(tmp_path, "one.json", json.dumps(rec)))


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


def test_a_bibtex_macro_defined_in_another_file_reads_as_its_name(tmp_path):
    # Venues are often macros whose @string lives in a strings file of its own.
    bib = ('@string{icml = "International Conference on Machine Learning"}\n'
           f"@inproceedings{{a, title={{One}}, booktitle=NeurIPS, month=jan, abstract={{{A1}}}}}\n"
           f"@inproceedings{{b, title={{Two}}, booktitle=\"Proc. \" # icml, abstract={{{A2}}}}}\n")
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    assert [p.venue for p in corpus.papers] == ["NeurIPS", "Proc. International Conference on Machine Learning"]
    assert corpus.warnings == []


@pytest.mark.parametrize("name", ["papers.txt", "papers", "papers.json"])
def test_a_file_that_opens_like_json_is_read_as_json_whatever_its_name(tmp_path, name):
    # jq prints objects over several lines, one after another.
    printed = "\n".join(json.dumps({"title": t, "abstract": a}, indent=2) for t, a in (("One", A1), ("Two", A2)))
    corpus = read_corpus(write(tmp_path, name, printed + "\n"))
    assert [(p.title, p.source) for p in corpus.papers] == [("One", f"{tmp_path / name}:1"),
                                                            ("Two", f"{tmp_path / name}:5")]
    # Broken JSON is an error naming its line, not one "abstract" made of braces and quotes.
    broken = json.dumps([{"abstract": A1}, {"abstract": A2}], indent=1)[:-2] + ",\n]"
    with pytest.raises(KgError, match=rf"{name}:\d+: malformed JSON"):
        read_corpus(write(tmp_path, name, broken))


def test_bracketed_prose_is_still_text(tmp_path):
    corpus = read_corpus(write(tmp_path, "list.txt", f"[1] {A1}\n\n[2] {A2}\n"))
    assert len(corpus.papers) == 2


def test_a_wrapped_paragraph_whose_first_line_reads_like_column_names_is_text(tmp_path):
    text = ("Text, images, audio and video are\nincreasingly modelled jointly by large\n"
            "multimodal models. We study how.\n\n" + A2 + "\n")
    corpus = read_corpus(write(tmp_path, "notes.txt", text))
    assert [p.text.split()[0] for p in corpus.papers] == ["Text,", "Policy"]


def test_one_abstract_per_line_may_end_in_a_url_and_hold_a_short_one(tmp_path):
    long_1 = " ".join([A1] * 5)
    long_2 = " ".join([A2] * 4) + " Code is at https://github.com/x/y"
    short = "We study parsing of long documents with a new model. It helps a lot on three benchmarks today."
    corpus = read_corpus(write(tmp_path, "lines.txt", "\n".join([long_1, long_2, short, long_1 + " Again."]) + "\n"))
    assert len(corpus.papers) == 4


def test_abstracts_run_together_on_one_line_get_a_warning(tmp_path):
    text = " ".join(f"{A1} Variant {i}. {A2}" for i in range(40))
    corpus = read_corpus(write(tmp_path, "one.txt", text + "\n"))
    assert len(corpus.papers) == 1
    assert len(text.split()) > 1_000
    assert corpus.warnings == [f"{tmp_path / 'one.txt'}:1: abstract has {len(text.split()):,} words; several "
                               "abstracts run together? (one abstract per paragraph, or per line)"]


def test_utf16_text_is_read_and_compressed_or_binary_files_are_named(tmp_path):
    corpus = read_corpus(write(tmp_path, "unicode.txt", f"{A1}\n\n{A2}\n".encode("utf-16"), mode="wb"))
    assert [p.abstract for p in corpus.papers] == [A1, A2]
    import gzip
    with pytest.raises(KgError, match=r"papers.txt.gz: is gzip-compressed: decompress it first"):
        read_corpus(write(tmp_path, "papers.txt.gz", gzip.compress(A1.encode()), mode="wb"))
    with pytest.raises(KgError, match=r"paper.pdf: is a PDF"):
        read_corpus(write(tmp_path, "paper.pdf", b"%PDF-1.7\n...", mode="wb"))


def test_a_malformed_csv_row_is_named_by_its_own_line(tmp_path):
    csv_text = f'title,abstract\nA,"{A1}"\n"B"x,"{A2}"\nC,"{A1} More."\n'
    with pytest.raises(KgError, match=r"bad.csv:3: malformed CSV"):
        read_corpus(write(tmp_path, "bad.csv", csv_text))


def test_a_tab_separated_file_under_any_name_may_have_ragged_rows(tmp_path):
    # Web of Science ends each row with a tab the header lacks; a hand-made TSV leaves its last
    # column off where there is nothing to say.
    trailing = f"TI\tAB\nOne\t{A1}\t\nTwo\t{A2}\t\n"
    assert [p.title for p in read_corpus(write(tmp_path, "savedrecs.txt", trailing)).papers] == ["One", "Two"]
    ragged = f"title\tabstract\tkeywords\nOne\t{A1}\tx; y\nTwo\t{A2}\nThree\t{A1} Again.\n"
    assert [p.title for p in read_corpus(write(tmp_path, "mine.txt", ragged)).papers] == ["One", "Two", "Three"]


@pytest.mark.parametrize("opening", ["[[Draft notes]]", '["Under review"]', '{"draft"}'])
def test_notes_in_brackets_or_braces_are_text_not_broken_json(tmp_path, opening):
    corpus = read_corpus(write(tmp_path, "notes.txt", f"{opening} {A1}\n\n{A2}\n"))
    assert len(corpus.papers) == 2


def test_a_long_line_ending_in_a_colon_stays_in_its_abstract(tmp_path):
    first = ("Large language models are increasingly used to annotate data for many tasks across the "
             "sciences, yet how far their labels can be trusted, and where they fail, remains unclear to "
             "most of their users, and we organise the questions this raises as follows:")
    second = ("whether the labels agree with those of experts, whether they stay the same when asked "
              "again, and whether they transfer to new domains.")
    corpus = read_corpus(write(tmp_path, "a.txt", f"{first}\n{second}\n\n{A2}\n"))
    assert len(first.split()) >= 40 and len(second.split()) >= 15 and len(corpus.papers) == 2


def test_classic_mac_line_ends_are_read_in_every_format(tmp_path):
    one, two = read_corpus(write(tmp_path, "pubmed.nbib", MEDLINE.replace("\n", "\r"))).papers
    assert (one.id, two.id) == ("38012345", "38012346")


def test_utf16_without_its_byte_order_mark_is_read(tmp_path):
    for encoding in ("utf-16-le", "utf-16-be"):
        corpus = read_corpus(write(tmp_path, f"{encoding}.txt", f"{A1}\n\n{A2}\n".encode(encoding), mode="wb"))
        assert [p.abstract for p in corpus.papers] == [A1, A2]
    # A stray zero byte in UTF-8 text does not make it UTF-16.
    (p,) = read_corpus(write(tmp_path, "nul.txt", f"{A1}\x00\n".encode(), mode="wb")).papers
    assert p.text.startswith("We propose")


def test_bibtex_macros_at_a_field_end_or_on_the_next_line_read_as_their_names(tmp_path):
    bib = (f"@inproceedings{{a,\r\n  title = {{One}},\r\n  abstract = {{{A1}}},\r\n  booktitle = NeurIPS\r\n}}\r\n"
           f"@inproceedings{{b, title = {{Two}}, abstract = {{{A2}}}, booktitle =\n   ICML}}\n")
    assert [p.venue for p in read_corpus(write(tmp_path, "refs.bib", bib)).papers] == ["NeurIPS", "ICML"]


@pytest.mark.parametrize("ending", [" …", " called “GraphFormer.”", " Code: github.com/x/y", " and more"])
def test_one_abstract_per_line_ends_in_many_ways(tmp_path, ending):
    long_1, long_2 = " ".join([A1] * 4), " ".join([A2] * 4)
    short = "We study parsing of long documents with a new model. It helps a lot on three benchmarks today."
    corpus = read_corpus(write(tmp_path, "lines.txt", "\n".join([long_1, long_2 + ending, short, long_1 + " X."]) + "\n"))
    assert len(corpus.papers) == 4


def test_zero_bytes_padding_a_utf8_file_are_not_text(tmp_path):
    corpus = read_corpus(write(tmp_path, "cut.txt", f"{A1}\n\n{A2}\n".encode() + b"\x00" * 3000, mode="wb"))
    assert [p.abstract for p in corpus.papers] == [A1, A2]


def test_classic_mac_line_ends_with_a_last_lf_are_read(tmp_path):
    corpus = read_corpus(write(tmp_path, "mac.txt", f"{A1}\r\r{A2}\r\r{A1} Again.\r\n"))
    assert len(corpus.papers) == 3


def test_a_bibtex_string_defined_after_its_use_gives_its_value(tmp_path):
    bib = (f"@article{{a, title={{One}}, journal = tpami, abstract={{{A1}}}}}\n"
           "@string{tpami = {IEEE Transactions on Pattern Analysis and Machine Intelligence}}\n"
           f"@article{{b, title={{Two}}, journal = tpami, abstract={{{A2}}}}}\n")
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    assert {p.venue for p in corpus.papers} == {"IEEE Transactions on Pattern Analysis and Machine Intelligence"}


def test_line_breaks_inside_a_quoted_csv_cell_are_the_cells_own(tmp_path):
    # More CRs than twice the LFs used to make the reader take the file for classic Mac line ends
    # and turn every CR into LF, inside quoted cells too: "parse-\rtree" was read "parsetree".
    cell = "\r".join(["We list the steps of our method, one a line:", "parse-", "tree building,", "scoring,",
                      "and ranking", "of the candidates.", "It works", "well."])
    corpus = read_corpus(write(tmp_path, "steps.csv", f'id,abstract\n1,"{cell}"\n2,"{A1}"\n'.encode(), mode="wb"))
    assert [p.abstract for p in corpus.papers] == [cell, A1]
    assert "parse- tree" in corpus.papers[0].text
    # A whole CSV with classic Mac line ends is still read row by row, its cells' breaks kept.
    mac = read_corpus(write(tmp_path, "mac.csv", f'id,abstract\r1,"{A1}\rmore"\r2,"{A2}"\r'.encode(), mode="wb"))
    assert [p.abstract for p in mac.papers] == [f"{A1}\rmore", A2]
