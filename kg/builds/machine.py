"""What the machine offers a build: the cores this process may run on, and memory for its workers.

``kg build`` and ``kg add`` default to ``default_workers()`` worker processes, so a plain build
uses the machine as ``--workers N`` would (on 2 cores, 2 workers build the 400 SciERC abstracts
about 1.2x faster than 1). Stages that gain nothing from processes on a small input (fewer than
128 abstracts to extract, 200 pages to write) still run in this process.
"""
from __future__ import annotations

import os

# Each extraction worker holds the models: a forked worker of a 2-worker build measured 0.82 to
# 0.85 GB resident (0.45 GB of it its own, the rest shared with the main process), and a Dask
# worker, which loads its own, about 0.6 GB; 1 GiB each, with one more for the main process.
WORKER_BYTES = 1024**3
MEMINFO = "/proc/meminfo"


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container or `taskset` limits it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows: no affinity to ask
        return os.cpu_count() or 1


def available_memory(meminfo: str = MEMINFO) -> int | None:
    """Bytes of memory new processes can have without swapping (Linux's MemAvailable); None where unknown."""
    try:
        with open(meminfo, encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_workers(cores: int | None = None, memory: int | None = None) -> int:
    """Worker processes for a build: one per usable core, but no more than the available memory
    holds at ``WORKER_BYTES`` each beside the main process; at least 1. ``cores`` and ``memory``
    default to this machine's (``usable_cores``, ``available_memory``; memory unknown: no bound)."""
    cores = usable_cores() if cores is None else cores
    memory = available_memory() if memory is None else memory
    workers = cores
    if memory is not None:
        workers = min(workers, memory // WORKER_BYTES - 1)
    return max(1, workers)
