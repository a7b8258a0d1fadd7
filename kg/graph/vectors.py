"""Paper vectors: each abstract's dense embedding, kept beside the graph for the related-paper ranking.

Extraction embeds every abstract (kg.extract.docvec) and keeps the unit vector on its
``Extraction`` as float16 bytes (``Extraction.embedding``; empty when there is none: extracted
without KeyBERT, or by an older kg). The graph carries them as one graph attribute,
``g.graph[GRAPH_KEY]``: the ids of the papers that have one and their vectors as one base64
float16 block, so ``graph.json`` holds them (about 1 kB a paper) while the Paper nodes, and
with them the store, GraphML and the Neo4j exports, stay as they were.
"""
from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

GRAPH_KEY = "paper_vectors"
DTYPE = np.dtype("<f2")  # little-endian float16: cosines to about 1e-3, a quarter of float64's size


def to_bytes(vector: np.ndarray) -> bytes:
    """A vector as ``Extraction.embedding`` holds it."""
    return np.asarray(vector, dtype=np.float32).astype(DTYPE).tobytes()


def from_bytes(data: bytes) -> np.ndarray | None:
    """The float32 vector of ``Extraction.embedding`` bytes; None for none."""
    if not data:
        return None
    return np.frombuffer(data, dtype=DTYPE).astype(np.float32)


@dataclass(frozen=True)
class PaperVectors:
    """Unit vectors of some papers: ``ids[i]`` has row ``i`` of ``matrix`` (float32, one row a paper)."""

    ids: tuple[str, ...]
    matrix: np.ndarray

    def __len__(self) -> int:
        return len(self.ids)

    def row_of(self) -> dict[str, int]:
        return {p: i for i, p in enumerate(self.ids)}

    def subset(self, keep: Iterable[str]) -> PaperVectors:
        """The vectors of the papers of ``keep`` that have one, in ``keep``'s order."""
        at = self.row_of()
        ids = tuple(p for p in keep if p in at)
        return PaperVectors(ids, self.matrix[[at[p] for p in ids]] if ids else self.matrix[:0])

    @classmethod
    def from_embeddings(cls, embeddings: Mapping[str, bytes]) -> PaperVectors:
        """Of paper id -> ``Extraction.embedding``; papers without one (empty bytes) are left out, and
        so are vectors of another width than the most common (a cache mixing two models)."""
        have = {p: e for p, e in embeddings.items() if e}
        if not have:
            return cls((), np.zeros((0, 0), np.float32))
        sizes: dict[int, int] = {}
        for e in have.values():
            sizes[len(e)] = sizes.get(len(e), 0) + 1
        size = max(sizes, key=sizes.get)
        ids = tuple(p for p, e in have.items() if len(e) == size)
        block = b"".join(have[p] for p in ids)
        matrix = np.frombuffer(block, dtype=DTYPE).astype(np.float32).reshape(len(ids), -1)
        return cls(ids, matrix)

    def to_json(self) -> dict:
        return {"ids": list(self.ids), "dim": int(self.matrix.shape[1]) if len(self) else 0,
                "float16": base64.b64encode(self.matrix.astype(DTYPE).tobytes()).decode("ascii")}

    @classmethod
    def from_json(cls, data: Mapping) -> PaperVectors:
        ids = tuple(data.get("ids") or ())
        if not ids:
            return cls((), np.zeros((0, 0), np.float32))
        raw = np.frombuffer(base64.b64decode(data["float16"]), dtype=DTYPE)
        return cls(ids, raw.astype(np.float32).reshape(len(ids), int(data["dim"])))


@lru_cache(maxsize=1)
def _static_model():
    from model2vec import StaticModel

    from kg.extract.models import STATIC_DIR

    return StaticModel.from_pretrained(str(STATIC_DIR))


def static_vectors(phrases: Sequence[str]) -> np.ndarray:
    """Unit vectors of ``phrases`` by the static model KeyBERT embeds phrases with by default
    (kg/extract/models.py; the same vectors as kg.extract.keyphrases.PhraseEmbedder's): thousands
    a second, so a facet ranking computes them when it runs rather than a build keeping them."""
    vecs = np.asarray(_static_model().encode(list(phrases)), dtype=np.float32)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return vecs / np.where(norms == 0, 1, norms)


def attach(g, vectors: PaperVectors) -> None:
    """Keep ``vectors`` on graph ``g`` (``g.graph[GRAPH_KEY]``), or none when there are none."""
    if len(vectors):
        g.graph[GRAPH_KEY] = vectors.to_json()
    else:
        g.graph.pop(GRAPH_KEY, None)


def of_graph(g) -> PaperVectors | None:
    """The vectors graph ``g`` carries, of its papers only; None when it has none."""
    data = g.graph.get(GRAPH_KEY)
    if not data:
        return None
    vectors = PaperVectors.from_json(data)
    if not len(vectors):
        return None
    return vectors.subset(p for p in vectors.ids if p in g)
