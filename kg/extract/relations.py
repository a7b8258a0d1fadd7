"""The relation model: which of SciERC's relations a sentence states between two of its entities.

It shares the entity tagger's encoder (kg/extract/tagger.py) up to layer ``split`` and has its own
copy of the layers above, fine-tuned for relations. Entities are marked in its input: each piece of
an entity gets a learned embedding of its type (first piece and the rest apart) added to the shared
layer's state, so the upper layers read "[Method] is used for [Task]" and not plain words. One pass
per sentence marks every entity of the sentence at once.

For an ordered pair (head, tail) of entities of a sentence, a two-layer network reads each span's
first, last and mean piece states and its type, the states between them (max-pooled), their
distance in pieces and their order, and scores "no relation" and each of SciERC's seven labels.
Both orders of a pair are scored; the pair gets the single best label over both when its
probability reaches ``threshold`` (SciERC states at most one relation per pair).

Saved in a tagger's folder as ``relations.json`` and ``relations.safetensors``; ``kg
train-relations`` writes them (kg/extract/relation_training.py).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from kg.records import RELATION_LABELS

CONFIG = "relations.json"
WEIGHTS = "relations.safetensors"
BATCH = 64  # most sentences of one text per pass at prediction
# Distance between two spans, in word pieces: buckets' lower bounds.
DISTANCES = (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48)


@dataclass(frozen=True)
class RelationConfig:
    labels: tuple[str, ...] = RELATION_LABELS
    entity_labels: tuple[str, ...] = ("Method", "Task", "Dataset", "Metric", "OtherScientificTerm", "Generic")
    split: int = 1  # the tagger's layers shared; the ones above are the relation model's own copy
    hidden_size: int = 384  # the tagger encoder's
    width: int = 256
    dropout: float = 0.1
    threshold: float = 0.5  # least probability of a relation for it to be stated

    @property
    def extra(self) -> int:
        """Features of a pair besides piece states: two types, the distance bucket and the order."""
        return 2 * len(self.entity_labels) + len(DISTANCES) + 1

    @property
    def features(self) -> int:
        return 2 * 3 * self.hidden_size + self.hidden_size + self.extra

    def to_json(self) -> dict:
        return {**asdict(self), "labels": list(self.labels), "entity_labels": list(self.entity_labels)}

    @classmethod
    def from_json(cls, obj: dict) -> RelationConfig:
        obj = {k: v for k, v in obj.items() if k in cls.__dataclass_fields__}
        for key in ("labels", "entity_labels"):
            if key in obj:
                obj[key] = tuple(obj[key])
        return cls(**obj)


@dataclass(frozen=True)
class SpanRef:
    """An entity span as the relation model sees it: its characters, type and sentence (an index
    into the sentences given beside it)."""

    start: int
    end: int
    label: str
    sentence: int


@dataclass
class Sentence:
    """One sentence ready for the network: its pieces' shared states, the entity marks, and the
    candidate pairs with their spans (piece ranges within the sentence) and fixed features."""

    states: np.ndarray  # (pieces, hidden)
    marks: np.ndarray  # (pieces,) 0: no entity, else 1 + 2 * type (first piece) or 2 + 2 * type
    ranges: list[tuple[int, int]]  # per entity of the sentence
    entities: list[int]  # the caller's index of each entity
    pairs: list[tuple[int, int]]  # ordered pairs of positions in ``ranges``
    extra: np.ndarray  # (pairs, config.extra)
    labels: np.ndarray | None = None  # training: 0 none, k + 1 for config.labels[k]


def piece_range(offsets: Sequence[tuple[int, int]], start: int, end: int) -> tuple[int, int] | None:
    """The pieces (first, last + 1) that overlap characters [start, end), or None."""
    idx = [i for i, (s, e) in enumerate(offsets) if s < end and e > start]
    return (idx[0], idx[-1] + 1) if idx else None


def _distance(gap: int) -> np.ndarray:
    out = np.zeros(len(DISTANCES), dtype=np.float32)
    out[max(i for i, d in enumerate(DISTANCES) if gap >= d)] = 1.0
    return out


def sentences(states: np.ndarray, offsets: Sequence[tuple[int, int]], spans: Sequence[SpanRef],
              sentence_spans: Sequence[tuple[int, int]], config: RelationConfig,
              pair_types: Sequence[str] | None = None) -> list[Sentence]:
    """The sentences of one text that hold two entities or more, ready for the network; with
    ``pair_types``, only pairs of spans of those types are candidates (every span is still marked:
    a prediction reads the graph's types alone, and a pair's probabilities do not depend on others)."""
    n_types = len(config.entity_labels)
    by_sentence: dict[int, list[int]] = {}
    for i, s in enumerate(spans):
        if s.label in config.entity_labels:
            by_sentence.setdefault(s.sentence, []).append(i)
    out = []
    for sid, members in sorted(by_sentence.items()):
        if len(members) < 2 or not 0 <= sid < len(sentence_spans):
            continue
        window = piece_range(offsets, *sentence_spans[sid])
        if window is None:
            continue
        lo, hi = window
        ranges, entities = [], []
        marks = np.zeros(hi - lo, dtype=np.int64)
        for i in members:
            r = piece_range(offsets[lo:hi], spans[i].start, spans[i].end)
            if r is None:
                continue
            t = config.entity_labels.index(spans[i].label)
            marks[r[0]:r[1]] = 2 + 2 * t
            marks[r[0]] = 1 + 2 * t
            ranges.append(r)
            entities.append(i)
        pairs = [(a, b) for a in range(len(ranges)) for b in range(len(ranges)) if a != b and (
            pair_types is None or (spans[entities[a]].label in pair_types and spans[entities[b]].label in pair_types))]
        if not pairs:
            continue
        extra = np.zeros((len(pairs), config.extra), dtype=np.float32)
        for k, (a, b) in enumerate(pairs):
            (a1, b1), (a2, b2) = ranges[a], ranges[b]
            extra[k, config.entity_labels.index(spans[entities[a]].label)] = 1.0
            extra[k, n_types + config.entity_labels.index(spans[entities[b]].label)] = 1.0
            gap = max(0, (a2 - b1) if a1 <= a2 else (a1 - b2))
            extra[k, 2 * n_types:2 * n_types + len(DISTANCES)] = _distance(gap)
            extra[k, -1] = float(a1 <= a2)
        out.append(Sentence(states[lo:hi], marks, ranges, entities, pairs, extra))
    return out


def build_network(config: RelationConfig, layers=None):
    """The relation network; ``layers``: the tagger's encoder layers above ``split`` to start from."""
    import torch
    from torch import nn

    class RelationNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            if layers is None:
                from kg.extract.encoder import EncoderConfig, Layer, base_path

                cfg = EncoderConfig.from_file(base_path() / "config.json")
                # Eager attention: what transformers' BertLayer built from a bare config ran, so
                # relation scores, cached extractions among them, are what they were.
                self.layers = nn.ModuleList(Layer(cfg, eager=True) for _ in range(cfg.num_hidden_layers - config.split))
            else:
                self.layers = nn.ModuleList(layers)
            self.marks = nn.Embedding(1 + 2 * len(config.entity_labels), config.hidden_size)
            nn.init.normal_(self.marks.weight, std=0.02)
            with torch.no_grad():
                self.marks.weight[0].zero_()
            self.head = nn.Sequential(
                nn.Dropout(config.dropout),
                nn.Linear(config.features, config.width),
                nn.GELU(),
                nn.Dropout(config.dropout),
                nn.Linear(config.width, len(config.labels) + 1),  # class 0: no relation
            )

        def forward(self, batch: Sequence[Sentence]):
            """Logits of every candidate pair of the batch's sentences, in order."""
            n = max(len(s.marks) for s in batch)
            h = torch.zeros((len(batch), n, config.hidden_size))
            marks = torch.zeros((len(batch), n), dtype=torch.long)
            mask = torch.zeros((len(batch), n))
            for i, s in enumerate(batch):
                h[i, :len(s.marks)] = torch.from_numpy(s.states)
                marks[i, :len(s.marks)] = torch.from_numpy(s.marks)
                mask[i, :len(s.marks)] = 1.0
            x = h + self.marks(marks)
            ext = (1.0 - mask[:, None, None, :]) * torch.finfo(torch.float32).min
            for layer in self.layers:
                x = layer(x, attention_mask=ext)
            return self.head(self.pair_rows(x, batch))

        def pair_rows(self, x, batch: Sequence[Sentence]):
            """The pair network's input for every candidate pair, computed for all pairs at once."""
            span_sent, span_a, span_b, first_span = [], [], [], []
            for i, s in enumerate(batch):
                first_span.append(len(span_sent))
                for a, b in s.ranges:
                    span_sent.append(i)
                    span_a.append(a)
                    span_b.append(b)
            si, sa, sb = (torch.tensor(v) for v in (span_sent, span_a, span_b))
            csum = torch.cat([x.new_zeros((x.shape[0], 1, x.shape[2])), x.cumsum(dim=1)], dim=1)
            mean = (csum[si, sb] - csum[si, sa]) / (sb - sa).unsqueeze(1).to(x.dtype)
            reps = torch.cat([x[si, sa], x[si, sb - 1], mean], dim=1)
            heads, tails, sent, lo, hi = [], [], [], [], []
            for i, s in enumerate(batch):
                for p, q in s.pairs:
                    (a1, b1), (a2, b2) = s.ranges[p], s.ranges[q]
                    heads.append(first_span[i] + p)
                    tails.append(first_span[i] + q)
                    sent.append(i)
                    lo.append(b1 if a1 <= a2 else b2)
                    hi.append(a2 if a1 <= a2 else a1)
            sent_t, lo_t, hi_t = torch.tensor(sent), torch.tensor(lo), torch.tensor(hi)
            # The states between the two spans, max-pooled (zeros where they touch).
            pos = torch.arange(x.shape[1])
            inside = (pos[None, :] >= lo_t[:, None]) & (pos[None, :] < hi_t[:, None])
            between = x[sent_t].masked_fill(~inside[:, :, None], float("-inf")).max(dim=1).values
            between = torch.where((hi_t > lo_t)[:, None], between, torch.zeros_like(between))
            extra = torch.from_numpy(np.concatenate([s.extra for s in batch]))
            return torch.cat([reps[torch.tensor(heads)], reps[torch.tensor(tails)], between, extra], dim=1)

    return RelationNet()


def choose(pairs: Sequence[tuple[int, int]], probs: np.ndarray, labels: Sequence[str],
           threshold: float) -> list[tuple[int, int, str, float]]:
    """At most one relation per unordered pair: its best label over both orders, if likely enough."""
    best: dict[frozenset, tuple[float, int, int, str]] = {}
    for (i, j), row in zip(pairs, probs):
        k = int(np.argmax(row[1:])) + 1
        p = float(row[k])
        key = frozenset((i, j))
        if p >= threshold and (key not in best or p > best[key][0]):
            best[key] = (p, i, j, labels[k - 1])
    return sorted((i, j, label, round(p, 4)) for p, i, j, label in best.values())


class RelationModel:
    """A loaded relation model: ``predict`` gives (head, tail, label, score) among a text's spans."""

    def __init__(self, config: RelationConfig, network) -> None:
        self.config = config
        self.network = network

    def probabilities(self, batch: Sequence[Sentence]) -> list[np.ndarray]:
        """Per sentence, the probabilities of its pairs (columns: none, then ``config.labels``)."""
        import torch

        if not batch:
            return []
        self.network.eval()
        with torch.inference_mode():
            probs = torch.softmax(self.network(batch), dim=-1).numpy()
        out, k = [], 0
        for s in batch:
            out.append(probs[k:k + len(s.pairs)])
            k += len(s.pairs)
        return out

    def relations(self, batch: Sequence[Sentence], threshold: float | None = None) -> list[tuple[int, int, str, float]]:
        """The relations of prepared sentences, as the callers' entity indices."""
        threshold = self.config.threshold if threshold is None else threshold
        out = []
        for s, probs in zip(batch, self.probabilities(batch)):
            pairs = [(s.entities[a], s.entities[b]) for a, b in s.pairs]
            out += choose(pairs, probs, self.config.labels, threshold)
        return sorted(out)

    def predict(self, states: np.ndarray, offsets: Sequence[tuple[int, int]], spans: Sequence[SpanRef],
                sentence_spans: Sequence[tuple[int, int]]) -> list[tuple[int, int, str, float]]:
        """The relations among ``spans`` (indices into it) of one text, from the tagger's states at
        layer ``split`` (``Tagger.encode(..., layer=config.split)``)."""
        return self.relations(sentences(states, offsets, spans, sentence_spans, self.config))

    def predict_many(self, texts: Sequence[list[Sentence]]) -> list[list[tuple[int, int, str, float]]]:
        """``relations`` for the prepared sentences of several texts. Each text's sentences run
        through the network as their own batch: a text's scores then never depend on which texts
        were extracted beside it (a cached extraction equals a fresh one to the last digit)."""
        out = []
        for sents in texts:
            found: list[tuple[int, int, str, float]] = []
            for b in range(0, len(sents), BATCH):
                found += self.relations(sents[b:b + BATCH])
            out.append(sorted(found))
        return out


def save(network, config: RelationConfig, folder: str | Path) -> None:
    from safetensors.torch import save_file

    folder = Path(folder)
    state = {k: v.detach().to("cpu").half().contiguous() for k, v in network.state_dict().items()}
    save_file(state, str(folder / WEIGHTS))
    (folder / CONFIG).write_text(json.dumps(config.to_json(), indent=2) + "\n")


def exists(folder: str | Path) -> bool:
    return (Path(folder) / CONFIG).is_file() and (Path(folder) / WEIGHTS).is_file()


def load(folder: str | Path) -> RelationModel | None:
    """The relation model saved beside a tagger, or None where the folder has none; a KgError (one
    line) when it is there but does not load."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    from kg.errors import KgError

    path = Path(folder)
    if not exists(path):
        return None
    try:
        config = RelationConfig.from_json(json.loads((path / CONFIG).read_text()))
        network = build_network(config)
        network.load_state_dict({k: v.float() for k, v in load_file(str(path / WEIGHTS)).items()})
    except (ValueError, TypeError, KeyError, RuntimeError, SafetensorError) as exc:
        raise KgError(f"{path}: not a relation model kg can load ({exc})") from None
    network.eval()
    return RelationModel(config, network)
