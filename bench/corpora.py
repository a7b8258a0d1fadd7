"""Benchmark corpora made from ../shared/bench and the seed list, written as JSON Lines.

    python bench/corpora.py scierc OUT.jsonl            # the 400 SciERC train+dev abstracts, ids = doc_key
    python bench/corpora.py replicate N OUT.jsonl       # N abstracts: SciERC + seed copies, growing vocabulary
    python bench/corpora.py heaps                       # Heaps' law fitted on SciERC + SciREX gold entities

Replicated copies get distinct ids and their sentences shuffled (seeded), so no two texts are
equal and nothing is deduplicated away. Their vocabulary grows as a real corpus's does: in copy
c (c = 1, 2, ...), enough of the base's distinct annotated entities are renamed (a suffix of the
copy's own, "BERT" -> "BERT-kori", the same in every abstract of the copy) that the corpus's
distinct entities follow Heaps' law, V(n) = K n^beta, with the beta measured on the SciERC +
SciREX abstracts' gold entities (`heaps`): copy c renames V0 ((c+1)^beta - c^beta) of the V0
distinct entities of the base. Without it (`growth=False`) every copy repeats the base's entities,
and a 10k-abstract build holds as many entities as a 1k one.
"""
from __future__ import annotations

import json
import math
import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from _common import ROOT
SHARED = ROOT.parent / "shared"
SCIERC = [SHARED / "bench" / "scierc" / "train.json", SHARED / "bench" / "scierc" / "dev.json"]
SCIREX = [SHARED / "bench" / "scirex" / "train.json"]
# Heaps' exponent of distinct gold entities (normalized, Method/Task/Dataset/Metric) per abstract over
# the 597 SciERC train+dev and SciREX train abstracts: `python bench/corpora.py heaps` (5 December).
HEAPS_BETA = 0.957
SYLLABLES = ("ka", "ro", "mi", "te", "su", "no", "vi", "la", "de", "zu", "po", "ri", "ga", "he", "tu", "ben")
SEED = ROOT / "seeds" / "iclr2025_abstracts.txt"


def _check(paths: list[Path]) -> None:
    missing = [p for p in paths if not p.exists()]
    if missing:
        sys.exit(f"bench: {missing[0]} not found (the benchmark data lives in ../shared/bench)")


def scierc_records() -> list[dict]:
    from kg.corpus.scierc import read_scierc

    _check(SCIERC)
    return [{"id": d.doc_key, "abstract": d.text} for p in SCIERC for d in read_scierc(p)]


@dataclass(frozen=True)
class Base:
    """An abstract replicas are made from, and its annotated entities: (start, end, normalized text)."""

    id: str
    text: str
    entities: tuple[tuple[int, int, str], ...] = ()


def base_abstracts() -> list[Base]:
    """The SciERC train+dev abstracts with their gold entities, then the seed list's (none annotated)."""
    from kg.corpus import read_corpus
    from kg.corpus.scierc import read_scierc
    from kg.evaluate import normalize_text

    _check(SCIERC)
    out = []
    for p in SCIERC:
        for d in read_scierc(p):
            ents = sorted({(e.start, e.end, normalize_text(e.text)) for e in d.scored_entities})
            out.append(Base(d.doc_key, d.text, tuple(ents)))
    return out + [Base(p.id, p.abstract) for p in read_corpus(SEED).papers]


def base_records() -> list[dict]:
    return [{"id": b.id, "abstract": b.text} for b in base_abstracts()]


def heaps_fit(orders: int = 5, first: int = 20) -> dict:
    """Heaps' law V(n) = K n^beta for the distinct gold entities of n abstracts of SciERC + SciREX,
    fitted by least squares on log-log, the curve averaged over ``orders`` seeded shuffles."""
    from kg.corpus.scierc import read_gold
    from kg.evaluate import normalize_text

    _check(SCIERC + SCIREX)
    docs = [{normalize_text(e.text) for e in d.scored_entities} for p in SCIERC + SCIREX for d in read_gold(p)]
    total = [0.0] * len(docs)
    for k in range(orders):
        order = docs[:]
        random.Random(k).shuffle(order)
        seen: set[str] = set()
        for i, ents in enumerate(order):
            seen |= ents
            total[i] += len(seen) / orders
    pts = [(math.log(n), math.log(total[n - 1])) for n in range(first, len(docs) + 1)]
    mx, my = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
    beta = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return {"abstracts": len(docs), "distinct_entities": round(total[-1]), "beta": round(beta, 3),
            "K": round(math.exp(my - beta * mx), 2)}


def _suffix(copy: int) -> str:
    """A pronounceable suffix of the copy's own: 1 -> "ro", 17 -> "roro"..."""
    out, n = [], copy
    while n:
        n, r = divmod(n, len(SYLLABLES))
        out.append(SYLLABLES[r])
    return "".join(out)


def _renamed(base: Base, names: set[str], suffix: str) -> tuple[str, set[str]]:
    """``base``'s text with its entities named in ``names`` given ``suffix``; the entities it then has."""
    text, kept, taken = base.text, set(), -1
    ents = []
    for start, end, norm in base.entities:
        if start < taken:  # nested in or overlapping one already taken: the outer one stands
            kept.add(norm)
            continue
        ents.append((start, end, norm))
        taken = end
    for start, end, norm in reversed(ents):
        if norm in names:
            text = f"{text[:end]}-{suffix}{text[end:]}"
            kept.add(f"{norm}-{suffix}")
        else:
            kept.add(norm)
    return text, kept


def replicas(n: int, seed: int = 0, growth: bool = True, beta: float = HEAPS_BETA) -> Iterator[tuple[dict, set[str]]]:
    """(record, its entities' normalized names) for ``n`` abstracts: the base, then its copies."""
    from kg.corpus.papers import normalized as _normalized

    base = base_abstracts()
    vocab = sorted({norm for b in base for _, _, norm in b.entities})
    rng = random.Random(seed)
    seen = {_normalized(b.text) for b in base}
    names: set[str] = set()
    for i in range(n):
        b = base[i % len(base)]
        copy = i // len(base)
        if copy == 0:
            yield {"id": b.id, "abstract": b.text}, {norm for _, _, norm in b.entities}
            continue
        if i % len(base) == 0:  # a new copy: which entities it renames
            want = round(len(vocab) * ((copy + 1) ** beta - copy ** beta)) if growth else 0
            names = set(rng.sample(vocab, min(want, len(vocab))))
        text, ents = _renamed(b, names, _suffix(copy))
        sentences = re.split(r"(?<=[.!?])\s+", text)
        for _ in range(20):
            rng.shuffle(sentences)
            text = " ".join(sentences)
            if _normalized(text) not in seen:
                break
        else:  # too few sentences left to permute: mark the copy instead
            text = f"{text} (copy {copy})"
        seen.add(_normalized(text))
        yield {"id": f"{b.id}~{copy}", "abstract": text}, ents


def replicate(n: int, seed: int = 0, growth: bool = True) -> Iterator[dict]:
    """``n`` abstracts: the base (SciERC + seed list), then copies with their sentences permuted and,
    with ``growth``, entities renamed so that the vocabulary grows per Heaps' law."""
    for record, _ in replicas(n, seed, growth):
        yield record


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
    elif argv == ["heaps"]:
        print(json.dumps(heaps_fit()))
        return
    else:
        sys.exit(__doc__)
    print(json.dumps({"written": n, "path": argv[-1]}))


if __name__ == "__main__":
    main(sys.argv[1:])
