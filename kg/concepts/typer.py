"""One type per concept, decided from all of its mentions: a Dataset is a dataset that has a name.

The tagger learnt its Dataset type from SciERC's and SciREX's ``Material``, which covers data of
every kind: languages ("English"), modalities ("images"), settings and sources ("social media",
"news articles", "labeled data"). A researcher reading the graph's datasets expects benchmarks and
corpora with names (SQuAD, Penn Treebank, WMT). So, over every mention of a concept typed Dataset:

* a concept no paper writes as a name (a name-shaped word, or capitalised where no sentence
  starts: "Penn Treebank", "Wikipedia") is data in general, not a dataset: it leaves the graph
  (its mentions stay in the build's records);
* a language, or a pair of them ("English", "English-German", "Chinese text"), is not a dataset
  either; language names come from ISO 639 (pycountry), not from a list of kg's;
* a name the corpus writes as a model ("RoBERTa model", "fine-tuned BERT", "ELMo embeddings")
  more often than as data ("the SQuAD dataset", "on the ... benchmark") is a Method;
* and the other way: a name typed Method or Task that the corpus writes as data ("the GLUE
  benchmark", "results on DROP", "X, a new dataset of ...", "the cloze-test dataset CLOTH") is a
  Dataset, unless the corpus writes it in lower case too ("Word Sense Disambiguation" is a task's
  name in title case, not a dataset's);
* a name the corpus writes as a source of text or knowledge ("from Wikipedia", "in WordNet",
  "Twitter users") or as an event ("the IJCNLP 2017 shared task") is not a dataset either: it
  leaves the graph as data in general does. This is judged over every place the corpus writes the
  name (``usage``), not only where the tagger saw it.

``kg eval`` scores the extractor's mentions, before this stage, so its figures are unchanged.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from kg.records import Extraction, Mention, Paper
from kg.text.names import name_strength, written_as_name
from kg.text.normalize import normalize
from kg.text.words import (DATA_CUES_AFTER, DATA_NOUNS, DATA_WORDS, EVALUATED_ON_CUES, EVENT_CUES_AFTER,
                           MODEL_CUES_AFTER, MODEL_CUES_BEFORE, SOURCE_CUES_AFTER, SOURCE_CUES_BEFORE)

DATASET, METHOD, TASK = "Dataset", "Method", "Task"

# "X, a new dataset of ...", "X (Y), a large-scale benchmark", "X, a bilingual parallel novel-style
# machine reading comprehension (MRC) dataset", "X, a testbed for ...": a name introduced as data.
# The words between describe the data; a preposition or a verb among them ("BERT, a model trained
# on a large corpus") says the noun is not what the name is.
APPOSITIVE_DATA = re.compile(r"\s*(?:\([^()]{0,40}\)\s*)?,\s*(?:which\s+is\s+)?(?:a|an|the|our)\s+"
                              r"(?:(?!(?:on|of|for|from|with|by|in|to|over|at|as|using|trained|based|built|that|which)\b)"
                              r"[\w\-]+\s+|\([^()]{0,20}\)\s+){0,8}?"
                              r"(?:dataset|corpus|benchmark|treebank|collection|testbed|(?:test|evaluation|data)\s+set)s?\b", re.I)
_WORD = re.compile(r"[A-Za-z][\w\-]*")
# The share of a concept's mentions that must be written as a name for it to be a named dataset.
NAMED_SHARE = 0.5
# The share of a Method's or Task's mentions written as data that makes a named one a Dataset.
DATA_SHARE = 0.2
# The share of a name's places in the corpus written as data ("the X corpus", "results on X") that
# makes a named Method or Task a Dataset (of all places: most say nothing either way).
PLACES_DATA_SHARE = 0.1
# A name the corpus writes in lower case more than this share of the times it writes it capitalised
# is a term written in title case now and then ("Word Sense Disambiguation"), not a name.
LOWER_SHARE = 0.25
# The share of a name's places in the corpus written as a source ("from Wikipedia", "Twitter
# users") that makes it a source rather than a dataset, when clearly more than those written as data.
SOURCE_SHARE = 0.25
SOURCE_OVER_DATA = 1.5
# The share written as an event ("the IJCNLP 2017 shared task") that makes it an event.
EVENT_SHARE = 0.2


@lru_cache(maxsize=1)
def language_names() -> frozenset[str]:
    """Names of languages (ISO 639: the 639-1 languages and the living ones of 639-3), lower case."""
    import pycountry

    names = set()
    for lang in pycountry.languages:
        if hasattr(lang, "alpha_2") or getattr(lang, "type", "") == "L":
            for attr in ("name", "common_name"):
                name = getattr(lang, attr, None)
                if name:
                    names.add(re.sub(r"\s*\(.*\)$", "", name).lower())
    return frozenset(names)


def is_language(name: str) -> bool:
    """A language or languages, with words for data around them: "English", "Chinese-English",
    "English text", "low-resource languages" is not (no language is named)."""
    words = [w.lower() for w in re.split(r"[\s\-/\u2190-\u21ff>]+", re.sub(r"\s*\([^()]*\)\s*$", "", name)) if w]
    langs = language_names()
    named = [w for w in words if w in langs]
    return bool(named) and all(w in langs or w in DATA_WORDS for w in words)


@dataclass
class Evidence:
    """What the corpus says of one concept typed Dataset."""

    papers: set[str]
    as_name: int = 0  # mentions written as a name
    model_cues: int = 0  # mentions with a model word beside them
    data_cues: int = 0  # mentions with a data word beside them
    names: Counter | None = None  # surface forms

    mentions: int = 0

    def verdict(self, name: str, methods: frozenset[str] = frozenset()) -> str | None:
        """Dataset, Method, or None (not a dataset, and no node). ``methods``: the lower-case names
        of the corpus's Method entities, which a model's name ends in ("multilingual BERT")."""
        # A named dataset is written as a name nearly every time ("SQuAD", "the Penn Treebank");
        # data in general is written in lower case, but for an acronym or a capital now and then
        # ("knowledge base (KB)", "Tweets").
        if self.as_name < NAMED_SHARE * self.mentions or is_language(name):
            return None
        head = re.split(r"[\s/]+", re.sub(r"\s*\([^()]*\)\s*$", "", name).strip())[-1].lower()
        if (self.model_cues > self.data_cues and self.model_cues >= 2) or (head in methods and not self.data_cues):
            return METHOD
        return DATASET

    def could_be_data(self, name: str) -> bool:
        """A name ("GLUE", "Penn Treebank"; not "POS tagging", not "English") written as a model
        no more than as data by the mentions."""
        from kg.concepts.linking import is_name

        return is_name(name) and not is_language(name) and self.model_cues <= self.data_cues

    def named_data(self, etype: str, name: str) -> str:
        """The type of a concept the tagger typed ``etype`` (a Method or Task): Dataset when it is a
        name ("GLUE", "Penn Treebank"; not "POS tagging") that the corpus writes as data ("the GLUE
        benchmark", "results on DROP") in a fifth of its mentions or more, and clearly more often
        than as a model."""
        from kg.concepts.linking import is_name

        if etype in (METHOD, TASK) and is_name(name) and not is_language(name) \
                and self.as_name >= NAMED_SHARE * self.mentions and self.data_cues >= min(2, self.mentions) \
                and self.data_cues >= DATA_SHARE * self.mentions and self.data_cues > 2 * self.model_cues:
            return DATASET
        return etype


def _cues(text: str, m: Mention) -> tuple[bool, bool]:
    """(a model word beside the mention, a data word beside it or in it: "the SNLI corpus",
    "GLUE benchmark", "results on SQuAD")."""
    rest = text[m.end:]
    after = re.match(r"\s*([A-Za-z][\w\-]*)", rest)
    nxt = after.group(1).lower() if after else ""
    own = m.text.split()
    last = own[-1].lower() if len(own) > 1 else ""
    before = [w.lower() for w in _WORD.findall(text[max(0, m.start - 40):m.start])]
    prev = before[-1] if before else ""
    model = nxt in MODEL_CUES_AFTER or last in MODEL_CUES_AFTER or prev in MODEL_CUES_BEFORE or rest.startswith("-based")
    data = (nxt in DATA_CUES_AFTER or last in DATA_CUES_AFTER or (prev == "on" and len(before) > 1 and before[-2] in EVALUATED_ON_CUES)
            or APPOSITIVE_DATA.match(rest) is not None)
    return model, data


@dataclass
class Usage:
    """How the corpus writes a name, over every place it is written (not only where the tagger
    saw it): as data, as a source of text or knowledge, as an event, as a model."""

    places: int = 0
    data: int = 0  # "the SNLI corpus", "results on SQuAD", "X, a new dataset of ...", "the dataset X"
    introduced: int = 0  # of those, introduced as data: "X, a new dataset of ...", "the dataset X"
    article: int = 0  # "the X", nothing else said: datasets are written so, sources seldom
    source: int = 0  # "from Wikipedia", "in WordNet", "Twitter users"
    event: int = 0  # "the CoNLL 2017 shared task", "the SemEval workshop", "SemEval 2017 Task 4"
    model: int = 0  # "the RoBERTa model", "fine-tuned BERT"
    collection: int = 0  # "the UD treebanks", "WSD datasets": data of the name, or for it
    cased: int = 0  # places of a name of several plain words, capitalised ("Word Sense Disambiguation")
    lower: int = 0  # ... and places of the same words in lower case: not written as a name

    def kind(self) -> str:
        """"source", "event" or "data": what a name typed Dataset is, by how it is written."""
        if self.event >= EVENT_SHARE * self.places and self.event >= 2:
            return "event"
        if self.source >= SOURCE_SHARE * self.places and self.source >= 2 \
                and self.source >= SOURCE_OVER_DATA * (self.data + self.collection + self.article):
            return "source"
        return "data"

    def written_as_data(self) -> bool:
        """Is a name typed Method or Task written as data: introduced as data once ("X, a new
        dataset"), or written as data in a fifth of its places, and clearly more than as a model?"""
        return (self.introduced >= 1 or (self.data >= 2 and self.data >= PLACES_DATA_SHARE * self.places)) \
            and self.data > 2 * self.model and self.kind() == "data" and self.a_name()

    def known_data(self) -> bool:
        """Is a name known as a dataset's written as one here: as a model no more often than as
        data or with "the", never mostly as a source or an event, and not as ordinary words?"""
        return self.kind() == "data" and self.a_name() and self.model <= self.data + self.article + self.collection

    def a_name(self) -> bool:
        """Does the corpus write the name as one, not as ordinary words now and then capitalised
        ("Penn Treebank", not "Word Sense Disambiguation", "Sentence Ordering")?"""
        return self.lower <= LOWER_SHARE * self.cased


def _capitalised(form: str) -> bool:
    return form[:1].isupper() or any(c.isupper() for c in form[1:])


_AFTER = re.compile(r"[A-Za-z0-9][\w\-]*")


def place_kind(text: str, start: int, end: int) -> str | None:
    """What the words around ``text[start:end]``, a name, write it as: "event", "source",
    "introduced" (as data), "data", "model", "article" (only "the" before it), or None."""
    after = _AFTER.findall(text[end:end + 40])[:3]
    nxt = after[0].lower() if after else ""
    before = text[max(0, start - 40):start]
    words = [w.lower() for w in _WORD.findall(before)]
    prev = words[-1] if words else ""
    # "the IJCNLP 2017 shared task", "the CoNLL 2018 UD Shared Task": past a year or an acronym
    # of the name to the word that says what it is.
    while after and (after[0].isdigit() or after[0].isupper()):
        after = after[1:]
    if (after and (after[0].lower() in EVENT_CUES_AFTER
                   or after[0].lower() == "task" and len(after) > 1 and after[1].isdigit())) \
            or (prev == "on" and len(words) > 1 and words[-2] in EVENT_CUES_AFTER):  # "Conference on X"
        return "event"
    if nxt in SOURCE_CUES_AFTER:  # "the Wikipedia articles" too
        return "source"
    # The word right before the name, with nothing but a space between: "from Wikipedia", not
    # "... from. Wikipedia".
    adjacent = prev if before[-1:].isspace() and before.rstrip().lower().endswith(prev) and prev else ""
    if APPOSITIVE_DATA.match(text, end) or adjacent in DATA_NOUNS:
        return "introduced"  # "X, a new dataset of ...", "the cloze-test dataset X"
    if nxt in MODEL_CUES_AFTER or prev in MODEL_CUES_BEFORE:
        return "model"
    # ("Twitter data" and "SQuAD data" are both written: "data" says nothing. "WSD datasets" are
    # datasets for a task as often as a named collection; "the UD treebanks" are the name's.)
    if nxt in ("datasets", "corpora", "benchmarks"):
        return "collection"
    if (nxt in DATA_CUES_AFTER and nxt != "data") or (prev == "on" and len(words) > 1 and words[-2] in EVALUATED_ON_CUES):
        return "data"
    if prev == "the":
        return "article"
    if adjacent in SOURCE_CUES_BEFORE:
        return "source"
    return None


def usage(papers: Iterable[Paper], forms: dict[str, set[str]]) -> dict[str, Usage]:
    """``Usage`` of each concept of ``forms`` (id -> its names), over every place the corpus writes
    one of its capitalised names (case and all, as whole words, also inside a longer name)."""
    from kg.concepts.linking import first_tokens, occurrences, tokens

    # A name two concepts share goes to the one it is the key of ("Twitter" to twitter, not to
    # the "Twitter data" a paper's acronym made of it), else to neither.
    names: dict[tuple[str, ...], str] = {}
    shared: set[tuple[str, ...]] = set()
    for cid, written in forms.items():
        for form in written:
            if "(" in form or len(form) < 3 or not _capitalised(form):
                continue
            toks = tokens(form)
            if names.setdefault(toks, cid) != cid:
                if normalize(form) == cid.split(":", 1)[1]:
                    names[toks] = cid
                elif normalize(form) != names[toks].split(":", 1)[1]:
                    shared.add(toks)
    for toks in shared:
        names.pop(toks, None)
    # The same names in lower case, to count where the corpus writes them as ordinary words.
    cased = set()
    for toks, cid in list(names.items()):
        low = tuple(t.lower() for t in toks)
        if low != toks and len(low) > 1 and not any(name_strength(t) for t in toks) \
                and names.setdefault(low, (cid,)) == (cid,):
            cased.add(toks)
    out = {cid: Usage() for cid in forms}
    if not names:
        return out
    firsts = first_tokens(names)
    for p in papers:
        for start, end, cid in occurrences(p.text, names, firsts, longest=False):
            if isinstance(cid, tuple):
                out[cid[0]].lower += 1
                continue
            u = out[cid]
            u.places += 1
            u.cased += tokens(p.text[start:end]) in cased
            kind = place_kind(p.text, start, end)
            if kind == "introduced":
                u.introduced += 1
                kind = "data"
            if kind is not None:
                setattr(u, kind, getattr(u, kind) + 1)
    return out


def dataset_evidence(papers: Iterable[Paper], extractions: Iterable[Extraction],
                     entity_of: dict[str, list[str]], types: dict[str, str]) -> dict[str, Evidence]:
    """Evidence per entity id, over every mention resolved to it."""
    texts = {p.id: p.text for p in papers}
    out: dict[str, Evidence] = {}
    for ex in extractions:
        text = texts.get(ex.paper_id, "")
        for m, eid in zip(ex.mentions, entity_of.get(ex.paper_id, ())):
            if eid is None:
                continue
            ev = out.get(eid)
            if ev is None:
                ev = out[eid] = Evidence(set(), names=Counter())
            ev.papers.add(ex.paper_id)
            ev.names[m.text] += 1
            ev.mentions += 1
            ev.as_name += written_as_name(m.text, m.sentence)
            model, data = _cues(text, m)
            ev.model_cues += model
            ev.data_cues += data
    return out


def _retyped(eid: str, etype: str) -> str:
    return f"{etype}:{eid.split(':', 1)[1]}"


def retype(resolution, papers: list[Paper], extractions: list[Extraction], known: frozenset[str] = frozenset()):
    """``resolution`` with each Dataset entity retyped by ``Evidence.verdict``: kept, made a
    Method, or left out (its mentions then resolve to no entity). ``known``: dataset names known
    beforehand (kg.concepts.known): a Method or Task of such a name the corpus writes as a name and
    as data, not as a model, is a Dataset ("Universal Dependencies", typed a task by the tagger)."""
    from kg.concepts.resolve import Resolution

    types = {eid: e.type for eid, e in resolution.entities.items()}
    evidence = dataset_evidence(papers, extractions, resolution.mention_entity, types)
    methods = frozenset(e.name.lower() for e in resolution.entities.values() if e.type == METHOD)
    verdicts = {}
    for eid, ev in evidence.items():
        ent = resolution.entities[eid]
        verdicts[eid] = ev.verdict(ent.name, methods) if ent.type == DATASET else ev.named_data(ent.type, ent.name)
    # A named dataset the corpus writes as a source of text or knowledge ("from Wikipedia",
    # "Twitter users", "in WordNet") or as an event ("the CoNLL 2017 shared task") is neither a
    # dataset nor a method: it leaves the graph, as data in general does.
    forms: dict[str, set[str]] = {}  # the Dataset-to-be's id -> its names, over the entities made it
    for eid, v in verdicts.items():
        if v == DATASET:
            ent = resolution.entities[eid]
            forms.setdefault(_retyped(eid, DATASET), set()).update((ent.name, *ent.aliases))
    usages = usage(papers, forms)
    for eid, v in verdicts.items():
        if v != DATASET:
            continue
        u = usages[_retyped(eid, DATASET)]
        if u.kind() != "data":
            verdicts[eid] = None
        elif resolution.entities[eid].type != DATASET and not u.a_name():
            verdicts[eid] = resolution.entities[eid].type  # "Sentence Ordering" stays a Task
    # A name typed Method or Task that the corpus introduces or writes as data, wherever the tagger
    # saw it or not ("We introduce HotpotQA, a new dataset", "the cloze-test dataset CLOTH").
    named = {eid: {ent.name, *ent.aliases} for eid, ent in resolution.entities.items()
             if verdicts.get(eid) in (METHOD, TASK) and ent.type == verdicts[eid]
             and evidence[eid].as_name >= NAMED_SHARE * evidence[eid].mentions and evidence[eid].could_be_data(ent.name)}
    for eid, u in usage(papers, named).items():
        ent = resolution.entities[eid]
        if u.written_as_data() or (known & {ent.name, *ent.aliases} and u.known_data()):
            verdicts[eid] = DATASET
    renamed: dict[str, str | None] = {}
    for eid, verdict in verdicts.items():
        ent = resolution.entities[eid]
        if verdict != ent.type:
            renamed[eid] = None if verdict is None else _retyped(eid, verdict)
    if not renamed:
        return resolution
    entities = {}
    for eid, ent in resolution.entities.items():
        new = renamed.get(eid, eid)
        if new is None:
            continue
        if new != eid:
            ent = replace(ent, id=new, type=new.split(":", 1)[0])
        entities[new] = ent
    mention_entity = {pid: [renamed.get(e, e) if e is not None else None for e in ids]
                      for pid, ids in resolution.mention_entity.items()}
    return Resolution(entities=entities, mention_entity=mention_entity, mentions=resolution.mentions,
                      surface_forms=resolution.surface_forms)
