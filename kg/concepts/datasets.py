"""One node per dataset, once types are decided: the ways papers name a part of a dataset, or
write its year, are that dataset.

* **Treebanks.** "X Treebank(s)" is the Dataset X when X is named alone at least as often: "the UD
  treebanks" and "the Universal Dependency Treebank" are Universal Dependencies. "Penn Treebank",
  "Stanford Sentiment Treebank" and "Chinese Treebank" stay names of their own, as no dataset is
  called "Penn", "Stanford Sentiment" or "Chinese" (a language is none).
* **Years.** "WMT’14", "WMT14", "WMT-14" and "WMT 2014" are one dataset, as are "ACE05" and "ACE
  2005": a name's last two digits after its letters are its year when the corpus also writes the
  name with the year in full, or with an apostrophe ("WMT’14"). "WN18" stays WN18 (no paper writes
  "WN 2018").
* **Language pairs.** "WMT14 English-German", "WMT’14 English⇒German" and "WMT14 English" are the
  part of WMT14 a paper uses: the dataset, where the corpus names it alone. A language before the
  name is another dataset ("Chinese Gigaword" is not Gigaword, the "Chinese Penn Treebank" not the
  Penn Treebank) and stays its own.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict

from kg.concepts.resolve import Resolution, fold
from kg.concepts.typer import is_language
from kg.records import Entity

# Heads after a dataset's name that name its data, not another dataset: "the UD treebanks".
_DATA_OF_HEADS = ("treebank", "treebanks")
# "wmt’14", "wmt14", "wmt-14", "ace05": letters, then a two-digit year.
_SHORT_YEAR = re.compile(r"^(?P<name>[a-z][a-z\-]*?)[\s\-]?(?P<mark>['’]?)(?P<yy>\d{2})$")
_FULL_YEAR = re.compile(r"^(?P<name>[a-z][a-z\-]*?)[\s\-]?(?P<yyyy>(?:19|20)\d{2})$")
# Between two languages: "English-German", "English–German", "English⇒German", "English to German".
_PAIR = re.compile(r"\s*(?:[\-/\u2190-\u21ff>]|\bto\b|-to-)\s*", re.I)
# What may follow the language pair and still name the dataset's part: "... task", "... translation".
_PART_TAIL = frozenset("task tasks translation data dataset datasets corpus set sets benchmark".split())


def _papers(resolution: Resolution) -> Counter[str]:
    return Counter(e for ids in resolution.mention_entity.values() for e in set(ids) if e)


def merge(resolution: Resolution, into: dict[str, str]) -> Resolution:
    """``resolution`` with each entity of ``into`` merged into its target (names become aliases)."""
    if not into:
        return resolution
    entities = dict(resolution.entities)
    for eid, target in into.items():
        ent, kept = entities.pop(eid), entities[target]
        entities[target] = Entity(id=target, type=kept.type, name=kept.name,
                                  aliases=sorted({*kept.aliases, *ent.aliases, ent.name}), level=kept.level,
                                  specificity=kept.specificity)
    mention_entity = {pid: [into.get(e, e) if e is not None else None for e in ids]
                      for pid, ids in resolution.mention_entity.items()}
    linked = {pid: [(m, into.get(e, e)) for m, e in pairs] for pid, pairs in resolution.linked.items()}
    return Resolution(entities=entities, mention_entity=mention_entity, mentions=resolution.mentions,
                      surface_forms=resolution.surface_forms, linked=linked)


def merge_data_heads(resolution: Resolution) -> Resolution:
    """``resolution`` with each Dataset "X Treebank(s)" merged into the Dataset X (module doc)."""
    papers = _papers(resolution)
    into: dict[str, str] = {}
    for eid in resolution.entities:
        etype, key = eid.split(":", 1)
        name, _, head = key.rpartition(" ")
        target = f"Dataset:{name}"
        # The dataset must be named on its own at least as often as its treebanks ("Penn" alone, a
        # stray mention in one paper, is no dataset that the Penn Treebank belongs to).
        if etype == "Dataset" and name and head in _DATA_OF_HEADS and target in resolution.entities \
                and papers[target] >= max(2, papers[eid]):
            into[eid] = target
    return merge(resolution, into)


def _without_languages(key: str) -> str:
    """A dataset's key without a language or language pair after its name, and what may follow
    that ("wmt14 english-german task" -> "wmt14"); the key itself when there is none."""
    words = key.split(" ")
    end = len(words)
    while end > 1 and words[end - 1] in _PART_TAIL:
        end -= 1
    cut = end
    while cut > 1 and all(is_language(p) for p in _PAIR.split(words[cut - 1]) if p):
        cut -= 1
    # "english to german" is three words: take "to" with the languages either side of it.
    while cut > 2 and words[cut - 1] == "to" and is_language(words[cut - 2]):
        cut -= 2
        while cut > 1 and is_language(words[cut - 1]):
            cut -= 1
    return " ".join(words[:cut]) if cut < end else key


def year_key(key: str, full_years: set[str]) -> str:
    """The folded key with a two-digit year written in full, where the corpus writes the name's
    year in full (``full_years``: the folded "name" + "yyyy" it writes) or marks it an apostrophe."""
    m = _SHORT_YEAR.match(key)
    if m:
        yy = int(m.group("yy"))
        full = f"{fold(m.group('name'))}{'20' if yy < 50 else '19'}{m.group('yy')}"
        if m.group("mark") or full in full_years:
            return full
    m = _FULL_YEAR.match(key)
    if m:
        return f"{fold(m.group('name'))}{m.group('yyyy')}"
    return fold(key)


def full_years(keys) -> set[str]:
    """The folded name + four-digit year of each key that writes its year in full ("wmt2014")."""
    return {f"{fold(m.group('name'))}{m.group('yyyy')}" for k in keys if (m := _FULL_YEAR.match(k))}


def merge_dataset_parts(resolution: Resolution) -> Resolution:
    """``resolution`` with the spellings of a dataset's year and the parts named by a language pair
    merged into the dataset (module doc): into the one of them the most papers name alone."""
    papers = _papers(resolution)
    keys = {eid: eid.split(":", 1)[1] for eid in resolution.entities if eid.startswith("Dataset:")}
    years = full_years(keys.values())
    groups: dict[str, list[str]] = defaultdict(list)
    whole: dict[str, list[str]] = defaultdict(list)  # group -> the datasets named alone
    for eid, key in keys.items():
        base = _without_languages(key)
        group = year_key(base, years)
        groups[group].append(eid)
        if base == key:
            whole[group].append(eid)
    into: dict[str, str] = {}
    for group, members in groups.items():
        if len(members) < 2 or not whole.get(group):
            continue
        target = max(whole[group], key=lambda e: (papers[e], e))
        into.update((e, target) for e in members if e != target)
    return merge(resolution, into)
