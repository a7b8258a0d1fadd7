"""What `kg related` gives as reasons over a whole corpus: the concepts every neighbour lists, counted.

For each paper its top k related papers (``related_all``, as `kg related --all` lists them), with no
facet and with each facet (``--by method|task|dataset``), and per ranking:

- ``links``: the neighbours listed; ``with_reasons``: the share listing at least one shared concept
  (the others are noted "similar wording");
- ``reasons_by_type``: how many listed reasons are of each type (Method, Task, Dataset, Metric, or
  Concept: a key phrase's concept no entity names), and with a facet ``reasons_of_the_facet``: the
  share of its reasons that are of its type;
- ``top_reasons``: the most listed reasons, "name (type, papers)" and how many links list each: what
  a reader meets most, to read.

    python bench/related_reasons.py --db exports/acl_2017_2019          # a build made before
    python bench/related_reasons.py --corpus ../shared/bench/real/acl_2017_2019.jsonl --cache .kg-bench-cache

Prints one JSON object.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from _common import report
from related_real import kg_graph

from kg.analysis.related import FACETS, related_all  # noqa: E402
from kg.graph import papers_of  # noqa: E402
from kg.builds.pipeline import BuildOptions  # noqa: E402
from kg.corpus import read_corpus  # noqa: E402
from kg.graph.io import read_json  # noqa: E402


def reasons(g, k: int, by: str | None, top: int) -> dict:
    rows = related_all(g, k=k, by=by)
    links = [r for rs in rows.values() for r in rs]
    kinds: Counter = Counter()
    named: Counter = Counter()
    for r in links:
        for s in r.shared:
            kinds[s.type] += 1
            named[f"{s.name} ({s.type}, {s.papers})"] += 1
    out = {"links": len(links), "with_reasons": round(sum(1 for r in links if r.shared) / max(len(links), 1), 3),
           "reasons_by_type": dict(kinds.most_common())}
    if by:
        out["reasons_of_the_facet"] = round(kinds[FACETS[by]] / max(sum(kinds.values()), 1), 3)
    out["top_reasons"] = named.most_common(top)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--db", type=Path, help="a build directory (its graph.json)")
    source.add_argument("--corpus", type=Path, help="a corpus file to build (kg's library, no pages)")
    ap.add_argument("--cache", type=Path, default=None, help="extraction cache folder (with --corpus)")
    ap.add_argument("--limit", type=int, default=0, metavar="N", help="the first N papers of --corpus (CI)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("-k", type=int, default=10, help="neighbours per paper (the stored links' 10)")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    t = time.perf_counter()
    if args.db:
        g = read_json(args.db / "graph.json")
    else:
        corpus = read_corpus(args.corpus)
        papers = corpus.papers[: args.limit or None]
        opts = BuildOptions(cache_dir=args.cache, workers=args.workers, progress=False, views=False, related_k=0)
        g, _ = kg_graph(papers, corpus.name, args.corpus, opts)
    read_s = time.perf_counter() - t
    t = time.perf_counter()
    out = {by or "no facet": reasons(g, args.k, by, args.top) for by in (None, *FACETS)}
    report({"benchmark": "the reasons kg related lists, over every paper's top k", "k": args.k,
            "papers": len(papers_of(g)),
            "rankings": out, "seconds": {"graph": round(read_s, 1), "rankings": round(time.perf_counter() - t, 1)}})


if __name__ == "__main__":
    main()
