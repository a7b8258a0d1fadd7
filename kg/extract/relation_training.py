"""Training the relation model (``kg train-relations``) on SciERC's relations, over a tagger's states.

The tagger is fixed: its hidden states of every training abstract are computed once, and the
relation network trains on the gold entity pairs of each sentence (every SciERC type is an
argument, OtherScientificTerm and Generic included, since they teach what the words between two
entities say). A validation file picks the epoch and the probability threshold that score best,
relation micro F1 with gold entities given (kg/evaluate.py's ``score_relations``, exact).
"""
from __future__ import annotations

import copy
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kg.corpus.scierc import ScierDoc
from kg.errors import KgError
from kg.evaluate import score_relations
from kg.extract import relations, tagger
from kg.extract.training import read_docs
from kg.records import ENTITY_TYPES

THRESHOLDS = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7)


@dataclass(frozen=True)
class RelationSpec:
    """What ``train`` reads and how it trains; every field has the value kg's shipped model used."""

    train: tuple[Path, ...]
    dev: Path | None = None
    holdout: int | None = None  # a fold of the training files left out (kg/extract/training.py)
    epochs: int = 8
    batch_size: int = 16  # sentences per step
    learning_rate: float = 5e-5  # the copied encoder layers'
    head_learning_rate: float = 1e-3  # the entity marks' and the pair network's
    seed: int = 0
    threads: int | None = None
    config: relations.RelationConfig = field(default_factory=relations.RelationConfig)


@dataclass
class DocSentences:
    """One abstract's sentences ready for the network, and its entity indices (ScierDoc.entities)."""

    doc: ScierDoc
    entity_index: list[int]  # per span given to relations.sentences
    sentences: list[relations.Sentence]


def sentence_of(doc: ScierDoc, start: int) -> int:
    for i, (s, e) in enumerate(doc.sentence_spans):
        if s <= start < e:
            return i
    return -1


def gold_spans(doc: ScierDoc, types: Sequence[str]) -> tuple[list[relations.SpanRef], list[int]]:
    """The gold entities of ``types`` as spans (one per character span), with their entity index."""
    spans, index, seen = [], [], set()
    for i, e in enumerate(doc.entities):
        if e.type in types and (e.start, e.end) not in seen:
            seen.add((e.start, e.end))
            spans.append(relations.SpanRef(e.start, e.end, e.type, sentence_of(doc, e.start)))
            index.append(i)
    return spans, index


def doc_sentences(model: tagger.Tagger, docs: Sequence[ScierDoc], config: relations.RelationConfig,
                  labelled: bool = True, pair_types: Sequence[str] | None = None) -> list[DocSentences]:
    """Every abstract's sentences with its gold entities marked (all of SciERC's types), from
    ``model``'s states at layer ``config.split``; ``labelled``: with the gold label of each pair;
    ``pair_types``: only pairs of those types are candidates."""
    out = []
    label_of = {label: k + 1 for k, label in enumerate(config.labels)}
    for doc, enc in zip(docs, model.encode([d.text for d in docs], layer=config.split)):
        spans, index = gold_spans(doc, config.entity_labels)
        sents = relations.sentences(enc.hidden, enc.offsets, spans, doc.sentence_spans, config, pair_types)
        if labelled:
            gold = {(r.head, r.tail): label_of[r.label] for r in doc.relations if r.label in label_of}
            for s in sents:
                s.labels = np.array([gold.get((index[s.entities[a]], index[s.entities[b]]), 0)
                                     for a, b in s.pairs], dtype=np.int64)
        out.append(DocSentences(doc, index, sents))
    return out


def gold_relations(doc: ScierDoc) -> list[tuple[str, str, str, str, str]]:
    ents = doc.entities
    return [(ents[r.head].text, ents[r.head].type, ents[r.tail].text, ents[r.tail].type, r.label)
            for r in doc.relations]


def predicted_relations(model: relations.RelationModel, items: Sequence[DocSentences],
                        threshold: float | None = None) -> list[list[tuple[str, str, str, str, str]]]:
    """Each abstract's predicted relations among its gold entities, as ``score_relations`` reads them."""
    out = []
    for item in items:
        ents = item.doc.entities
        found = model.relations(item.sentences, threshold)
        out.append([(ents[item.entity_index[i]].text, ents[item.entity_index[i]].type,
                     ents[item.entity_index[j]].text, ents[item.entity_index[j]].type, label)
                    for i, j, label, _ in found])
    return out


def best_threshold(model: relations.RelationModel, items: Sequence[DocSentences]) -> tuple[float, float]:
    """(threshold, exact F1) of the best threshold of ``THRESHOLDS`` on ``items``: the probabilities
    are computed once, the choice made at each threshold."""
    golds = [gold_relations(i.doc) for i in items]
    probs = [model.probabilities(i.sentences) for i in items]
    best = (-1.0, 0.0, model.config.threshold)
    for t in THRESHOLDS:
        preds = []
        for item, ps in zip(items, probs):
            ents, found = item.doc.entities, []
            for s, p in zip(item.sentences, ps):
                pairs = [(s.entities[a], s.entities[b]) for a, b in s.pairs]
                found += relations.choose(pairs, p, model.config.labels, t)
            preds.append([(ents[item.entity_index[i]].text, ents[item.entity_index[i]].type,
                           ents[item.entity_index[j]].text, ents[item.entity_index[j]].type, label)
                          for i, j, label, _ in found])
        f1 = score_relations(golds, preds)["micro"]["f1"]
        best = max(best, (f1, -abs(t - 0.5), t))
    return best[2], best[0]


def train(spec: RelationSpec, tagger_dir: Path, out: Path | None = None,
          log: Callable[[str], None] = lambda s: print(s, file=sys.stderr, flush=True)) -> dict:
    """Train a relation model over the tagger in ``tagger_dir`` and save it beside the tagger (or in
    ``out``); returns the training log."""
    import torch

    if spec.threads:
        torch.set_num_threads(spec.threads)
    torch.manual_seed(spec.seed)
    rng = random.Random(spec.seed)
    config = spec.config
    docs = [d for d in read_docs(spec.train, holdout=spec.holdout) if d.relations]
    if not docs:
        raise KgError("no training abstracts with relations (SciERC's JSON Lines have them)")
    dev = read_docs([spec.dev]) if spec.dev else []
    model = tagger.load(tagger_dir)
    started = time.monotonic()
    train_sents = [s for item in doc_sentences(model, docs, config) for s in item.sentences]
    dev_items = doc_sentences(model, dev, config, labelled=False, pair_types=ENTITY_TYPES)
    n_pairs = sum(len(s.pairs) for s in train_sents)
    n_rel = sum(int((s.labels > 0).sum()) for s in train_sents)
    log(f"training on {len(docs)} abstracts: {len(train_sents)} sentences, {n_pairs} entity pairs, {n_rel} relations "
        f"({time.monotonic() - started:.0f} s to encode); validating on {len(dev)} abstracts")

    layers = [copy.deepcopy(layer) for layer in model.model.encoder.encoder.layer[config.split:]]
    network = relations.build_network(config, layers)
    rel_model = relations.RelationModel(config, network)
    body = [p for n, p in network.named_parameters() if n.startswith("layers.")]
    head = [p for n, p in network.named_parameters() if not n.startswith("layers.")]
    optim = torch.optim.AdamW([{"params": body, "lr": spec.learning_rate},
                               {"params": head, "lr": spec.head_learning_rate}], weight_decay=0.01)
    steps = spec.epochs * -(-len(train_sents) // spec.batch_size)
    warm = max(1, steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        optim, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm))))
    loss_fn = torch.nn.CrossEntropyLoss()
    history, best, best_state, best_t = [], -1.0, None, config.threshold
    order = list(range(len(train_sents)))
    for epoch in range(1, spec.epochs + 1):
        network.train()
        rng.shuffle(order)
        total = 0.0
        for b in range(0, len(order), spec.batch_size):
            batch = [train_sents[i] for i in order[b:b + spec.batch_size]]
            labels = torch.from_numpy(np.concatenate([s.labels for s in batch]))
            loss = loss_fn(network(batch), labels)
            optim.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), 1.0)
            optim.step()
            sched.step()
            total += loss.item() * len(batch)
        entry = {"epoch": epoch, "loss": round(total / len(order), 4), "seconds": round(time.monotonic() - started, 1)}
        if dev_items:
            t, f1 = best_threshold(rel_model, dev_items)
            entry.update(dev_f1=f1, threshold=t)
        else:
            t, f1 = config.threshold, float(epoch)
        history.append(entry)
        log(json.dumps(entry))
        if f1 > best:
            best, best_state, best_t = f1, copy.deepcopy(network.state_dict()), t
    network.load_state_dict(best_state)
    config = relations.RelationConfig.from_json({**config.to_json(), "threshold": best_t})
    folder = Path(out) if out is not None else Path(tagger_dir)
    folder.mkdir(parents=True, exist_ok=True)
    relations.save(network, config, folder)
    info = {"history": history, "abstracts": len(docs), "sentences": len(train_sents), "pairs": n_pairs,
            "relations": n_rel, "holdout": spec.holdout, "seed": spec.seed, "epochs": spec.epochs,
            "threshold": best_t, "train": [f"{p.parent.name}/{p.name}" for p in spec.train]}
    (folder / "relations-training.json").write_text(json.dumps(info, indent=2) + "\n")
    return info
