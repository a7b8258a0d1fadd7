#!/usr/bin/env python
"""Extraction throughput in abstracts per second, KeyBERT included, and peak memory.

    python bench/extract_throughput.py                 # 400 SciERC abstracts (or the seeds if absent)
    python bench/extract_throughput.py --n 200 --no-keybert --workers 2
    python bench/extract_throughput.py --model runs/fold0      # another tagger

Model loading and a warm-up batch are excluded; every abstract is distinct
(repeating texts would flatter the phrase-embedding cache).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.extract import Extractor, models  # noqa: E402
from kg.records import Paper  # noqa: E402


def corpus(n: int) -> list[str]:
    bench = ROOT.parent / "shared" / "bench" / "scierc"
    texts: list[str] = []
    if bench.exists():
        from kg.corpus.scierc import read_scierc
        for split in ("train", "dev"):
            texts += [d.text for d in read_scierc(bench / f"{split}.json")]
    seeds = (ROOT / "seeds" / "iclr2025_abstracts.txt").read_text(encoding="utf-8").split("\n\n")[1:]
    texts += [t.strip() for t in seeds if t.strip()]
    return texts[:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--no-keybert", action="store_true")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--model", type=Path, default=None, help="a tagger folder (default: the shipped one)")
    args = ap.parse_args()
    texts = corpus(args.n + 20)
    warm, texts = texts[:20], texts[20:]
    ex = Extractor(model=args.model, use_keybert=not args.no_keybert, workers=args.workers)
    list(ex.extract([Paper(id=f"w{i}", title="", abstract=t, text=t) for i, t in enumerate(warm)]))
    papers = [Paper(id=str(i), title="", abstract=t, text=t) for i, t in enumerate(texts)]
    t0 = time.perf_counter()
    n_mentions = sum(len(e.mentions) for e in ex.extract(papers))
    dt = time.perf_counter() - t0
    print(json.dumps({"abstracts": len(papers), "seconds": round(dt, 2), "abstracts_per_s": round(len(papers) / dt, 1),
                      "mentions": n_mentions, "keybert": not args.no_keybert, "workers": args.workers,
                      "model": str(args.model or models.TAGGER_DIR.relative_to(ROOT)),
                      "peak_rss_mb": peak_rss_mb()}))


def peak_rss_mb() -> int:
    """This process's and its finished children's peak resident memory, in MB."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round((own + children) / 1024)


if __name__ == "__main__":
    main()
