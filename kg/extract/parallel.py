"""spaCy over several processes: in input order, with bounded memory, stopped cleanly.

spaCy's own ``nlp.pipe(n_process=N)`` is not used: on Ctrl-C its workers print
tracebacks, and its clean-up can wait forever for workers blocked writing to
pipes that every forked process holds open. Here a ``multiprocessing`` pool of
forked workers (the loaded pipeline is inherited, not reloaded) parses chunks of
texts and sends the Docs back as bytes; at most a few chunks per worker are in
flight, so a slow consumer does not make results pile up; the workers ignore
Ctrl-C and the main process terminates them when the stream ends early.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice

from spacy.tokens import Doc

from kg.util.forks import can_fork, forked_pool

__all__ = ["can_fork", "parse"]

CHUNK = 32  # texts per task
IN_FLIGHT = 4  # tasks queued per worker

# The pipeline of a worker process, set by _init when the pool forks it.
_worker_nlp = None
_worker_disable: list[str] = []


def _init(nlp, disable: list[str]) -> None:
    global _worker_nlp, _worker_disable
    _worker_nlp, _worker_disable = nlp, disable
    # One thread per process: the workers already use every core, and a thread pool the parent
    # started does not survive the fork.
    import torch

    torch.set_num_threads(1)


def _parse(texts: list[str]) -> list[bytes]:
    return [doc.to_bytes() for doc in _worker_nlp.pipe(texts, disable=_worker_disable)]


def parse(nlp, items: Iterable[tuple[str, object]], workers: int, disable: list[str]) -> Iterator[tuple[Doc, object]]:
    """(Doc, context) for each (text, context) of ``items``, in order, parsed by ``workers`` processes.

    While they run, this process's torch work (the extractor's document vectors) uses one thread:
    the workers take a core each, and torch's default of a thread per core would put more threads
    than cores to work, which wait on one another. A 500-abstract build with two workers ran at
    9.6-10.2 abstracts/s this way against 8.4-9.1 before (bench/build_throughput.py, runs
    alternated); the vectors are the same to the bit."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield from _parse_in(nlp, items, workers, disable)
    finally:
        torch.set_num_threads(threads)


def _parse_in(nlp, items: Iterable[tuple[str, object]], workers: int, disable: list[str]) -> Iterator[tuple[Doc, object]]:
    with forked_pool(workers, _init, (nlp, disable)) as pool:
        items = iter(items)
        pending: deque = deque()
        while True:
            while len(pending) < workers * IN_FLIGHT:
                chunk = list(islice(items, CHUNK))
                if not chunk:
                    break
                pending.append(([c for _, c in chunk], pool.apply_async(_parse, ([t for t, _ in chunk],))))
            if not pending:
                break
            contexts, result = pending.popleft()
            for ctx_obj, data in zip(contexts, pool.get(result)):
                yield Doc(nlp.vocab).from_bytes(data), ctx_obj
