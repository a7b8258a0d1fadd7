"""Property tests with fresh random cases, many more of them: what CI's derandomised run cannot find.

    python bench/fuzz.py                      # tests/test_properties.py, 50x the cases, a new seed
    python bench/fuzz.py -k csv --seed 7      # one test, a seed to reproduce a failure
    python bench/fuzz.py --cases 20000        # longer: 200x the cases

The test suite runs the same cases every time (tests/conftest.py: Hypothesis derandomised), so CI
fails only when the code changes; this runs the "fuzz" profile (5,000 cases where CI runs 100,
scaled per test). A failure prints the case and a @reproduce_failure line to pin it in a test.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-k", metavar="EXPR", help="only the tests whose names match (pytest -k)")
    ap.add_argument("--seed", type=int, help="Hypothesis seed (default: a new one each run)")
    ap.add_argument("--tests", default="tests/test_properties.py", help="test file(s) to fuzz")
    ap.add_argument("--cases", type=int, default=5000,
                    help="cases for a test CI runs 100 of (others scaled alike; default 5000)")
    args = ap.parse_args()
    cmd = [sys.executable, "-m", "pytest", *args.tests.split(), "--hypothesis-profile=fuzz", "-q",
           "--hypothesis-show-statistics"]
    if args.k:
        cmd += ["-k", args.k]
    if args.seed is not None:
        cmd += [f"--hypothesis-seed={args.seed}"]
    return subprocess.call(cmd, cwd=ROOT, env={**os.environ, "KG_FUZZ_CASES": str(args.cases)})


if __name__ == "__main__":
    sys.exit(main())
