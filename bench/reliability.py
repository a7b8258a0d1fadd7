"""Reliability figures: many more hostile inputs and interruptions than the test suite runs.

    python bench/reliability.py                    # defaults below; about 5 minutes on 2 cores
    python bench/reliability.py --inputs 2000 --kills 30 --seed 7

Prints one JSON object:

* ``inputs``: generated corpus files (JSON Lines, JSON arrays, CSV, plain text) of hostile
  records, read with kg.corpus; every record must be a paper or a warning, counts must add up.
* ``kills``: the real ``kg build`` in a subprocess, killed with SIGINT or SIGKILL at random
  times and at watched moments; after each, the previous build must be whole (manifest,
  graph.json, store agree; ``kg query`` answers) and the cache must parse.
* ``swap_kills``: the build's final folder swap killed before each of its steps, once and
  twice in a row, every combination.

It reuses the checks of tests/test_properties.py and tests/interrupting.py (the machinery of
tests/test_reliability_interrupt.py), so the figures measure exactly what the tests assert.
Run from the repository root.
"""
from __future__ import annotations

import argparse
import json
import random
import signal
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from _common import report

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests import test_properties as props  # noqa: E402
from tests import interrupting as intr  # noqa: E402


def bench_inputs(n: int, seed: int, tmp: Path) -> dict:
    """Generated hostile corpus files through the reader, with the tests' accounting checks."""
    c: Counter = Counter()
    failures: list[str] = []
    fmt_of = ["jsonl", "json", "csv", "txt"]

    @hypothesis_seed(seed)
    @settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(kind=st.sampled_from(fmt_of), recs=st.lists(props.records, min_size=1, max_size=12),
           paras=st.lists(props.abstracts.filter(lambda a: "\n" not in a and a.strip()), min_size=1, max_size=8),
           big=st.sampled_from([0] * 9 + [300_000]))
    def one(kind, recs, paras, big):
        c["files"] += 1
        c[f"files_{kind}"] += 1
        path = tmp / f"in{c['files']}.{kind}"
        if kind == "jsonl":
            lines = [json.dumps(r, ensure_ascii=False) for r in recs]
            if not lines[0].startswith("{"):
                lines.insert(0, json.dumps({"abstract": "A first record, so the file reads as JSON Lines."}))
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            expected = list(range(1, len(lines) + 1))
        elif kind == "json":
            path.write_text(json.dumps(recs, ensure_ascii=False), encoding="utf-8")
            # The items of a JSON array have no lines of their own: the reader names them by position.
            expected = [f"item {i}" for i in range(1, len(recs) + 1)]
        elif kind == "csv":
            import csv
            import io

            buf = io.StringIO(newline="")
            w = csv.writer(buf)
            w.writerow(["title", "abstract"])
            rows = [(p[:20], p + (" x" * big if i == 0 else "")) for i, p in enumerate(paras)]
            rows = [(t.replace("\x00", ""), a.replace("\x00", "")) for t, a in rows]
            w.writerows(rows)
            path.write_text(buf.getvalue(), encoding="utf-8", newline="")
            expected = None  # a CSV row may span lines; counted by rows below
        else:
            path.write_text("\n\n".join(paras) + "\n", encoding="utf-8", newline="")
            expected = None
        try:
            corpus = props._read(path)
            if corpus is None:
                c["files_rejected_with_one_line_error"] += 1
                usable = (any(props._usable(r) for r in recs) if kind in ("jsonl", "json") else
                          any(props._usable_text(a) for _, a in rows) if kind == "csv" else False)
                assert not usable, "a file with a usable abstract was rejected"
                return
            n_records = len(expected) if expected is not None else (
                len(paras) if kind == "csv" else len(paras) - (1 if _header_dropped(corpus, path, paras) else 0))
            c["records"] += n_records
            c["papers"] += len(corpus.papers)
            c["skipped_with_warning"] += corpus.skipped
            c["merged_duplicates"] += corpus.merged
            if expected is not None:
                props._check_accounting(corpus, path, expected)
            else:
                assert len(corpus.papers) + corpus.skipped + corpus.merged == n_records
        except Exception as exc:  # a crash or a broken count is a figure, not the end
            failures.append(f"{path.name}: {type(exc).__name__}: {str(exc)[:200]}")
        finally:
            path.unlink(missing_ok=True)

    one()
    c["failures"] = len(failures)
    return {**dict(c), "failure_examples": failures[:5],
            "records_unaccounted": c["records"] - c["papers"] - c["skipped_with_warning"] - c["merged_duplicates"]}


def _header_dropped(corpus, path: Path, paras: list[str]) -> bool:
    return len(paras) > 1 and f"{path}:1" not in {p.source for p in corpus.papers} and not any(
        w.startswith(f"{path}:1:") for w in corpus.warnings)


def bench_kills(n: int, seed: int, tmp: Path) -> dict:
    """The real `kg build`, killed at random times and watched moments."""
    rng = random.Random(seed)
    out, cache = tmp / "exports" / "seed", tmp / "cache"
    t0 = time.monotonic()
    r = intr.kg("build", str(intr.SEED), "--out", str(out), "--cache", str(cache), *intr.BUILD_FLAGS, cwd=tmp)
    assert r.returncode == 0, r.stderr
    full = time.monotonic() - t0
    current = intr.check_complete(out, tmp)
    c: Counter = Counter()
    failures: list[str] = []
    for i in range(n):
        sig = rng.choice([signal.SIGINT, signal.SIGKILL])
        if i % 3 == 2:
            moment = intr.MOMENTS[rng.randrange(len(intr.MOMENTS))]
            moment = intr.Moment(sig, moment.name, moment.reached)
        else:
            at = rng.uniform(0.05, full * 1.1)
            moment = intr.Moment(sig, f"{at:.2f}s in", lambda o, ca, k, t, at=at: t >= at)
        corpus = intr.variant(tmp, 100 + i)
        res = intr.kill_at(moment, corpus, out, cache, tmp)
        c["tried"] += 1
        c[f"tried_{sig.name}"] += 1
        c["hit"] += res.hit
        before = current
        try:
            snap = intr.check_complete(out, tmp)
        except Exception as exc:  # noqa: BLE001
            c["papers_lost"] += current.manifest.papers
            failures.append(f"{sig.name} {moment.name}: no whole build left ({type(exc).__name__}: {exc})")
            continue
        if snap == current:
            c["survived_previous_build_unchanged"] += 1
        elif snap.manifest.corpus == str(corpus):
            c["survived_new_build_completed"] += 1  # the signal came after the swap: the new build, whole
            current = snap
        else:
            c["papers_lost"] += max(0, current.manifest.papers - snap.manifest.papers)
            failures.append(f"{sig.name} {moment.name}: build changed without completing")
            current = snap
        try:
            intr.check_cache(cache)
            c["cache_whole"] += 1
        except Exception as exc:  # noqa: BLE001
            failures.append(f"{sig.name} {moment.name}: cache corrupt ({exc})")
        interrupted = snap == before  # the previous build is still there: the build did not finish
        if sig == signal.SIGINT and res.hit and interrupted:
            try:
                intr.check_interrupt_message(res)
                c["sigint_one_line_exit_130"] += 1
            except AssertionError:
                kind = "traceback" if "Traceback" in res.stderr else f"exit {res.returncode}, stderr {res.stderr[-80:]!r}"
                c["sigint_wrong_report"] += 1
                failures.append(f"SIGINT {moment.name}: {kind}")
        c["stale_temp_folders_left"] = len(intr.temp_builds(out))
    r = intr.kg("build", str(intr.variant(tmp, 999)), "--out", str(out), "--cache", str(cache), *intr.BUILD_FLAGS,
                cwd=tmp)
    c["next_build_succeeded"] = int(r.returncode == 0)
    c["survived"] = c["survived_previous_build_unchanged"] + c["survived_new_build_completed"]
    return {**dict(c), "full_build_seconds": round(full, 1), "failure_examples": failures[:8],
            "failures": len(failures)}


def bench_swaps(tmp: Path) -> dict:
    """Every combination of one or two builds killed before a step of the folder swap."""
    from kg.builds import open_build

    c: Counter = Counter()
    failures = []
    for first in range(1, 5):
        for second in [None, *range(1, 5)]:
            d = Path(tempfile.mkdtemp(dir=tmp))
            c0, c1, c2 = intr.small_corpora(d)
            out = d / "exports" / "small"
            runs = [(c0, out, 0, "kill"), (c1, out, first, "kill")] + ([(c2, out, second, "kill")] if second else [])
            intr.run_crash_builds(runs)
            c["tried"] += 1
            try:
                n = intr.papers_in(out)
                c["survived"] += 1
                default = open_build(None, exports=d / "exports")
                if default.manifest != open_build(out).manifest:
                    c["default_build_is_a_temp_folder"] += 1
                    failures.append(f"kill {first} then {second}: `kg query` without --db reads {default.path.name}")
            except Exception as exc:  # noqa: BLE001
                c["papers_lost"] += 4 if first >= 3 else 3  # the last whole build: c1's or c0's
                failures.append(f"kill {first} then {second}: {type(exc).__name__}: {str(exc)[:120]}")
                continue
            assert n in (3, 4, 5)
    for step in range(1, 5):  # a reader opening the build at each step of a swap
        d = Path(tempfile.mkdtemp(dir=tmp))
        c0, c1, _ = intr.small_corpora(d)
        out = d / "exports" / "small"
        statuses = intr.run_crash_builds([(c0, out, 0, "kill"), (c1, out, step, "read")])
        c["reader_mid_swap_tried"] += 1
        if statuses[1] != 0:
            c["reader_mid_swap_broke_the_build"] += 1
            failures.append(f"reader before swap step {step}: the build failed")
    return {**dict(c), "failure_examples": failures[:8], "failures": len(failures)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=1000, help="generated corpus files to read")
    ap.add_argument("--kills", type=int, default=20, help="real `kg build` runs to kill")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip", nargs="*", default=[], choices=["inputs", "kills", "swaps"])
    args = ap.parse_args()
    result: dict = {"seed": args.seed}
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for option, name, run in (("inputs", "inputs", lambda: bench_inputs(args.inputs, args.seed, t)),
                                  ("kills", "kills", lambda: bench_kills(args.kills, args.seed, t)),
                                  ("swaps", "swap_kills", lambda: bench_swaps(t))):
            if option in args.skip:
                continue
            t0 = time.monotonic()
            try:
                result[name] = run()
            except Exception:  # noqa: BLE001 - the bench itself broke: say where
                result[name] = {"error": traceback.format_exc(limit=3)}
            result[name]["seconds"] = round(time.monotonic() - t0, 1)
    lost = sum(result.get(k, {}).get("papers_lost", 0) for k in ("kills", "swap_kills"))
    result["summary"] = {
        "inputs_tried": result.get("inputs", {}).get("files", 0),
        "records_tried": result.get("inputs", {}).get("records", 0),
        "records_unaccounted": result.get("inputs", {}).get("records_unaccounted", 0),
        "interruptions_tried": sum(result.get(k, {}).get("tried", 0) for k in ("kills", "swap_kills")),
        "interruptions_survived": sum(result.get(k, {}).get("survived", 0) for k in ("kills", "swap_kills")),
        "papers_lost": lost,
    }
    report(result)


if __name__ == "__main__":
    main()
