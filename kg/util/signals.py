"""Ctrl-C held back while a block runs that must not stop halfway (``deferred_sigint``)."""
from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def deferred_sigint() -> Iterator[Callable[[], bool]]:
    """Record a Ctrl-C (SIGINT) that lands in the block instead of raising it there; the block
    gets a function telling whether one came, and the caller decides what it means once the
    block is past its critical part. Outside the main thread (where Python delivers signals) the
    block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    got: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: got.append(signum))
    try:
        yield lambda: bool(got)
    finally:
        signal.signal(signal.SIGINT, previous)
