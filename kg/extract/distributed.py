"""Extraction on a Dask cluster (`kg build --cluster ADDRESS|local`).

Extraction is the cost that grows with a corpus, and it parallelises per abstract; Dask's
``distributed`` scheduler already does what a cluster needs (placing work, retrying a task whose
worker died, running on `dask-scheduler` + `dask-worker` hosts, dask-jobqueue or Kubernetes),
so kg only sends it partitions of papers. Each worker loads the models once, through a
``WorkerPlugin`` (``ExtractorPlugin``), and keeps them for every partition it is given.

Nothing assumes a shared file system: papers travel in the tasks and extractions come back in
their results (``Extraction`` records, relations included); a tagger given with ``--model`` is
sent to the workers as bytes. The workers need kg installed, at the client's version: every
result says which extractor made it and a mismatch is an error, since the extraction cache
is keyed by the version. The cache itself stays on the client.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

from kg.errors import KgError
from kg.records import Extraction, Paper

LOCAL = "local"
PARTITION = 32  # papers per task: enough to amortise a task's overhead, small enough to retry cheaply
IN_FLIGHT = 4  # tasks queued per worker thread: results do not pile up faster than they are stored
TAGGER_FILES = ("tagger.json", "weights.safetensors")


def check_available() -> None:
    """A KgError (one line) if Dask's distributed scheduler is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise KgError("--cluster needs Dask's distributed scheduler: pip install -e '.[dask]' "
                      "(on the workers too)") from None


try:
    from distributed import WorkerPlugin as _PluginBase
except ImportError:  # the extra is not installed: check_available says so before any use
    _PluginBase = object


class ExtractorPlugin(_PluginBase):
    """Gives each worker one ``Extractor``, its models loaded on the worker's first partition.

    ``tagger``: the files of a tagger folder (``--model``), written to a temporary folder on each
    worker; None for the tagger shipped with kg."""

    def __init__(self, use_keybert: bool, tagger: dict[str, bytes] | None = None, threads: int | None = None):
        self.use_keybert = use_keybert
        self.tagger = tagger
        self.threads = threads
        digest = hashlib.sha256(b"".join(tagger[n] for n in sorted(tagger)) if tagger else b"shipped").hexdigest()
        self.name = f"kg-extractor-{int(use_keybert)}-{digest[:12]}"
        self.extractor = None
        self._folder: str | None = None

    def setup(self, worker) -> None:
        from kg.extract import Extractor

        model = None
        if self.tagger is not None:
            self._folder = tempfile.mkdtemp(prefix="kg-tagger-")
            for name, data in self.tagger.items():
                Path(self._folder, name).write_bytes(data)
            model = self._folder
        if self.threads:
            import torch

            torch.set_num_threads(self.threads)
        self.extractor = Extractor(model=model, use_keybert=self.use_keybert, workers=1)

    def teardown(self, worker) -> None:
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)


def _extract_partition(plugin_name: str, papers: list[Paper]) -> tuple[str, list[Extraction]]:
    """Run on a worker: the extractions of ``papers``, in order, and the extractor's version."""
    from distributed import get_worker

    extractor = get_worker().plugins[plugin_name].extractor
    return extractor.version, list(extractor.extract(papers))


def extract_on_cluster(papers: Sequence[Paper], address: str, model: Path | None = None, use_keybert: bool = True,
                       progress: bool = False, workers: int = 2, partition: int = PARTITION,
                       expect_version: str | None = None) -> Iterator[Extraction]:
    """One Extraction per paper, in input order, extracted on the Dask cluster at ``address``
    (``"local"``: a ``LocalCluster`` of ``workers`` processes on this machine).

    Partitions are submitted a few per worker ahead of the one awaited, so memory stays bounded
    on both sides; a partition whose worker dies is retried by the scheduler on another.
    ``expect_version``: the client's ``Extractor.version``; a worker's other version is an error."""
    check_available()
    tagger = _tagger_files(model)
    with _client(address, workers) as client:
        n_threads = sum(client.nthreads().values()) or 1
        threads = max(1, (os.cpu_count() or 1) // workers) if address == LOCAL else None
        plugin = ExtractorPlugin(use_keybert, tagger, threads)
        client.register_plugin(plugin)
        bar = _bar(len(papers)) if progress else None
        try:
            chunks = (list(papers[i:i + partition]) for i in range(0, len(papers), partition))
            pending: deque = deque(client.submit(_extract_partition, plugin.name, c, pure=False)
                                   for c in islice(chunks, n_threads * IN_FLIGHT))
            while pending:
                version, extractions = pending.popleft().result()
                if expect_version is not None and version != expect_version:
                    raise KgError(f"the Dask workers at {address} run another kg or other models than this one "
                                  f"(extractor {version}, here {expect_version}); install the same kg on both")
                nxt = next(chunks, None)
                if nxt is not None:
                    pending.append(client.submit(_extract_partition, plugin.name, nxt, pure=False))
                if bar is not None:
                    bar.update(len(extractions))
                yield from extractions
        finally:
            if bar is not None:
                bar.close()
            for f in pending:
                f.cancel()


def _tagger_files(model: Path | None) -> dict[str, bytes] | None:
    if model is None:
        return None
    from kg.extract.tagger import check_folder

    check_folder(model)
    return {name: (Path(model) / name).read_bytes() for name in TAGGER_FILES}


@contextmanager
def _client(address: str, workers: int):
    """A client of the scheduler at ``address``, or of a LocalCluster started (and stopped) here."""
    from distributed import Client, LocalCluster

    if address == LOCAL:
        # Processes, not threads: spaCy and the tagger hold the GIL for much of their work.
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as e:
        raise KgError(f"--cluster {address}: no Dask scheduler answers there ({e})") from None
    with client:
        yield client


def _bar(total: int):
    import sys

    from tqdm import tqdm

    return tqdm(desc="extracting on the cluster", unit=" abstracts", total=total, file=sys.stderr)
