"""Reading a graph into a ``ConceptIndex``: every paper's concepts, each with its strength and IDF
(kg.analysis.related.index has the formulas), their names and types, which are broad or generic,
and the abstracts' vectors the graph carries."""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import networkx as nx

from kg import schema
from kg.analysis.related import phrases
from kg.analysis.related.facets import facet_type
from kg.graph import papers_of
from kg.graph.vectors import PaperVectors
from kg.graph.vectors import of_graph as vectors_of_graph

KEY_CONCEPT = "Concept"  # the type shown for concepts only KeyBERT proposed
W_KEY_CONCEPT = 0.8  # KeyBERT phrases are less certain than typed entities

# A concept more than this share of the papers have (and more than BROAD_MIN) is *broad*: it
# adds to a score but cannot explain a link alone ("generation" in 7 of 19 papers).
BROAD_SHARE = 0.2
BROAD_MIN = 4
# A node of the graph names the concept its name keys (the reason shows the node's name and type,
# and links to it) when it is stated by at least this share of the papers having the concept. On
# the ACL 2017-2019 abstracts, "Adversarial" (a Dataset, one paper) had named the adjective 177
# papers use, "documentation" (one paper) the 311 papers' "documents"; such a concept is shown by
# its commonest form and type instead. At 5% "dialogue" (19 of 236 papers) still names its own.
NAMING_SHARE = 0.05
# A node whose name is its concept's words and one generic word ("multi-task learning" of
# "multi-task") names the concept only when this share of the concept's papers state it: on EMNLP
# 2020 two papers' "cross-lingual models" had named what 40 papers' "cross-lingual ..." share.
TAIL_NAMING_SHARE = 0.5
# A concept that fewer than this share of its papers have as a head or a whole (the others only
# modify a word with it: "task-oriented dialogue") is shown by its own words (``phrases.bare``),
# not by the commonest of the few forms with a generic word added ("task-oriented evaluation").
MODIFIER_SHARE = 0.5


def idf(n: int, df: int) -> float:
    """Inverse document frequency of a concept in ``df`` of ``n`` papers (scikit-learn's smooth IDF)."""
    return math.log((1 + n) / (1 + df)) + 1.0


@dataclass(frozen=True)
class PaperConcepts:
    """What a graph says of its papers' concepts (``read_concepts``), as ``ConceptIndex`` holds it."""

    titles: dict[str, str]
    vectors: dict[str, dict[str, float]]  # paper -> concept -> w * sqrt(idf)
    norms: dict[str, float]
    df: Counter  # concept -> papers having it (two or more)
    names: dict[str, str]  # concept key -> display name
    types: dict[str, str]  # concept key -> type
    entities: dict[str, str]  # concept key -> entity id whose name it is
    postings: dict[str, list[str]]  # concept -> papers
    broad: frozenset[str]
    generic: frozenset[str]
    unnamed: frozenset[str]
    off_facet: frozenset[str]  # with ``by``: concepts another type names more often (no reasons)
    long_forms: dict[str, tuple[str, ...]]  # concept key -> its node's longer aliases, keyed (``_long_forms``)
    dense: PaperVectors | None  # the abstracts' vectors, when every paper has one


def read_concepts(g: nx.DiGraph, by: str | None = None, dense: bool = True) -> PaperConcepts:
    """Every paper's concepts: with ``by``, those of one facet (``ConceptIndex.from_graph``)."""
    facet = facet_type(by)
    mention_types = {schema.MENTION_REL[facet]} if facet else set(schema.MENTION_REL.values())
    strengths: dict[str, dict[str, float]] = {}
    name_votes: dict[str, dict[str, float]] = {}
    type_votes: dict[str, dict[str, int]] = {}
    titles = {}
    naming: dict[str, set[str]] = {}  # concept key -> the entities whose name is that concept
    stated: dict[str, int] = {}  # entity -> papers stating it
    words_of = phrases.memo_reader()
    same = phrases.alias_keys(g, words_of)
    # An entity is read once however many papers mention it, a repeated key phrase likewise;
    # the memo lives as long as this index is built, not the process. (This loop runs for
    # every mention of the corpus: plain dicts, not Counters, whose missing keys cost a call.)
    derived: dict[tuple[str, tuple[str, ...]], list[tuple[str, float, str, bool]]] = {}
    entity_keys: dict[str, str] = {}
    headed: set[str] = set()  # concepts some phrase of the corpus has as its head or whole
    headed_in: dict[str, int] = {}  # concept -> papers having it as a head or whole (not only modifying)
    # Generic concepts. A generic entity (kg.concepts.specificity) marks the concepts its name and
    # aliases imply, broader ones too ("language processing" of "natural language processing"); any
    # other entity marks the concepts its name and aliases are. A concept is generic when the
    # generic entities marking it are stated by at least as many papers as the commonest other
    # one: on the ACL abstracts "multi-task learning" (188 papers) outweighs "multi-task", an
    # adjective alone (9), and "natural language processing" (544) a few papers' "language
    # processing models" (20).
    marks: dict[str, tuple[bool, tuple[str, ...]]] = {}  # entity -> (generic?, the keys it marks)
    facet_keys: set[str] = set()  # with ``by``: the concepts the facet's entities imply
    later: list[tuple[str, Callable[..., None], set[str]]] = []  # with ``by``: papers whose key phrases wait

    def concepts_of(phrase: str, aliases: Iterable[str]) -> list[tuple[str, float, str, bool]]:
        form = (phrase, tuple(aliases))
        found = derived.get(form)
        if found is None:
            found = derived[form] = [(same.get(k, k), *v) for k, v in phrases.derive(*form, words_of).items()
                                     if same.get(k) != ""]
            headed.update(key for key, _, _, is_headed in found if is_headed)
        return found

    for pid in papers_of(g):
        data = g.nodes[pid]
        titles[pid] = data.get("title") or pid
        feats: dict[str, float] = {}
        own_heads: set[str] = set()

        def add(phrase: str, ctype: str, scale: float, aliases: Iterable[str] = (), times: int = 1,
                feats: dict[str, float] = feats, only: set[str] | None = None,
                own_heads: set[str] = own_heads) -> None:
            vote = 2 if ctype != KEY_CONCEPT else 1
            for key, w, surface, is_headed in concepts_of(phrase, aliases):
                if only is not None and key not in only:
                    continue
                # Independent evidence accumulates (noisy-or): a word heading three phrases,
                # or an entity named three times, is more surely what the paper is about.
                feats[key] = 1.0 - (1.0 - feats.get(key, 0.0)) * (1.0 - min(w * scale, 0.999)) ** times
                if is_headed:
                    own_heads.add(key)
                # The display name of a concept is its commonest surface form as a head:
                # "sample complexity" names the stem complex, "complex problems" only uses it.
                names = name_votes.get(key)
                if names is None:
                    names = name_votes[key] = {}
                names[surface] = names.get(surface, 0.0) + (1.0 if is_headed else 0.001)
                kinds = type_votes.get(key)
                if kinds is None:
                    kinds = type_votes[key] = {}
                kinds[ctype] = kinds.get(ctype, 0) + vote

        for eid, edata in _stated(g, pid, mention_types):
            ent = g.nodes[eid]
            if eid not in entity_keys:
                entity_keys[eid] = phrases.concept_key(ent.get("name") or "", words_of)
                if ent.get("level") == schema.GENERIC:
                    marks[eid] = (True, (same.get(entity_keys[eid], entity_keys[eid]), *(
                        key for key, _, _, is_headed in concepts_of(ent.get("name") or eid, ent.get("aliases") or ())
                        if is_headed)))
                else:
                    keys = (entity_keys[eid], *(phrases.concept_key(a, words_of) for a in ent.get("aliases") or ()))
                    marks[eid] = (False, tuple(same.get(k, k) for k in keys))
                if phrases.names_its_concept(ent.get("name") or "", words_of):
                    naming.setdefault(entity_keys[eid], set()).add(eid)
            stated[eid] = stated.get(eid, 0) + 1
            add(ent.get("name") or eid, ent.get("type", KEY_CONCEPT), 1.0, ent.get("aliases") or (),
                times=max(1, int(edata.get("mentions") or 1)))
        if facet:
            facet_keys.update(feats)
            later.append((pid, add, own_heads))
        else:
            for phrase in data.get("key_concepts") or ():
                add(phrase, KEY_CONCEPT, W_KEY_CONCEPT)
        strengths[pid] = feats
        if not facet:
            _count(own_heads, headed_in)
    # One facet: a key phrase counts where it names a concept of that facet ("neural machine
    # translation" is a method where some method entity of the corpus implies it). A concept the
    # entities of another type name more often ("question answering": a Task's, though "question
    # answering datasets" is a Dataset's name and implies it) adds to the facet's score but is not
    # one of its reasons: kept out of the score, the method facet's NDCG@20 on CSFCube's development
    # pools fell from 47.0 to 45.7 (from 47.1 to 44.0 on the half its weights were not chosen on).
    off_facet = facet_keys - phrases.keys_of_type(g, facet, same, words_of) if facet else set()
    for pid, add, own_heads in later:
        for phrase in g.nodes[pid].get("key_concepts") or ():
            add(phrase, KEY_CONCEPT, W_KEY_CONCEPT, only=facet_keys)
        _count(own_heads, headed_in)
    later.clear()

    generic_weight: dict[str, int] = {}  # concept -> papers stating the generic entities marking it
    other_weight: dict[str, int] = {}  # concept -> papers stating the commonest other entity marking it
    for eid, (is_generic, keys) in marks.items():
        papers = stated.get(eid, 0)
        for k in set(keys):
            if is_generic:
                generic_weight[k] = generic_weight.get(k, 0) + papers
            elif papers > other_weight.get(k, 0):
                other_weight[k] = papers
    generic = {k for k, w in generic_weight.items() if other_weight.get(k, 0) <= w}
    marks.clear()
    # What the index keeps is made after what it no longer needs is let go (and each paper's
    # vector as its strengths are): freed memory mostly stays with the process, so it is
    # reused rather than added to (at 100k papers the votes alone are hundreds of MB).
    derived.clear()
    entity_keys.clear()
    words_of = phrases.read  # lets go of the memo
    df: Counter = Counter()
    for feats in strengths.values():
        # A word only ever seen modifying others ("complex", "theoretical") is no concept.
        df.update(c for c in feats if c in headed)
    n = len(strengths)
    # Only a concept of two papers or more is ever shared, so only those are described: in a
    # large corpus they are about one in eight (100k papers: 112k of 917k).
    df = Counter({c: k for c, k in df.items() if k > 1})
    # A concept most of whose papers only modify something with it ("task-oriented" of
    # "task-oriented dialogue") is shown by its own words: with a generic word added, one
    # paper's "task-oriented evaluation" would name what fourteen papers share.
    modifying = {c for c in df if headed_in.get(c, 0) < MODIFIER_SHARE * df[c]}
    headed_in.clear()
    # The concept's node: of the entities named so, the one most papers state, if they are enough.
    entities: dict[str, str] = {}
    for c, eids in naming.items():
        if c in df:
            eid = max(sorted(eids), key=stated.__getitem__)
            name = g.nodes[eid].get("name") or ""
            if stated[eid] >= (NAMING_SHARE if phrases.bare(name) == name else TAIL_NAMING_SHARE) * df[c]:
                entities[c] = eid
    naming.clear()
    stated.clear()
    # A concept of the concept stage is shown by the name and type the stage gave it ("BERT",
    # not the long form key phrases spell out); another by its commonest form and the type
    # most of its phrases have (the first of the most voted).
    names = {c: (g.nodes[entities[c]].get("name") if c in entities else None)
             or phrases.display_name(name_votes.get(c, {})) or c for c in df}
    names.update((c, phrases.bare(names[c])) for c in modifying if c not in entities)
    types = {c: (g.nodes[entities[c]].get("type") if c in entities else None)
             or max(type_votes[c], key=type_votes[c].get) for c in df}
    name_votes.clear()
    type_votes.clear()
    headed.clear()
    vectors, norms = {}, {}
    postings: dict[str, list[str]] = defaultdict(list)
    for pid in list(strengths):
        feats = strengths.pop(pid)
        vec = {
            c: w * math.sqrt(idf(n, df[c]))  # so a shared concept adds w_a * w_b * idf
            for c, w in feats.items()
            if c in df  # a concept of one paper explains nothing
        }
        vectors[pid] = vec
        norms[pid] = math.sqrt(sum(x * x for x in vec.values())) or 1.0
        for c in vec:
            postings[c].append(pid)
    limit = max(n * BROAD_SHARE, BROAD_MIN)
    generic = frozenset(generic) & df.keys()
    unnamed = frozenset(c for c in df if c not in entities and " " not in c)
    broad = frozenset(c for c in df if df[c] > limit) | generic
    return PaperConcepts(titles, vectors, norms, df, names, types, entities, dict(postings), broad, generic, unnamed,
                         frozenset(off_facet) & df.keys(), _long_forms(g, entities),
                         _paper_vectors(g) if dense else None)


def _long_forms(g: nx.DiGraph, entities: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """Concept key -> the keys of its node's aliases of two words or more (``reason_core``): a long
    form cut short ("Bidirectional Encoder Representations", a key phrase of BERT's "Bidirectional
    Encoder Representations from Transformers") says what the concept says, and is no second
    reason beside it."""
    out = {}
    for c, eid in entities.items():
        core = phrases.reason_core(c)
        forms = {phrases.reason_core(phrases.concept_key(a)) for a in g.nodes[eid].get("aliases") or ()}
        forms = tuple(sorted(f for f in forms if " " in f and f != core))
        if forms:
            out[c] = forms
    return out


def _count(keys: set[str], counts: dict[str, int]) -> None:
    """Adds one to ``counts`` of each of ``keys`` and empties them (one paper's, counted once)."""
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    keys.clear()


def _paper_vectors(g: nx.DiGraph) -> PaperVectors | None:
    """The abstracts' vectors of every paper of ``g``, in the graph's order, or None when some paper
    has none (a build made before vectors were kept, then added to): ranked by concepts alone."""
    found = vectors_of_graph(g)
    if found is None:
        return None
    pids = papers_of(g)
    found = found.subset(pids)
    return found if len(found) == len(pids) else None


def _stated(g: nx.DiGraph, pid: str, rels: set[str]) -> list[tuple[str, dict]]:
    """(entity id, edge data) of the mentions of ``rels`` types paper ``pid`` makes, but for an
    entity written only inside another mention of the paper: "dependency parsing" inside
    "multilingual dependency parsing" (kg.concepts.broader), a name inside a longer one. The
    ranking derives those itself from the longer phrase (``phrases.derive``); read twice, they would
    count twice."""
    edges = [(eid, d) for _, eid, d in g.out_edges(pid, data=True) if d.get("type") in rels]
    spans = [(a, b) for _, d in edges for a, b in zip(d.get("span_starts") or (), d.get("span_ends") or ())]

    def inside(a: int, b: int) -> bool:
        return any(a2 <= a and b <= b2 and (a2, b2) != (a, b) for a2, b2 in spans)

    return [(eid, d) for eid, d in edges
            if not d.get("span_starts") or not all(inside(a, b) for a, b in zip(d["span_starts"], d.get("span_ends") or ()))]
