"""Training the entity tagger (``kg train``) on annotated abstracts, and held-out folds of them.

Training data is any mix of gold files ``kg eval`` reads (SciERC's JSON Lines, SciREX's, which
has the same format, or the generic ``{"text", "entities"}`` format), plus optionally windows
of full papers in SciREX's format (``fulltext.jsonl.gz``). One validation file picks the epoch
whose model scores best (micro F1 over Method, Task and Dataset, exact + partial), and the
tagger of that epoch is saved.

Folds make held-out figures: ``fold_of(doc_key)`` puts each abstract in one of five folds by a
hash of its key, and ``TrainingSpec.holdout`` leaves one fold out of every training file, full
text included (a SciREX paper's full text holds its abstract).
"""
from __future__ import annotations

import copy
import gzip
import hashlib
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import KgError
from kg.evaluate import score
from kg.records import ENTITY_TYPES
from kg.extract import bio, tagger
from kg.corpus.scierc import ScierDoc, parse_scierc, read_gold

FOLDS = 5


def fold_of(doc_key: str) -> int:
    """The fold (0-4) an abstract belongs to: a hash of its key, so it never depends on file order."""
    return int(hashlib.sha1(doc_key.encode()).hexdigest(), 16) % FOLDS


@dataclass(frozen=True)
class TrainingSpec:
    """What ``train`` reads and how it trains; every field has the value kg's shipped model used."""

    train: tuple[Path, ...]
    dev: Path | None = None
    fulltext: tuple[Path, ...] = ()
    fulltext_windows: int = 200  # windows of full text drawn (seeded) beside the abstracts
    holdout: int | None = None  # a fold of every training file left out
    epochs: int = 7
    batch_size: int = 8
    learning_rate: float = 1e-4
    head_learning_rate: float = 1e-3
    warmup: float = 0.1  # share of the steps over which the learning rate rises
    seed: int = 0
    threads: int | None = None
    config: tagger.TaggerConfig = field(default_factory=tagger.TaggerConfig)


def read_docs(paths: Iterable[Path], holdout: int | None = None, keep: int | None = None) -> list[ScierDoc]:
    """The abstracts of gold files; with ``holdout`` without that fold, with ``keep`` only that fold."""
    out = []
    for path in paths:
        for doc in read_gold(path):
            f = fold_of(doc.doc_key)
            if (holdout is not None and f == holdout) or (keep is not None and f != keep):
                continue
            out.append(doc)
    return out


def read_fulltext(paths: Iterable[Path], holdout: int | None = None) -> list[ScierDoc]:
    """Whole papers in SciREX's format (gzip or not), without those of the held-out fold."""
    out = []
    for path in paths:
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except ValueError as exc:
                    raise KgError(f"{path}:{lineno}: not JSON ({exc})") from None
                if not isinstance(obj, dict) or not isinstance(obj.get("sentences"), list):
                    raise KgError(f"{path}:{lineno}: not a paper in SciREX's format (no 'sentences' list)")
                if holdout is not None and fold_of(str(obj.get("doc_key", ""))) == holdout:
                    continue
                out.append(parse_scierc(obj, f"{path}:{lineno}"))
    return out


def _gold_spans(doc: ScierDoc, labels: Sequence[str]) -> list[tuple[int, int, str]]:
    if doc.token_spans:  # SciERC's format: every mention has its offsets
        spans = [(e.start, e.end, e.type) for e in doc.entities if e.type in labels and e.end > e.start]
    else:
        # The generic format names each entity once: every whole-word occurrence of its text is a
        # mention (else a second "BERT" would be trained as no entity, or "BERT" found in "RoBERTa").
        spans = [(m.start(), m.end(), e.type) for e in doc.entities if e.type in labels and e.text
                 for m in re.finditer(r"(?<!\w)" + re.escape(e.text) + r"(?!\w)", doc.text)]
    # Where gold nests, the graph's types first, then the longer span.
    return bio.non_overlapping(spans, prefer=ENTITY_TYPES)


def encode_docs(model: tagger.Tagger, docs: Sequence[ScierDoc]) -> list[tagger.Encoded]:
    """Training windows with their tags."""
    windows = model.windows([d.text for d in docs])
    tagset = model.config.tagset
    for w in windows:
        w.labels = bio.encode(w.offsets, _gold_spans(docs[w.text_index], tagset.labels), tagset)
    return windows


def _batches(windows: list, size: int, rng: random.Random) -> list[list]:
    """Batches of windows of similar length (less padding), in random order."""
    order = sorted(range(len(windows)), key=lambda i: (len(windows[i].input_ids), rng.random()))
    batches = [[windows[i] for i in order[b:b + size]] for b in range(0, len(order), size)]
    rng.shuffle(batches)
    return batches


def predictions(model: tagger.Tagger, docs: Sequence[ScierDoc]) -> list[list[tuple[str, str]]]:
    """(text, type) of the tagger's spans in each document, graph types only."""
    out = []
    for doc, spans in zip(docs, model.predict([d.text for d in docs])):
        out.append([(doc.text[s.start:s.end], s.label) for s in spans])
    return out


def score_docs(model: tagger.Tagger, docs: Sequence[ScierDoc]) -> dict[str, float]:
    """Micro F1 (Method + Task + Dataset) of the tagger alone, exact and partial."""
    preds = predictions(model, docs)
    golds = [[(e.text, e.type) for e in d.entities] for d in docs]
    return {m: score(golds, preds, m)["micro"]["f1"] for m in ("exact", "partial")}


def _short(path: Path) -> str:
    """A training file as its folder and name ("scierc/train.json"): no machine paths in a shipped model."""
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name


def train(spec: TrainingSpec, out: Path, log: Callable[[str], None] = lambda s: print(s, file=sys.stderr),
          progress: bool = False) -> dict:
    """Train a tagger as ``spec`` says and save the best epoch's to ``out``; returns the training log.
    ``log`` gets a line per epoch (its loss and dev figures); ``progress`` draws a bar of its steps."""
    import torch
    from tqdm import tqdm

    if spec.threads:
        torch.set_num_threads(spec.threads)
    torch.manual_seed(spec.seed)
    rng = random.Random(spec.seed)

    docs = read_docs(spec.train, holdout=spec.holdout)
    if not docs:
        raise KgError("no training abstracts (are the training files empty, or all in the held-out fold?)")
    dev = read_docs([spec.dev]) if spec.dev else []
    model = tagger.Tagger(spec.config, tagger.build_model(spec.config), tagger.load_tokenizer())
    windows = encode_docs(model, docs)
    if spec.fulltext:
        papers = read_fulltext(spec.fulltext, holdout=spec.holdout)
        extra = encode_docs(model, papers)
        rng.shuffle(extra)
        windows += extra[:spec.fulltext_windows]
    log(f"training on {len(docs)} abstracts, {len(windows)} windows; validating on {len(dev)} abstracts")

    net = model.model
    for name, p in net.named_parameters():
        p.requires_grad = name not in tagger.FROZEN
    head = [p for n, p in net.named_parameters() if p.requires_grad and not n.startswith("encoder.")]
    body = [p for n, p in net.named_parameters() if p.requires_grad and n.startswith("encoder.")]
    optim = torch.optim.AdamW([{"params": body, "lr": spec.learning_rate},
                               {"params": head, "lr": spec.head_learning_rate}], weight_decay=0.01)
    steps = spec.epochs * -(-len(windows) // spec.batch_size)
    warm = max(1, int(spec.warmup * steps))
    sched = torch.optim.lr_scheduler.LambdaLR(
        optim, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm))))
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=bio.IGNORE)
    history, best, best_state = [], -1.0, None
    started = time.monotonic()
    for epoch in range(1, spec.epochs + 1):
        net.train()
        total = 0.0
        for batch in tqdm(_batches(windows, spec.batch_size, rng), desc=f"epoch {epoch}/{spec.epochs}", unit=" steps",
                          file=sys.stderr, leave=False, disable=not progress):
            ids, mask, shapes, labels = tagger.collate(batch, model.tokenizer.pad_token_id, with_labels=True)
            logits = net(ids, mask, shapes)
            loss = loss_fn(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
            optim.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optim.step()
            sched.step()
            total += loss.item()
        entry = {"epoch": epoch, "loss": round(total / max(1, len(windows) / spec.batch_size), 4),
                 "seconds": round(time.monotonic() - started, 1)}
        if dev:
            entry["dev"] = score_docs(model, dev)
            quality = entry["dev"]["exact"] + entry["dev"]["partial"]
        else:
            quality = epoch  # no validation: the last epoch
        history.append(entry)
        log(json.dumps(entry))
        if quality > best:
            best, best_state = quality, copy.deepcopy(net.state_dict())
    net.load_state_dict(best_state)
    tagger.save(net, spec.config, out)
    info = {"history": history, "abstracts": len(docs), "windows": len(windows), "holdout": spec.holdout,
            "seed": spec.seed, "epochs": spec.epochs, "train": [_short(p) for p in spec.train],
            "fulltext": [_short(p) for p in spec.fulltext], "fulltext_windows": spec.fulltext_windows}
    (Path(out) / "training.json").write_text(json.dumps(info, indent=2) + "\n")
    return info
