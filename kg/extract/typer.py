"""A second opinion on each mention's type: a span classifier trained on SciERC.

The transition-based NER types a span from a narrow CNN window; this
classifier looks at the span as a whole: the static MiniLM embedding (the
KeyBERT backend's) of the span text and of its syntactic head, plus hashed
words (head, first word, the words before and after, span length, the head's
dependency label and the word that governs the span: "for X" reads as a task). It is a
multinomial logistic regression over the six SciERC types and NONE (noun
chunks that are no entity), trained by scripts/train_typer.py on train.json
only. The extractor uses it where it is confident: to retype a mention, or to
drop an NER span it reads as a non-entity or an unscored SciERC term.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

TYPER_PATH = Path(__file__).with_name("model") / "typer.npz"
N_HASH = 2 ** 12


@lru_cache(maxsize=1)
def load_static():
    from model2vec import StaticModel

    from kg.extract.models import STATIC_DIR
    return StaticModel.from_pretrained(str(STATIC_DIR))


def span_info(doc, start: int, end: int, doc_text: str | None = None) -> tuple[str, ...]:
    """(span text, head word, word before, word after, two words before, the head's dependency label,
    the lemma of the word that governs the span) for a character span of a parsed Doc.

    ``doc_text`` is ``doc.text``, which spaCy rebuilds from the tokens on every access."""
    sp = doc.char_span(start, end, alignment_mode="expand")
    text = (doc.text if doc_text is None else doc_text)[start:end]
    if sp is None or not len(sp):
        return text, text.split()[-1] if text.split() else text, "<s>", "</s>", "<s>", "-", "-"
    prev = doc[sp.start - 1].text if sp.start > 0 else "<s>"
    prev2 = doc[sp.start - 2].lower_ if sp.start > 1 else "<s>"
    nxt = doc[sp.end].text if sp.end < len(doc) else "</s>"
    root = sp.root
    gov = root.head.lemma_.lower() if not sp.start <= root.head.i < sp.end else "-"
    return text, root.text, prev, nxt, prev2, root.dep_, gov


def features(infos: list[tuple[str, ...]]):
    from scipy.sparse import csr_matrix, hstack
    from sklearn.feature_extraction import FeatureHasher

    m2v = load_static()
    emb = m2v.encode([i[0] for i in infos])
    head = m2v.encode([i[1] for i in infos])
    hasher = FeatureHasher(N_HASH, input_type="string")
    words = hasher.transform([["h=" + h.lower(), "p=" + p.lower(), "n=" + nx.lower(), "len=%d" % min(len(t.split()), 6),
                               "w1=" + (t.split()[0].lower() if t.split() else ""), "p2=" + p2, "dep=" + dep,
                               "gov=" + gov, "gd=" + dep + gov]
                              for t, h, p, nx, p2, dep, gov in infos])
    return hstack([csr_matrix(emb), csr_matrix(head), words]).tocsr()


@dataclass
class SpanTyper:
    classes: list[str]
    coef: np.ndarray  # (n_classes, n_features)
    intercept: np.ndarray

    @classmethod
    def load(cls, path: Path = TYPER_PATH) -> "SpanTyper | None":
        if not path.exists():
            return None
        z = np.load(path, allow_pickle=False)
        return cls([str(c) for c in z["classes"]], z["coef"].astype(np.float32), z["intercept"].astype(np.float32))

    def save(self, path: Path = TYPER_PATH) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, classes=np.array(self.classes), coef=self.coef.astype(np.float16),
                            intercept=self.intercept.astype(np.float32))

    def proba(self, infos: list[tuple[str, ...]]) -> np.ndarray:
        if not infos:
            return np.zeros((0, len(self.classes)), dtype=np.float32)
        logits = features(infos) @ self.coef.T + self.intercept
        logits = np.asarray(logits)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)


def weights_digest() -> str:
    import hashlib
    return hashlib.sha256(TYPER_PATH.read_bytes()).hexdigest()[:12] if TYPER_PATH.exists() else "no-typer"


@lru_cache(maxsize=1)
def load_typer() -> SpanTyper | None:
    return SpanTyper.load()
