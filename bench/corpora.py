"""Benchmark corpora made from ../shared/bench and the seed list, written as JSON Lines.

    python bench/corpora.py scierc OUT.jsonl            # the 400 SciERC train+dev abstracts, ids = doc_key
    python bench/corpora.py replicate N OUT.jsonl       # N abstracts: SciERC + seed copies, sentences permuted

Replicated copies get distinct ids and their sentences shuffled (seeded), so no two
texts are equal and nothing is deduplicated away.
"""
from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from _common import ROOT
SHARED = ROOT.parent / "shared"
SCIERC = [SHARED / "bench" / "scierc" / "train.json", SHARED / "bench" / "scierc" / "dev.json"]
SEED = ROOT / "seeds" / "iclr2025_abstracts.txt"


def scierc_records() -> list[dict]:
    from kg.corpus.scierc import read_scierc

    missing = [p for p in SCIERC if not p.exists()]
    if missing:
        sys.exit(f"bench: {missing[0]} not found (the benchmark data lives in ../shared/bench)")
    return [{"id": d.doc_key, "abstract": d.text} for p in SCIERC for d in read_scierc(p)]


def base_records() -> list[dict]:
    from kg.corpus import read_corpus

    seed = [{"id": p.id, "abstract": p.abstract} for p in read_corpus(SEED).papers]
    return scierc_records() + seed


def replicate(n: int, seed: int = 0) -> Iterator[dict]:
    from kg.corpus.papers import normalized as _normalized

    base = base_records()
    rng = random.Random(seed)
    seen = {_normalized(r["abstract"]) for r in base}
    for i in range(n):
        rec = base[i % len(base)]
        copy = i // len(base)
        if copy == 0:
            yield rec
            continue
        sentences = re.split(r"(?<=[.!?])\s+", rec["abstract"])
        for _ in range(20):
            rng.shuffle(sentences)
            text = " ".join(sentences)
            if _normalized(text) not in seen:
                break
        else:  # too few sentences left to permute: mark the copy instead
            text = f"{text} (copy {copy})"
        seen.add(_normalized(text))
        yield {"id": f"{rec['id']}~{copy}", "abstract": text}


def write_jsonl(records, path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
            n += 1
    return n


def main(argv: list[str]) -> None:
    if len(argv) == 2 and argv[0] == "scierc":
        n = write_jsonl(scierc_records(), Path(argv[1]))
    elif len(argv) == 3 and argv[0] == "replicate":
        n = write_jsonl(replicate(int(argv[1])), Path(argv[2]))
    else:
        sys.exit(__doc__)
    print(json.dumps({"written": n, "path": argv[-1]}))


if __name__ == "__main__":
    main(sys.argv[1:])
