"""Entity extraction: typed Method/Task/Dataset/Metric mentions and KeyBERT key concepts.

    from kg.extract import Extractor
    ex = Extractor(use_keybert=True, workers=1)   # models load on first extract()
    for extraction in ex.extract(papers): ...
"""
from kg.extract.imports import import_spacy

import_spacy()  # before any submodule imports spaCy: see kg/extract/imports.py

from kg.extract.extractor import Extractor  # noqa: E402

__all__ = ["Extractor"]
