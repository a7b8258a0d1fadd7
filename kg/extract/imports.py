"""Importing spaCy and KeyBERT without the optional deep-learning support kg never uses.

thinc (under spaCy) sets up its PyTorch shims whenever torch is installed, and KeyBERT's
package imports transformers and sentence-transformers for its LLM helpers: code kg's
pipelines never call (the entity tagger runs torch itself; KeyBERT embeds with Model2Vec).
Those optional imports are made to fail while spaCy or KeyBERT is first imported, so each
library takes its own "not installed" path, and ``kg --help`` or a query never pays for
them. A package already imported is left alone, and nothing stays hidden afterwards:
importing torch later works.
"""
from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()


@contextmanager
def hidden(*names: str) -> Iterator[None]:
    """While inside, ``import NAME`` raises ModuleNotFoundError for each name not yet imported."""
    with _lock:
        masked = [n for n in names if n not in sys.modules]
        for n in masked:
            sys.modules[n] = None  # type: ignore[assignment]  # the import system's "not found" marker
        try:
            yield
        finally:
            for n in masked:
                if sys.modules.get(n, False) is None:
                    del sys.modules[n]


def import_spacy():
    """``spacy``, imported without torch (thinc's optional PyTorch support)."""
    with hidden("torch"):
        import spacy
    return spacy


def import_keybert():
    """``keybert.KeyBERT``, imported without transformers and sentence-transformers."""
    with hidden("transformers", "sentence_transformers"):
        from keybert import KeyBERT
    return KeyBERT
