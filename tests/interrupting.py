"""Builds under fire: run the real `kg build` and kill it at chosen moments, or kill the folder
swap at each of its steps, and check that a whole build is left. Used by
tests/test_reliability_interrupt.py and tests/test_reliability_concurrency.py, and by
bench/reliability.py, which runs many more kills.
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kg.builds import Manifest

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


def default_sigint() -> None:
    # A child of a non-interactive shell inherits SIGINT as ignored; a user's terminal does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def kg(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=cwd, env=kg_env(), capture_output=True,
                          text=True, timeout=timeout, preexec_fn=default_sigint)


def start_build(corpus: Path, out: Path, cache: Path, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kg", "build", str(corpus), "--out", str(out), "--cache", str(cache), *BUILD_FLAGS],
        cwd=cwd, env=kg_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=default_sigint,
    )


# --- what a complete build is --------------------------------------------------------------------

@dataclass(frozen=True)
class Snapshot:
    """The parts of a build that must survive an interruption unchanged."""

    manifest: Manifest  # without its creation time
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
    assert labels.get("Paper", 0) == manifest.papers > 0
    assert {t: labels.get(t, 0) for t in manifest.entities} == manifest.entities
    assert {t: rels.get(t, 0) for t in manifest.relationships} == manifest.relationships
    r = kg("query", COUNTS_QUERY, "--db", str(out), "--format", "json", cwd=cwd)
    assert r.returncode == 0, r.stderr
    counts = {row["k"]: row["n"] for row in json.loads(r.stdout)}
    assert counts == {k: n for k, n in {**labels, **rels}.items() if n}, "store and graph.json disagree"
    return Snapshot(dataclasses.replace(manifest, created=""), (out / "graph.json").read_bytes(), counts)


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


def temp_builds(out: Path) -> list[Path]:
    return list(out.parent.glob(f".{out.name}.new-*"))


MOMENTS = [
    Moment(signal.SIGINT, "starting up", lambda out, cache, n, t: t >= 0.3),
    Moment(signal.SIGKILL, "writing the extraction cache", lambda out, cache, n, t: len(list(cache.rglob("*.json"))) > n),
    Moment(signal.SIGKILL, "writing the new build folder", lambda out, cache, n, t: bool(temp_builds(out))),
    # The store engine (ladybug) has its own SIGINT handling around each statement.
    Moment(signal.SIGINT, "writing the embedded store", lambda out, cache, n, t: any(
        (d / "store").exists() for d in temp_builds(out))),
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


# --- the folder swap, killed before one of its steps ----------------------------------------------


def crash_build(corpus: str, out: str, crash_at: int, action: str = "kill") -> None:
    """Build ``corpus`` into ``out`` with a stand-in extraction; at the ``crash_at``-th
    file-system step of the final swap (1-based; 0 = never) SIGKILL this process, or,
    with action "read", open the build the way `kg query` does at that instant and go on."""
    import shutil

    from kg import builds
    from kg.builds import folder, pipeline
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

    real_swap = folder.swap_in

    def swap_in(new: Path, o: Path) -> None:
        os.replace, shutil.rmtree = step(real_replace), step(real_rmtree)
        try:
            real_swap(new, o)
        finally:
            os.replace, shutil.rmtree = real_replace, real_rmtree

    folder.swap_in = swap_in  # what kg.builds.folder.writing calls
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
    code = ("import json, sys; from tests.interrupting import crash_builds; "
            "print(json.dumps(crash_builds(json.loads(sys.argv[1]))))")
    arg = json.dumps([[str(c), str(o), k, a] for c, o, k, a in runs])
    r = subprocess.run([sys.executable, "-c", code, arg], cwd=REPO, env=kg_env(), capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def papers_in(out: Path) -> int:
    from kg.builds import open_build

    b = open_build(out)
    assert b.graph().number_of_nodes() >= b.manifest.papers
    from kg.store import Store

    with Store(b.store_path) as s:
        (n,), = s.query("MATCH (p:Paper) RETURN count(p)").rows
    assert n == b.manifest.papers
    return n


def small_corpora(tmp: Path) -> tuple[Path, Path, Path]:
    texts = [f"We propose Method{i}, a model for task {i} evaluated on dataset {i}." for i in range(5)]
    paths = []
    for k, n in enumerate((3, 4, 5)):
        p = tmp / f"c{k}.txt"
        p.write_text("\n\n".join(texts[:n]) + "\n", encoding="utf-8")
        paths.append(p)
    return tuple(paths)
