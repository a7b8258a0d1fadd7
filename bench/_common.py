"""What the benchmark scripts share: the repository on the import path, `kg build` run as a user
runs it, the fixed start of any build, and the report.

Every script prints one JSON object (``report``); docs/BENCHMARKS.md quotes them, and
tests/test_bench_smoke.py runs each at a tiny size. Imported first (``from _common import ...``),
it puts the repository and bench/ on ``sys.path``, so kg imports from this checkout.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _path in (str(ROOT), str(ROOT / "bench")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

# A fresh process that starts Python, imports kg's CLI, loads the extraction models and extracts one
# sentence: the part of any build's time that does not grow with the corpus.
_FLOOR = """
from kg.cli import main  # noqa: F401  (what `kg build` imports before anything else)
from kg.extract import Extractor
from kg.records import Paper
text = "We propose a transformer model for machine translation and evaluate it on WMT14."
list(Extractor(use_keybert=True).extract([Paper(id="p", title="", abstract=text, text=text)]))
"""


def floor_s(runs: int = 3) -> float:
    """Seconds to start kg and load its models (the fastest of ``runs``)."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", _FLOOR], cwd=ROOT, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def kg_build(corpus: Path, out: Path, *flags: str) -> float:
    """Seconds of a whole `kg build CORPUS --out OUT --quiet FLAGS...` process; exits the
    benchmark with the build's error if it fails."""
    return kg_run("build", str(corpus), "--out", str(out), "--quiet", *flags)


def kg_run(*args: str) -> float:
    """Seconds of a whole `kg ARGS...` process; exits the benchmark with its error if it fails."""
    cmd = [sys.executable, "-m", "kg", *args]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"bench: build failed: {proc.stderr.strip()[-2000:]}")
    return dt


def bootstrap_interval(diff, draws: int = 2000, seed: int = 0) -> list[float]:
    """The 95% interval of the mean of ``diff`` (one paired difference per query: two rankers'
    scores of it), from a bootstrap that resamples the queries."""
    import numpy as np

    diff = np.asarray(diff, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(draws)]
    return [round(float(x), 4) for x in np.percentile(means, [2.5, 97.5])]


def report(result: dict) -> None:
    """The benchmark's one JSON object, on stdout."""
    print(json.dumps(result, indent=2, ensure_ascii=False))
