#!/usr/bin/env python
"""Cold builds of growing corpora: time, peak memory, and query latency on the result (issue 6).

    python bench/scale.py --sizes 1000 10000            # the linearity check (10k/1k time ratio)
    python bench/scale.py --sizes 100000 --workers 2    # the 100k run (about 2.3 hours on 2 cores)

Each size is a replicated corpus (SciERC + seed abstracts, permuted copies with distinct ids,
bench/corpora.py), built cold by the real CLI in a child process (`kg build --no-cache`); peak RSS
is the child's, read from the kernel after it exits; "peak_total_pss_mb" is the most the child and
its worker processes held together (their PSS summed, sampled every half second: pages the forked
workers share with the main process count once). On each build it then times every
`queries/*.cypher` on the embedded store (in process, after opening it) and `kg related` as a
user runs it (a whole CLI process). Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _common import ROOT, report

from corpora import replicate, write_jsonl  # noqa: E402


def _tree_pss_kb(root: int) -> int:
    """PSS of `root` and its descendants, from /proc (0 where the kernel does not report it)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def build_child(corpus: Path, out: Path, workers: int) -> dict:
    cmd = [sys.executable, "-m", "kg", "build", str(corpus), "--out", str(out), "--no-cache", "--quiet",
           "--workers", str(workers)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak_pss = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak_pss[0] = max(peak_pss[0], _tree_pss_kb(proc.pid))
            time.sleep(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = proc.communicate()
    dt = time.perf_counter() - t0
    sampler.join()
    if proc.returncode != 0:
        sys.exit(f"bench: build failed: {stderr.strip()[-2000:]}")
    # Children are built in ascending size, so the largest child so far is this one.
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"seconds": round(dt, 1), "peak_rss_mb": round(peak_kb / 1024),
            "peak_total_pss_mb": round(peak_pss[0] / 1024), "summary": stdout.splitlines()[:5]}


def time_queries(build: Path) -> dict:
    from kg.store.querying import READY_QUERIES, query_params, read_query
    from kg.store import Store

    out = {}
    with Store(build / "store") as store:
        given = {  # a value for each parameter a ready query takes
            "paper": store.query("MATCH (p:Paper)-[:USES]->(:Method) RETURN p.id LIMIT 1").rows[0][0],
            "name": store.query("MATCH (m:Method) RETURN m.name ORDER BY m.papers DESC LIMIT 1").rows[0][0],
            "task": store.query("MATCH (t:Task) RETURN t.name ORDER BY t.papers DESC LIMIT 1").rows[0][0],
        }
        for q in sorted(READY_QUERIES.glob("*.cypher")):
            text = read_query(str(q))
            t0 = time.perf_counter()
            rows = store.query(text, {k: given[k] for k in query_params(text)}).rows
            out[q.name] = {"seconds": round(time.perf_counter() - t0, 3), "rows": len(rows)}
    return out


def time_related(build: Path) -> dict:
    from kg.store import Store

    with Store(build / "store") as store:
        paper = store.query("MATCH (p:Paper)-[:RELATED_TO]->(:Paper) RETURN p.id LIMIT 1").rows[0][0]
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "kg", "related", paper, "--db", str(build)], cwd=ROOT,
                          capture_output=True, text=True)
    return {"cli_seconds": round(time.perf_counter() - t0, 3), "ok": proc.returncode == 0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--keep", type=Path, default=None, help="keep the builds under this folder")
    args = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        for n in sorted(args.sizes):
            corpus = base / f"scale{n}.jsonl"
            write_jsonl(replicate(n), corpus)
            build = base / f"build{n}"
            r = build_child(corpus, build, args.workers)
            r["abstracts_per_s"] = round(n / r["seconds"], 1)
            r["queries"] = time_queries(build)
            r["related"] = time_related(build)
            results[n] = r
            print(json.dumps({n: r}), file=sys.stderr)
    sizes = sorted(results)
    result = {"workers": args.workers, "cpus": os.cpu_count(), "results": results}
    if len(sizes) > 1:
        a, b = sizes[0], sizes[-1]
        result["time_ratio"] = {f"{b}/{a}": round(results[b]["seconds"] / results[a]["seconds"], 2),
                                "size_ratio": b / a}
    report(result)


if __name__ == "__main__":
    main()
