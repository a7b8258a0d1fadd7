"""The scorer against hand-made gold/prediction pairs with known precision, recall and F1."""
import json

import pytest

from kg.evaluate import normalize_text, score, score_document


@pytest.mark.parametrize("raw,norm", [
    ("The Penn Treebank", "penn treebank"),
    ("our  model", "model"),
    ("its -LRB- CRF -RRB- layer", "crf) layer"),
    ("layer of its -LRB- CRF -RRB- output", "layer of its (crf) output"),  # a determiner only at the start
    ("Their CRF", "crf"),
    ("conditional random fields ( CRFs )", "conditional random fields (crfs"),
    ("word - level", "word-level"),
    ("Ｆｕｌｌ width", "full width"),
    ("``quoted'' text", 'quoted" text'),
    ("a, b ; c", "a, b; c"),
    ("  (BLEU).  ", "bleu"),
    ("these", "these"),  # nothing after the determiner: kept
    ("(the model)", "the model"),  # the determiner is removed before the brackets are stripped, not after
    ("pre- and post-training", "pre- and post-training"),  # only "X - Y" closes up
    ("state - of - the - art", "state-of-the-art"),
])
def test_normalization(raw, norm):
    assert normalize_text(raw) == norm


def test_exact_counts_sets_per_abstract():
    gold = [("Policy Mirror Descent", "Method"), ("MinAtar", "Dataset"), ("reinforcement learning", "Task")]
    pred = [("policy mirror descent", "Method"), ("the Policy Mirror Descent", "Method"),  # duplicate once
            ("MinAtar", "Method"),  # wrong type
            ("reinforcement learning", "Task")]
    c = score_document(gold, pred, "exact")
    assert (c["Method"].gold, c["Method"].predicted, c["Method"].correct) == (1, 2, 1)
    assert (c["Dataset"].gold, c["Dataset"].predicted, c["Dataset"].correct) == (1, 0, 0)
    assert (c["Task"].correct) == 1
    r = score([gold], [pred], "exact")
    # 2 correct of 3 distinct predictions; 2 of 3 gold.
    assert r["micro"] == {"precision": round(2 / 3, 4), "recall": round(2 / 3, 4), "f1": round(2 / 3, 4)}
    assert (r["documents"], r["gold"], r["predicted"]) == (1, 3, 3)


def test_partial_whole_word_containment_and_one_to_one():
    gold = [("statistical machine translation", "Task"), ("translation", "Task"), ("BLEU", "Metric")]
    pred = [("machine translation", "Task"),  # inside gold 1
            ("statistical machine translation system", "Task"),  # contains gold 1 and gold 2
            ("trans", "Task"),  # not a whole word: wrong
            ("BLEU score", "Metric")]
    c = score_document(gold, pred, "partial")
    # Pairs, longest shared text first: (system, SMT) then (machine translation, translation).
    assert (c["Task"].gold, c["Task"].predicted, c["Task"].correct) == (2, 3, 2)
    assert c["Metric"].correct == 1
    c = score_document(gold, pred, "exact")
    assert c["Task"].correct == 0 and c["Metric"].correct == 0


def test_partial_words_end_at_punctuation_too():
    gold = [("convolutional neural network (CNN)", "Method"), ("BERT", "Method")]
    pred = [("CNN", "Method"), ("BERT-based model", "Method"), ("BER", "Method")]
    assert score_document(gold, pred, "partial")["Method"].correct == 2  # not "BER" inside "bert"


def test_partial_each_gold_matched_once():
    gold = [("LLaMA", "Method")]
    pred = [("LLaMA models", "Method"), ("LLaMA family", "Method")]
    c = score_document(gold, pred, "partial")["Method"]
    assert (c.gold, c.predicted, c.correct) == (1, 2, 1)


def test_micro_covers_method_task_dataset_only():
    gold = [[("a b", "Method"), ("accuracy", "Metric")], [("x", "Dataset")]]
    pred = [[("a b", "Method"), ("accuracy", "Metric"), ("error", "Metric")], [("y", "Dataset")]]
    r = score(gold, pred, "exact")
    assert r["gold"] == 2 and r["predicted"] == 2
    assert r["micro"]["precision"] == 0.5 and r["micro"]["recall"] == 0.5 and r["micro"]["f1"] == 0.5
    m = r["per_type"]["Metric"]
    assert (m["gold"], m["predicted"], m["precision"], m["recall"]) == (1, 2, 0.5, 1.0)
    assert round(m["f1"], 4) == round(2 * 0.5 * 1 / 1.5, 4)
    assert set(r["per_type"]) == {"Method", "Task", "Dataset", "Metric"}
    json.dumps(r)  # the JSON report is plain data


def test_empty_predictions_are_visible():
    r = score([[("a", "Method")]], [[]], "exact")
    assert r["predicted"] == 0 and r["micro"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


def test_the_table_shows_a_ratio_over_nothing_as_a_dash():
    from kg.evaluate import format_table

    r = score([[("a", "Method")]], [[("a", "Method"), ("b", "Task")]], "exact")
    rows = {line.split()[0]: line.split()[1:] for line in format_table(r).splitlines()[2:]}
    assert rows["Metric"] == ["-", "-", "-", "0", "0"]  # no gold, no prediction
    assert rows["Task"] == ["0.000", "-", "0.000", "0", "1"]  # predicted, none to find
    assert rows["Method"] == ["1.000", "1.000", "1.000", "1", "1"]


def test_unknown_match_mode():
    with pytest.raises(ValueError):
        score_document([], [], "fuzzy")


@pytest.mark.slow
def test_kg_eval_json_output(tmp_path):
    """`kg eval GOLD --format json` prints exactly one object of the documented shape."""
    import subprocess
    import sys

    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": "We propose FlowMix, a novel diffusion model, and test it on CIFAR-10.",
                                "entities": [{"text": "FlowMix", "type": "Method"},
                                             {"text": "CIFAR-10", "type": "Dataset"}]}) + "\n")
    out = subprocess.run([sys.executable, "-m", "kg", "eval", str(gold), "--match", "partial", "--format", "json",
                          "--no-keybert"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) == {"documents", "gold", "predicted", "match", "micro", "per_type"}
    assert report["documents"] == 1 and report["gold"] == 2 and report["match"] == "partial"
    assert set(report["micro"]) == {"precision", "recall", "f1"}
    assert set(report["per_type"]) == {"Method", "Task", "Dataset", "Metric"}
    assert set(report["per_type"]["Method"]) == {"precision", "recall", "f1", "gold", "predicted"}


@pytest.mark.slow
@pytest.mark.parametrize("name,make,message", [
    ("nope.jsonl", lambda p: None, "no such file"),
    ("adir", lambda p: p.mkdir(), "is a directory"),
    ("empty.jsonl", lambda p: p.write_text(""), "no gold documents"),
    ("typo.jsonl", lambda p: p.write_text('{"id": "a", "text": "We fine-tune BERT.", '
                                          '"entities": [{"text": "RoBERTa", "type": "Method"}]}\n'),
     "gold entity 'RoBERTa' is not in the record's text"),
    ("unannotated.jsonl", lambda p: p.write_text('{"id": "a", "text": "We use BERT on SQuAD."}\n'),
     "no 'entities' list"),
])
def test_kg_eval_bad_gold_file_is_one_line(tmp_path, name, make, message):
    import subprocess
    import sys

    make(tmp_path / name)
    out = subprocess.run([sys.executable, "-m", "kg", "eval", str(tmp_path / name)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and message in lines[0], out.stderr
