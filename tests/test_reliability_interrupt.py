"""Interrupted builds never lose or corrupt a graph.

Two kinds of evidence:

* the real ``kg build`` command, in a subprocess, killed with SIGINT and SIGKILL at
  moments found by watching the file system (start-up, the extraction cache being
  written, the new build folder being written, the embedded store being written);
* the folder swap at the end of a build, killed before each of its file-system steps,
  once and twice in a row (a cheap stand-in extraction, the real writers).

After every kill the previous build must be complete (manifest, graph.json and the
embedded store agree, `kg query` works), every cache entry must parse, a Ctrl-C must
print one line and no traceback, and the next build must succeed. The machinery is in
tests/interrupting.py, which bench/reliability.py reuses to run many more kills.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.interrupting import (
    BUILD_FLAGS, MOMENTS, SEED, KillResult, check_cache, check_complete, check_interrupt_message, default_sigint,
    kg, kg_env, kill_at, papers_in, run_crash_builds, small_corpora, temp_builds, variant,
)


pytestmark = pytest.mark.slow  # builds in other processes, killed

# --- the real command, killed --------------------------------------------------------------------

@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A first complete build of the seed corpus, and the cache it filled."""
    tmp = tmp_path_factory.mktemp("interrupt")
    out, cache = tmp / "exports" / "seed", tmp / "cache"
    r = kg("build", str(SEED), "--out", str(out), "--cache", str(cache), *BUILD_FLAGS, cwd=tmp)
    assert r.returncode == 0, r.stderr
    return {"tmp": tmp, "out": out, "cache": cache, "before": check_complete(out, tmp)}


@pytest.mark.slow
@pytest.mark.parametrize("n,moment", list(enumerate(MOMENTS, 1)), ids=[f"{m.signal.name}-{m.name}" for m in MOMENTS])
def test_killed_build_leaves_previous_build_whole(workspace, n, moment):
    tmp, out, cache = workspace["tmp"], workspace["out"], workspace["cache"]
    stale = set(temp_builds(out))  # left by earlier SIGKILLs, which allow no clean-up
    r = kill_at(moment, variant(tmp, n), out, cache, tmp)
    assert r.hit, f"the build finished before it was {moment.name}; the test did not interrupt it"
    if moment.signal == signal.SIGINT:
        check_interrupt_message(r)
        assert set(temp_builds(out)) <= stale, "an interrupted build left its temporary folder behind"
    else:
        assert r.returncode == -signal.SIGKILL
    assert check_complete(out, tmp) == workspace["before"], f"killed while {moment.name}: previous build changed"
    check_cache(cache)


@pytest.mark.slow
def test_next_build_succeeds_and_equals_a_fresh_build(workspace):
    tmp, out, cache = workspace["tmp"], workspace["out"], workspace["cache"]
    corpus = variant(tmp, 2)  # the corpus whose build was killed while writing the cache
    r = kg("build", str(corpus), "--out", str(out), "--cache", str(cache), *BUILD_FLAGS, cwd=tmp)
    assert r.returncode == 0, r.stderr
    after = check_complete(out, tmp)
    assert after.manifest.papers == workspace["before"].manifest.papers + 1
    entries, _ = check_cache(cache)
    assert entries >= 2 * after.manifest.papers
    # Cache entries written by killed builds give the same graph as extracting afresh.
    fresh = tmp / "exports" / "fresh"
    r = kg("build", str(corpus), "--out", str(fresh), "--no-cache", *BUILD_FLAGS, cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert json.loads(after.graph_json) == json.loads((fresh / "graph.json").read_bytes())


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _ctrl_c_once_children_run(args: list[str], cwd: Path, children: int, moment: str, settle: float) -> None:
    """Run `kg ARGS`, wait until it has ``children`` processes, let them work ``settle`` s, then
    Ctrl-C as a terminal does (the whole process group): one line, and no child outlives it."""
    proc = subprocess.Popen([sys.executable, "-m", "kg", *args], cwd=cwd, env=kg_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    t0, found = time.monotonic(), []
    while proc.poll() is None and time.monotonic() - t0 < 120 and len(found) < children:
        found = _children(proc.pid)
        time.sleep(0.01)
    assert len(found) >= children, f"kg {args[0]} never started its processes ({moment})"
    time.sleep(settle)
    for pid in [proc.pid, *found]:
        os.kill(pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    check_interrupt_message(KillResult(moment, "SIGINT", True, proc.returncode, err))
    for pid in found:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2], \
            f"process {pid} outlived kg {args[0]} ({moment})"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_ctrl_c_with_two_workers_stops_every_process_quietly(workspace):
    """`--workers 2` while the worker processes parse: one line, no traceback from any worker,
    no process left behind, the previous build untouched."""
    tmp, out = workspace["tmp"], workspace["out"]
    before = check_complete(out, tmp)
    corpus = tmp / "many.txt"
    body = [f"We propose Net{i}, a transformer for image classification on ImageNet, and compare it "
            f"with ResNet-{i} on CIFAR-10 using top-1 accuracy." for i in range(400)]
    corpus.write_text("\n\n".join(["Many abstracts", *body]) + "\n", encoding="utf-8")
    _ctrl_c_once_children_run(["build", str(corpus), "--out", str(out), "--no-cache", "--workers", "2", *BUILD_FLAGS],
                              tmp, children=2, moment="extracting with two workers", settle=0.5)
    assert check_complete(out, tmp) == before


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_ctrl_c_while_an_add_loads_the_models_stops_every_process_quietly(workspace):
    """`kg add` loads the models in a process of its own while it reads the build: a Ctrl-C then
    prints one line, leaves no process behind and the build untouched."""
    tmp, out = workspace["tmp"], workspace["out"]
    before = check_complete(out, tmp)
    corpus = tmp / "new.txt"
    body = [f"We propose Addnet{i}, a graph network for link prediction on Cora, and compare it with GCN." for i in range(3)]
    corpus.write_text("\n\n".join(["New abstracts", *body]) + "\n", encoding="utf-8")
    _ctrl_c_once_children_run(["add", str(corpus), "--db", str(out), "--no-cache", "--quiet"],
                              tmp, children=1, moment="adding, models loading", settle=0.3)
    assert check_complete(out, tmp) == before


# --- the swap at the end of a build, killed before each step ------------------------------------

# Steps of the swap (kg.builds.swap_in): [remove a stale .old], rename out -> .old,
# rename new -> out, remove .old. "Killed before step k" for every step, and a second
# build killed before each of its steps while the first one's cut swap is still on disk.
SWAP_CRASHES = [(1, None), (2, None), (3, None), (2, 1), (2, 2), (3, 2)]


@pytest.mark.parametrize("first,second", SWAP_CRASHES, ids=[f"kill{a}-then-{b}" for a, b in SWAP_CRASHES])
def test_swap_killed_once_or_twice_keeps_a_whole_build(tmp_path, first, second):
    from kg.builds import open_build

    c0, c1, c2 = small_corpora(tmp_path)
    exports = tmp_path / "exports"
    out = exports / "small"
    runs = [(c0, out, 0, "kill"), (c1, out, first, "kill")] + ([(c2, out, second, "kill")] if second else [])
    statuses = run_crash_builds(runs)
    assert statuses[0] == 0 and all(s in (0, -signal.SIGKILL) for s in statuses), statuses
    # Whatever was cut, one whole build is there: the first, or one of the later ones ...
    assert papers_in(out) in (3, 4, 5)
    # ... and `kg query` without --db finds that same build, not a temporary folder.
    assert open_build(None, exports=exports).manifest == open_build(out).manifest
    # The next build goes through and replaces it.
    assert run_crash_builds([(c2, out, 0, "kill")]) == [0]
    assert papers_in(out) == 5


def test_a_ctrl_c_during_the_swap_lets_it_finish(tmp_path, monkeypatch):
    """Once the swap has begun it ends: a Ctrl-C while the previous build is deleted must not
    report the build as interrupted ("left as it was") when the new one is already in place."""
    import shutil

    from kg import builds

    out = tmp_path / "b"
    for text in ("first", "second"):
        if text == "second":
            real = shutil.rmtree

            def rmtree(path, *args, **kwargs):
                if Path(path).name.endswith(".old"):
                    os.kill(os.getpid(), signal.SIGINT)
                return real(path, *args, **kwargs)

            monkeypatch.setattr(shutil, "rmtree", rmtree)
        try:
            with builds.writing(out) as tmp:
                (tmp / builds.GRAPH_JSON).write_text(text)
                (tmp / builds.MANIFEST).write_text("{}")
        except KeyboardInterrupt:
            pytest.fail("the Ctrl-C during the swap was raised after the new build was in place")
    assert (out / builds.GRAPH_JSON).read_text() == "second"
    assert not builds.previous(out).exists()


def test_a_build_removes_folders_of_killed_builds_only(tmp_path):
    """A SIGKILLed build leaves its `.NAME.new-<pid>-*` folder; the next build into NAME deletes it,
    but never the folder of a build that is still running."""
    from kg.builds import pipeline
    from kg.records import Extraction

    corpus, _, _ = small_corpora(tmp_path)
    out = tmp_path / "exports" / "c"
    out.parent.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = out.parent / f".c.new-{gone.stdout.strip()}-abc"
    live = out.parent / f".c.new-{os.getpid()}-def"  # this process stands in for a running build
    for d in (dead, live):
        d.mkdir()
        (d / "graph.json").write_text("{}")
    options = pipeline.BuildOptions(out=out, views=False, related_k=0, cache_dir=None)
    pipeline.build(corpus, options, extract=lambda c, o: ([Extraction(p.id) for p in c.papers], 0))
    assert not dead.exists() and live.exists()
    assert sorted(p.name for p in out.parent.iterdir() if not p.name.endswith(".lock")) == [live.name, "c"]


def test_ctrl_c_during_extraction_keeps_the_finished_papers_for_the_next_build(tmp_path, monkeypatch):
    """A Ctrl-C late in a long extraction loses only the batch under way: the papers extracted
    before it are in the cache, and the next build extracts only the others."""
    import kg.extract
    from kg.builds.pipeline import BuildOptions, build
    from kg.records import Extraction

    asked: list[list[str]] = []

    class Extractor:  # the real one's interface, with a Ctrl-C after ``stop_after`` papers
        version = "stub"
        stop_after: int | None = 3

        def __init__(self, **_):
            pass

        def extract(self, papers, progress=False):
            asked.append([p.id for p in papers])
            for i, p in enumerate(papers):
                if i == Extractor.stop_after:
                    raise KeyboardInterrupt
                yield Extraction(p.id, (), ())

    monkeypatch.setattr(kg.extract, "Extractor", Extractor)
    corpus = tmp_path / "c.jsonl"
    ids = [f"p{i}" for i in range(1, 6)]
    corpus.write_text("".join(json.dumps({"id": i, "title": f"Title {i}", "abstract": f"Abstract number {i}."}) + "\n"
                              for i in ids))
    options = BuildOptions(out=tmp_path / "out", views=False, related_k=0, cache_dir=tmp_path / "cache")
    with pytest.raises(KeyboardInterrupt):
        build(corpus, options)
    assert check_cache(tmp_path / "cache") == (3, 0)  # whole entries, no leftover temp files
    Extractor.stop_after = None
    result = build(corpus, options)
    assert asked == [ids, ids[3:]] and result.extracted == 2
