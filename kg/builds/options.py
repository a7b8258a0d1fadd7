"""How a build runs: ``BuildOptions``, declared once for ``kg.build()``, ``Build.add`` and the
options of `kg build` and `kg add`, whose defaults are read from here (tests/test_api.py holds them equal).

A light module: the command line reads these defaults at start-up, before any stage is imported.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from kg.builds.cache import DEFAULT_CACHE_DIR
from kg.builds.machine import default_workers


def default_cache_dir() -> Path:
    """$KG_CACHE_DIR, else .kg-cache in the current folder (an empty $KG_CACHE_DIR is unset)."""
    return Path(os.environ.get("KG_CACHE_DIR") or DEFAULT_CACHE_DIR)


@dataclass(frozen=True)
class BuildOptions:
    """How ``build`` runs: ``kg build``'s options."""

    out: Path | None = None  # default: exports/<corpus name>
    use_keybert: bool = True
    model: Path | None = None  # a tagger folder from `kg train`; None: the shipped one
    # Dataset names known beforehand, one a line (kg.concepts.known); None: the ones kg ships.
    known_datasets: Path | None = None
    related_k: int = 10  # RELATED_TO edges stored per paper; `kg related -k K<=this` reads them
    views: bool = True
    workers: int = field(default_factory=default_workers)  # the usable cores, bounded by memory (kg.builds.machine)
    # The extraction cache (kg.builds.cache), read when the extractor's version matches: a rebuild
    # extracts only new abstracts. None: no cache, everything extracted afresh.
    cache_dir: Path | None = field(default_factory=default_cache_dir)
    progress: bool = False
    format: str | None = None  # the corpus's format (kg.corpus.FORMAT_NAMES); None: told by name and content
    # A Dask scheduler's address, or "local" for a LocalCluster here: extraction runs there
    # (kg.extract.distributed); None: in this process (and its forked `workers`).
    cluster: str | None = None
