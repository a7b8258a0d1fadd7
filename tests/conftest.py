"""Fixtures and settings every test module shares.

Hypothesis runs derandomised by default, so that CI sees the same cases on every run and fails
only when the code changes; ``pytest --hypothesis-profile=fuzz`` (or ``python bench/fuzz.py``)
draws fresh cases, many more of them, to look for new failures. Each property test asks for
``examples(n)``: ``n`` cases in the default profile, the fuzz profile's multiple of it.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("default", derandomize=True, deadline=None, print_blob=True)
# The fuzz profile's size: bench/fuzz.py --cases N sets it.
settings.register_profile("fuzz", max_examples=int(os.environ.get("KG_FUZZ_CASES", 5_000)), derandomize=False,
                          deadline=None, print_blob=True)
settings.load_profile("default")


@pytest.fixture(scope="session")
def extractor():
    """The extractor with its models loaded, once per session (loading takes seconds)."""
    from kg.extract import Extractor

    return Extractor(use_keybert=True)


@pytest.fixture(scope="session", autouse=True)
def hypothesis_profile_in_junit(record_testsuite_property):
    """The Hypothesis profile in force, in the JUnit XML report when one is written (--junitxml;
    a no-op otherwise): tests/test_bench_smoke.py reads it to check that bench/fuzz.py draws
    fresh cases, without parsing Hypothesis's printed statistics, whose wording changes."""
    current = settings()
    record_testsuite_property("hypothesis_profile", settings.get_current_profile_name())
    record_testsuite_property("hypothesis_max_examples", current.max_examples)
    record_testsuite_property("hypothesis_derandomize", current.derandomize)
