"""SciERC JSON Lines as a corpus: natural text, ids from doc_key."""
import json

from kg.corpus import read_corpus
from tests.helpers import write


def test_scierc_jsonl_reads_as_natural_text(tmp_path):
    doc = {"doc_key": "CVPR_2003_18_abs", "sentences": [["We", "use", "-LRB-", "SVMs", "-RRB-", "."]],
           "ner": [[[3, 3, "Method"]]], "relations": [[]], "clusters": []}
    c = read_corpus(write(tmp_path, "s.json", json.dumps(doc) + "\n"))
    (p,) = c.papers
    assert p.id == "CVPR_2003_18_abs" and p.venue == "CVPR"
    assert p.text == "We use (SVMs)."


def test_a_lone_surrogate_in_a_scierc_record_is_replaced_too(tmp_path):
    rec = '{"doc_key": "X1", "sentences": [["We", "study", "reefs", "\\ud83d", "."]], "ner": [[]]}'
    corpus = read_corpus(write(tmp_path, "s.json", rec + "\n"))
    (p,) = corpus.papers
    p.text.encode("utf-8")
    assert "\ufffd" in p.text and "surrogates" in corpus.warnings[0]
