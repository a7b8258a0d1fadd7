"""The extractor run on a gold file and scored (``kg eval``): entities, and relations two ways.

The scoring itself is kg.evaluate's, which the training imports too; this module is the one
that runs the extractor.
"""
from __future__ import annotations

from collections.abc import Sequence

from kg.corpus.scierc import read_gold
from kg.errors import KgError
from kg.evaluate import MATCH_MODES, REPORTED_TYPES, score, score_relations
from kg.records import Paper


def evaluate(gold_path, extractor=None, match: str = "exact", progress: bool = False) -> dict:
    """Run the extractor on the abstracts of a gold file and score it (``kg eval``)."""
    return evaluate_many(gold_path, extractor, (match,), progress)[match]


def evaluate_many(gold_path, extractor=None, matches: Sequence[str] = MATCH_MODES,
                  progress: bool = False) -> dict[str, dict]:
    """Like ``evaluate`` for several match modes from one extraction run."""
    docs = list(read_gold(gold_path))
    if not docs:
        raise KgError(f"{gold_path}: no gold documents (expected SciERC or generic gold JSON Lines)")
    if extractor is None:
        from kg.extract import Extractor
        extractor = Extractor()
    papers = [Paper(id=d.doc_key, title=d.doc_key, abstract=d.text, text=d.text, source=d.source)
              for d in docs]
    preds = [[(m.text, m.type) for m in ex.mentions] for ex in extractor.extract(papers, progress=progress)]
    golds = [[(e.text, e.type) for e in d.entities] for d in docs]
    return {m: score(golds, preds, m) for m in matches}


def evaluate_relations(gold_path, extractor=None, matches: Sequence[str] = MATCH_MODES,
                       progress: bool = False) -> dict[str, dict]:
    """Relations scored two ways (``kg eval --relations``): ``end_to_end``, the extractor's own
    entities and relations; ``gold_entities``, the relation model given the gold entities, which
    isolates it. Each holds a ``score_relations`` report per match mode (relations between the
    reported types only)."""
    docs = list(read_gold(gold_path))
    if not docs:
        raise KgError(f"{gold_path}: no gold documents (expected SciERC JSON Lines)")
    if not any(d.relations for d in docs):
        raise KgError(f"{gold_path}: no gold relations to score (SciERC's JSON Lines have them)")
    return score_relation_docs(docs, extractor, matches, progress)


def score_relation_docs(docs, extractor=None, matches: Sequence[str] = MATCH_MODES,
                        progress: bool = False) -> dict[str, dict]:
    """``evaluate_relations`` for gold documents already read (kg.corpus.scierc.ScierDoc)."""
    from kg.extract import relation_training, tagger

    if extractor is None:
        from kg.extract import Extractor
        extractor = Extractor()
    model = tagger.load(extractor.model)
    if model.relations is None:
        raise KgError(f"{extractor.model}: the tagger has no relation model (`kg train-relations` adds one)")
    papers = [Paper(id=d.doc_key, title=d.doc_key, abstract=d.text, text=d.text, source=d.source) for d in docs]
    predicted = []
    for ex in extractor.extract(papers, progress=progress):
        ms = ex.mentions
        predicted.append([(ms[r.head].text, ms[r.head].type, ms[r.tail].text, ms[r.tail].type, r.label)
                          for r in ex.relations])
    # Gold entities given: all of them, SciERC's unscored types too, as the model was trained.
    items = relation_training.doc_sentences(model, docs, model.relations.config, labelled=False,
                                            pair_types=REPORTED_TYPES)
    given = relation_training.predicted_relations(model.relations, items)
    golds = [relation_training.gold_relations(d) for d in docs]
    return {"end_to_end": {m: score_relations(golds, predicted, m) for m in matches},
            "gold_entities": {m: score_relations(golds, given, m) for m in matches}}
