#!/usr/bin/env python
"""Time and peak memory of each build stage after extraction, at sizes extraction makes slow to reach.

    python bench/stages.py --n 100000          # a 100k-paper graph, store and views

The corpus is bench/corpora.py's replicated one, vocabulary growing as in bench/scale.py. Only its
~420 distinct source abstracts (SciERC train + dev and the seed list) are run through the real
extractor; each copy gets its source's extraction rebuilt as its own objects (new paper id; a
mention whose text is an entity the copy renames is renamed the same way, "BERT" -> "BERT-ro"),
so graph, related papers, store and views see a graph of the full size with the entity
distribution of real extractions. The renaming matches mentions to the renamed gold entities by
their normalized text, where bench/scale.py's extractor reads the renamed text, so the two builds'
entities differ (10k: 53,082 here, 44,980 there); the report gives the count to compare.
Per stage it prints wall time and the process's peak RSS during it (sampled every 50 ms from
/proc/self/statm; the store is written beside the graph files and pages, so its peak is theirs,
unless pages are written by forked workers: then it has a row of its own);
"peak_total_pss_mb" is the most this process and its forked children held together (PSS summed,
sampled every half second, as bench/scale.py does).
For the end-to-end figure with real extraction of every copy, see bench/scale.py.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from pathlib import Path

from _common import report

from corpora import _suffix, replicas, write_jsonl  # noqa: E402

from kg.records import Extraction, Mention  # noqa: E402


class PeakRSS:
    """Resident memory of this process over time, sampled in a background thread."""

    def __init__(self, every: float = 0.05):
        self.samples: list[tuple[float, int]] = []  # (perf_counter, bytes)
        self._every = every
        self._page = os.sysconf("SC_PAGE_SIZE")
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            with open("/proc/self/statm") as f:
                self.samples.append((time.perf_counter(), int(f.read().split()[1]) * self._page))
            time.sleep(self._every)

    def mb(self, start: float = 0.0, end: float = float("inf")) -> int:
        """The peak between ``start`` and ``end`` (perf_counter times), in MB."""
        return round(max((b for t, b in list(self.samples) if start <= t <= end), default=0) / 2**20)


class PeakTotalPSS:
    """The most this process and its children (forked workers) held together: their PSS summed,
    sampled every half second (pages they share count once)."""

    def __init__(self, every: float = 0.5):
        self.peak_kb = 0
        self._every = every
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        from scale import _tree_pss_kb

        while True:
            self.peak_kb = max(self.peak_kb, _tree_pss_kb(os.getpid()))
            time.sleep(self._every)


# The stages of ``kg.builds.pipeline.build``'s timings in the order they run. The store ("write_store")
# runs beside the graph files and views, with no interval of its own, unless page workers are forked
# (kg.view.forks_pages): then it is written alone, before the graph files.
SEQUENCE = ("read", "extract", "concepts", "graph", "related", "topics", "write_records", "write_store",
            "write_graph_files", "write_views")


def copied(ex: Extraction, paper_id: str, renamed: dict[str, str]) -> Extraction:
    """``ex`` as a copy's own extraction: new objects throughout (as a real extraction's are: a
    mention's sentence is its own string), mentions of a renamed entity renamed."""
    from kg.evaluate import normalize_text

    def name(text: str) -> str:
        suffix = renamed.get(normalize_text(text))
        return f"{text}-{suffix}" if suffix else "".join(text)

    mentions = tuple(Mention(name(m.text), m.type, m.start, m.end, (m.sentence + " ")[:-1], m.score, m.source)
                     for m in ex.mentions)
    return Extraction(paper_id=paper_id, mentions=mentions, relations=ex.relations,
                      key_concepts=tuple((name(k), s) for k, s in ex.key_concepts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--no-views", action="store_true")
    ap.add_argument("--flat", action="store_true", help="copies repeat their source's entities (no growth)")
    ap.add_argument("--keep", type=Path, help="write the build here and keep it (default: a temporary folder)")
    args = ap.parse_args()

    from kg.extract import Extractor
    from kg.builds.pipeline import BuildOptions, build
    from kg.view import forks_pages

    rss, pss = PeakRSS(), PeakTotalPSS()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        corpus = tmp / "corpus.jsonl"
        # Which entities each copy renames: "<normalized name>-<suffix>" in its entity set.
        renames: dict[str, dict[str, str]] = {}
        records = []
        for record, ents in replicas(args.n, growth=not args.flat):
            records.append(record)
            _, _, copy = record["id"].partition("~")
            if copy:
                suffix = _suffix(int(copy))
                renames[record["id"]] = {e[: -len(suffix) - 1]: suffix for e in ents if e.endswith(f"-{suffix}")}
        write_jsonl(records, corpus)
        del records

        def copied_extractions(corp, options):
            source = {p.id: p.id.split("~")[0] for p in corp.papers}
            distinct = [p for p in corp.papers if source[p.id] == p.id]
            real = {ex.paper_id: ex for ex in Extractor().extract(distinct)}
            out = [copied(real[source[p.id]], p.id, renames.get(p.id, {})) for p in corp.papers]
            return out, len(distinct)

        t0 = time.perf_counter()
        options = BuildOptions(out=args.keep or tmp / "out", views=not args.no_views)
        r = build(corpus, options, extract=copied_extractions)
        store_alone = options.views and forks_pages(r.graph, options.workers)
        stages: dict[str, dict] = {}
        t = t0
        for name in SEQUENCE:
            if name == "write_store" and not store_alone:
                continue
            if name in r.timings:
                stages[name] = {"seconds": round(r.timings[name], 1), "peak_rss_mb": rss.mb(t, t + r.timings[name])}
                t += r.timings[name]
        stages["extract"]["distinct"] = sum(1 for p in r.corpus.papers if "~" not in p.id)
        if not store_alone:
            stages["write_store (beside graph files and views)"] = {"seconds": round(r.timings["write_store"], 1)}
        result = {"papers": len(r.corpus.papers), "nodes": r.graph.number_of_nodes(),
                  "entities": sum(r.entity_counts.values()), "edges": r.graph.number_of_edges(),
                  "growth": not args.flat, "stages": stages, "peak_rss_mb": rss.mb(),
                  "peak_total_pss_mb": round(pss.peak_kb / 1024),
                  "total_s": round(r.seconds, 1)}
    report(result)


if __name__ == "__main__":
    main()
