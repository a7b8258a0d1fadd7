"""An Extractor in a forked process that loads its models as soon as it starts.

`kg add` reads the build's records and the added corpus before it knows which papers are new,
and loading the models (spaCy, the tagger, KeyBERT's embedder: seconds) need not wait for that.
Both are Python work, so a thread would not overlap them (the GIL); a process forked before
either starts loads the models beside the reading. Papers go to it and extractions come back
pickled, a chunk at a time. When nothing turns out to need extracting, the process is ended
where it is, models loaded or not.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from kg.util.compat import batched
from kg.util.forks import ForkedPool, can_fork, forked_pool
from kg.records import Extraction, Paper

CHUNK = 64  # papers per task: the progress bar moves a chunk at a time

# The Extractor of the worker process, set when the pool forks it.
_worker_extractor = None


def _load(extractor, torch_in_parent: bool) -> None:
    global _worker_extractor
    if torch_in_parent:
        # One thread, as in kg.extract.parallel's workers: a thread pool torch started in the
        # parent does not survive the fork. `kg add` forks before torch is imported; a notebook may not.
        import torch

        torch.set_num_threads(1)
    extractor.load()
    _worker_extractor = extractor


def _extract(papers: list[Paper]) -> list[Extraction]:
    return list(_worker_extractor.extract(papers))


class BackgroundExtractor:
    """The ``extract`` and ``version`` of an Extractor running in ``background_extractor``'s process."""

    def __init__(self, pool: ForkedPool, extractor) -> None:
        self._pool = pool
        self._extractor = extractor

    @property
    def version(self) -> str:
        return self._extractor.version

    def extract(self, papers: Sequence[Paper], progress: bool = False) -> Iterator[Extraction]:
        """One Extraction per paper, in input order (``progress``: a bar on stderr)."""
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(desc="extracting", unit=" abstracts", total=len(papers), file=sys.stderr)
        try:
            for chunk in batched(papers, CHUNK):
                done = self._pool.get(self._pool.apply_async(_extract, (list(chunk),)))
                if bar is not None:
                    bar.update(len(done))
                yield from done
        finally:
            if bar is not None:
                bar.close()


@contextmanager
def background_extractor(extractor) -> Iterator[BackgroundExtractor | None]:
    """``extractor`` (one process's: its ``workers`` are not used) in a forked process that starts
    loading its models now; None where processes cannot be forked. The process is ended when the
    block ends, also when it never asked for an extraction."""
    if not can_fork():
        yield None
        return
    with forked_pool(1, _load, (extractor, "torch" in sys.modules)) as pool:
        try:
            yield BackgroundExtractor(pool, extractor)
        finally:
            # Not closed and joined: that would wait for a load that may no longer be needed.
            pool.pool.terminate()
