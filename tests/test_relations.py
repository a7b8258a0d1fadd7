"""Relations: SciERC's relations are read, scored as the issue defines, learned by `kg train-relations`,
and come out of the extractor between the mentions they link."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kg.corpus.scierc import parse_scierc
from kg.evaluate import score_relations
from kg.extract import relation_training, relations, tagger
from kg.extract.models import TAGGER_DIR
from kg.records import RELATION_LABELS

ROOT = Path(__file__).resolve().parents[1]


def record(key: str, *sentences: str, relations: tuple = ()) -> dict:
    """A SciERC record from marked sentences: "We use [ BERT ]Method for [ QA ]Task ." marks entities;
    ``relations`` are (entity number, entity number, label) by order of appearance."""
    tokens_by_sentence, ner, spans = [], [], []
    n = 0
    for sentence in sentences:
        toks, sent_ner, start = [], [], None
        for tok in sentence.split():
            if tok == "[":
                start = n
            elif tok.startswith("]"):
                sent_ner.append([start, n - 1, tok[1:]])
                spans.append((start, n - 1))
            else:
                toks.append(tok)
                n += 1
        tokens_by_sentence.append(toks)
        ner.append(sent_ner)
    rels = [[] for _ in sentences]
    for a, b, label in relations:
        (s1, e1), (s2, e2) = spans[a], spans[b]
        sid = next(i for i, sent in enumerate(ner) if [s1, e1] in [x[:2] for x in sent])
        rels[sid].append([s1, e1, s2, e2, label])
    return {"doc_key": key, "sentences": tokens_by_sentence, "ner": ner, "relations": rels, "clusters": []}


DOCS = [
    record("d1", "We use [ BERT ]Method for [ question answering ]Task .",
           "[ Accuracy ]Metric on [ SQuAD ]Material measures [ it ]Generic .",
           relations=((0, 1, "USED-FOR"), (2, 4, "EVALUATE-FOR"), (3, 4, "EVALUATE-FOR"))),
    record("d2", "[ Beam search ]Method is applied to [ machine translation ]Task .",
           "It outperforms [ greedy decoding ]Method and [ sampling ]Method .",
           relations=((0, 1, "USED-FOR"), (2, 3, "CONJUNCTION"))),
    record("d3", "A [ parser ]Method based on [ LSTMs ]Method parses [ treebanks ]Material .",
           relations=((1, 0, "USED-FOR"),)),
    record("d4", "[ CRFs ]Method and [ HMMs ]Method are used for [ tagging ]Task .",
           relations=((0, 1, "CONJUNCTION"), (0, 2, "USED-FOR"), (1, 2, "USED-FOR"))),
]


def test_scierc_relations_are_read_onto_their_entities():
    doc = parse_scierc(DOCS[0])
    got = [(doc.entities[r.head].text, r.label, doc.entities[r.tail].text) for r in doc.relations]
    assert got == [("BERT", "USED-FOR", "question answering"), ("Accuracy", "EVALUATE-FOR", "it"),
                   ("SQuAD", "EVALUATE-FOR", "it")]


def test_relation_scoring_matches_both_arguments_their_types_and_the_label():
    gold = [[("BERT", "Method", "question answering", "Task", "USED-FOR"),
             ("F1", "Metric", "BERT", "Method", "EVALUATE-FOR"),
             ("a term", "OtherScientificTerm", "BERT", "Method", "USED-FOR")]]  # not scored: an unscored type
    pred = [[("the BERT", "Method", "question answering", "Task", "USED-FOR"),  # normalized: exact
             ("BERT", "Method", "F1", "Metric", "EVALUATE-FOR"),  # the other direction: wrong
             ("BERT", "Method", "question answering", "Task", "COMPARE")]]  # wrong label
    r = score_relations(gold, pred)
    assert (r["gold"], r["predicted"]) == (2, 3)
    assert r["micro"]["precision"] == pytest.approx(1 / 3, abs=1e-3) and r["micro"]["recall"] == 0.5
    assert r["per_label"]["USED-FOR"]["f1"] == 1.0 and r["per_label"]["EVALUATE-FOR"]["f1"] == 0.0


def test_partial_relation_scoring_accepts_whole_word_containment_of_each_argument():
    gold = [[("BERT model", "Method", "extractive question answering", "Task", "USED-FOR")]]
    pred = [[("BERT", "Method", "question answering", "Task", "USED-FOR")]]
    assert score_relations(gold, pred, "exact")["micro"]["f1"] == 0.0
    assert score_relations(gold, pred, "partial")["micro"]["f1"] == 1.0
    assert score_relations(gold, [[("BER", "Method", "question answering", "Task", "USED-FOR")]],
                           "partial")["micro"]["f1"] == 0.0


def test_candidate_pairs_stay_inside_one_sentence_and_mark_every_entity():
    config = relations.RelationConfig()
    offsets = [(0, 4), (5, 7), (8, 12), (13, 16), (18, 22), (23, 25)]  # two sentences of pieces
    spans = [relations.SpanRef(0, 4, "Method", 0), relations.SpanRef(8, 16, "Task", 0),
             relations.SpanRef(18, 22, "Method", 1)]
    states = np.zeros((len(offsets), config.hidden_size), dtype=np.float32)
    sents = relations.sentences(states, offsets, spans, [(0, 17), (18, 25)], config)
    assert len(sents) == 1  # the second sentence has one entity: nothing to relate
    s = sents[0]
    assert s.entities == [0, 1] and s.pairs == [(0, 1), (1, 0)] and s.ranges == [(0, 1), (2, 4)]
    method, task = config.entity_labels.index("Method"), config.entity_labels.index("Task")
    assert list(s.marks) == [1 + 2 * method, 0, 1 + 2 * task, 2 + 2 * task]


def test_one_relation_per_pair_the_likelier_direction_and_only_above_the_threshold():
    labels = RELATION_LABELS
    probs = np.zeros((4, len(labels) + 1))
    probs[0, 1 + labels.index("USED-FOR")] = 0.6  # (0, 1)
    probs[1, 1 + labels.index("COMPARE")] = 0.7  # (1, 0): likelier, wins the pair
    probs[2, 1 + labels.index("PART-OF")] = 0.3  # (0, 2): below the threshold
    probs[3, 0] = 1.0  # (2, 0): none
    got = relations.choose([(0, 1), (1, 0), (0, 2), (2, 0)], probs, labels, 0.5)
    assert got == [(1, 0, "COMPARE", 0.7)]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tagger") / "mine"
    shutil.copytree(TAGGER_DIR, folder)
    for name in (relations.CONFIG, relations.WEIGHTS, "relations-training.json"):
        (folder / name).unlink(missing_ok=True)
    gold = folder.parent / "gold.json"
    gold.write_text("".join(json.dumps(d) + "\n" for d in DOCS))
    spec = relation_training.RelationSpec(train=(gold,), dev=gold, epochs=2, batch_size=2)
    info = relation_training.train(spec, folder, log=lambda s: None)
    return folder, gold, info


@pytest.mark.slow
def test_a_trained_relation_model_is_saved_beside_its_tagger_and_reloads_to_the_same_output(trained):
    folder, gold, info = trained
    assert [h["epoch"] for h in info["history"]] == [1, 2] and info["relations"] == 9
    assert relations.exists(folder)
    assert json.loads((folder / relations.CONFIG).read_text())["threshold"] in relation_training.THRESHOLDS
    model = tagger.load(folder)
    assert model.relations is not None
    docs = [parse_scierc(d) for d in DOCS]
    items = relation_training.doc_sentences(model, docs, model.relations.config, labelled=False)
    first = [model.relations.probabilities(i.sentences) for i in items]
    tagger._load.cache_clear()
    tagger._digest.cache_clear()
    again = tagger.load(folder)
    second = [again.relations.probabilities(i.sentences) for i in items]
    for a, b in zip(first, second):
        for x, y in zip(a, b):
            np.testing.assert_allclose(x, y, atol=1e-5)


@pytest.mark.slow
def test_a_pairs_scores_do_not_depend_on_the_sentences_scored_beside_it(trained):
    """Padding a sentence beside longer ones in a batch changes none of its probabilities."""
    folder, _, _ = trained
    model = tagger.load(folder)
    docs = [parse_scierc(d) for d in DOCS]
    sents = [s for i in relation_training.doc_sentences(model, docs, model.relations.config, labelled=False)
             for s in i.sentences]
    together = model.relations.probabilities(sents)
    for s, probs in zip(sents, together):
        np.testing.assert_allclose(model.relations.probabilities([s])[0], probs, atol=1e-5)


def test_a_broken_relation_model_is_one_line(tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(TAGGER_DIR, folder)
    (folder / relations.CONFIG).write_text("{not json")
    (folder / relations.WEIGHTS).write_bytes(b"junk")
    from kg.errors import KgError

    with pytest.raises(KgError, match="not a relation model"):
        relations.load(folder)


@pytest.mark.slow
def test_the_shipped_extractor_states_relations_between_its_mentions():
    from kg.extract import Extractor
    from kg.records import Paper

    text = ("We use BERT for question answering. "
            "Our parser is evaluated on the Penn Treebank and compared with a CRF tagger.")
    ex = next(Extractor(use_keybert=False).extract([Paper("p", "t", text, text)]))
    assert ex.relations, "the shipped model states no relation here"
    for r in ex.relations:
        head, tail = ex.mentions[r.head], ex.mentions[r.tail]
        assert r.label in RELATION_LABELS and 0 < r.score <= 1
        assert head.sentence == tail.sentence and r.head != r.tail
    stated = {(ex.mentions[r.head].text, r.label, ex.mentions[r.tail].text) for r in ex.relations}
    assert ("BERT", "USED-FOR", "question answering") in stated


def run_kg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_kg_eval_relations_scores_end_to_end_and_with_gold_entities(trained):
    folder, gold, _ = trained
    out = run_kg("eval", str(gold), "--relations", "--model", str(folder), "--format", "json", "--no-keybert")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) == {"end_to_end", "gold_entities"}
    assert report["gold_entities"]["exact"]["gold"] == 7  # the relations between the graph's types
    assert report["end_to_end"]["partial"]["documents"] == 4


@pytest.mark.slow
def test_bad_input_to_relation_commands_is_one_line(tmp_path):
    out = run_kg("train-relations", str(tmp_path / "missing"))
    assert out.returncode != 0 and "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": "BERT is a model.", "entities": [{"text": "BERT", "type": "Method"}]}) + "\n")
    out = run_kg("eval", str(gold), "--relations", "--no-keybert")
    assert out.returncode != 0 and "no gold relations" in out.stderr and "Traceback" not in out.stderr
