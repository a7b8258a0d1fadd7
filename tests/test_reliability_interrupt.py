"""Interrupted builds never lose or corrupt a graph.

Two kinds of evidence:

* the real ``kg build`` command, in a subprocess, killed with SIGINT and SIGKILL at
  moments found by watching the file system (start-up, the extraction cache being
  written, the new build folder being written, the embedded store being written);
* the folder swap at the end of a build, killed before each of its file-system steps,
  once and twice in a row (a cheap stand-in extraction, the real writers).

After every kill the previous build must be complete (manifest, graph.json and the
embedded store agree, `kg query` works), every cache entry must parse, a Ctrl-C must
print one line and no traceback, and the next build must succeed. The functions here
are reused by bench/reliability.py, which runs many more kills.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SEED = REPO / "seeds" / "iclr2025_abstracts.txt"
INTERRUPTED = "kg: interrupted"
# Extraction without KeyBERT keeps each build a few seconds; the kill points are the same.
BUILD_FLAGS = ["--quiet", "--no-keybert"]
COUNTS_QUERY = ("MATCH (n) RETURN label(n) AS k, count(*) AS n "
                "UNION ALL MATCH ()-[r]->() RETURN label(r) AS k, count(*) AS n")


# --- running kg ----------------------------------------------------------------------------------

def kg_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _default_sigint() -> None:
    # A child of a non-interactive shell inherits SIGINT as ignored; a user's terminal does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def kg(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=cwd, env=kg_env(), capture_output=True,
                          text=True, timeout=timeout, preexec_fn=_default_sigint)


def start_build(corpus: Path, out: Path, cache: Path, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kg", "build", str(corpus), "--out", str(out), "--cache", str(cache), *BUILD_FLAGS],
        cwd=cwd, env=kg_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_default_sigint,
    )


# --- what a complete build is --------------------------------------------------------------------

@dataclass(frozen=True)
class Snapshot:
    """The parts of a build that must survive an interruption unchanged."""

    manifest: dict  # without its creation time
    graph_json: bytes
    counts: dict[str, int]  # label / relationship type -> count in the embedded store


def check_complete(out: Path, cwd: Path) -> Snapshot:
    """The build at ``out`` is whole: manifest, graph.json and store agree; `kg query` answers."""
    from kg.builds import open_build

    b = open_build(out)
    manifest = b.manifest
    g = b.graph()
    labels: dict[str, int] = {}
    for _, d in g.nodes(data=True):
        labels[d["label"]] = labels.get(d["label"], 0) + 1
    rels: dict[str, int] = {}
    for _, _, d in g.edges(data=True):
        rels[d["type"]] = rels.get(d["type"], 0) + 1
    assert labels.get("Paper", 0) == manifest["papers"] > 0
    assert {t: labels.get(t, 0) for t in manifest["entities"]} == manifest["entities"]
    assert {t: rels.get(t, 0) for t in manifest["relationships"]} == manifest["relationships"]
    r = kg("query", COUNTS_QUERY, "--db", str(out), "--format", "json", cwd=cwd)
    assert r.returncode == 0, r.stderr
    counts = {row["k"]: row["n"] for row in json.loads(r.stdout)}
    assert counts == {k: n for k, n in {**labels, **rels}.items() if n}, "store and graph.json disagree"
    manifest = {k: v for k, v in manifest.items() if k != "created"}
    return Snapshot(manifest, (out / "graph.json").read_bytes(), counts)


def check_cache(cache: Path) -> tuple[int, int]:
    """Every cache entry parses and is whole; returns (entries, leftover temp files)."""
    entries = list(cache.rglob("*.json"))
    for path in entries:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) >= {"version", "text_sha", "mentions", "key_concepts"}, path
        assert path.stem == data["text_sha"], f"{path} holds another abstract's entry"
        for m in data["mentions"]:
            assert set(m) >= {"text", "type", "start", "end", "sentence", "score"}, path
    return len(entries), len(list(cache.rglob("*.tmp")))


def variant(tmp: Path, n: int) -> Path:
    """The seed corpus with every abstract changed (all cache misses) and one more paper than the seed."""
    text = SEED.read_text(encoding="utf-8")
    header, *paras = [p for p in text.split("\n\n") if p.strip()]
    paras = [f"{p.strip()} Variant {n} of this abstract." for p in paras]
    paras.append(f"We propose Variant{n}Net, a transformer for image classification on ImageNet {n}.")
    path = tmp / f"corpus_{n}.txt"
    path.write_text("\n\n".join([header, *paras]) + "\n", encoding="utf-8")
    return path


# --- killing a build at a moment -----------------------------------------------------------------

@dataclass(frozen=True)
class Moment:
    signal: signal.Signals
    name: str
    reached: Callable[[Path, Path, int, float], bool]  # (out, cache, cache entries before, seconds) -> bool


def _temp_builds(out: Path) -> list[Path]:
    return list(out.parent.glob(f".{out.name}.new-*"))


MOMENTS = [
    Moment(signal.SIGINT, "starting up", lambda out, cache, n, t: t >= 0.3),
    Moment(signal.SIGKILL, "writing the extraction cache", lambda out, cache, n, t: len(list(cache.rglob("*.json"))) > n),
    Moment(signal.SIGKILL, "writing the new build folder", lambda out, cache, n, t: bool(_temp_builds(out))),
    # The store engine (ladybug) has its own SIGINT handling around each statement.
    Moment(signal.SIGINT, "writing the embedded store", lambda out, cache, n, t: any(
        (d / "store").exists() for d in _temp_builds(out))),
]


@dataclass
class KillResult:
    moment: str
    signal: str
    hit: bool  # the moment was reached and the signal sent before the build finished
    returncode: int
    stderr: str


def kill_at(moment: Moment, corpus: Path, out: Path, cache: Path, cwd: Path, timeout: float = 240) -> KillResult:
    before = len(list(cache.rglob("*.json"))) if cache.exists() else 0
    proc = start_build(corpus, out, cache, cwd)
    t0 = time.monotonic()
    hit = False
    while proc.poll() is None and time.monotonic() - t0 < timeout:
        if moment.reached(out, cache, before, time.monotonic() - t0):
            proc.send_signal(moment.signal)
            hit = True
            break
        time.sleep(0.002)
    try:
        _, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
    return KillResult(moment.name, moment.signal.name, hit, proc.returncode, err)


def check_interrupt_message(r: KillResult) -> None:
    """Ctrl-C: exit 130 and one line saying so, no traceback (warnings about the input, printed
    before the work began, may precede it: these builds replace each other's corpora)."""
    assert "Traceback" not in r.stderr, f"traceback when interrupted while {r.moment}:\n{r.stderr[-2000:]}"
    lines = [ln for ln in r.stderr.splitlines() if ln.strip() and not ln.startswith("kg: warning: ")]
    assert len(lines) == 1 and lines[0].startswith(INTERRUPTED), (
        f"interrupted while {r.moment}: expected one line, got {r.stderr!r}")
    # 130, or killed by SIGINT itself (after the message), which a shell also reports as 130.
    assert r.returncode in (130, -signal.SIGINT), f"interrupted while {r.moment}: exit status {r.returncode}"


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
    stale = set(_temp_builds(out))  # left by earlier SIGKILLs, which allow no clean-up
    r = kill_at(moment, variant(tmp, n), out, cache, tmp)
    assert r.hit, f"the build finished before it was {moment.name}; the test did not interrupt it"
    if moment.signal == signal.SIGINT:
        check_interrupt_message(r)
        assert set(_temp_builds(out)) <= stale, "an interrupted build left its temporary folder behind"
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
    assert after.manifest["papers"] == workspace["before"].manifest["papers"] + 1
    entries, _ = check_cache(cache)
    assert entries >= 2 * after.manifest["papers"]
    # Cache entries written by killed builds give the same graph as extracting afresh.
    fresh = tmp / "exports" / "fresh"
    r = kg("build", str(corpus), "--out", str(fresh), "--no-cache", *BUILD_FLAGS, cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert json.loads(after.graph_json) == json.loads((fresh / "graph.json").read_bytes())


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


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
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg", "build", str(corpus), "--out", str(out), "--no-cache", "--workers", "2",
         *BUILD_FLAGS], cwd=tmp, env=kg_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_default_sigint)
    t0, workers = time.monotonic(), []
    while proc.poll() is None and time.monotonic() - t0 < 120 and len(workers) < 2:
        workers = _children(proc.pid)
        time.sleep(0.01)
    assert len(workers) >= 2, "the build never started its worker processes"
    time.sleep(0.5)  # the workers are parsing
    # A terminal's Ctrl-C reaches the whole foreground process group: the workers too.
    for pid in [proc.pid, *workers]:
        os.kill(pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    check_interrupt_message(KillResult("extracting with two workers", "SIGINT", True, proc.returncode, err))
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2], \
            f"worker {pid} outlived the build"
    assert check_complete(out, tmp) == before


# --- the swap at the end of a build, killed before each step ------------------------------------

def crash_build(corpus: str, out: str, crash_at: int, action: str = "kill") -> None:
    """Build ``corpus`` into ``out`` with a stand-in extraction; at the ``crash_at``-th
    file-system step of the final swap (1-based; 0 = never) SIGKILL this process, or,
    with action "read", open the build the way `kg query` does at that instant and go on."""
    import shutil

    from kg import builds, pipeline
    from kg.records import Extraction

    steps = 0
    real_replace, real_rmtree = os.replace, shutil.rmtree

    def step(real):
        def wrapped(*args, **kwargs):
            nonlocal steps
            steps += 1
            if steps == crash_at:
                if action == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                try:
                    builds.open_build(Path(out))
                except Exception:  # a reader may fail; the build must not
                    pass
            return real(*args, **kwargs)
        return wrapped

    real_swap = pipeline.swap_in

    def swap_in(new: Path, o: Path) -> None:
        os.replace, shutil.rmtree = step(real_replace), step(real_rmtree)
        try:
            real_swap(new, o)
        finally:
            os.replace, shutil.rmtree = real_replace, real_rmtree

    pipeline.swap_in = swap_in
    options = pipeline.BuildOptions(out=Path(out), views=False, related_k=0, cache_dir=None)
    pipeline.build(corpus, options, extract=lambda c, o: ([Extraction(p.id) for p in c.papers], 0))


def crash_builds(runs: list[tuple[str, str, int, str]]) -> list[int]:
    """Run ``crash_build`` for each (corpus, out, crash_at, action) in a forked child, in turn;
    the wait status of each. One interpreter start for several builds keeps the test fast."""
    statuses = []
    for corpus, out, crash_at, action in runs:
        pid = os.fork()
        if pid == 0:  # the child: build, and die the way the run asks
            code = 0
            try:
                crash_build(corpus, out, crash_at, action)
            except BaseException as exc:  # noqa: BLE001 - reported through the exit status
                print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
                code = 1
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        statuses.append(-os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
    return statuses


def run_crash_builds(runs: list[tuple[Path, Path, int, str]]) -> list[int]:
    code = ("import json, sys; from tests.test_reliability_interrupt import crash_builds; "
            "print(json.dumps(crash_builds(json.loads(sys.argv[1]))))")
    arg = json.dumps([[str(c), str(o), k, a] for c, o, k, a in runs])
    r = subprocess.run([sys.executable, "-c", code, arg], cwd=REPO, env=kg_env(), capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def papers_in(out: Path) -> int:
    from kg.builds import open_build

    b = open_build(out)
    assert b.graph().number_of_nodes() >= b.manifest["papers"]
    from kg.store import Store

    with Store(b.store_path) as s:
        (n,), = s.query("MATCH (p:Paper) RETURN count(p)").rows
    assert n == b.manifest["papers"]
    return n


def small_corpora(tmp: Path) -> tuple[Path, Path, Path]:
    texts = [f"We propose Method{i}, a model for task {i} evaluated on dataset {i}." for i in range(5)]
    paths = []
    for k, n in enumerate((3, 4, 5)):
        p = tmp / f"c{k}.txt"
        p.write_text("\n\n".join(texts[:n]) + "\n", encoding="utf-8")
        paths.append(p)
    return tuple(paths)


# Steps of the swap (kg.pipeline.swap_in): [remove a stale .old], rename out -> .old,
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


def test_a_build_removes_folders_of_killed_builds_only(tmp_path):
    """A SIGKILLed build leaves its `.NAME.new-<pid>-*` folder; the next build into NAME deletes it,
    but never the folder of a build that is still running."""
    from kg import pipeline
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
    from kg.pipeline import BuildOptions, build
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
