"""Every benchmark command the docs quote still runs: each bench script at a tiny size.

A smoke run, not a timing: the figures come from the full sizes in docs/BENCHMARKS.md and
docs/RELIABILITY.md. The extraction benchmarks (bench/heldout_folds.py and the others the
extraction docs quote) are left to the extraction's own checks. Scripts that need the SciERC
data of ../shared/bench are skipped where it is not there. The reliability benchmark's kill runs
(``--kills``) are not repeated here: tests/test_reliability_interrupt.py kills the real ``kg build``
at each watched moment with the same helpers (tests/interrupting.py) and checks the same outcomes.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCIERC = ROOT.parent / "shared" / "bench" / "scierc"
needs_scierc = pytest.mark.skipif(not (SCIERC / "train.json").exists(), reason="no ../shared/bench/scierc here")
REAL = ROOT.parent / "shared" / "bench" / "real"
needs_real = pytest.mark.skipif(not (REAL / "acl_2017_2019.jsonl").exists(), reason="no ../shared/bench/real here")
pytestmark = pytest.mark.slow  # every test runs a bench script in a subprocess


def bench(script: str, *args: str, cwd: Path = ROOT, timeout: float = 600) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, f"bench/{script}", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"bench/{script} {' '.join(args)}: exit {proc.returncode}\n{proc.stderr[-3000:]}"
    return proc


def report(proc: subprocess.CompletedProcess) -> dict:
    """The JSON object a bench script prints last."""
    out = proc.stdout
    return json.loads(out[out.index("{"):])


def test_read_formats():
    r = report(bench("read_formats.py", "--n", "30"))
    assert r and all(v for v in r.values())


def test_reliability_inputs_and_swaps():
    r = report(bench("reliability.py", "--inputs", "30", "--seed", "11", "--skip", "kills"))
    assert r["inputs"]["failures"] == 0 and r["inputs"]["records_unaccounted"] == 0, r["inputs"]
    assert r["swap_kills"]["failures"] == 0 and r["summary"]["papers_lost"] == 0, r["swap_kills"]


def test_fuzz_runs_a_property_test_with_fresh_cases(tmp_path, monkeypatch):
    """Read from the run's JUnit XML (a stable format), not from pytest's or Hypothesis's wording,
    which changes between releases: one property test ran and passed, under the fuzz profile
    (tests/conftest.py records it) with --cases 200 and random, not derandomised, cases."""
    junit = tmp_path / "fuzz.xml"
    monkeypatch.setenv("PYTEST_ADDOPTS", f"--junitxml={junit}")  # bench/fuzz.py passes its environment on
    bench("fuzz.py", "-k", "cleaning_and_titles", "--cases", "200", "--seed", "1")  # asserts exit 0
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    (case,) = suite.iter("testcase")
    assert case.get("name") == "test_cleaning_and_titles_never_crash"
    assert not [c.tag for c in case if c.tag in ("failure", "error", "skipped")], ElementTree.tostring(case)
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    ours = {"hypothesis_profile": "fuzz", "hypothesis_max_examples": "200", "hypothesis_derandomize": "False"}
    assert {k: props.get(k) for k in ours} == ours, props


@needs_scierc
def test_corpora(tmp_path):
    bench("corpora.py", "replicate", "30", str(tmp_path / "c.jsonl"))
    assert len((tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()) == 30


@needs_scierc
def test_related_quality_on_the_gold_graph():
    r = report(bench("related_quality.py", "--gold", "-k", "2", "--seeds", "1", "--no-dense"))  # dense: a minute
    assert r


@needs_scierc
def test_scale():
    r = report(bench("scale.py", "--sizes", "20"))
    assert r["results"]["20"]["related"]["ok"]


@needs_scierc
def test_stages():
    r = report(bench("stages.py", "--n", "40", "--no-views"))
    assert r["papers"] == 40


@needs_scierc
def test_incremental():
    r = report(bench("incremental.py", "--n", "20", "--added", "1"))
    assert r["add_graph_equals_cold"], r


@needs_scierc
def test_dask_workers():
    pytest.importorskip("distributed")
    r = report(bench("dask_workers.py", "--n", "4"))
    assert r["workers"]["2"]["abstracts_per_s"] > 0


@needs_scierc
def test_build_throughput():
    r = report(bench("build_throughput.py", "--n", "20", "--naive-n", "2"))
    assert r


@needs_real
def test_real_corpus():
    r = report(bench("real_corpus.py", "--limit", "40", "--workers", "1"))
    assert r["papers"] == 40 and r["abstracts_per_s"] > 0
    for figure in ("top_datasets_pwc_share", "pwc_linked_recall", "generic_share", "field_coverage"):
        assert 0.0 <= r[figure] <= 1.0
    assert r["top_methods"] and r["top_tasks"]  # the top lists kg shows, to read


@needs_real
def test_related_real(tmp_path):
    r = report(bench("related_real.py", "--only", "emnlp", "--limit", "60", "--no-dense", "--cache", str(tmp_path)))
    p = r["emnlp2020"]["precision_at_k"]  # kg's ranking beside the baseline, in one run
    assert r["emnlp2020"]["papers"] == 60 and 0.0 <= p["kg"] <= 1.0 and 0.0 <= p["tfidf"] <= 1.0
