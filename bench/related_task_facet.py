"""The background facet on CSFCube: variants of ``--by task`` chosen on half A of the pools, reported on half B.

CSFCube's development background pools (../shared/bench/real/csfcube, README there) are split as
bench/related_real.py splits them (queries sorted by id, alternately A and B). Each variant ranks
every background pool; its NDCG@20 is given per half. A setting is chosen on A only (the best of
each family's grid there; ties go to the first, the simplest) and judged on B, beside kg with no
facet and dense MiniLM (sentence-transformers' all-MiniLM-L6-v2 of title + abstract, as there).

``cos`` is the cosine of the abstracts' vectors extraction keeps; ``all`` the score of every
concept (what ranking with no facet uses), ``task`` the task concepts' score (``by="task"``),
``phrases`` the cosine of the task facet vectors (mean static phrase vectors of the task mentions):

* ``shipped``: what ``kg related --by task`` ranks by (``ConceptIndex.score`` with ``by="task"``;
  "task" is not in RANKED_BY_FACET: as no facet); ``weights_c0.5_f0.75`` is what it ranked by before,
  the method facet's terms;
* ``no_facet``: (cos + 0.5 all) / 1.5, the ranking with no facet;
* ``weights_c{c}_f{f}``: (cos + c task + f phrases) / (1 + c + f), a weight per facet;
* ``no_facet_plus_phrases_{f}``: (cos + 0.5 all + f phrases) / (1.5 + f): the ranking with no
  facet, the task facet vectors added;
* ``sentences_{f}``: (cos + 0.5 task + f sentences) / (1.5 + f), the task facet vector made of the
  static vectors (KeyBERT's Model2Vec model) of the sentences holding the task mentions, as one text;
* ``specific_{s}``: (cos + 0.5 task' + 0.75 phrases) / 2.25, task' the task concepts' score over
  concepts at most a share s of the corpus's papers have (specificity);
* ``vectors``: cos alone.

    python bench/related_task_facet.py --cache .kg-bench-cache

Prints one JSON object.
"""
from __future__ import annotations

import time

from _common import report
from related_real import (chosen_by_half, dense_embeddings, facet_parser, facet_pools_and_graph, facet_vectors, ndcg_of_variants,
                          phrase_embedders, text_of)

from kg import schema  # noqa: E402
from kg.analysis import related as rel  # noqa: E402
from kg.analysis.related import facets as rel_facets  # noqa: E402

CONCEPT_WEIGHTS = (0.0, 0.25, 0.5)
FACET_WEIGHTS = (0.0, 0.15, 0.3, 0.75)
SHARES = (0.01, 0.02, 0.05)


def main() -> None:
    ap = facet_parser(__doc__.split("\n")[0])
    ap.add_argument("--no-dense", action="store_true", help="skip the dense MiniLM baseline")
    args = ap.parse_args()
    t0 = time.perf_counter()
    pools, alias, half, papers, g, timings, ids = facet_pools_and_graph(args, "background")
    # The task facet read as the method facet is (its concepts, its facet vectors), and as kg ranks it.
    task = rel.ConceptIndex.from_graph(g, "task", own_terms=True)
    shipped = rel.ConceptIndex.from_graph(g, "task")
    whole = rel.ConceptIndex.from_graph(g)
    if task.dense is None:
        raise SystemExit("bench: the graph has no vectors")
    timings["graph_and_index"] = round(time.perf_counter() - t0, 1)
    sent = facet_vectors(g, "task", phrase_embedders()["static"], sentences=True)
    # The task facet vectors (kg ranks --by task as no facet: "task" is not in RANKED_BY_FACET).
    fv = rel_facets.facet_vectors(g, task.dense.ids, schema.MENTION_REL["Task"])
    row = task.dense.row_of()
    n = len(task.vectors)
    dense = None
    if not args.no_dense:
        texts = {p.id: text_of(p) for p in papers}
        demb, _ = dense_embeddings([texts[p] for p in ids], args.cache)
        dense = dict(zip(ids, demb))
    cw = rel.CONCEPT_WEIGHT

    def variants(q: str, c: str) -> dict[str, float]:
        cos, allc, tc = whole.cosine(q, c), whole.concept_score(q, c), task.concept_score(q, c)
        phr = float(fv[row[q]] @ fv[row[c]])
        s = float(sent[q] @ sent[c]) if q in sent and c in sent else 0.0
        out = {"shipped": shipped.score(q, c), "no_facet": whole.score(q, c), "vectors": cos}
        if dense is not None:
            out["dense_minilm"] = float(dense[q] @ dense[c])
        for a in CONCEPT_WEIGHTS:
            for f in FACET_WEIGHTS:
                out[f"weights_c{a:g}_f{f:g}"] = (cos + a * tc + f * phr) / (1 + a + f)
        for f in FACET_WEIGHTS:
            out[f"no_facet_plus_phrases_{f:g}"] = (cos + cw * allc + f * phr) / (1 + cw + f)
            out[f"sentences_{f:g}"] = (cos + cw * tc + f * s) / (1 + cw + f)
        contrib = task._contrib(q, c)
        for share in SHARES:
            kept = {k: v for k, v in contrib.items() if task.df[k] <= share * n}
            spec = sum(kept.values()) if task.explains(kept) else 0.0
            out[f"specific_{share:g}"] = (cos + cw * spec + rel.FACET_WEIGHT * phr) / (1 + cw + rel.FACET_WEIGHT)
        return out

    per, pool_scores = ndcg_of_variants(pools, alias, half, variants, args.at)
    ndcgs, chosen, chosen_b = chosen_by_half(per)
    b_pools = [q for q, _ in pools if half[(q, "background")] == "B"]
    vs = {f: sum(pool_scores[m][q] >= pool_scores["no_facet"][q] for q in b_pools) for f, m in chosen.items()}
    report({
        "benchmark": "CSFCube dev, background facet (--by task): variants chosen on half A, judged on half B (NDCG@20)",
        "pools": {h: sum(1 for k in pools if half[k] == h) for h in "AB"},
        "papers_ranked": len(ids),
        "papers_with_task_mentions": sum(1 for p in ids if p in sent),
        "chosen_on_A": {f: {"setting": m, **ndcgs[m], "B_pools_not_below_no_facet": vs[f]}
                        for f, m in chosen.items()},
        "chosen_on_B": {f: {"setting": m, **ndcgs[m]} for f, m in chosen_b.items()},
        "per_pool": {m: {q: round(100 * v, 1) for q, v in pool_scores[m].items()}
                     for m in ("shipped", "no_facet", "vectors", *(["dense_minilm"] if dense else []))},
        "ndcg_at": ndcgs,
        "seconds": timings,
    })


if __name__ == "__main__":
    main()
