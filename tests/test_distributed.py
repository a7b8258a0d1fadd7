"""Extraction on a Dask LocalCluster (`kg build --cluster local`): the same extractions as in one
process, and a worker killed mid-run costs nothing (the scheduler retries its partitions).

Each worker is a process that loads spaCy and the tagger (a few seconds, ~600 MB), so these
tests use a few abstracts and two workers.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

try:
    import distributed  # noqa: F401
except ImportError:  # the test extras install it; CI must run these tests, not skip them
    if os.environ.get("CI"):
        raise
    pytest.skip("needs Dask's distributed: pip install -e '.[dask]'", allow_module_level=True)

from kg.corpus import read_corpus  # noqa: E402
from kg.extract.distributed import _client, extract_on_cluster  # noqa: E402

SEEDS = Path(__file__).parent.parent / "seeds" / "iclr2025_abstracts.txt"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def papers():
    return read_corpus(SEEDS).papers[:8]


def same(a, b) -> bool:
    """Equal extractions; scores to 1e-6 (a batch of other texts may round the tagger's last bits apart)."""
    if (a.paper_id, len(a.mentions), a.relations) != (b.paper_id, len(b.mentions), b.relations):
        return False
    for m, n in zip(a.mentions, b.mentions):
        if (m.text, m.type, m.start, m.end, m.sentence) != (n.text, n.type, n.start, n.end, n.sentence) \
                or abs(m.score - n.score) > 1e-6:
            return False
    return [k for k, _ in a.key_concepts] == [k for k, _ in b.key_concepts] and all(
        abs(s - t) < 1e-6 for (_, s), (_, t) in zip(a.key_concepts, b.key_concepts))


def test_a_local_cluster_gives_the_single_process_extractions(papers, extractor):
    expected = list(extractor.extract(papers))
    got = list(extract_on_cluster(papers, "local", workers=2, partition=2, expect_version=extractor.version))
    assert [e.paper_id for e in got] == [p.id for p in papers]
    assert all(same(a, b) for a, b in zip(got, expected))


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(papers, extractor, monkeypatch):
    import kg.extract.distributed as dist

    expected = list(extractor.extract(papers))
    killed: list[int] = []

    @dist.contextmanager
    def killing_client(address, workers):
        with _client(address, workers) as client:
            def kill_a_busy_worker():
                # As soon as a worker is running a partition (loading its models, the first time), kill it hard.
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline and not killed:
                    busy = [w for w, keys in client.processing().items() if keys]
                    if busy:
                        pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                    time.sleep(0.2)

            threading.Thread(target=kill_a_busy_worker, daemon=True).start()
            yield client

    monkeypatch.setattr(dist, "_client", killing_client)
    got = list(extract_on_cluster(papers, "local", workers=2, partition=1))
    assert killed, "no worker was killed"
    assert [e.paper_id for e in got] == [p.id for p in papers]
    assert all(same(a, b) for a, b in zip(got, expected))


def test_a_build_on_the_cluster_equals_one_in_process(tmp_path, papers, extractor):
    """`kg build --cluster local`, through the pipeline: same graph as without."""
    import json

    from kg.builds.pipeline import BuildOptions, build

    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps({"id": p.id, "abstract": p.abstract}) + "\n" for p in papers[:4]))
    cached = BuildOptions(out=tmp_path / "one", views=False, cache_dir=tmp_path / "cache")
    one = build(corpus, cached)
    two = build(corpus, BuildOptions(out=tmp_path / "two", views=False, cluster="local", workers=2, cache_dir=None))
    assert one.extracted == two.extracted == 4
    assert sorted(one.graph.nodes) == sorted(two.graph.nodes)
    assert sorted(one.graph.edges) == sorted(two.graph.edges)
