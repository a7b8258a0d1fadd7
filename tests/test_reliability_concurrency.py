"""Concurrent use of one build: queries side by side, a build while a query runs.

Each either works or fails with one clear line ("store is busy"); nothing corrupts.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kg.errors import KgError
from kg.store import Store, write_store
from tests.interrupting import (
    COUNTS_QUERY, REPO, check_complete, kg, kg_env, run_crash_builds, small_corpora,
)

pytestmark = pytest.mark.slow  # kg builds and queries in subprocesses, at the same time
FLAGS = ["--quiet", "--no-keybert", "--no-cache"]
SLOW_QUERY = "MATCH (a), (b), (c) WHERE a.id < b.id AND b.id < c.id RETURN count(*) AS n"


def corpus(tmp: Path, n: int) -> Path:
    texts = [
        "We propose LoRA, a low-rank adaptation method for large language models, evaluated on GLUE.",
        "Policy Mirror Descent (PMD) is a framework for reinforcement learning, tested on MinAtar.",
        "We train a transformer for machine translation on WMT14 and report BLEU.",
        "ThinK prunes the KV cache of LLaMA and Mistral, and is compatible with KIVI.",
        "We introduce a diffusion model for image generation evaluated by FID on ImageNet.",
        "A graph neural network for molecule property prediction on QM9 with low MAE.",
    ]
    path = tmp / f"corpus{n}.txt"
    path.write_text("\n\n".join(texts[:n]) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("concurrency")
    out = tmp / "exports" / "c"
    r = kg("build", str(corpus(tmp, 5)), "--out", str(out), *FLAGS, cwd=tmp)
    assert r.returncode == 0, r.stderr
    return tmp, out


def _popen_query(query: str, out: Path, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kg", "query", query, "--db", str(out), "--format", "json"],
                            cwd=cwd, env=kg_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_queries_at_the_same_time_all_answer(built):
    tmp, out = built
    procs = [_popen_query(q, out, tmp) for q in (SLOW_QUERY, COUNTS_QUERY, SLOW_QUERY)]
    results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    assert all(rc == 0 for _, _, rc in results), [err for _, err, _ in results]
    assert results[0][0] == results[2][0]
    assert json.loads(results[0][0])[0]["n"] > 0


READER = """
import json, sys, time
from pathlib import Path
from kg.builds import open_build
from kg.store import Store, write_store
from tests.interrupting import COUNTS_QUERY
out, go = Path(sys.argv[1]), Path(sys.argv[2])
with Store(open_build(out).store_path) as s:
    first = s.query(COUNTS_QUERY).rows
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.01)
    second = s.query(COUNTS_QUERY).rows
print(json.dumps([first, second]))
"""


def test_build_while_a_query_holds_the_store_open(built):
    tmp, out = built
    before = check_complete(out, tmp)
    go = tmp / "go"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(out), str(go)], cwd=REPO, env=kg_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert reader.stdout.readline().strip() == "ready", reader.stderr.read()
    r = kg("build", str(corpus(tmp, 6)), "--out", str(out), *FLAGS, cwd=tmp)
    go.touch()
    got, err = reader.communicate(timeout=60)
    # The build either went through or said the store was busy, in one line.
    assert r.returncode == 0 or (r.returncode == 2 and "store is busy" in r.stderr and "Traceback" not in r.stderr), \
        r.stderr
    # The reader kept reading the build it opened, whole, before and after the swap.
    assert reader.returncode == 0, err
    first, second = json.loads(got.strip().splitlines()[-1])
    # Rows compared as sets: a UNION ALL has no row order (the engine varies it between runs).
    assert sorted(map(tuple, first)) == sorted(map(tuple, second)) and {k: n for k, n in first} == before.counts
    after = check_complete(out, tmp)
    assert after.manifest.papers == (6 if r.returncode == 0 else 5)


def test_queries_during_builds_answer_whole_or_say_why(built):
    tmp, out = built
    answers: list[tuple[int, str, str]] = []
    stop = threading.Event()

    def ask():
        while not stop.is_set():
            p = _popen_query(COUNTS_QUERY, out, tmp)
            o, e = p.communicate(timeout=60)
            answers.append((p.returncode, o, e))
            stop.wait(0.05)  # leave the build most of the two cores

    t = threading.Thread(target=ask)
    t.start()
    try:
        r = kg("build", str(corpus(tmp, 4)), "--out", str(out), *FLAGS, cwd=tmp)
        assert r.returncode == 0, r.stderr
    finally:
        stop.set()
        t.join(timeout=120)
    assert answers
    for rc, o, e in answers:
        assert "Traceback" not in e, e
        if rc == 0:
            counts = {row["k"]: row["n"] for row in json.loads(o)}
            assert counts["Paper"] in (4, 5, 6)  # the build before, or the new one
        else:
            assert rc == 2 and len(e.strip().splitlines()) == 1 and e.startswith("kg: error:"), e
    check_complete(out, tmp)


@pytest.mark.parametrize("step", [1, 2, 3])
def test_a_reader_opening_the_build_mid_swap_does_not_break_the_build(tmp_path, step):
    """A `kg query` that opens the build at the instant the build is swapping it in
    (before step 1, 2 or 3 of the swap) must not make that build fail."""
    from kg.builds import open_build

    c0, c1, _ = small_corpora(tmp_path)
    out = tmp_path / "exports" / "small"
    statuses = run_crash_builds([(c0, out, 0, "kill"), (c1, out, step, "read")])
    assert statuses == [0, 0], "the build failed because a reader opened the build during its swap"
    b = open_build(out)
    assert b.manifest.papers == 4 and b.graph().number_of_nodes() >= 4


LOCKER = """
import sys, time, ladybug
db = ladybug.Database(sys.argv[1], read_only=False)
conn = ladybug.Connection(db)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def test_a_store_held_for_writing_is_busy_for_writers_and_readable_for_readers(built):
    tmp, out = built
    store = tmp / "held-store"
    from kg.builds import open_build

    write_store(open_build(out).graph(), store)
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(store), "20"], env=kg_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert locker.stdout.readline().strip() == "locked", locker.stderr.read()
        with pytest.raises(KgError) as exc:
            Store(store, read_only=False)
        msg = str(exc.value)
        assert "store is busy" in msg and "\n" not in msg
        with Store(store) as s:  # read-only opens are not blocked by a writer
            assert s.query("MATCH (p:Paper) RETURN count(p)").rows[0][0] > 0
    finally:
        locker.send_signal(signal.SIGKILL)
        locker.wait()
    # Killed while holding the store open for writing: the store still opens and answers.
    with Store(store) as s:
        assert s.query("MATCH (p:Paper) RETURN count(p)").rows[0][0] > 0
    with Store(store, read_only=False) as s:
        assert s.query("MATCH (p:Paper) RETURN count(p)").rows[0][0] > 0



def test_two_builds_into_one_folder_both_finish_whole(tmp_path, monkeypatch):
    """Two builds into the same --out at once: their swaps take turns, neither fails, and what is
    left is one of them, whole."""
    import os
    import time as _time

    from kg.builds import pipeline
    from kg.builds import open_build
    from kg.records import Extraction

    real_replace = os.replace

    def slow_replace(*args, **kwargs):  # widen the window between the swap's two renames
        _time.sleep(0.2)
        return real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "replace", slow_replace)
    a, b, _ = small_corpora(tmp_path)
    out = tmp_path / "exports" / "same"
    errors: list[BaseException] = []

    def run(corpus):
        try:
            options = pipeline.BuildOptions(out=out, views=False, related_k=0, cache_dir=None)
            pipeline.build(corpus, options, extract=lambda c, o: ([Extraction(p.id) for p in c.papers], 0))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(c,)) for c in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert open_build(out).manifest.papers in (3, 4)
    assert sorted(p.name for p in out.parent.iterdir() if not p.name.endswith(".lock")) == ["same"]
