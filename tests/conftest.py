"""Fixtures and settings every test module shares, and the two tiers of the suite.

Hypothesis runs derandomised by default, so that CI sees the same cases on every run and fails
only when the code changes; ``pytest --hypothesis-profile=fuzz`` (or ``python bench/fuzz.py``)
draws fresh cases, many more of them, to look for new failures. Each property test asks for
``examples(n)``: ``n`` cases in the default profile, the fuzz profile's multiple of it.

Tiers (docs/testing.md): ``pytest -m "not slow"`` runs the unit tier, ``pytest`` runs everything.
A test is ``slow`` when its file sets ``pytestmark = pytest.mark.slow``, when it is marked itself,
or when it uses one of ``SLOW_FIXTURES`` (marked here, at collection). An unmarked test that
starts a process or loads the spaCy/KeyBERT/tagger models anyway fails, saying to mark it
(``fast_tier_guard`` below), in every run: a slow test cannot land in the fast tier unnoticed.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("default", derandomize=True, deadline=None, print_blob=True)
# The fuzz profile's size: bench/fuzz.py --cases N sets it.
settings.register_profile("fuzz", max_examples=int(os.environ.get("KG_FUZZ_CASES", 5_000)), derandomize=False,
                          deadline=None, print_blob=True)
settings.load_profile("default")

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "seeds" / "iclr2025_abstracts.txt"

# Fixtures that load models, build with the real extractor, or start a server, a browser or Node:
# every test using one (directly or through another fixture) is in the slow tier.
SLOW_FIXTURES = frozenset({
    "extractor", "seed_build", "seed_build_copy",  # here
    "arcadedb_server", "bolt",  # tests/arcadedb_server.py
    "browser",  # tests/test_browser.py
    "trained",  # tests/test_training.py, tests/test_relations.py: a model trained for the module
})


@pytest.fixture(scope="session")
def extractor():
    """The extractor with its models loaded, once per session (loading takes seconds)."""
    from kg.extract import Extractor

    return Extractor(use_keybert=True)


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory) -> Path:
    """The README's ``kg build seeds/iclr2025_abstracts.txt`` (real extractor, views, store), run once
    per test run and shared: read it, never change it (a teardown check says so if a test did).
    A test that changes a build takes ``seed_build_copy``. ``--no-cache``: nothing lands in the
    user's cache."""
    out = tmp_path_factory.mktemp("seed") / "iclr"
    proc = subprocess.run([sys.executable, "-m", "kg", "build", str(SEED), "--out", str(out), "--no-cache", "--quiet"],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, f"kg build {SEED.name} failed ({proc.returncode}):\n{proc.stderr}"
    assert "papers        19" in proc.stdout, proc.stdout
    before = _tree_state(out)
    yield out
    changed = sorted(set(before.items()) ^ set(_tree_state(out).items()))
    assert not changed, f"a test changed the shared seed build (use seed_build_copy): {changed[:5]}"


@pytest.fixture
def seed_build_copy(seed_build, tmp_path) -> Path:
    """A copy of the shared seed build, this test's own to change (a copy takes well under a second)."""
    return Path(shutil.copytree(seed_build, tmp_path / "iclr", symlinks=True))


def _tree_state(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="session", autouse=True)
def hypothesis_profile_in_junit(record_testsuite_property):
    """The Hypothesis profile in force, in the JUnit XML report when one is written (--junitxml;
    a no-op otherwise): tests/test_bench_smoke.py reads it to check that bench/fuzz.py draws
    fresh cases, without parsing Hypothesis's printed statistics, whose wording changes."""
    current = settings()
    record_testsuite_property("hypothesis_profile", settings.get_current_profile_name())
    record_testsuite_property("hypothesis_max_examples", current.max_examples)
    record_testsuite_property("hypothesis_derandomize", current.derandomize)


# --- the tiers -----------------------------------------------------------------------------------

def pytest_ignore_collect(collection_path, config):
    """Under ``-m "not slow"``, a file marked slow as a whole is not even imported (test_encoder's
    torch and transformers, test_distributed's dask: seconds of the fast tier's time)."""
    if (config.getoption("markexpr", "").strip() == "not slow" and collection_path.suffix == ".py"
            and collection_path.name.startswith("test_")
            and re.search(r"^pytestmark = pytest\.mark\.slow\b", collection_path.read_text(encoding="utf-8"), re.M)):
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before -m deselects: the marks added here count
def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


# The fast-tier guard: while an unmarked test (or a fixture it sets up) runs, starting a process fails
# it, and so does loading a model in the test's process (counted by the loaders' caches afterwards).
# Forked workers (kg's own pools) are not processes started here; what they load is not counted.
_guarded: list[str] = []  # the node id of the unmarked test being set up or run, if any
_real_popen_init = subprocess.Popen.__init__
_MODEL_LOADERS = (("kg.extract.models", "_load_nlp"), ("kg.extract.models", "load_keybert"),
                  ("kg.extract.tagger", "_load"))
HOW_TO_MARK = ("mark it slow: @pytest.mark.slow, or pytestmark = pytest.mark.slow for the whole file "
               "(docs/testing.md)")


def _guarded_popen_init(self, args, *a, **kw):
    if _guarded:
        self._child_created = False  # Popen.__del__ reads it
        raise pytest.fail.Exception(f"{_guarded[0]} starts a process ({args!r}) in the fast tier: {HOW_TO_MARK}",
                                    pytrace=False)
    _real_popen_init(self, args, *a, **kw)


subprocess.Popen.__init__ = _guarded_popen_init


def _model_loads() -> list[int]:
    """Each loader's cache misses: the models it has loaded (0 for a loader not imported yet)."""
    counts = []
    for module, name in _MODEL_LOADERS:
        loader = getattr(sys.modules.get(module), name, None)
        counts.append(loader.cache_info().misses if hasattr(loader, "cache_info") else 0)
    return counts


def _loaded_since(before: list[int], after: list[int]) -> bool:
    # A test may clear a cache (cache_clear() zeroes its counts too): then any miss is a load.
    return any(a > b or (a < b and a > 0) for b, a in zip(before, after))


@contextmanager
def _guarding(item):
    if item.get_closest_marker("slow"):
        yield
        return
    _guarded[:] = [item.nodeid]
    loads = _model_loads()
    try:
        yield
    finally:
        _guarded.clear()
    if _loaded_since(loads, _model_loads()):
        pytest.fail(f"{item.nodeid} loads the spaCy/KeyBERT/tagger models in the fast tier: {HOW_TO_MARK}",
                    pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with _guarding(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with _guarding(item):
        return (yield)
