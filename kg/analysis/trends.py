"""Concepts over the years: how many papers name each one per year, and which rise, fall or emerge.

``trends(g)`` takes a build's graph (Paper nodes with a ``year``; entity nodes linked from the papers
by USES, ADDRESSES, EVALUATES_ON and MEASURES; ``kg.schema``) and compares a first period of years
with a last one.

The statistic: Dunning's log-likelihood ratio (the G-test) on the 2x2 table of papers that name the
concept or not, in the first period or the last, signed by the direction of the change. It is the
measure corpus linguistics uses for "keyness" between two corpora because, unlike a ratio of shares,
it grows with the evidence: 0 -> 2 papers out of 2,000 a year scores about 2.8, 20 -> 200 about 180,
so a concept named by two papers never outranks one named by two hundred. Unlike a z-test of two
proportions it stays sound for the rare counts most concepts have (the z-test's normal approximation
exaggerates shifts from zero; G is a likelihood ratio and needs no such approximation) and it stays
finite when a concept is absent from one period, which emerging concepts are. Kleinberg's bursts
(CiteSpace's method) model a stream of many time steps; abstracts carry a year only, and a corpus
spans a few years, too few steps for a burst automaton to tell a burst from noise. G has one
degree of freedom, so ``p_value`` is the chi-squared tail (``G = 3.84`` is p = 0.05); only concepts
with ``G >= min_statistic`` (default 3.84) are listed, most significant first.

Periods: the first and last years, each widened by the next year inwards while it holds fewer than
``MIN_PERIOD_PAPERS`` papers and the periods stay apart; if they would meet, the first and last
halves of the years (the middle year of an odd count in neither). A corpus of 2,000 papers a year
compares its first and last years; one of 10 papers a year over ten years its two halves.

"Emerging": named by at most ``EMERGING_SHARE`` of the first period's papers (0.1%: none of a few
hundred, two of 2,000) and at most a fifth of its share in the last, by ``EMERGING_MIN_PAPERS`` or
more papers of the last period, and rising. Emerging concepts are also rising ones (BERT is both).

Generic concepts: a corpus-level concept stage marks entity nodes with ``level`` ("artifact",
"specific", "broad" or "generic") and ``specificity`` (0..1). Trends leave ``level == "generic"``
out unless ``include_generic``; a node without ``level`` counts as specific.
"""
from __future__ import annotations

import difflib
import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import networkx as nx

from kg import schema
from kg.errors import KgError
from kg.records import ENTITY_TYPES

MIN_PERIOD_PAPERS = 50  # fewer papers than this in a period, and a shift of a few papers is noise
MIN_STATISTIC = 3.84  # G at p = 0.05 with one degree of freedom
EMERGING_SHARE = 0.001
EMERGING_MIN_PAPERS = 3
GENERIC = "generic"

_MENTIONS = frozenset(schema.MENTION_REL.values())
_ADDRESSES = schema.MENTION_REL["Task"]
_USED_FOR = schema.RELATION_RULES["USED-FOR"].type


@dataclass(frozen=True)
class Periods:
    """The years compared and how many papers (of the task's, with ``task``) each period holds."""

    first: tuple[int, ...]
    last: tuple[int, ...]
    first_papers: int
    last_papers: int


@dataclass(frozen=True)
class ConceptTrend:
    id: str
    name: str
    type: str  # Method, Task, Dataset or Metric
    papers_by_year: dict[int, int]  # every year of the trends, 0 where none
    share_by_year: dict[int, float]  # of that year's papers (of the task's papers, with ``task``)
    first: int  # papers naming it in the first period
    last: int  # in the last
    first_share: float
    last_share: float
    statistic: float  # signed log-likelihood ratio G: > 0 rising, < 0 falling
    p_value: float
    emerging: bool
    level: str | None = None  # from the concept stage, if it ran

    def to_json(self) -> dict:
        d = asdict(self)
        # JSON keys are text; years as "2019", in order.
        d["papers_by_year"] = {str(y): n for y, n in self.papers_by_year.items()}
        d["share_by_year"] = {str(y): round(s, 6) for y, s in self.share_by_year.items()}
        d["first_share"], d["last_share"] = round(self.first_share, 6), round(self.last_share, 6)
        d["statistic"], d["p_value"] = round(self.statistic, 3), float(f"{self.p_value:.3g}")
        return d


@dataclass(frozen=True)
class Trends:
    years: list[int]  # the years compared and those between, each with papers
    papers_by_year: dict[int, int]  # papers per year (the task's papers, with ``task``)
    periods: Periods
    type: str | None  # the entity type, None for all
    task: str | None  # the task's name, with ``task``
    rising: list[ConceptTrend]
    falling: list[ConceptTrend]
    emerging: list[ConceptTrend]
    undated: int = 0  # papers without a year, left out

    def to_json(self) -> dict:
        return {
            "years": self.years,
            "papers_by_year": {str(y): n for y, n in self.papers_by_year.items()},
            "periods": asdict(self.periods),
            "type": self.type,
            "task": self.task,
            "undated": self.undated,
            "rising": [c.to_json() for c in self.rising],
            "falling": [c.to_json() for c in self.falling],
            "emerging": [c.to_json() for c in self.emerging],
        }


def trends(g: nx.DiGraph, type: str | None = None, top: int = 10, task: str | None = None,
           from_year: int | None = None, to_year: int | None = None, include_generic: bool = False,
           min_statistic: float = MIN_STATISTIC) -> Trends:
    """The concepts of ``g`` (of one entity ``type`` if given) rising, falling and emerging between
    the first and last years (or ``from_year`` and ``to_year``), ``top`` of each.

    ``task``: the name of a Task; the concepts (Methods unless ``type`` says otherwise) used for it,
    among its papers: those addressing the task, and those stating "X used for the task".
    A KgError says why when the papers do not span two years."""
    if type is not None and type not in ENTITY_TYPES:
        raise KgError(f"unknown type {type!r}; one of {', '.join(ENTITY_TYPES)}")
    if from_year is not None and to_year is not None and from_year >= to_year:
        raise KgError(f"--from {from_year} must come before --to {to_year}")
    all_years = paper_years(g)
    undated = sum(1 for n, d in g.nodes(data=True) if d.get("label") == schema.PAPER) - len(all_years)
    _check_years(all_years, undated, what="papers")
    years = {p: y for p, y in all_years.items()
             if (from_year is None or y >= from_year) and (to_year is None or y <= to_year)}
    if from_year is not None or to_year is not None:
        _check_years(years, 0, what=f"papers from {from_year or min(all_years.values())} "
                                    f"to {to_year or max(all_years.values())}")
    task_name = None
    if task is not None:
        type = type or "Method"
        task_ids = find_task(g, task)
        task_name = g.nodes[task_ids[0]].get("name", task_ids[0])
        base, concept_papers = _task_papers(g, task_ids, type, years)
        years = {p: y for p, y in years.items() if p in base}
        _check_years(years, 0, what=f"papers of the task {task_name!r}")
    else:
        concept_papers = _concept_papers(g, type, years)
    per_year = Counter(years.values())
    span = sorted(per_year)
    periods = choose_periods(per_year)
    found = []
    for eid, papers in concept_papers.items():
        d = g.nodes[eid]
        if not include_generic and d.get("level") == GENERIC:
            continue
        found.append(_trend(eid, d, papers, years, per_year, span, periods))
    found = [c for c in found if abs(c.statistic) >= min_statistic]
    rising = sorted((c for c in found if c.statistic > 0), key=lambda c: (-c.statistic, c.name.lower(), c.id))
    falling = sorted((c for c in found if c.statistic < 0), key=lambda c: (c.statistic, c.name.lower(), c.id))
    emerging = [c for c in rising if c.emerging]
    return Trends(span, {y: per_year[y] for y in span}, periods, type, task_name, rising[:top], falling[:top],
                  emerging[:top], undated)


def paper_years(g: nx.DiGraph) -> dict[str, int]:
    """Each dated paper's year."""
    out = {}
    for n, d in g.nodes(data=True):
        if d.get("label") == schema.PAPER:
            y = _year(d.get("year"))
            if y is not None:
                out[n] = y
    return out


def concept_years(g: nx.DiGraph, entity_id: str) -> dict[int, int]:
    """Papers naming one concept per year, over every year the corpus's papers have (0 where none)."""
    years = paper_years(g)
    counts = Counter(years[p] for p, _, t in g.in_edges(entity_id, data="type") if t in _MENTIONS and p in years)
    return {y: counts[y] for y in sorted(set(years.values()))}


def choose_periods(per_year: Counter) -> Periods:
    """The first and last periods to compare (module docstring)."""
    span = sorted(per_year)
    i, j = 0, len(span) - 1  # the first period is span[:i+1], the last span[j:]
    while sum(per_year[y] for y in span[:i + 1]) < MIN_PERIOD_PAPERS and i + 1 < j:
        i += 1
    while sum(per_year[y] for y in span[j:]) < MIN_PERIOD_PAPERS and j - 1 > i:
        j -= 1
    first, last = span[:i + 1], span[j:]
    if j == i + 1 and len(span) > 2 and (sum(per_year[y] for y in first) < MIN_PERIOD_PAPERS
                                         or sum(per_year[y] for y in last) < MIN_PERIOD_PAPERS):
        half = len(span) // 2  # too few papers however the years are cut: halves, alike in length
        first, last = span[:half], span[len(span) - half:]
    return Periods(tuple(first), tuple(last), sum(per_year[y] for y in first), sum(per_year[y] for y in last))


def find_task(g: nx.DiGraph, name: str) -> list[str]:
    """The Task nodes named ``name`` (or with it among their aliases), case aside; a KgError naming
    the closest tasks if none is."""
    want = name.strip().lower()
    tasks = [(n, d) for n, d in g.nodes(data=True) if d.get("label") == "Task"]
    found = [n for n, d in tasks if n.lower() == want or str(d.get("name", "")).lower() == want
             or want in (str(a).lower() for a in d.get("aliases") or ())]
    if found:
        return found
    names = sorted({str(d.get("name", n)) for n, d in tasks})
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    close = close or [t for t in names if want and want in t.lower()][:3]
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else " (list them: kg query top_tasks)"
    raise KgError(f"no task named {name!r} in this build{hint}")


def log_likelihood(a: int, n1: int, b: int, n2: int) -> float:
    """Signed G for ``a`` of ``n1`` papers in the first period against ``b`` of ``n2`` in the last:
    positive when the share rose."""
    if n1 <= 0 or n2 <= 0:
        return 0.0
    total, hits = n1 + n2, a + b
    g = 0.0
    for observed, row, col in ((a, n1, hits), (n1 - a, n1, total - hits), (b, n2, hits), (n2 - b, n2, total - hits)):
        if observed > 0:
            g += observed * math.log(observed * total / (row * col))
    g = max(2.0 * g, 0.0)  # rounding can leave a hair below zero
    return g if b * n1 >= a * n2 else -g


def p_value(statistic: float) -> float:
    """The chi-squared tail with one degree of freedom of |statistic|."""
    return math.erfc(math.sqrt(abs(statistic) / 2.0))


def _trend(eid: str, d: dict, papers: Iterable[str], years: dict[str, int], per_year: Counter,
           span: list[int], periods: Periods) -> ConceptTrend:
    counts = Counter(years[p] for p in papers)
    a = sum(counts[y] for y in periods.first)
    b = sum(counts[y] for y in periods.last)
    n1, n2 = periods.first_papers, periods.last_papers
    stat = log_likelihood(a, n1, b, n2)
    s1, s2 = a / n1, b / n2
    emerging = stat > 0 and b >= EMERGING_MIN_PAPERS and s1 <= EMERGING_SHARE and s1 * 5 <= s2
    return ConceptTrend(
        id=eid, name=str(d.get("name", eid)), type=d["label"],
        papers_by_year={y: counts[y] for y in span},
        share_by_year={y: counts[y] / per_year[y] for y in span},
        first=a, last=b, first_share=s1, last_share=s2, statistic=stat, p_value=p_value(stat),
        emerging=emerging, level=d.get("level"),
    )


def _concept_papers(g: nx.DiGraph, type: str | None, years: dict[str, int]) -> dict[str, set[str]]:
    """Each concept (of ``type``) and the dated papers naming it."""
    out: dict[str, set[str]] = defaultdict(set)
    for p in years:
        for _, e, t in g.out_edges(p, data="type"):
            if t in _MENTIONS and (type is None or g.nodes[e]["label"] == type):
                out[e].add(p)
    return out


def _task_papers(g: nx.DiGraph, task_ids: list[str], type: str,
                 years: dict[str, int]) -> tuple[set[str], dict[str, set[str]]]:
    """The task's dated papers, and each concept of ``type`` among them: named by a paper addressing
    the task, or stated to be used for it (its papers are then the task's too)."""
    base: set[str] = set()
    out: dict[str, set[str]] = defaultdict(set)
    for t in task_ids:
        for u, _, rel, d in _in_edges(g, t):
            if rel == _ADDRESSES and u in years:
                base.add(u)
            elif rel == _USED_FOR and g.nodes[u]["label"] == type:
                stated = {p for p in d.get("paper_ids") or () if p in years}
                out[u] |= stated
                base |= stated
    for p in base:
        for _, e, t in g.out_edges(p, data="type"):
            if t in _MENTIONS and g.nodes[e]["label"] == type and e not in task_ids:
                out[e].add(p)
    return base, {e: ps for e, ps in out.items() if ps}


def _in_edges(g: nx.DiGraph, node: str):
    for u, v, d in g.in_edges(node, data=True):
        yield u, v, d.get("type"), d


def _check_years(years: dict[str, int], undated: int, what: str) -> None:
    distinct = sorted(set(years.values()))
    if not distinct:
        raise KgError(f"trends need papers with a year, and none of the {undated} papers has one "
                      "(give each record a year: JSON, CSV, BibTeX, RIS... carry one)" if undated
                      else f"trends need {what} with a year, and there are none")
    if len(distinct) == 1:
        raise KgError(f"trends need {what} from two years or more; all {len(years)} with a year are "
                      f"from {distinct[0]}" + (f" ({undated} have none)" if undated else ""))


def _year(v) -> int | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    s = str(v).strip()
    return int(s[:4]) if len(s) >= 4 and s[:4].isdigit() and (len(s) == 4 or not s[4].isdigit()) else None
