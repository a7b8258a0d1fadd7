"""Corpus files as a whole: encodings, one-line errors naming the file, and the format told by content."""
import re

import pytest

from kg.corpus import FORMATS, read_corpus
from kg.errors import KgError
from tests.helpers import A1, A2, write


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


def test_utf16_text_is_read_and_compressed_or_binary_files_are_named(tmp_path):
    corpus = read_corpus(write(tmp_path, "unicode.txt", f"{A1}\n\n{A2}\n".encode("utf-16"), mode="wb"))
    assert [p.abstract for p in corpus.papers] == [A1, A2]
    import gzip
    with pytest.raises(KgError, match=r"papers.txt.gz: is gzip-compressed: decompress it first"):
        read_corpus(write(tmp_path, "papers.txt.gz", gzip.compress(A1.encode()), mode="wb"))
    with pytest.raises(KgError, match=r"paper.pdf: is a PDF"):
        read_corpus(write(tmp_path, "paper.pdf", b"%PDF-1.7\n...", mode="wb"))


def test_utf16_without_its_byte_order_mark_is_read(tmp_path):
    for encoding in ("utf-16-le", "utf-16-be"):
        corpus = read_corpus(write(tmp_path, f"{encoding}.txt", f"{A1}\n\n{A2}\n".encode(encoding), mode="wb"))
        assert [p.abstract for p in corpus.papers] == [A1, A2]
    # A stray zero byte in UTF-8 text does not make it UTF-16.
    (p,) = read_corpus(write(tmp_path, "nul.txt", f"{A1}\x00\n".encode(), mode="wb")).papers
    assert p.text.startswith("We propose")


def test_zero_bytes_padding_a_utf8_file_are_not_text(tmp_path):
    corpus = read_corpus(write(tmp_path, "cut.txt", f"{A1}\n\n{A2}\n".encode() + b"\x00" * 3000, mode="wb"))
    assert [p.abstract for p in corpus.papers] == [A1, A2]


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


@pytest.mark.parametrize("first", [
    "We compare the blood groups A, B, AB, and O in a cohort of donors.",  # commas and "AB": no CSV header
    "We fuse three modalities: images; text; and audio, with attention.",
    "{\\em Graph} networks are studied here, over\n2023 and 2024.",  # a brace and a bare number: no JSON Lines
    "We embed images, text, and audio into one shared space for\nretrieval across modalities.",
])
def test_prose_that_looks_like_a_header_or_json_is_read_as_text(tmp_path, first):
    corpus = read_corpus(write(tmp_path, "t.txt", f"{first}\n\n{A1}\n"))
    assert len(corpus.papers) == 2


def test_a_wrapped_paragraph_whose_first_line_reads_like_column_names_is_text(tmp_path):
    text = ("Text, images, audio and video are\nincreasingly modelled jointly by large\n"
            "multimodal models. We study how.\n\n" + A2 + "\n")
    corpus = read_corpus(write(tmp_path, "notes.txt", text))
    assert [p.text.split()[0] for p in corpus.papers] == ["Text,", "Policy"]


@pytest.mark.parametrize("opening", ["[[Draft notes]]", '["Under review"]', '{"draft"}'])
def test_notes_in_brackets_or_braces_are_text_not_broken_json(tmp_path, opening):
    corpus = read_corpus(write(tmp_path, "notes.txt", f"{opening} {A1}\n\n{A2}\n"))
    assert len(corpus.papers) == 2


def test_every_format_is_registered_once_and_plain_text_is_the_last_resort():
    names = [f.name for f in FORMATS]
    assert len(set(names)) == len(names) and names[-1] == "text"
    assert {"text", "lines", "json", "scierc", "csv", "bibtex", "ris", "medline", "wos"} <= set(names)


def test_a_format_given_by_name_is_read_as_that_format(tmp_path):
    # Two short abstracts a line apart read as one paragraph, unless the user says "one per line".
    short = "We study parsing of long documents with a new model. It helps on three benchmarks."
    path = write(tmp_path, "notes.txt", f"{short}\n{A1}\n")
    assert len(read_corpus(path).papers) == 1
    assert [p.abstract for p in read_corpus(path, format="lines").papers] == [short, A1]
    # A table under a name that does not say so, whose header ends like a sentence.
    table = write(tmp_path, "saved.txt", f"Title;Abstract;Why did I save this?\nOne;{A1};x\nTwo;{A2};y\n")
    assert len(read_corpus(table).papers) == 1
    assert [p.title for p in read_corpus(table, format="csv").papers] == ["One", "Two"]
    with pytest.raises(KgError, match="--format yaml: no such format"):
        read_corpus(path, format="yaml")
