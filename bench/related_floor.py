"""Calibrate the cosine floor of "similar wording" neighbours (kg.analysis.related.WORDING_COSINE_MIN).

On EMNLP 2020 (../shared/bench/real: 781 main-conference abstracts and the track of each), every
pair of papers that shares no specific concept (kg's concept score is 0: a neighbour kg would note
"similar wording") is binned by the cosine of the abstracts' vectors extraction keeps
(all-MiniLM-L6-v2, 128 pieces), and each bin's same-track rate is set beside the rate of any pair
of papers (what a random neighbour scores) and the rate of the pairs that share a specific concept.
Also: the same for the wording-only neighbours kg lists in each paper's top 10 without a floor, and,
for each floor tried, the share of those it would leave out and their same-track rate.

    python bench/related_floor.py --cache .kg-bench-cache

Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from _common import ROOT, report
from related_real import REAL, kg_graph

from kg.analysis import related as rel  # noqa: E402
from kg.builds.pipeline import BuildOptions  # noqa: E402
from kg.corpus import read_corpus  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--emnlp", type=Path, default=REAL / "emnlp2020_tracks.jsonl")
    ap.add_argument("--labels", type=Path, default=REAL / "emnlp2020_labels.json")
    ap.add_argument("--cache", type=Path, default=ROOT / ".kg-cache")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--step", type=float, default=0.05, help="width of a cosine bin")
    ap.add_argument("-k", type=int, default=10, help="neighbours listed per paper")
    ap.add_argument("--limit", type=int, default=0, metavar="N", help="the first N papers (CI)")
    args = ap.parse_args()
    if not (args.emnlp.is_file() and args.labels.is_file()):
        print(json.dumps({"skipped": f"not found: {args.emnlp} or {args.labels}"}))
        return
    labels = json.loads(args.labels.read_text(encoding="utf-8"))
    papers = [p for p in read_corpus(args.emnlp).papers if p.id in labels][: args.limit or None]
    opts = BuildOptions(cache_dir=args.cache, workers=args.workers, progress=False, views=False, related_k=0)
    g, _ = kg_graph(papers, "emnlp2020", args.emnlp, opts)
    index = rel.ConceptIndex.from_graph(g)
    if index.dense is None:
        raise SystemExit("bench: the graph has no vectors")
    ids = list(index.dense.ids)
    track = np.array([labels[p] for p in ids])
    m = index.dense.matrix.astype(np.float64)
    cos = m @ m.T
    n = len(ids)
    iu = np.triu_indices(n, 1)
    same = (track[:, None] == track[None, :])[iu]
    linked = np.array([index.concept_score(ids[i], ids[j]) > 0 for i, j in zip(*iu)])
    c = cos[iu]

    def rate(mask) -> dict:
        k = int(mask.sum())
        return {"pairs": k, "same_track": round(float(same[mask].mean()), 4) if k else None}

    bins = []
    edges = np.arange(np.floor(c.min() / args.step) * args.step, c.max() + args.step, args.step)
    for lo, hi in zip(edges[:-1], edges[1:]):
        inside = (c >= lo) & (c < hi)
        bins.append({"cosine": f"{lo:.2f}-{hi:.2f}", "wording_only": rate(inside & ~linked),
                     "sharing_a_concept": rate(inside & linked)})
    # The wording-only neighbours kg lists today (no floor): each paper's top k by the fused score.
    rows = rel.ConceptIndex.from_graph(g, weights=rel.Weights(floor=-2.0)).related_all(args.k)
    at = {p: i for i, p in enumerate(ids)}
    # Wording-only as the floor reads it: no specific concept shared (concept score 0). A neighbour
    # sharing only single words that name no node has a concept score and stays (below the floor
    # those words are its reasons).
    listed = [(at[p], at[r.id], index.concept_score(p, r.id) > 0) for p, rs in rows.items() for r in rs]
    lc = np.array([cos[i, j] for i, j, _ in listed])
    ls = np.array([track[i] == track[j] for i, j, _ in listed])
    lw = np.array([not s for _, _, s in listed])
    floors = {}
    for f in np.arange(0.20, 0.55, 0.05):
        out = lw & (lc < f)
        floors[f"{f:.2f}"] = {
            "left_out": int(out.sum()), "left_out_share_of_listed": round(float(out.mean()), 4),
            "left_out_same_track": round(float(ls[out].mean()), 4) if out.any() else None,
            "kept_wording_only_same_track": round(float(ls[lw & ~out].mean()), 4) if (lw & ~out).any() else None,
        }
    report({
        "benchmark": "cosine floor of wording-only neighbours, EMNLP 2020 tracks",
        "papers": n,
        "any_pair": rate(np.ones_like(same)),
        "wording_only_pairs": rate(~linked),
        "pairs_sharing_a_concept": rate(linked),
        "bins": bins,
        f"listed_top_{args.k}": {
            "all": {"pairs": len(listed), "same_track": round(float(ls.mean()), 4)},
            "wording_only": {"pairs": int(lw.sum()), "same_track": round(float(ls[lw].mean()), 4),
                             "cosine_quartiles": [round(float(x), 3) for x in np.quantile(lc[lw], [.25, .5, .75])]},
            "sharing_a_concept": {"pairs": int((~lw).sum()), "same_track": round(float(ls[~lw].mean()), 4)},
        },
        "floors": floors,
    })


if __name__ == "__main__":
    main()
