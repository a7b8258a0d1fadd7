#!/usr/bin/env python
"""Extraction on a Dask LocalCluster of 1 and of 2 worker processes: throughput, per worker.

    python bench/dask_workers.py --n 400            # 400 replicated abstracts, 1 then 2 workers

For each worker count: start the cluster, send a warm-up partition to every worker (each loads
the models once; timed apart as `startup_s`), then extract --n abstracts and time them. Prints
abstracts/s in all and per worker, and from the per-worker rate with 2 workers (one core each)
the projected wall time of 1M and 10M abstracts on N workers, assuming (1) every worker is one
core like this machine's, (2) extraction scales linearly with workers (each partition is independent; the scheduler
handles a partition in milliseconds), and (3) the rest of a build (resolution, graph, store,
pages) is not counted: at that size it is the shard route's (docs/neo4j.md).
"""
from __future__ import annotations

import argparse
import time

from _common import report

from corpora import replicate  # noqa: E402


def run(papers, workers: int) -> dict:
    from distributed import Client, LocalCluster

    from kg.extract.distributed import ExtractorPlugin, _extract_partition

    t0 = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        plugin = ExtractorPlugin(use_keybert=True, threads=max(1, 2 // workers))
        client.register_plugin(plugin)
        for w in client.scheduler_info()["workers"]:  # each worker loads its models now
            client.submit(_extract_partition, plugin.name, papers[:1], workers=[w], pure=False).result()
        startup = time.perf_counter() - t0
        t = time.perf_counter()
        futures = [client.submit(_extract_partition, plugin.name, papers[i:i + 32], pure=False)
                   for i in range(0, len(papers), 32)]
        n = sum(len(f.result()[1]) for f in futures)
        dt = time.perf_counter() - t
    return {"startup_s": round(startup, 1), "extract_s": round(dt, 1), "abstracts_per_s": round(n / dt, 1),
            "per_worker_per_s": round(n / dt / workers, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=400)
    args = ap.parse_args()
    from kg.corpus.papers import to_paper

    papers = [to_paper(r, f"item {i}", lambda w: None) for i, r in enumerate(replicate(args.n))]
    results = {w: run(papers, w) for w in (1, 2)}
    rate = results[2]["per_worker_per_s"]
    projection = {f"{size:,} abstracts on {nw} workers": f"{size / (rate * nw) / 3600:.1f} h"
                  for size in (1_000_000, 10_000_000) for nw in (10, 100)}
    report({"abstracts": args.n, "workers": results, "projected_extraction": projection})


if __name__ == "__main__":
    main()
