"""Score typed entity predictions against gold, exactly as ../shared/bench/README.md defines it.

Per abstract, gold and predictions are *sets* of (normalized text, type).

* normalization (both sides): PTB tokens mapped back to characters, lower
  case, NFKC, no leading determiner or possessive, no space before
  ``, . ; : ) ] }`` nor after ``( [ {``, ``X - Y`` -> ``X-Y``, white space
  collapsed, surrounding punctuation stripped;
* ``exact``: a prediction is correct when its (text, type) is in gold;
* ``partial``: same type and one text equals the other or contains it as a
  whole-word sequence (words as ``grep -w`` reads them: "bert" is in "bert-based"); each gold entity matches at most one prediction and
  each prediction at most one gold entity, assigned greedily: exact pairs
  first, then the pairs with the longest shared text.

Precision, recall and F1 are micro-averaged over all abstracts, overall
(Method + Task + Dataset) and per type (Metric too).

Scoring only: it sits below the extractor, which its training scores with; running the extractor
on a gold file and scoring it (``kg eval``) is kg.extract.evaluation's.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kg.corpus.scierc import PTB_TOKENS
from kg.records import ENTITY_TYPES
from kg.text.words import DETERMINERS

SCORED_TYPES: tuple[str, ...] = ("Method", "Task", "Dataset")
REPORTED_TYPES: tuple[str, ...] = ENTITY_TYPES
MATCH_MODES = ("exact", "partial")

_PTB = PTB_TOKENS
_PTB_RE = re.compile("|".join(re.escape(k) for k in _PTB), re.IGNORECASE)
_DET_RE = re.compile(r"^(?:%s)\s+" % "|".join(DETERMINERS))


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


def _strip_punct(s: str) -> str:
    i, j = 0, len(s)
    while i < j and (_is_punct(s[i]) or s[i].isspace()):
        i += 1
    while j > i and (_is_punct(s[j - 1]) or s[j - 1].isspace()):
        j -= 1
    return s[i:j]


def normalize_text(text: str) -> str:
    """The comparison form of an entity text under the bench protocol, its steps in its order."""
    s = _PTB_RE.sub(lambda m: _PTB[m.group(0).upper()], text)
    s = unicodedata.normalize("NFKC", s.lower()).strip()
    s = _DET_RE.sub("", s, count=1)  # once, at the start: "(the model)" keeps its "the"
    s = re.sub(r"\s+([,.;:)\]}])", r"\1", s)
    s = re.sub(r"([(\[{])\s+", r"\1", s)
    s = re.sub(r"(?<=\S)\s+-\s+(?=\S)", "-", s)  # "X - Y"; not "pre- and post-training"
    s = re.sub(r"\s+", " ", s).strip()
    return _strip_punct(s)


def _contains_words(longer: str, shorter: str) -> bool:
    """``shorter`` occurs in ``longer`` starting and ending at word boundaries, as ``grep -w`` reads
    words (letters, digits, underscore): "cnn" is in "network (cnn)", "bert" in "bert-based model"."""
    return re.search(r"(?<!\w)" + re.escape(shorter) + r"(?!\w)", longer) is not None


@dataclass
class Counts:
    gold: int = 0
    predicted: int = 0
    correct: int = 0

    def add(self, other: "Counts") -> None:
        self.gold += other.gold
        self.predicted += other.predicted
        self.correct += other.correct

    def prf(self) -> dict[str, float]:
        p = self.correct / self.predicted if self.predicted else 0.0
        r = self.correct / self.gold if self.gold else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


def _match_count(gold: set[str], pred: set[str], match: str) -> int:
    """How many predictions of one type in one abstract are correct."""
    exact = gold & pred
    if match == "exact":
        return len(exact)
    n = len(exact)
    g_rest = [g for g in gold if g not in exact]
    p_rest = [p for p in pred if p not in exact]
    pairs = []
    for p in p_rest:
        for g in g_rest:
            if _contains_words(p, g) or _contains_words(g, p):
                pairs.append((min(len(p), len(g)), max(len(p), len(g)), p, g))
    pairs.sort(key=lambda t: (-t[0], -t[1], t[2], t[3]))
    used_p: set[str] = set()
    used_g: set[str] = set()
    for _, _, p, g in pairs:
        if p in used_p or g in used_g:
            continue
        used_p.add(p)
        used_g.add(g)
        n += 1
    return n


def score_document(gold: Iterable[tuple[str, str]], pred: Iterable[tuple[str, str]],
                   match: str = "exact") -> dict[str, Counts]:
    """Counts per type for one abstract; items are (entity text, type), normalized here."""
    if match not in MATCH_MODES:
        raise ValueError(f"match must be one of {MATCH_MODES}, not {match!r}")
    gsets: dict[str, set[str]] = {t: set() for t in REPORTED_TYPES}
    psets: dict[str, set[str]] = {t: set() for t in REPORTED_TYPES}
    for sets, items in ((gsets, gold), (psets, pred)):
        for text, etype in items:
            if etype in sets:
                norm = normalize_text(text)
                if norm:
                    sets[etype].add(norm)
    return {t: Counts(len(gsets[t]), len(psets[t]), _match_count(gsets[t], psets[t], match))
            for t in REPORTED_TYPES}


def score(gold_docs: Sequence[Iterable[tuple[str, str]]], pred_docs: Sequence[Iterable[tuple[str, str]]],
          match: str = "exact") -> dict:
    """The report of ``kg eval --format json`` for aligned lists of gold and predicted items."""
    if len(gold_docs) != len(pred_docs):
        raise ValueError("gold and predictions must cover the same abstracts")
    per_type = {t: Counts() for t in REPORTED_TYPES}
    for g, p in zip(gold_docs, pred_docs):
        for t, c in score_document(g, p, match).items():
            per_type[t].add(c)
    micro = Counts()
    for t in SCORED_TYPES:
        micro.add(per_type[t])
    return {
        "documents": len(gold_docs),
        "gold": micro.gold,
        "predicted": micro.predicted,
        "match": match,
        "micro": micro.prf(),
        "per_type": {t: {**c.prf(), "gold": c.gold, "predicted": c.predicted} for t, c in per_type.items()},
    }


Relation = tuple[str, str, str, str, str]  # head text, head type, tail text, tail type, label


def _relation_match_count(gold: set[Relation], pred: set[Relation], match: str) -> int:
    """How many predicted relations of one abstract are correct: same label, and each argument
    matches the gold relation's as an entity would (same type; exact, or whole-word containment)."""
    exact = gold & pred
    if match == "exact":
        return len(exact)

    def fits(a: str, b: str) -> bool:
        return a == b or _contains_words(a, b) or _contains_words(b, a)

    pairs = []
    for p in pred - exact:
        for g in gold - exact:
            if p[4] == g[4] and p[1] == g[1] and p[3] == g[3] and fits(p[0], g[0]) and fits(p[2], g[2]):
                shared = min(len(p[0]), len(g[0])) + min(len(p[2]), len(g[2]))
                pairs.append((shared, p, g))
    pairs.sort(key=lambda t: (-t[0], t[1], t[2]))
    used_p: set[Relation] = set()
    used_g: set[Relation] = set()
    for _, p, g in pairs:
        if p not in used_p and g not in used_g:
            used_p.add(p)
            used_g.add(g)
    return len(exact) + len(used_p)


def score_relations(gold_docs: Sequence[Iterable[Relation]], pred_docs: Sequence[Iterable[Relation]],
                    match: str = "exact") -> dict:
    """Micro precision, recall and F1 of relations, per abstract as sets of (head text, head type,
    tail text, tail type, label) with normalized texts, over relations whose two arguments are of
    the reported types (Method, Task, Dataset, Metric); per label too."""
    if match not in MATCH_MODES:
        raise ValueError(f"match must be one of {MATCH_MODES}, not {match!r}")
    if len(gold_docs) != len(pred_docs):
        raise ValueError("gold and predictions must cover the same abstracts")
    total = Counts()
    per_label: dict[str, Counts] = {}

    def norm(items: Iterable[Relation]) -> set[Relation]:
        out = set()
        for ht, hy, tt, ty, label in items:
            if hy in REPORTED_TYPES and ty in REPORTED_TYPES:
                h, t = normalize_text(ht), normalize_text(tt)
                if h and t:
                    out.add((h, hy, t, ty, label))
        return out

    for g, p in zip(gold_docs, pred_docs):
        gs, ps = norm(g), norm(p)
        for label in sorted({r[4] for r in gs | ps}):
            gl = {r for r in gs if r[4] == label}
            pl = {r for r in ps if r[4] == label}
            c = Counts(len(gl), len(pl), _relation_match_count(gl, pl, match))
            per_label.setdefault(label, Counts()).add(c)
            total.add(c)
    return {
        "documents": len(gold_docs), "gold": total.gold, "predicted": total.predicted, "match": match,
        "micro": total.prf(),
        "per_label": {k: {**c.prf(), "gold": c.gold, "predicted": c.predicted} for k, c in sorted(per_label.items())},
    }


def format_table(report: dict) -> str:
    """A short human-readable table of a score report."""
    lines = [f"documents: {report['documents']}   match: {report['match']}",
             f"{'type':<18}{'precision':>10}{'recall':>10}{'f1':>10}{'gold':>8}{'predicted':>11}"]

    def row(name: str, r: dict, gold: int, predicted: int) -> str:
        # A ratio over nothing is shown as "-" (JSON keeps the protocol's 0.0).
        p = f"{r['precision']:.3f}" if predicted else "-"
        rc = f"{r['recall']:.3f}" if gold else "-"
        f = f"{r['f1']:.3f}" if gold or predicted else "-"
        return f"{name:<18}{p:>10}{rc:>10}{f:>10}{gold:>8}{predicted:>11}"

    for t, r in report["per_type"].items():
        lines.append(row(t, r, r["gold"], r["predicted"]))
    lines.append(row("micro (M+T+D)", report["micro"], report["gold"], report["predicted"]))
    return "\n".join(lines)


def format_relations_table(reports: dict[str, dict]) -> str:
    """``evaluate_relations``'s reports as a short table: one row per setting and match mode, then labels."""
    lines = [f"{'relations':<28}{'precision':>10}{'recall':>10}{'f1':>10}{'gold':>8}{'predicted':>11}"]
    for setting, by_match in reports.items():
        for match, r in by_match.items():
            m = r["micro"]
            lines.append(f"{setting.replace('_', ' ') + ', ' + match:<28}{m['precision']:>10.3f}{m['recall']:>10.3f}"
                         f"{m['f1']:>10.3f}{r['gold']:>8}{r['predicted']:>11}")
    first = next(iter(next(iter(reports.values())).values()))
    lines.append(f"per label (end to end, {first['match']}):")
    for label, r in first["per_label"].items():
        lines.append(f"  {label:<26}{r['precision']:>10.3f}{r['recall']:>10.3f}{r['f1']:>10.3f}{r['gold']:>8}{r['predicted']:>11}")
    return "\n".join(lines)
