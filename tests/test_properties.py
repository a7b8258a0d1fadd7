"""Property-based tests: no input a user can bring crashes the corpus readers or the extractor.

For every generated file the reader either raises one KgError line naming the file,
or returns papers; every record of the file is then either a paper (its ``source``
names the record's line) or named by a warning, and papers + skipped + merged adds
up to the records written. The extractor gets the same hostile text and must return
one extraction per paper whose spans index the text it was given.
"""
from __future__ import annotations

import csv
import io
import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from kg.corpus import MAX_WORDS, read_corpus
from kg.corpus.formats import detect
from kg.corpus.latex import clean_latex
from kg.corpus.plaintext import LIST_MARKER
from kg.corpus.source import read_source
from kg.corpus.titles import derive_title
from kg.errors import KgError
from kg.graph import build_graph
from kg.records import ENTITY_TYPES, Paper
from kg.concepts.resolve import resolve
from tests.helpers import examples

# Modest example counts keep the suite fast; `python bench/fuzz.py` and bench/reliability.py run many more.
FAST = settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])

# --- text a user's corpus may hold -------------------------------------------------------------

CONTROL = "".join(chr(c) for c in range(0x20) if chr(c) not in "\n\r") + "\x7f\x85\u2028\u2029\ufeff\u200b"
LATEX = [r"\textbf{x}", r"\cite{a}", r"$\alpha$", r"\emph{", "}", "{", r"\\", r"\%", "$", r"\href{u}{t}", "~", "``q''"]
HTML = ["<b>", "</b>", "<script>alert(1)</script>", "&amp;", "&lt;", "&#x3c;", "<a href='x'>", "<!--", "-->", "<"]
WORDS = ["We", "propose", "LoRA", "BERT", "transformer", "on", "ImageNet", "accuracy", "(", ")", ",", ".",
         "Transformer", "模型", "языковая", "نموذج", "🙂", "é", "ß", "ǅ", "Ⅻ", "ﬁ"]

pieces = st.one_of(
    st.text(max_size=12),  # arbitrary Unicode, surrogates excluded by Hypothesis
    st.sampled_from(WORDS),
    st.sampled_from(LATEX),
    st.sampled_from(HTML),
    st.text(alphabet=CONTROL, min_size=1, max_size=3),
    st.sampled_from([" ", "  ", "\t", "\n"]),
)
abstracts = st.lists(pieces, max_size=40).map(" ".join)
# Values of the wrong type where text is expected.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
records = st.one_of(
    st.fixed_dictionaries(
        {"abstract": abstracts},
        optional={"id": json_values, "title": json_values, "authors": json_values, "year": json_values,
                  "venue": json_values, "url": json_values, "keywords": json_values},
    ),
    st.fixed_dictionaries({"abstract": json_values}),
    st.fixed_dictionaries({"text": abstracts}),
    json_values,  # not an object at all
)


# --- the accounting every read must satisfy ----------------------------------------------------

def _read(path: Path):
    """The corpus, or None after checking the error is one line naming the file."""
    try:
        return read_corpus(path)
    except KgError as exc:
        msg = str(exc)
        assert str(path) in msg and "\n" not in msg, msg
        return None


def _check_accounting(corpus, path: Path, lines: list[int | str]) -> None:
    """Each record (by its first line, or "item N" in a JSON array) is a paper or named in a
    warning; counts add up."""
    assert len(corpus.papers) + corpus.skipped + corpus.merged == len(lines)
    assert len(corpus.warnings) >= corpus.skipped + corpus.merged
    sources = {p.source for p in corpus.papers}
    warned = {w.split(": ", 1)[0] for w in corpus.warnings}
    for line in lines:
        where = f"{path}:{line}" if isinstance(line, int) else f"{path}, {line}"
        assert where in sources or where in warned, f"record at {where} neither read nor reported"
    for w in corpus.warnings:
        assert w.startswith((f"{path}:", f"{path}, item ")) and "\n" not in w, w
    assert len({p.id for p in corpus.papers}) == len(corpus.papers)
    for p in corpus.papers:
        _check_paper(p)


def _check_paper(p: Paper) -> None:
    assert p.abstract.strip() and p.abstract == p.abstract.strip()
    assert p.id and p.title.strip() and "\n" not in p.title
    assert len(p.abstract.split()) <= MAX_WORDS
    assert p.text == " ".join(p.text.split())  # one line of prose: spans index it
    assert all(isinstance(a, str) and a for a in p.authors + p.keywords)
    assert p.year is None or isinstance(p.year, int)


# What databases write where an abstract is missing: read as no abstract (kg.corpus.papers).
_PLACEHOLDER = re.compile(r"[\[(]?\s*(?:no abstract(?: available)?|abstract not available|n/?a)\s*[\])]?\.?",
                          re.IGNORECASE)


def _usable_text(a: object) -> bool:
    """Whether ``a`` is an abstract with some text once markup is removed."""
    return isinstance(a, str) and bool(clean_latex(a.strip())) and not _PLACEHOLDER.fullmatch(a.strip())


def _usable(rec: object) -> bool:
    """Whether a record holds an abstract with some text once markup is removed."""
    if not isinstance(rec, dict):
        return False
    return _usable_text(rec.get("abstract", rec.get("text")))


def _lost_nothing(corpus, usable: bool) -> None:
    """A file with a usable record is read: the reader may reject a file only when it has none."""
    assert corpus is not None or not usable, "a file with a usable abstract was rejected"


# --- readers -----------------------------------------------------------------------------------

@FAST
@given(recs=st.lists(records, min_size=1, max_size=8))
def test_jsonl_of_anything_is_read_or_reported(tmp_path_factory, recs):
    path = tmp_path_factory.mktemp("jsonl") / "c.jsonl"
    # ensure_ascii=False writes U+2028 and friends raw, as many tools do; it is still one line.
    lines = [json.dumps(r, ensure_ascii=False) for r in recs]
    if not lines[0].lstrip().startswith("{"):
        lines.insert(0, json.dumps({"abstract": "A first record so the file reads as JSON Lines."}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    corpus = _read(path)
    _lost_nothing(corpus, any(_usable(r) for r in recs))
    if corpus is not None:
        _check_accounting(corpus, path, list(range(1, len(lines) + 1)))


@FAST
@given(recs=st.lists(records, min_size=1, max_size=8))
def test_json_array_of_anything_is_read_or_reported(tmp_path_factory, recs):
    path = tmp_path_factory.mktemp("arr") / "c.json"
    path.write_text(json.dumps(recs, ensure_ascii=False, indent=1), encoding="utf-8")
    corpus = _read(path)
    _lost_nothing(corpus, any(_usable(r) for r in recs))
    if corpus is not None:
        _check_accounting(corpus, path, [f"item {i}" for i in range(1, len(recs) + 1)])


csv_cells = st.one_of(abstracts, st.text(max_size=30), st.just(""))


@FAST
@given(rows=st.lists(st.tuples(csv_cells, csv_cells, csv_cells), min_size=1, max_size=6),
       big=st.sampled_from([0, 0, 200_000]))
def test_csv_fields_survive_quoting_and_size(tmp_path_factory, rows, big):
    rows = [(t, a + (" x" * big if i == 0 else ""), v) for i, (t, a, v) in enumerate(rows)]
    # A NUL cannot be written to CSV by Python's writer; users' files do not hold one either.
    assume(not any("\x00" in c for r in rows for c in r))
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    w.writerow(["title", "abstract", "venue"])
    w.writerows(rows)
    path = tmp_path_factory.mktemp("csv") / "c.csv"
    path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    corpus = _read(path)
    _lost_nothing(corpus, any(_usable_text(a) for _, a, _ in rows))
    if corpus is None:
        return
    # Every row is a record; each paper keeps its cell text exactly (stripped).
    assert len(corpus.papers) + corpus.skipped + corpus.merged == len(rows)
    given_abstracts = {a.strip() for _, a, _ in rows}
    for p in corpus.papers:
        _check_paper(p)
        if len(p.abstract.split()) < MAX_WORDS:
            assert p.abstract in given_abstracts


@FAST
@given(paragraphs=st.lists(abstracts.filter(lambda a: "\n" not in a and a.strip()), min_size=1, max_size=6))
def test_plain_text_paragraphs_are_papers_or_reported(tmp_path_factory, paragraphs):
    # U+FEFF at the very start of a file is the byte-order mark, read as no text at all.
    assume(not paragraphs[0].startswith("\ufeff"))
    path = tmp_path_factory.mktemp("txt") / "c.txt"
    body = "\n\n".join(paragraphs) + "\n"
    path.write_text(body, encoding="utf-8", newline="")
    corpus = _read(path)
    # Paragraphs, unless the text looks like another format (JSON, a table: tests/test_corpus_files.py);
    # a first paragraph may be the list's header, skipped with a warning.
    if detect(read_source(path)).name == "text":
        candidates = paragraphs[1:] if len(paragraphs) > 1 else paragraphs
        _lost_nothing(corpus, any(_usable_text(LIST_MARKER.sub("", p.strip(), count=1)) for p in candidates))
    if corpus is None:
        return
    # Paragraph k starts on line 2k+1 of the file; one taken for a header is reported too.
    _check_accounting(corpus, path, [2 * k + 1 for k in range(len(paragraphs))])


@settings(max_examples=examples(150))
@given(text=abstracts)
@example(text=r"\textbf{\emph{" * 200)
@example(text="{" * 5000 + "}" * 5000)
@example(text="$" * 3001)
@example(text="<" * 5000 + "a" + ">" * 5000)
def test_cleaning_and_titles_never_crash(text):
    cleaned = clean_latex(text)
    assert cleaned == " ".join(cleaned.split())
    assert "<script" not in cleaned.lower()
    title = derive_title(cleaned)
    assert isinstance(title, str) and "\n" not in title


@pytest.mark.parametrize("n", [1, 50_000])
def test_one_word_and_fifty_thousand_word_abstracts(tmp_path, n):
    path = tmp_path / "long.jsonl"
    words = " ".join(["learning"] * (n - 1) + ["ok."])
    path.write_text(json.dumps({"abstract": words}) + "\n", encoding="utf-8")
    corpus = read_corpus(path)
    (p,) = corpus.papers
    assert len(p.text.split()) == min(n, MAX_WORDS)
    assert (n > MAX_WORDS) == any("truncated" in w for w in corpus.warnings)


# --- extractor (the ``extractor`` fixture: tests/conftest.py) -----------------------------------

def _paper(i: int, raw: str) -> Paper:
    text = clean_latex(raw)
    return Paper(id=f"h{i}", title=derive_title(text) or f"h{i}", abstract=raw, text=text, source=f"gen:{i}")


def _check_extractions(papers, extractions):
    assert [ex.paper_id for ex in extractions] == [p.id for p in papers]
    for p, ex in zip(papers, extractions):
        for m in ex.mentions:
            assert m.type in ENTITY_TYPES
            assert 0 <= m.start < m.end <= len(p.text) and p.text[m.start:m.end] == m.text
            assert 0.0 <= m.score <= 1.0 and m.text in m.sentence
        for phrase, salience in ex.key_concepts:
            assert isinstance(phrase, str) and phrase.strip() and -1.0 <= salience <= 1.0
    # The downstream stages take whatever the extractor found.
    resolution = resolve(papers, extractions)
    g = build_graph(papers, extractions, resolution)
    assert sum(1 for _, d in g.nodes(data=True) if d["label"] == "Paper") == len(papers)


@pytest.mark.slow
@settings(max_examples=examples(8), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(abstracts, min_size=1, max_size=4))
@example(batch=["", "   ", "\x00\x01\x02", "word"])
@example(batch=["We train BERT on ImageNet and report accuracy. 我们提出了一个模型。 Мы предлагаем метод LoRA."])
@example(batch=[r"We propose \textbf{LoRA} (<i>Low-Rank</i> Adaptation) for $\mathcal{L}$ </script><script>x()</script>"])
def test_extractor_survives_hostile_text(extractor, batch):
    papers = [_paper(i, raw) for i, raw in enumerate(batch)]
    _check_extractions(papers, list(extractor.extract(papers)))


@pytest.mark.slow
def test_extractor_on_a_truncated_fifty_thousand_word_abstract(extractor, tmp_path):
    # The reader truncates to MAX_WORDS; the extractor must handle what it passes on.
    vocab = "We propose a transformer model for image classification on ImageNet with high accuracy .".split()
    words = [vocab[i % len(vocab)] for i in range(50_000)]
    path = tmp_path / "huge.jsonl"
    path.write_text(json.dumps({"abstract": " ".join(words)}) + "\n", encoding="utf-8")
    corpus = read_corpus(path)
    _check_extractions(corpus.papers, list(extractor.extract(corpus.papers)))


def test_generated_alphabet_covers_line_separators():
    # Guard for the generators above: the characters str.splitlines treats as line breaks
    # (but files and JSON do not) must stay in the mix.
    assert {"\x0b", "\x0c", "\x1c", "\x85", "\u2028"} <= set(CONTROL)
    assert set(string.whitespace) - {"\n", "\r"} <= set(CONTROL + " ")
