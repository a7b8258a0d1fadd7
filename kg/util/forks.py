"""Pools of forked worker processes, which inherit what they work on instead of receiving it.

Forking shares large inputs (a loaded spaCy pipeline, a whole graph) copy-on-write
instead of pickling them to each worker. Workers ignore Ctrl-C: the main process
handles it and terminates them, so an interrupted build prints no traceback per
worker and leaves none running. A worker that dies (killed for memory, say) is an
error in the main process: ``multiprocessing.Pool`` would replace it and wait
forever for the task it lost.
"""
from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from kg.errors import KgError

POLL_S = 0.5  # how often a wait looks whether the workers are still alive

# The job of a worker process of run(), set by _init_job when the pool forks it.
_worker_job: Callable[[Any], int] | None = None


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _ignore_sigint(initializer: Callable, *args: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process handles Ctrl-C
    initializer(*args)


class ForkedPool:
    """A ``multiprocessing`` pool whose waits fail, rather than hang, when a worker dies."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        # The processes forked at the start: none ends before the pool closes, so one that has
        # ended died (the pool would start another and lose the task it was running).
        self._workers = list(pool._pool)

    def apply_async(self, fn: Callable, args: tuple) -> Any:
        return self.pool.apply_async(fn, args)

    def get(self, result: Any) -> Any:
        while True:
            try:
                return result.get(timeout=POLL_S)
            except multiprocessing.TimeoutError:
                self._check()

    def imap_unordered(self, fn: Callable, items: Iterable) -> Iterator:
        it = self.pool.imap_unordered(fn, items)
        while True:
            try:
                yield it.next(timeout=POLL_S)
            except StopIteration:
                return
            except multiprocessing.TimeoutError:
                self._check()

    def _check(self) -> None:
        dead = [w.exitcode for w in self._workers if w.exitcode is not None]
        if dead:
            raise KgError(f"a worker process died (exit status {dead[0]}; out of memory?); "
                          "try again with fewer --workers")


@contextmanager
def forked_pool(workers: int, initializer: Callable, initargs: tuple = ()) -> Iterator[ForkedPool]:
    """``workers`` forked processes; closed and joined on success, terminated on an error, on
    Ctrl-C or when the caller stops early."""
    ctx = multiprocessing.get_context("fork")
    got: list[int] = []
    main = threading.current_thread() is threading.main_thread()
    # A Ctrl-C while the workers are forked is kept for the line after (not lost, no traceback).
    previous = signal.signal(signal.SIGINT, lambda s, f: got.append(s)) if main else None
    try:
        pool = ctx.Pool(workers, initializer=_ignore_sigint, initargs=(initializer, *initargs))
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    try:
        if got:
            raise KeyboardInterrupt
        yield ForkedPool(pool)
        pool.close()
        pool.join()
    finally:
        pool.terminate()  # a no-op after close/join


def _init_job(job: Callable[[Any], int]) -> None:
    global _worker_job
    _worker_job = job


def _call_job(chunk: Any) -> int:
    return _worker_job(chunk)


def run(job: Callable[[Any], int], chunks: Sequence[Any], workers: int) -> int:
    """``sum(job(c) for c in chunks)``, computed by ``workers`` forked processes; a worker's
    exception is raised again here."""
    with forked_pool(workers, _init_job, (job,)) as pool:
        return sum(pool.imap_unordered(_call_job, chunks))
