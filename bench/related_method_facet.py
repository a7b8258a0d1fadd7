"""The method facet on CSFCube: variants of ``--by method`` chosen on half A of the pools, reported on half B.

CSFCube's development method pools (../shared/bench/real/csfcube, README there) are split as
bench/related_real.py splits them (queries sorted by id, alternately A and B: 5 pools each). Each
variant ranks every method pool; its NDCG@20 is given per half. A setting is chosen on A only
(the best of each variant's grid there), and B is where it is judged, beside dense MiniLM (the
cosine of sentence-transformers' all-MiniLM-L6-v2 vectors of title + abstract, as there).

Every variant is kg's faceted score with one term changed; ``cos`` is the cosine of the abstracts'
vectors extraction keeps, ``concepts`` the method concepts' score (0.5 = CONCEPT_WEIGHT) and
``phrases`` the cosine of the facet vectors kg ships (mean static phrase vectors of the method
mentions, FACET_WEIGHT):

* ``shipped``: (cos + 0.5 concepts + 0.75 phrases) / 2.25, what ``kg related --by method`` ranks by;
* ``phrases_w``: the phrases' weight w instead of 0.75;
* ``specific_phrases_w``: the facet vector weights each mention's phrase vector by its entity's
  IDF in the corpus (a method few papers name says more of the paper's method);
* ``sentences_w``: + w times the cosine of the method sentences' vectors (all-MiniLM-L6-v2 of the
  sentences holding the paper's method mentions, read as one text, 128 pieces), on top of shipped;
* ``sentences_for_cos_w``: the method sentences' cosine in place of the abstracts' (the whole
  abstract is mostly background), weight w beside shipped's other terms;
* ``maxsim_w``: + w times a sentence-level match: for each method sentence of one paper the best
  cosine with any sentence of the other (each sentence its own MiniLM vector), averaged, both ways;
* ``static_sentences_w``: + w times the cosine of the method sentences' static vectors (KeyBERT's
  Model2Vec model, as the phrases': no transformer pass), on top of shipped;
* ``static_sentences_for_phrases_w``: those in place of the phrases' facet vectors;
* ``keyphrases_w``: the phrases' facet vectors with the paper's KeyBERT key phrases that name a
  method concept (the ones ``by="method"`` counts) added to its mentions;
* ``dense256_for_cos``: shipped with the dense baseline's vector (256 pieces) in place of kg's
  (128): what reading the whole abstract would give (a diagnostic: extraction keeps 128);
* ``feedback_mxb``: pseudo-relevance feedback: shipped plus b times the mean shipped score of the
  candidate with the query's m nearest papers of the corpus (``related``'s top m; a neighbour does
  not vote for itself), m = 5, 10, b = 0.25, 0.5, 1.

Each family's setting is chosen on one half and judged on the other, both ways (``chosen_on_A``
judged on B, ``chosen_on_B`` judged on A); ``wins_on_B`` counts the B pools where the A-chosen
setting beats dense MiniLM.

    python bench/related_method_facet.py --cache .kg-bench-cache

Prints one JSON object. The sentence vectors are cached in CACHE/minilm_sentences.npz by text.
"""
from __future__ import annotations

import hashlib
import math
import time
from pathlib import Path

import numpy as np
from _common import report
from related_real import (chosen_by_half, dense_embeddings, facet_parser, facet_pools_and_graph, ndcg_of_variants,
                          phrase_embedders, text_of)

from kg import schema  # noqa: E402
from kg.analysis import related as rel  # noqa: E402
from kg.analysis.related import phrases as rel_phrases  # noqa: E402

WEIGHTS = (0.3, 0.75, 1.5)
FEEDBACK_PAPERS = (5, 10)
FEEDBACK_WEIGHTS = (0.25, 0.5, 1.0)


def cached_embed(texts: list[str], store: Path | None) -> np.ndarray:
    """Unit kg MiniLM vectors (kg.extract.docvec, 128 pieces) of ``texts``, remembered in ``store``."""
    from kg.extract.docvec import load

    keys = [hashlib.sha256(t.encode("utf-8")).hexdigest()[:24] for t in texts]
    known: dict[str, np.ndarray] = {}
    if store and store.is_file():
        with np.load(store) as z:
            known = {k: z[k] for k in z.files}
    todo = sorted({k: t for k, t in zip(keys, texts) if k not in known}.items())
    if todo:
        emb = load().embed([t for _, t in todo])
        known.update({k: e for (k, _), e in zip(todo, emb)})
        if store:
            store.parent.mkdir(parents=True, exist_ok=True)
            np.savez(store, **known)
    return np.stack([known[k] for k in keys]) if keys else np.zeros((0, 384), np.float32)


def unit(v: np.ndarray) -> np.ndarray:
    return v / (np.linalg.norm(v) or 1.0)


def main() -> None:
    args = facet_parser(__doc__.split("\n")[0]).parse_args()
    t0 = time.perf_counter()
    pools, alias, half, papers, g, timings, ids = facet_pools_and_graph(args, "method")
    index = rel.ConceptIndex.from_graph(g, "method")
    if index.dense is None:
        raise SystemExit("bench: the graph has no vectors")
    timings["graph_and_index"] = round(time.perf_counter() - t0, 1)

    # The sentences of each paper: those holding its method mentions, and those holding any mention.
    rel_method = schema.MENTION_REL["Method"]
    method_sents: dict[str, list[str]] = {}
    all_sents: dict[str, list[str]] = {}
    for p in ids:
        ms, al = [], []
        for _, _, d in g.out_edges(p, data=True):
            for s in d.get("sentences") or ():
                if s and d.get("type") in schema.MENTION_REL.values():
                    al.append(s)
                    if d.get("type") == rel_method:
                        ms.append(s)
        method_sents[p] = list(dict.fromkeys(ms))
        all_sents[p] = list(dict.fromkeys(al))
    t = time.perf_counter()
    store = args.cache / "minilm_sentences.npz" if args.cache else None
    joined = {p: " ".join(ss) for p, ss in method_sents.items() if ss}
    jv = dict(zip(joined, cached_embed(list(joined.values()), store)))
    each = sorted({s for ss in all_sents.values() for s in ss})
    sv = dict(zip(each, cached_embed(each, store)))
    timings["sentence_vectors"] = round(time.perf_counter() - t, 1)

    # Specificity-weighted facet vectors (static phrase vectors, each weighted by its entity's IDF).
    static = phrase_embedders()["static"]
    n = len(papers)
    weighted_phr: dict[str, list[tuple[str, float]]] = {}
    for p in ids:
        rows = []
        for _, eid, d in g.out_edges(p, data=True):
            if d.get("type") == rel_method:
                w = math.log((1 + n) / (1 + int(g.nodes[eid].get("papers") or 1))) + 1.0
                rows += [(s, w) for s in d.get("surface") or ()]
        weighted_phr[p] = rows
    phrases = sorted({s for rows in weighted_phr.values() for s, _ in rows})
    pv = dict(zip(phrases, static(phrases))) if phrases else {}
    spec_vec = {p: unit(sum(w * pv[s] for s, w in rows)) for p, rows in weighted_phr.items() if rows}

    # The method sentences' static vectors, and facet vectors with the method key phrases added.
    ssv = dict(zip(joined, static(list(joined.values())))) if joined else {}
    method_keys = set(index.names)  # the concepts the method index counts
    words_of = rel_phrases.memo_reader()
    kp: dict[str, list[str]] = {}
    for p in ids:
        own = [s for _, _, d in g.out_edges(p, data=True) if d.get("type") == rel_method for s in d.get("surface") or ()]
        keys = [k for k in g.nodes[p].get("key_concepts") or () if rel_phrases.concept_key(k, words_of) in method_keys]
        kp[p] = sorted(set(own) | set(keys))
    extra = sorted({s for ss in kp.values() for s in ss} - set(pv))
    pv.update(zip(extra, static(extra)) if extra else ())
    kp_vec = {p: unit(np.mean([pv[s] for s in ss], axis=0)) for p, ss in kp.items() if ss}

    texts = {p.id: text_of(p) for p in papers}
    demb, _ = dense_embeddings([texts[p] for p in ids], args.cache)
    dense = dict(zip(ids, demb))

    def maxsim(a: str, b: str) -> float:
        qa, cb = method_sents[a], all_sents[b]
        if not qa or not cb:
            return 0.0
        x = np.stack([sv[s] for s in qa]) @ np.stack([sv[s] for s in cb]).T
        return float(x.max(axis=1).mean())

    cw, fw = rel.CONCEPT_WEIGHT, rel.FACET_WEIGHT
    nearest = {q: [r.id for r in index.related(q, max(FEEDBACK_PAPERS))] for q in {alias.get(q, q) for q, _ in pools}}

    def feedback(q: str, c: str, m: int) -> float:
        votes = [index.score(t, c) for t in nearest[q][:m] if t != c]
        return sum(votes) / len(votes) if votes else 0.0

    def variants(q: str, c: str) -> dict[str, float]:
        cos, con, phr = index.cosine(q, c), index.concept_score(q, c), index.facet_cosine(q, c)
        sent = float(jv[q] @ jv[c]) if q in jv and c in jv else 0.0
        spec = float(spec_vec[q] @ spec_vec[c]) if q in spec_vec and c in spec_vec else 0.0
        ms = (maxsim(q, c) + maxsim(c, q)) / 2
        ss = float(ssv[q] @ ssv[c]) if q in ssv and c in ssv else 0.0
        kpc = float(kp_vec[q] @ kp_vec[c]) if q in kp_vec and c in kp_vec else 0.0
        d = float(dense[q] @ dense[c])
        out = {"shipped": index.score(q, c), "dense_minilm": d,
               "dense256_for_cos": (d + cw * con + fw * phr) / (1 + cw + fw)}
        for m in FEEDBACK_PAPERS:
            fb = feedback(q, c, m)
            for b in FEEDBACK_WEIGHTS:
                out[f"feedback_{m}x{b:g}"] = out["shipped"] + b * fb
        for w in WEIGHTS:
            out[f"phrases_{w:g}"] = (cos + cw * con + w * phr) / (1 + cw + w)
            out[f"specific_phrases_{w:g}"] = (cos + cw * con + w * spec) / (1 + cw + w)
            out[f"sentences_{w:g}"] = (cos + cw * con + fw * phr + w * sent) / (1 + cw + fw + w)
            out[f"sentences_for_cos_{w:g}"] = (w * sent + cw * con + fw * phr) / (w + cw + fw)
            out[f"maxsim_{w:g}"] = (cos + cw * con + fw * phr + w * ms) / (1 + cw + fw + w)
            out[f"static_sentences_{w:g}"] = (cos + cw * con + fw * phr + w * ss) / (1 + cw + fw + w)
            out[f"static_sentences_for_phrases_{w:g}"] = (cos + cw * con + w * ss) / (1 + cw + w)
            out[f"keyphrases_{w:g}"] = (cos + cw * con + w * kpc) / (1 + cw + w)
        return out

    per, pool_scores = ndcg_of_variants(pools, alias, half, variants, args.at)
    # Each variant's setting chosen on half A, judged on half B.
    ndcgs, chosen, chosen_b = chosen_by_half(per)
    b_pools = [q for q, _ in pools if half[(q, "method")] == "B"]
    wins = {f: sum(pool_scores[m][q] > pool_scores["dense_minilm"][q] for q in b_pools) for f, m in chosen.items()}
    report({
        "benchmark": "CSFCube dev, method facet: variants chosen on half A, judged on half B (NDCG@20)",
        "pools": {h: sum(1 for k in pools if half[k] == h) for h in "AB"},
        "papers_ranked": len(ids),
        "papers_with_method_sentences": sum(1 for p in ids if method_sents[p]),
        "chosen_on_A": {f: {"setting": m, **ndcgs[m], "wins_on_B": wins[f]} for f, m in chosen.items()},
        "chosen_on_B": {f: {"setting": m, **ndcgs[m]} for f, m in chosen_b.items()},
        "per_pool": {m: {q: round(100 * v, 1) for q, v in pool_scores[m].items()}
                     for m in ("shipped", "dense_minilm", chosen["sentences"], chosen["static_sentences"])},
        "ndcg_at": ndcgs,
        "seconds": timings,
    })


if __name__ == "__main__":
    main()
