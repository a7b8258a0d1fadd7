"""JSON corpora: JSON Lines, arrays, objects one after another, API responses."""
import json

import pytest

from kg.corpus import paper_id, read_corpus
from kg.errors import KgError
from tests.helpers import A1, A2, write


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


def test_items_of_a_json_array_are_named_by_position_not_line(tmp_path):
    data = '[\n {"abstract": "%s"},\n {"title": "B"}\n]' % A1
    corpus = read_corpus(write(tmp_path, "arr.json", data))
    assert corpus.warnings == [f"{tmp_path / 'arr.json'}, item 2: no abstract; skipped"]
    assert corpus.papers[0].source == f"{tmp_path / 'arr.json'}, item 1"
    with pytest.raises(KgError, match=r"2 records skipped; the last, item 2: no abstract"):
        read_corpus(write(tmp_path, "none.json", '[{"title": "A"}, {"title": "B"}]'))


@pytest.mark.parametrize("name", ["papers.ndjson", "papers.txt"])
def test_json_lines_with_a_broken_first_line_are_reported_as_json_under_any_name(tmp_path, name):
    good = json.dumps({"abstract": A1})
    with pytest.raises(KgError, match=r":1: malformed JSON"):
        read_corpus(write(tmp_path, name, '{"title": "x", "abstract": "y"\n' + good + "\n" + good + "\n"))


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


def test_json_objects_that_hold_no_records_are_one_clear_error(tmp_path):
    with pytest.raises(KgError, match="neither a record .*found lists 'a', 'b'"):
        read_corpus(write(tmp_path, "r.json", '{"a": [{"x": 1}], "b": [{"y": 2}]}'))
    with pytest.raises(KgError, match="no abstracts found"):
        read_corpus(write(tmp_path, "empty.json", '{"total": 0, "data": []}'))
    # A single record is a record, even when a list of objects sits inside it.
    rec = {"paperId": "1", "title": "T", "abstract": None, "authors": [{"name": "Jane Doe"}]}
    with pytest.raises(KgError, match="no abstracts found \\(no abstract\\)"):
        read_corpus(write(tmp_path, "one.json", json.dumps(rec)))


def test_a_lone_surrogate_in_json_is_replaced_with_a_warning_not_a_crash(tmp_path):
    line = '{"title": "Reefs \\ud83d", "abstract": "We study coral reefs \\udc00 with a network.", "authors": ["A \\ud800"]}'
    corpus = read_corpus(write(tmp_path, "s.jsonl", line + "\n"))
    (p,) = corpus.papers
    assert (p.title, p.abstract, p.authors) == ("Reefs \ufffd", "We study coral reefs \ufffd with a network.", ("A \ufffd",))
    p.id.encode("utf-8")  # what the store and the graph files need
    assert corpus.warnings == [f"{tmp_path / 's.jsonl'}:1: broken characters (lone UTF-16 surrogates) replaced by \ufffd"]
