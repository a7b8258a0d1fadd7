"""What the standard library has in later Pythons than the 3.11 kg supports."""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

if hasattr(itertools, "batched"):  # Python 3.12
    def batched(items: Iterable[T], n: int) -> Iterator[list[T]]:
        """``items`` in lists of ``n`` (the last one shorter), as ``itertools.batched`` gives them."""
        return map(list, itertools.batched(items, n))
else:
    def batched(items: Iterable[T], n: int) -> Iterator[list[T]]:
        """``items`` in lists of ``n`` (the last one shorter), as ``itertools.batched`` gives them."""
        it = iter(items)
        while batch := list(itertools.islice(it, n)):
            yield batch
