"""SciERC JSON Lines -> natural text with character spans; the generic gold format."""
import json
from pathlib import Path

import pytest

from kg.errors import KgError
from kg.corpus.scierc import detokenize, read_gold, read_scierc

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "scierc"

RECORD = {
    "doc_key": "P05-1053",
    "sentences": [["We", "use", "conditional", "random", "fields", "-LRB-", "CRFs", "-RRB-", "on", "the",
                   "``", "Penn", "Treebank", "''", "."],
                  ["It", "does", "n't", "fail", ",", "reaching", "90", "%", "accuracy", "."]],
    "ner": [[[2, 7, "Method"], [6, 6, "Method"], [11, 12, "Material"]],
            [[15, 15, "Generic"], [23, 23, "Metric"]]],
    "relations": [[], []],
}


def test_detokenize_ptb():
    text, spans = detokenize(["a", "-LRB-", "b", "-RRB-", ",", "``", "c", "''", "d", "'s", "5", "%"])
    assert text == 'a (b), "c" d\'s 5%'
    assert [text[s:e] for s, e in spans] == ["a", "(", "b", ")", ",", '"', "c", '"', "d", "'s", "5", "%"]


def test_record_to_text_and_spans(tmp_path):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(RECORD) + "\n")
    (doc,) = list(read_scierc(p))
    assert doc.doc_key == "P05-1053"
    assert doc.text == 'We use conditional random fields (CRFs) on the "Penn Treebank". It doesn\'t fail, reaching 90% accuracy.'
    got = [(e.text, e.type) for e in doc.entities]
    assert got == [("conditional random fields (CRFs)", "Method"), ("CRFs", "Method"),
                   ("Penn Treebank", "Dataset"), ("It", "Generic"), ("accuracy", "Metric")]
    for e in doc.entities:
        assert doc.text[e.start:e.end] == e.text
    assert [e.type for e in doc.scored_entities] == ["Method", "Method", "Dataset", "Metric"]
    assert len(doc.sentence_spans) == 2 and doc.text[doc.sentence_spans[1][0]:].startswith("It")


def test_generic_gold_format(tmp_path):
    p = tmp_path / "g.jsonl"
    p.write_text(json.dumps({"id": "x", "text": "We propose Policy Mirror Descent (PMD).",
                             "entities": [{"text": "Policy Mirror Descent", "type": "Method"},
                                          {"text": "PMD", "type": "Method"}]}) + "\n")
    (doc,) = list(read_gold(p))
    assert doc.doc_key == "x"
    assert [(e.text, e.start) for e in doc.entities] == [("Policy Mirror Descent", 11), ("PMD", 34)]


def test_bad_files(tmp_path):
    with pytest.raises(KgError, match="no such file"):
        list(read_gold(tmp_path / "missing.json"))
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(RECORD) + "\n{not json\n")
    with pytest.raises(KgError, match=r"bad.json:2: malformed JSON"):
        list(read_gold(p))
    p.write_text('{"foo": 1}\n')
    with pytest.raises(KgError, match="neither"):
        list(read_gold(p))
    p.write_text('{"id": "a", "text": "We use BERT.", "entities": [{"text": "BERT", "type": "Model"}]}\n')
    with pytest.raises(KgError, match=r"bad.json:1: gold entity type 'Model' is none of"):
        list(read_gold(p))



def test_gold_files_are_read_as_corpora_are(tmp_path):
    """Gold saved by a spreadsheet or editor as UTF-16 reads as its UTF-8 original; a compressed
    file is named for what it is, not reported as undecodable text."""
    import gzip
    line = json.dumps({"id": "x", "text": "We use BERT on SQuAD.", "entities": [{"text": "SQuAD", "type": "Dataset"}]},
                      ensure_ascii=False) + "\n"
    utf8, utf16 = tmp_path / "g8.jsonl", tmp_path / "g16.jsonl"
    utf8.write_text(line, encoding="utf-8")
    utf16.write_text(line, encoding="utf-16")
    (a,), (b,) = read_gold(utf8), read_gold(utf16)
    assert (b.text, b.entities) == (a.text, a.entities) == ("We use BERT on SQuAD.", (a.entities[0],))
    assert a.text[a.entities[0].start:a.entities[0].end] == "SQuAD"
    packed = tmp_path / "g.jsonl.gz"
    packed.write_bytes(gzip.compress(line.encode()))
    with pytest.raises(KgError, match=r"g.jsonl.gz: is gzip-compressed: decompress it first"):
        list(read_gold(packed))

@pytest.mark.skipif(not BENCH.exists(), reason="../shared/bench/scierc is absent (not a developer machine)")
def test_real_dev_split_spans_round_trip():
    docs = list(read_scierc(BENCH / "dev.json"))
    assert len(docs) == 50
    for d in docs:
        assert "-LRB-" not in d.text and "``" not in d.text
        for e in d.entities:
            assert d.text[e.start:e.end] == e.text
    assert {e.type for d in docs for e in d.entities} >= {"Method", "Task", "Dataset", "Metric"}
