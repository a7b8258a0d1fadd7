"""Related papers on a corpus the ranking was not tuned on: ACL 2017-2019, by the datasets papers use.

Papers with Code tags 1,925 of the 5,721 ACL Anthology abstracts of ../shared/bench/real/ with the
datasets they use (``acl_2017_2019_pwc.json``, 557 datasets; README there). A query is a tagged
paper one of whose datasets another paper of the corpus also uses; a neighbour is right when it
shares a dataset with the query. Every paper of the corpus is a candidate, tagged or not, and the
score is the share of right neighbours among each query's top k (P@k), averaged over the queries.

Rankers: ``kg`` (`kg related PAPER`, no facet), ``kg_by_dataset`` (`--by dataset`), ``kg_concepts``
(the concepts alone, as a build without vectors ranks), ``kg_vectors`` (the abstracts' vectors
extraction keeps, alone), beside the baselines of
bench/related_real.py computed in the same run: ``dense_minilm`` (all-MiniLM-L6-v2 vectors of title
+ abstract, cached in CACHE/minilm.npz by text) and ``tfidf``. ``minus_dense`` gives kg's margin
over dense retrieval with a 95% interval from a paired bootstrap over the queries (2,000 draws).

None of kg's weights was chosen on this corpus (CONCEPT_WEIGHT on EMNLP 2020, FACET_WEIGHT on
CSFCube's method pools), and Papers with Code's tags are no input to kg: they are labels kg never saw.

    python bench/related_datasets.py --db exports/acl_2017_2019      # a build made before
    python bench/related_datasets.py --corpus ../shared/bench/real/acl_2017_2019.jsonl --cache .kg-bench-cache

Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import numpy as np
from _common import bootstrap_interval, report
from related_real import REAL, dense_embeddings, kg_graph, tfidf_matrix, text_of

from kg.analysis.related import ConceptIndex  # noqa: E402
from kg.builds.pipeline import BuildOptions  # noqa: E402
from kg.corpus import read_corpus  # noqa: E402
from kg.graph.io import read_json  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", type=Path, help="a build of the corpus (its graph.json); else --corpus is built")
    ap.add_argument("--corpus", type=Path, default=REAL / "acl_2017_2019.jsonl")
    ap.add_argument("--tags", type=Path, default=REAL / "acl_2017_2019_pwc.json")
    ap.add_argument("--cache", type=Path, default=None, help="extraction and MiniLM cache folder")
    ap.add_argument("--limit", type=int, default=0, metavar="N", help="the first N papers of --corpus (CI)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--no-dense", action="store_true", help="leave out the MiniLM baseline (CI)")
    args = ap.parse_args()

    t = time.perf_counter()
    corpus = read_corpus(args.corpus)
    if args.db:
        g = read_json(args.db / "graph.json")
        papers = [p for p in corpus.papers if p.id in g]
    else:
        papers = corpus.papers[: args.limit or None]
        opts = BuildOptions(cache_dir=args.cache, workers=args.workers, progress=False, views=False, related_k=0)
        g, _ = kg_graph(papers, corpus.name, args.corpus, opts)
    timings = {"graph": round(time.perf_counter() - t, 1)}
    ids = [p.id for p in papers]
    raw = json.loads(args.tags.read_text(encoding="utf-8"))
    tags = {p: set(raw.get(p) or ()) for p in ids}
    users = Counter(d for p in ids for d in tags[p])
    queries = [p for p in ids if any(users[d] > 1 for d in tags[p])]
    if not queries:
        raise SystemExit("bench: no two papers of the corpus share a dataset tag")
    k = args.k

    def right(neighbours: dict[str, list[str]]) -> np.ndarray:
        """Per query, the share of its top k that share one of its datasets."""
        return np.array([sum(bool(tags[q] & tags[n]) for n in neighbours[q][:k]) / k for q in queries])

    row = {p: i for i, p in enumerate(ids)}
    order = np.argsort(ids)  # ties broken by id, as kg breaks them

    def top(sims: np.ndarray, q: str) -> list[str]:
        sims = np.asarray(sims, dtype=np.float64).copy()
        sims[row[q]] = -np.inf
        return [ids[j] for j in order[np.argsort(-sims[order], kind="stable")][:k]]

    per: dict[str, np.ndarray] = {}
    t = time.perf_counter()
    for name, by, dense in (("kg", None, True), ("kg_by_dataset", "dataset", True), ("kg_concepts", None, False)):
        index = ConceptIndex.from_graph(g, by, dense=dense)
        rows = index.related_all(k)
        per[name] = right({q: [r.id for r in rows[q]] for q in queries})
        if name == "kg" and index.dense is not None:
            m = index.dense.subset(ids).matrix  # the vectors extraction keeps, alone
            per["kg_vectors"] = right({q: top(m @ m[row[q]], q) for q in queries})
    timings["kg_rankings"] = round(time.perf_counter() - t, 1)

    texts = [text_of(p) for p in papers]
    x = tfidf_matrix(texts)
    per["tfidf"] = right({q: top((x @ x[row[q]].T).toarray()[:, 0], q) for q in queries})
    if not args.no_dense:
        emb, secs = dense_embeddings(texts, args.cache)
        timings["dense_embedding"] = round(secs, 1)
        per["dense_minilm"] = right({q: top(emb @ emb[row[q]], q) for q in queries})
    margins = {}
    if "dense_minilm" in per:
        for name in ("kg", "kg_by_dataset"):
            diff = per[name] - per["dense_minilm"]
            margins[name] = {"mean": round(float(diff.mean()), 4), "interval_95": bootstrap_interval(diff)}
    report({
        "benchmark": f"ACL 2017-2019: share of each query's top {k} sharing a Papers with Code dataset tag",
        "papers": len(ids),
        "queries": len(queries),
        "datasets": sum(1 for n in users.values() if n > 1),
        "k": k,
        "precision_at_k": {name: round(float(v.mean()), 4) for name, v in per.items()},
        "minus_dense": margins,
        "seconds": timings,
    })


if __name__ == "__main__":
    main()
