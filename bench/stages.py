#!/usr/bin/env python
"""Time and peak memory of each build stage after extraction, at sizes extraction makes slow to reach.

    python bench/stages.py --n 100000          # a 100k-paper graph, store and views

The corpus is bench/corpora.py's replicated one. Only its ~420 distinct source abstracts (SciERC
train + dev and the seed list) are run through the real extractor; each permuted copy reuses its
source's extraction (same mentions, new paper id), so graph, related papers, store and views see
a graph of the full size with the entity distribution of real extractions. Per stage it prints
wall time and the process's peak RSS so far (sampled every 50 ms from /proc/self/statm). For the
end-to-end figure with real extraction of every copy, see bench/scale.py.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from _common import report

from corpora import replicate, write_jsonl  # noqa: E402


class PeakRSS:
    """Peak resident memory of this process, sampled in a background thread."""

    def __init__(self, every: float = 0.05):
        self.peak = 0
        self._every = every
        self._stop = threading.Event()
        self._page = os.sysconf("SC_PAGE_SIZE")
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with open("/proc/self/statm") as f:
                self.peak = max(self.peak, int(f.read().split()[1]) * self._page)
            time.sleep(self._every)

    def mb(self) -> int:
        return round(self.peak / 2**20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--no-views", action="store_true")
    args = ap.parse_args()

    from kg.extract import Extractor
    from kg.pipeline import BuildOptions, build

    rss = PeakRSS()
    stages: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        corpus = tmp / "corpus.jsonl"
        write_jsonl(replicate(args.n), corpus)

        def copied_extractions(corp, options):
            t0 = time.perf_counter()
            source = {p.id: p.id.split("~")[0] for p in corp.papers}
            distinct = {p.id: p for p in corp.papers if source[p.id] == p.id}
            real = {ex.paper_id: ex for ex in Extractor().extract(list(distinct.values()))}
            out = [replace(real[source[p.id]], paper_id=p.id) for p in corp.papers]
            stages["extract (distinct sources only)"] = {"seconds": round(time.perf_counter() - t0, 1),
                                                         "distinct": len(distinct), "peak_rss_mb": rss.mb()}
            return out, len(distinct)

        r = build(corpus, BuildOptions(out=tmp / "out", views=not args.no_views), extract=copied_extractions)
        for name, seconds in r.timings.items():
            if name not in ("read", "extract"):
                stages[name] = {"seconds": round(seconds, 1)}
        result = {"papers": len(r.corpus.papers), "nodes": r.graph.number_of_nodes(),
                  "edges": r.graph.number_of_edges(), "stages": stages, "peak_rss_mb": rss.mb(),
                  "total_s": round(r.seconds, 1)}
    report(result)


if __name__ == "__main__":
    main()
