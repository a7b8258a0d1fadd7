"""Related papers: rank papers by the informative concepts they share.

A paper's *concepts* come from the graph alone: the entities it mentions
(Method, Task, Dataset, Metric) and the KeyBERT key phrases stored on its
Paper node. Exact entity names are rarely shared between abstracts, so each
phrase is also canonicalised into the concepts it implies (see ``_derive``):

* its key: case, plural, a leading determiner and word endings folded
  (Snowball stems: "parsing"/"parse", "translation"/"translate" meet);
  every alias of an entity is that entity's concept wherever it is written
  ("LLMs" and "large language models (LLMs)" are "large language models"),
  so an acronym used alone still matches and is not counted twice;
* broader concepts: the phrase without generic tail words and its suffixes
  ("statistical machine translation system" -> "statistical machine
  translation" -> "machine translation" -> "translation"), and both sides of
  "X of/for Y" ("recognition of proper nouns" -> "recognition", "proper noun");
* domain words: the content words that modify a head ("speech" in
  "speech recognition"), which carry the research area.

Each concept ``c`` of paper ``p`` gets a strength ``w(p, c)`` in (0, 1):
each phrase that implies it is evidence of strength 1 (the phrase itself),
0.7 (a broader concept or domain word) or 0.8 times that for KeyBERT
phrases, and evidence accumulates as a noisy-or, ``w = 1 - prod(1 - w_i)``,
one term per mention, so a concept named often or implied by several
phrases is surer. Rare concepts count more through the inverse document
frequency ``idf(c) = ln((1 + N) / (1 + df(c))) + 1`` (N papers, df(c)
papers having c), and the score of two papers is an IDF-weighted overlap,
normalised like a cosine:

    score(a, b) = sum_c w(a, c) w(b, c) idf(c) / (|a| |b|),
    |p| = sqrt(sum_c w(p, c)^2 idf(c))

so each shared concept adds ``w(a, c) w(b, c) idf(c) / (|a| |b|)``, the
figure the explanation is sorted by, and papers with long concept lists do
not become everyone's neighbour. Concepts found in one paper only, and words
too generic to stand for a concept alone ("method", "model"), never count.
Without vectors, only papers with at least one shared specific concept are returned.

Fusion. Extraction keeps each abstract's unit all-MiniLM-L6-v2 vector (kg.extract.docvec,
kg.graph.vectors). When every paper of the graph has one, the ranking is

    fused(a, b) = (cos(a, b) + CONCEPT_WEIGHT * score(a, b)) / (1 + CONCEPT_WEIGHT)

over every other paper, ``score`` being the concept score above (0 for a pair sharing no specific
concept): dense similarity finds the papers on the same subject however they word it, the
concepts add what they name in common and explain it. A neighbour sharing no specific concept,
or none but single words naming no node of the graph ("sentences", derived from "long source
sentences": ``unnamed``), lists no reasons and is noted NOTE_WORDING, and is listed only when
the cosine is at least WORDING_COSINE_MIN (so a paper may have fewer than k neighbours;
``rank_among`` keeps them all). A graph some of whose papers have no vector
(extracted with --no-keybert, or added to a build made before vectors were kept) is ranked by
concepts alone, every paper alike. docs/related.md has the benchmark.
"""
from __future__ import annotations

import math
import re
import unicodedata
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx
import snowballstemmer

from kg import schema
from kg.errors import KgError
from kg.graph import entities_of, paper_text, papers_of
from kg.graph.vectors import PaperVectors
from kg.graph.vectors import of_graph as vectors_of_graph
from kg.text.normalize import singular
from kg.corpus.titles import clip
from kg.text.words import DETERMINERS
from kg.text.words import NO_CONCEPT_ALONE as GENERIC

if TYPE_CHECKING:
    from kg.layout import BuildFolder as Build

KEY_CONCEPT = "Concept"  # the type shown for concepts only KeyBERT proposed
# ``--by`` facets: the entity type whose concepts a faceted ranking compares.
FACETS: dict[str, str] = {"method": "Method", "task": "Task", "dataset": "Dataset"}
# A paper of ``rank_among`` that shares no specific concept is noted by how its wording compares:
# NOTE_WORDING when the TF-IDF cosine of the two abstracts is at least WORDING_MIN, else NOTE_NOTHING.
NOTE_WORDING = "similar wording"
NOTE_NOTHING = "nothing shared"
WORDING_MIN = 0.15
LISTED_K = 10  # related papers the views list per paper: a build ranks at least this many
# With vectors, ``related``/``related_all`` (and so the stored RELATED_TO links and the pages) leave out
# a neighbour that shares no specific concept when its abstracts' cosine is below WORDING_COSINE_MIN;
# ``rank_among`` ranks every listed paper whatever its cosine. Calibrated on EMNLP 2020 (781 abstracts,
# 20 tracks; `python bench/related_floor.py --cache .kg-bench-cache`): of the pairs sharing no specific
# concept, those of cosine 0.40-0.45 are in the same track 6.3% of the time, no more than any pair
# (6.4%), those of 0.45-0.50 9.7%, 0.50-0.55 15%, 0.55-0.60 24%; so the floor is 0.45, the lowest
# cosine above which such a neighbour beats a random paper. There it leaves out 15 of the 7,810
# top-10 links (the 428 wording-only ones have cosines 0.51-0.59 between quartiles).
WORDING_COSINE_MIN = 0.45
# Fusion (module doc): score = (cosine + CONCEPT_WEIGHT * concept score) / (1 + CONCEPT_WEIGHT). Chosen on
# EMNLP 2020 same-track P@5 (0.1-1.0 tried; 0.5 best), checked on CSFCube (docs/related.md).
CONCEPT_WEIGHT = 0.5
# With ``by``: + FACET_WEIGHT * the cosine of the two papers' facet vectors (the mean of the static
# phrase vectors of their mentions of the facet's type), in numerator and denominator alike. Chosen
# on half of CSFCube's development pools (0.15-0.75 tried), checked on the other half (docs/related.md).
FACET_WEIGHT = 0.75
# The facet weight per facet; None: with vectors the facet is ranked as with no facet (every concept,
# no facet vectors) and gives only the reasons. ``task`` (CSFCube's background facet): chosen on half
# A of its pools among per-facet weights, task-sentence vectors and specific task concepts, where no
# facet ranked best (81.1 against 76.5 for the method facet's terms); on half B 70.2 against 68.2
# (bench/related_task_facet.py, docs/related.md). ``dataset`` has no labels; it keeps method's weight.
FACET_WEIGHTS: dict[str, float | None] = {"method": FACET_WEIGHT, "task": None, "dataset": FACET_WEIGHT}

# Strength of each way a paper comes to have a concept.
W_PHRASE = 1.0  # the entity / key phrase itself, or an alias of it
W_BROADER = 0.7  # a broader concept implied by the phrase
W_DOMAIN = 0.7  # a content word modifying the head: it names the research area
W_KEY_CONCEPT = 0.8  # KeyBERT phrases are less certain than typed entities

# A concept more than this share of the papers have (and more than BROAD_MIN) is *broad*: it
# adds to a score but cannot explain a link alone ("generation" in 7 of 19 papers).
BROAD_SHARE = 0.2
BROAD_MIN = 4
_STOP = frozenset(
    """a an the of for in on with from to by using via and or as at into over under
    between through than its their our this that these those is are be we""".split()
)
_SPLIT_PREP = re.compile(r"\s+(?:of|for|in|on|with|from|to|by|using|via|over|under)\s+", re.I)
_WORD = re.compile(r"[\w][\w\-+.']*[\w+]|[\w]")


@dataclass(frozen=True, slots=True)
class SharedConcept:
    name: str
    type: str  # Method, Task, Dataset, Metric, or "Concept" (KeyBERT only)
    papers: int  # papers of the corpus that have the concept: the fewer, the rarer
    entity: str | None = None  # id of the graph entity it names, if one does (for links)


@dataclass(frozen=True, slots=True)
class RelatedPaper:
    id: str
    title: str
    score: float
    shared: tuple[SharedConcept, ...]
    note: str = ""  # for a paper ranked by ``rank_among`` that shares no specific concept: NOTE_WORDING or NOTE_NOTHING

    def to_json(self) -> dict:
        out = {
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 4),
            "shared": [{"name": s.name, "type": s.type, "papers": s.papers} for s in self.shared],
        }
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, slots=True)
class _Word:
    stem: str  # what concepts are compared by: lower case, singular, Snowball stem
    low: str  # lower-case singular, what the stop and generic lists are checked on
    surface: str  # as written, for display


@lru_cache(maxsize=None)
def _stemmer():
    return snowballstemmer.stemmer("english")


# Endings that make another word, not another form of one: Snowball would fold "complexity" into
# "complex", "objective" into "object", "computational" into "computer"; such words stay whole.
_DERIVED = re.compile(r"(?:ity|ive|al|ness|ous|ful|able|ible|ic|ism|ist|ally)$")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    # Pure-Python Snowball is slow and a corpus has few distinct words.
    parts = word.split("-")
    if len(parts) > 1 and all(p.isalpha() for p in parts):
        # "fact-checking" is the concept "fact checking", as the concept stage keys it (kg.concepts).
        return " ".join(_stem(p) for p in parts)
    if len(word) > 4 and word.endswith("ics"):
        word = word[:-1]  # "metrics", "statistics": plurals singular() keeps ("physics")
    if len(word) > 4 and _DERIVED.search(word):
        return word
    return _stemmer().stemWord(word)


def _words(text: str) -> tuple[_Word, ...]:
    raw = _WORD.findall(unicodedata.normalize("NFKC", text))
    if len(raw) > 1 and raw[0].lower() in DETERMINERS:
        raw = raw[1:]
    out = []
    for w in raw:
        low = singular(w.lower()) if not w.isupper() else w.lower()
        # Stems fold "parsing"/"parse" and "translation"/"translate" into one concept.
        out.append(_Word(_stem(low), low, w))
    return tuple(out)


_Reader = Callable[[str], "tuple[_Word, ...]"]  # text -> its words (``_words``, or a memo of it)


def _content(word: _Word) -> bool:
    return word.low not in _STOP and word.low not in GENERIC and not word.low.isdigit() and len(word.low) > 1


def _derive(phrase: str, aliases: Iterable[str] = (), words_of: _Reader = _words) -> dict[str, tuple[float, str, bool]]:
    """Concept key -> (strength, surface, headed) for one entity or key phrase (module doc).

    ``headed`` is False for a word the phrase has only as a modifier (a domain word): whether
    such a word names a concept is known only once the corpus has used it as a head somewhere
    ("speech" in "spontaneous speech" does; "complex" in "complex reasoning" never does)."""
    out: dict[str, tuple[float, str, bool]] = {}

    def put(words: tuple[_Word, ...], w: float, tail: str = "", domain: bool = False) -> None:
        if not words or (len(words) == 1 and not _content(words[0])):
            return
        if all(x.low in _STOP or x.low in GENERIC for x in words):
            return
        key = " ".join(x.stem for x in words)
        headed = not domain or (key in out and out[key][2])
        if key not in out or out[key][0] < w:
            # A phrase cut before its generic tail is shown with it: "large language models", not
            # "large language"; a single word stays a word.
            shown = " ".join(x.surface for x in words) + (f" {tail}" if tail and len(words) > 1 else "")
            out[key] = (w, shown, headed)
        elif headed and not out[key][2]:
            out[key] = (out[key][0], out[key][1], True)

    for form in (phrase, *aliases):
        put(_canonical(words_of(form)), W_PHRASE)
        key = _key(form, words_of)
        if key in out:  # the phrase itself is shown as written, brackets and all
            out[key] = (out[key][0], " ".join(form.split()), out[key][2])
    parts = [words_of(p) for p in _SPLIT_PREP.split(phrase.strip())]
    for words in parts:
        if len(parts) > 1:
            put(words, W_BROADER)
        # Drop generic tail words: "machine translation system" -> "machine translation" (the
        # same concept), but "language model" -> "language" is only a broader one.
        full = len(words)
        whole = words
        while len(words) > 1 and words[-1].low in GENERIC:
            words = words[:-1]
        tail = " ".join(x.surface for x in whole[len(words):])
        same = len(parts) == 1 and (len(words) == full or len(words) > 1)
        for j in range(len(words)):
            put(words[j:], W_PHRASE if (j == 0 and same) else W_BROADER, tail)
        for w in words[:-1]:
            if _content(w):
                put((w,), W_DOMAIN, domain=True)
    return out


def _canonical(words: tuple[_Word, ...]) -> tuple[_Word, ...]:
    """The words naming a phrase's concept: without a generic tail when two words or more remain
    ("large language models" and "large language" are one concept; "language model" stays)."""
    core = words
    while len(core) > 1 and core[-1].low in GENERIC:
        core = core[:-1]
    return core if len(core) > 1 else words


def _key(form: str, words_of: _Reader = _words) -> str:
    return " ".join(x.stem for x in _canonical(words_of(form)))


def _memo_words() -> _Reader:
    """``_words`` remembering each text it has read: an index reads most phrases several times.
    One memo per index built, not per process (at 100k papers it holds some 200k phrases)."""
    memo: dict[str, tuple[_Word, ...]] = {}

    def words_of(text: str) -> tuple[_Word, ...]:
        found = memo.get(text)
        if found is None:
            found = memo[text] = _words(text)
        return found

    return words_of


def _alias_keys(g: nx.DiGraph, words_of: _Reader = _words) -> dict[str, str]:
    """Alias key -> name key, for every entity: "LLMs" and "large language models (LLMs)" are the
    concept "large language models", not two more, wherever they are written. An alias shared
    by two entities stays its own concept."""
    same: dict[str, str] = {}
    clash: set[str] = set()
    for eid in entities_of(g):
        d = g.nodes[eid]
        name = _key(d.get("name") or eid, words_of)
        for alias in d.get("aliases") or ():
            k = _key(alias, words_of)
            if k and k != name and same.setdefault(k, name) != name:
                clash.add(k)
    for k in clash:
        del same[k]
    return same


def idf(n: int, df: int) -> float:
    """Inverse document frequency of a concept in ``df`` of ``n`` papers (scikit-learn's smooth IDF)."""
    return math.log((1 + n) / (1 + df)) + 1.0


def _display_name(votes: Counter) -> str | None:
    """The commonest surface form; on a tie not the sentence-initial capitalised one ("Sampling"),
    then the shortest ("machine translation" over "machine translation system")."""
    if not votes:
        return None
    return max(votes, key=lambda s: (votes[s], not (s[:1].isupper() and s[1:] == s[1:].lower()), -len(s), s))


@dataclass
class ConceptIndex:
    """The concept vectors of every paper of a graph."""

    titles: dict[str, str]
    vectors: dict[str, dict[str, float]]  # paper -> concept -> w * idf
    norms: dict[str, float]
    df: Counter
    names: dict[str, str]  # concept key -> display name
    types: dict[str, str]  # concept key -> type
    entities: dict[str, str]  # concept key -> entity id whose name it is
    postings: dict[str, list[str]] = field(default_factory=dict)  # concept -> papers
    broad: frozenset[str] = frozenset()  # concepts too common to explain a link alone (BROAD_SHARE)
    # Concepts the concept stage rates generic ("training", "neural networks"): they add to a score
    # but are never shown as a reason, nor can they explain a link alone.
    generic: frozenset[str] = frozenset()
    # Single words that name none of the concept stage's concepts ("datasets", "neural",
    # "sentences", "English"), which the ranking derives from phrases: they add to a score and may
    # let a link exist, but with vectors are not shown as reasons; a neighbour with nothing else
    # to show is noted NOTE_WORDING, which is what such a link rests on.
    unnamed: frozenset[str] = frozenset()
    # The abstracts' unit vectors (kg.graph.vectors), one for every paper, or None: then the
    # ranking is the concept score alone (module doc, "Fusion").
    dense: PaperVectors | None = field(default=None, repr=False, compare=False)
    _shared_cache: dict[str, SharedConcept] = field(default_factory=dict, repr=False, compare=False)
    _dense_row: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    # With ``by`` and ``dense``: each paper's facet vector, rows as ``dense``'s (zero: no mention of the facet).
    facet_vectors: object = field(default=None, repr=False, compare=False)
    # With ``by`` and ``dense``, for a facet FACET_WEIGHTS ranks as with no facet: the index that
    # ranks (every concept); this one gives the reasons only.
    ranking: ConceptIndex | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.dense is not None:
            if set(self.dense.ids) != set(self.vectors):
                raise ValueError("dense vectors must be given for every paper of the index, and only those")
            self._dense_row.update(self.dense.row_of())

    @classmethod
    def from_graph(cls, g: nx.DiGraph, by: str | None = None, dense: bool = True) -> ConceptIndex:
        """The index of every paper of ``g``; ``by`` (a key of ``FACETS``) keeps one facet's concepts:
        the entities of that type, and the key phrases naming a concept such an entity implies
        somewhere in the corpus. ``dense``: fuse in the abstracts' vectors the graph carries
        (kg.graph.vectors) when every paper has one; otherwise, or when False, concepts alone."""
        facet = _facet_type(by)
        mention_types = {schema.MENTION_REL[facet]} if facet else set(schema.MENTION_REL.values())
        strengths: dict[str, dict[str, float]] = {}
        name_votes: dict[str, dict[str, float]] = {}
        type_votes: dict[str, dict[str, int]] = {}
        titles = {}
        entities: dict[str, str] = {}
        words_of = _memo_words()
        same = _alias_keys(g, words_of)
        # An entity is read once however many papers mention it, a repeated key phrase likewise;
        # the memo lives as long as this index is built, not the process. (This loop runs for
        # every mention of the corpus: plain dicts, not Counters, whose missing keys cost a call.)
        derived: dict[tuple[str, tuple[str, ...]], list[tuple[str, float, str, bool]]] = {}
        entity_keys: dict[str, str] = {}
        headed: set[str] = set()  # concepts some phrase of the corpus has as its head or whole
        generic: set[str] = set()  # the keys of generic entities (kg.concepts.specificity)
        facet_keys: set[str] = set()  # with ``by``: the concepts the facet's entities imply
        later: list[tuple[str, Callable[..., None]]] = []  # with ``by``: papers whose key phrases wait

        def concepts_of(phrase: str, aliases: Iterable[str]) -> list[tuple[str, float, str, bool]]:
            form = (phrase, tuple(aliases))
            found = derived.get(form)
            if found is None:
                found = derived[form] = [(same.get(k, k), *v) for k, v in _derive(*form, words_of).items()]
                headed.update(key for key, _, _, is_headed in found if is_headed)
            return found

        for pid in papers_of(g):
            data = g.nodes[pid]
            titles[pid] = data.get("title") or pid
            feats: dict[str, float] = {}

            def add(phrase: str, ctype: str, scale: float, aliases: Iterable[str] = (), times: int = 1,
                    feats: dict[str, float] = feats, only: set[str] | None = None) -> None:
                vote = 2 if ctype != KEY_CONCEPT else 1
                for key, w, surface, is_headed in concepts_of(phrase, aliases):
                    if only is not None and key not in only:
                        continue
                    # Independent evidence accumulates (noisy-or): a word heading three phrases,
                    # or an entity named three times, is more surely what the paper is about.
                    feats[key] = 1.0 - (1.0 - feats.get(key, 0.0)) * (1.0 - min(w * scale, 0.999)) ** times
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
                    entity_keys[eid] = _key(ent.get("name") or "", words_of)
                    if ent.get("level") == schema.GENERIC:
                        generic.add(entity_keys[eid])
                entities.setdefault(entity_keys[eid], eid)
                add(ent.get("name") or eid, ent.get("type", KEY_CONCEPT), 1.0, ent.get("aliases") or (),
                    times=max(1, int(edata.get("mentions") or 1)))
            if facet:
                facet_keys.update(feats)
                later.append((pid, add))
            else:
                for phrase in data.get("key_concepts") or ():
                    add(phrase, KEY_CONCEPT, W_KEY_CONCEPT)
            strengths[pid] = feats
        # One facet: a key phrase counts where it names a concept of that facet ("neural machine
        # translation" is a method where some method entity of the corpus implies it).
        for pid, add in later:
            for phrase in g.nodes[pid].get("key_concepts") or ():
                add(phrase, KEY_CONCEPT, W_KEY_CONCEPT, only=facet_keys)
        later.clear()

        # What the index keeps is made after what it no longer needs is let go (and each paper's
        # vector as its strengths are): freed memory mostly stays with the process, so it is
        # reused rather than added to (at 100k papers the votes alone are hundreds of MB).
        derived.clear()
        entity_keys.clear()
        words_of = _words  # lets go of the memo
        df: Counter = Counter()
        for feats in strengths.values():
            # A word only ever seen modifying others ("complex", "theoretical") is no concept.
            df.update(c for c in feats if c in headed)
        n = len(strengths)
        # Only a concept of two papers or more is ever shared, so only those are described: in a
        # large corpus they are about one in eight (100k papers: 112k of 917k).
        df = Counter({c: k for c, k in df.items() if k > 1})
        # A concept of the concept stage is shown by the name and type the stage gave it ("BERT",
        # not the long form key phrases spell out); another by its commonest form and the type
        # most of its phrases have (the first of the most voted).
        names = {c: (g.nodes[entities[c]].get("name") if c in entities else None)
                 or _display_name(name_votes.get(c, {})) or c for c in df}
        types = {c: (g.nodes[entities[c]].get("type") if c in entities else None)
                 or max(type_votes[c], key=type_votes[c].get) for c in df}
        entities = {c: e for c, e in entities.items() if c in df}
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
        generic = frozenset(same.get(c, c) for c in generic) & df.keys()
        unnamed = frozenset(c for c in df if c not in entities and len(names[c].split()) == 1)
        broad = frozenset(c for c in df if df[c] > limit) | generic
        found = vectors_of_graph(g) if dense else None
        found = found.subset(vectors) if found is not None else None
        if found is not None and len(found) != len(vectors):
            found = None  # some papers have none (an old build added to): concepts alone, for every paper
        index = cls(titles, vectors, norms, df, names, types, entities, dict(postings), broad, generic, unnamed, found)
        if facet and found is not None:
            if FACET_WEIGHTS[by.strip().lower()] is None:  # type: ignore[union-attr]
                index.ranking = cls.from_graph(g, None, dense)
            else:
                index.facet_vectors = _facet_vectors(g, found.ids, schema.MENTION_REL[facet])
        return index

    def score(self, a: str, b: str) -> float:
        """The score of papers ``a`` and ``b``: what ``related`` ranks by, for any pair, not only a
        paper's top k. With vectors, ``fuse(cosine, concept_score, facet_cosine)``; else the concept score."""
        if self.ranking is not None:
            return self.ranking.score(a, b)
        concepts = self.concept_score(a, b)
        return fuse(self.cosine(a, b), concepts, self.facet_cosine(a, b)) if self.dense is not None else concepts

    def facet_cosine(self, a: str, b: str) -> float | None:
        """The cosine of the two papers' facet vectors (0 if either has none); None without ``by``."""
        if self.facet_vectors is None:
            return None
        f = self.facet_vectors
        return float(f[self._dense_row[a]] @ f[self._dense_row[b]])

    def concept_score(self, a: str, b: str) -> float:
        """The concept score of papers ``a`` and ``b`` (0 when they share no specific concept)."""
        contrib = self._contrib(a, b)
        return sum(contrib.values()) if self.explains(contrib) else 0.0

    def cosine(self, a: str, b: str) -> float:
        """The cosine of the two abstracts' vectors (``dense`` must be set)."""
        m = self.dense.matrix  # type: ignore[union-attr]
        return float(m[self._dense_row[a]] @ m[self._dense_row[b]])

    def rank(self, paper_id: str, among: Iterable[str], max_shared: int = 8) -> list[RelatedPaper]:
        """Every paper of ``among`` (but ``paper_id``) ranked against ``paper_id``: the score and
        reasons ``related`` gives; one sharing no specific concept has no reasons, and without
        vectors scores 0. Ties are broken by id."""
        if self.ranking is not None:
            return self._reasons(self.ranking.rank(paper_id, among, max_shared), paper_id, max_shared)
        rows = []
        for other in dict.fromkeys(among):
            if other == paper_id:
                continue
            rows.append(self._pair(paper_id, other, self._contrib(paper_id, other), max_shared))
        return sorted(rows, key=lambda r: (-round(r.score, 9), r.id))

    def _pair(self, pid: str, other: str, contrib: dict[str, float], max_shared: int,
              cosine: float | None = None) -> RelatedPaper:
        """The row of ``other`` ranked against ``pid``, given their concepts' ``contrib``utions."""
        explained = self.explains(contrib)
        concepts = sum(contrib.values()) if explained else 0.0
        shared = self._explain(contrib, max_shared) if explained else ()
        if self.dense is None:
            return RelatedPaper(other, self.titles[other], concepts, shared)
        cos = self.cosine(pid, other) if cosine is None else cosine
        return RelatedPaper(other, self.titles[other], fuse(cos, concepts, self.facet_cosine(pid, other)), shared,
                            "" if shared else NOTE_WORDING)

    def _reasons(self, rows: list[RelatedPaper], pid: str, max_shared: int) -> list[RelatedPaper]:
        """``rows`` as ``ranking`` ranks them, scores and places kept, with this index's (the facet's)
        reasons: a row sharing no specific concept of the facet lists none and is noted NOTE_WORDING."""
        out = []
        for r in rows:
            contrib = self._contrib(pid, r.id)
            shared = self._explain(contrib, max_shared) if self.explains(contrib) else ()
            out.append(RelatedPaper(r.id, r.title, r.score, shared, "" if shared else NOTE_WORDING))
        return out

    def _contrib(self, a: str, b: str) -> dict[str, float]:
        vec, ovec = self.vectors[a], self.vectors[b]
        if len(ovec) < len(vec):
            vec, ovec = ovec, vec
        scale = self.norms[a] * self.norms[b]
        return {c: x * ovec[c] / scale for c, x in vec.items() if c in ovec}

    def explains(self, concepts: Iterable[str]) -> bool:
        """Whether shared ``concepts`` can explain a link: at least one of them is not broad."""
        return any(c not in self.broad for c in concepts)

    def related(self, paper_id: str, k: int = 10, max_shared: int = 8) -> list[RelatedPaper]:
        if self.ranking is not None:
            return self._reasons(self.ranking.related(paper_id, k, max_shared), paper_id, max_shared)
        if self.dense is not None:
            return self._related_fused(paper_id, k, max_shared)
        vec = self.vectors[paper_id]
        contrib: dict[str, dict[str, float]] = defaultdict(dict)
        for c, x in vec.items():
            for other in self.postings.get(c, ()):
                if other != paper_id:
                    contrib[other][c] = x * self.vectors[other][c] / (self.norms[paper_id] * self.norms[other])
        # A link resting only on broad concepts ("generation" in a third of the papers) is no link.
        ranked = sorted(((o, cs) for o, cs in contrib.items() if self.explains(cs)),
                        key=lambda kv: (-round(sum(kv[1].values()), 9), kv[0]))[:k]
        return [
            RelatedPaper(other, self.titles[other], sum(cs.values()), self._explain(cs, max_shared))
            for other, cs in ranked
        ]

    def _related_fused(self, paper_id: str, k: int, max_shared: int) -> list[RelatedPaper]:
        """``related`` with vectors: every paper scored, the concepts' terms added where shared."""
        import numpy as np

        pids = self.dense.ids  # type: ignore[union-attr]
        m = self.dense.matrix  # type: ignore[union-attr]
        cos = m @ m[self._dense_row[paper_id]]
        contrib: dict[str, dict[str, float]] = defaultdict(dict)
        vec = self.vectors[paper_id]
        for c, x in vec.items():
            for other in self.postings.get(c, ()):
                if other != paper_id:
                    contrib[other][c] = x * self.vectors[other][c] / (self.norms[paper_id] * self.norms[other])
        concepts = np.zeros(len(pids))
        for other, cs in contrib.items():
            if self.explains(cs):
                concepts[self._dense_row[other]] = sum(cs.values())
        f = self.facet_vectors
        scores = fuse(cos, concepts, None if f is None else f @ f[self._dense_row[paper_id]])
        scores[(concepts == 0) & (cos < WORDING_COSINE_MIN)] = -np.inf  # wording too weak to list alone
        scores[self._dense_row[paper_id]] = -np.inf
        ranked = _top(scores, pids, k)
        return [self._pair(paper_id, pids[j], contrib.get(pids[j], {}), max_shared, float(cos[j])) for j in ranked]

    def related_all(self, k: int = 10, max_shared: int = 8, block: int = 256) -> dict[str, list[RelatedPaper]]:
        """Every paper's top ``k``, the same ranking as ``related`` but as sparse matrix products.

        Scores are dot products of unit concept vectors; a Python loop over postings costs the
        sum of squared concept frequencies, which at 100k papers is billions of steps, so the
        products run in scipy, a block of papers at a time, and only the top ``k`` pairs are
        explained in Python.
        """
        if self.ranking is not None:
            return {p: self._reasons(rows, p, max_shared)
                    for p, rows in self.ranking.related_all(k, max_shared, block).items()}
        import numpy as np
        from scipy import sparse

        pids = list(self.vectors)
        col: dict[str, int] = {}
        # Typed arrays, not lists: a list holds an object per entry (five million at 100k papers).
        indptr, cols, vals = array("q", [0]), array("q"), array("d")
        for pid in pids:
            norm = self.norms[pid]
            for c, x in self.vectors[pid].items():
                cols.append(col.setdefault(c, len(col)))
                vals.append(x / norm)
            indptr.append(len(cols))
        x = sparse.csr_matrix((np.frombuffer(vals, dtype=np.float64), np.frombuffer(cols, dtype=np.int64),
                               np.frombuffer(indptr, dtype=np.int64)), shape=(len(pids), max(1, len(col))))
        x.sum_duplicates()  # sorts each row's columns, as the products expect
        xt = x.T.tocsr()
        # The same matrix over the concepts that can explain a link alone: a pair must share one.
        specific = np.array([c not in self.broad for c in sorted(col, key=col.get)] or [True])
        xs = (x @ sparse.diags(specific.astype(np.float64))).tocsr()
        xst = xs.T.tocsr()
        out: dict[str, list[RelatedPaper]] = {}
        if self.dense is not None:
            rows = [self._dense_row[p] for p in pids]
            m = self.dense.matrix[rows]
            fm = self.facet_vectors[rows] if self.facet_vectors is not None else None
        for lo in range(0, len(pids), block):
            # Kept sparse: a dense block row is the whole corpus wide, and most of it is zero.
            sims = (x[lo: lo + block] @ xt).tocsr()
            spec = (xs[lo: lo + block] @ xst).tocsr()
            if self.dense is not None:
                # Every pair has a cosine: the block's rows are the corpus wide (256 x 100k floats at
                # 100k papers, 100 MB); the concept score is added where a specific concept is shared.
                cos = m[lo: lo + block] @ m.T
                explained = sims.multiply(spec.astype(bool)).toarray()
                scores = fuse(cos, explained, None if fm is None else fm[lo: lo + block] @ fm.T)
                scores[(explained == 0) & (cos < WORDING_COSINE_MIN)] = -np.inf  # as in ``related``
                for r in range(scores.shape[0]):
                    i = lo + r
                    scores[r, i] = -np.inf
                    ranked = _top(scores[r], pids, k)
                    out[pids[i]] = [self._pair(pids[i], pids[j], self._contrib(pids[i], pids[j]), max_shared,
                                               float(cos[r, j])) for j in ranked]
                continue
            for r in range(sims.shape[0]):
                i = lo + r
                cols = sims.indices[sims.indptr[r]: sims.indptr[r + 1]]
                vals = sims.data[sims.indptr[r]: sims.indptr[r + 1]]
                keep = (cols != i) & (vals > 0)
                keep &= np.isin(cols, spec.indices[spec.indptr[r]: spec.indptr[r + 1]])
                cols, vals = cols[keep], vals[keep]
                if len(cols) > k:
                    # Ties at the cut are broken by id, as in ``related``: take every candidate
                    # scoring at least the k-th best, then sort exactly.
                    kth = np.partition(vals, len(vals) - k)[len(vals) - k]
                    keep = vals >= kth - 1e-9  # float noise must not split a tie
                    cols, vals = cols[keep], vals[keep]
                order = sorted(range(len(cols)), key=lambda t: (-round(float(vals[t]), 9), pids[cols[t]]))[:k]
                ranked = [cols[t] for t in order]
                out[pids[i]] = [self._row(pids[i], pids[j], max_shared) for j in ranked]
        return out

    def _row(self, pid: str, other: str, max_shared: int) -> RelatedPaper:
        vec, ovec = self.vectors[pid], self.vectors[other]
        scale = self.norms[pid] * self.norms[other]
        contrib = {c: x * ovec[c] / scale for c, x in vec.items() if c in ovec}
        return RelatedPaper(other, self.titles[other], sum(contrib.values()), self._explain(contrib, max_shared))

    def _explain(self, contrib: dict[str, float], limit: int) -> tuple[SharedConcept, ...]:
        """The shared concepts, most informative first, without ones a shown concept contains."""
        # Most informative first; on a tie the more specific (longer) concept. Plain tuples sort
        # in C: this runs for every stored related pair, millions of times at 100k papers.
        order = sorted([(-round(v, 9), -len(c), c) for c, v in contrib.items()])
        shown: list[str] = []
        padded: list[str] = []
        # With the abstracts' vectors, a link resting only on words naming no concept is shown as
        # "similar wording" (``unnamed``); ranked by concepts alone, those words are its reasons.
        hidden = self.unnamed if self.dense is not None else frozenset()
        for _, _, c in order:
            if c in self.generic or c in hidden:
                continue
            pc = f" {c} "
            if any(pc in s for s in padded):
                continue  # "translation" adds nothing next to "machine translation"
            inside = [i for i, s in enumerate(padded) if s in pc]
            if inside:  # "neural networks" says what "networks", listed first, said: it takes that place
                shown[inside[0]], padded[inside[0]] = c, pc
                for i in reversed(inside[1:]):
                    del shown[i], padded[i]
                continue
            shown.append(c)
            padded.append(pc)
            if len(shown) == limit:
                break
        if not self.explains(shown):  # the concept that lets the link exist is always shown ...
            best = next((c for _, _, c in order if c not in self.broad and c not in hidden), None)
            if best is None:
                return ()  # ... unless it is a hidden word: broad concepts alone explain no link
            if len(shown) == limit:
                shown[-1] = best
            else:
                shown.append(best)
        return tuple(self._shared(c) for c in shown)

    def _shared(self, c: str) -> SharedConcept:
        # One object per concept: a corpus-wide ranking holds ten million references at 100k papers.
        sc = self._shared_cache.get(c)
        if sc is None:
            sc = self._shared_cache[c] = SharedConcept(self.names[c], self.types[c], self.df[c],
                                                       self.entities.get(c))
        return sc


def fuse(cosine, concepts, facet=None):
    """The fused score of a pair (or arrays of pairs): the cosine of the abstracts' vectors plus
    CONCEPT_WEIGHT times the concept score (plus FACET_WEIGHT times the cosine of the facet
    vectors, with ``by``), scaled so that a score is at most 1."""
    if facet is None:
        return (cosine + CONCEPT_WEIGHT * concepts) / (1.0 + CONCEPT_WEIGHT)
    return (cosine + CONCEPT_WEIGHT * concepts + FACET_WEIGHT * facet) / (1.0 + CONCEPT_WEIGHT + FACET_WEIGHT)


def _stated(g: nx.DiGraph, pid: str, rels: set[str]) -> list[tuple[str, dict]]:
    """(entity id, edge data) of the mentions of ``rels`` types paper ``pid`` makes, but for an
    entity written only inside another mention of the paper: "dependency parsing" inside
    "multilingual dependency parsing" (kg.concepts.broader), a name inside a longer one. The
    ranking derives those itself from the longer phrase (``_derive``); read twice, they would
    count twice."""
    edges = [(eid, d) for _, eid, d in g.out_edges(pid, data=True) if d.get("type") in rels]
    spans = [(a, b) for _, d in edges for a, b in zip(d.get("span_starts") or (), d.get("span_ends") or ())]

    def inside(a: int, b: int) -> bool:
        return any(a2 <= a and b <= b2 and (a2, b2) != (a, b) for a2, b2 in spans)

    return [(eid, d) for eid, d in edges
            if not d.get("span_starts") or not all(inside(a, b) for a, b in zip(d["span_starts"], d.get("span_ends") or ()))]


def _facet_vectors(g: nx.DiGraph, pids: Iterable[str], rel: str):
    """Each paper's facet vector, in ``pids``' order: the normalised mean of the static phrase vectors
    (kg.graph.vectors.static_vectors, the ones KeyBERT ranks the phrases with) of the
    surfaces of its mentions of type ``rel``; a zero row for a paper with none."""
    import numpy as np

    from kg.graph.vectors import static_vectors

    pids = list(pids)
    surfaces = [sorted({s for _, _, d in g.out_edges(p, data=True) if d.get("type") == rel
                        for s in d.get("surface") or ()}) for p in pids]
    phrases = sorted({s for ss in surfaces for s in ss})
    vec = dict(zip(phrases, static_vectors(phrases))) if phrases else {}
    dim = len(next(iter(vec.values()))) if vec else 1
    out = np.zeros((len(pids), dim), np.float32)
    for i, ss in enumerate(surfaces):
        if ss:
            v = np.mean([vec[s] for s in ss], axis=0)
            out[i] = v / (np.linalg.norm(v) or 1.0)
    return out


def _top(scores, pids: tuple[str, ...] | list[str], k: int) -> list[int]:
    """The indices of the ``k`` best ``scores`` (finite ones only), ties broken by id as ``related`` does."""
    import numpy as np

    finite = np.flatnonzero(np.isfinite(scores))
    if len(finite) > k:
        vals = scores[finite]
        kth = np.partition(vals, len(vals) - k)[len(vals) - k]
        finite = finite[vals >= kth - 1e-9]  # float noise must not split a tie
    return sorted(finite.tolist(), key=lambda j: (-round(float(scores[j]), 9), pids[j]))[:k]


def _facet_type(by: str | None) -> str | None:
    """The entity type of facet ``by`` (None: every type); a KgError names the facets otherwise."""
    if by is None:
        return None
    facet = FACETS.get(by.strip().lower())
    if facet is None:
        raise KgError(f"no facet {by!r}: give one of {', '.join(FACETS)}")
    return facet


def _check_paper(g: nx.DiGraph, paper_id: str) -> None:
    if paper_id not in g or g.nodes[paper_id].get("label") != schema.PAPER:
        raise KgError(f"no paper with id {paper_id!r} in the graph")


def related(g: nx.DiGraph, paper_id: str, k: int = 10, by: str | None = None) -> list[RelatedPaper]:
    """The ``k`` papers sharing the most informative concepts with ``paper_id``; ``by`` (a key
    of ``FACETS``): the concepts of that facet only, so the reasons are of it too."""
    _check_paper(g, paper_id)
    return ConceptIndex.from_graph(g, by).related(paper_id, k)


def related_all(g: nx.DiGraph, k: int = 5, by: str | None = None) -> dict[str, list[RelatedPaper]]:
    """The top ``k`` related papers of every paper (one index for all)."""
    return ConceptIndex.from_graph(g, by).related_all(k)


def rank_among(g: nx.DiGraph, paper_id: str, among: Iterable[str], by: str | None = None,
               max_shared: int = 8) -> list[RelatedPaper]:
    """Every paper of ``among`` ranked against ``paper_id`` (a reading list to triage), best first.

    Every paper has ``related``'s score, and its reasons where it shares a specific concept. One
    that does not carries a note: NOTE_WORDING when its abstract's TF-IDF cosine with the paper's
    is at least WORDING_MIN (``wording_similarity``), else NOTE_NOTHING. With the abstracts'
    vectors it keeps its fused score and place; without them it scores 0 and such papers come
    last, ordered by that cosine, then by id. Unknown ids raise a KgError naming the first.
    """
    _check_paper(g, paper_id)
    among = list(dict.fromkeys(a.strip() for a in among if a.strip()))
    for other in among:
        if other not in g or g.nodes[other].get("label") != schema.PAPER:
            raise KgError(f"no paper with id {other!r} in the build")
    index = ConceptIndex.from_graph(g, by)
    rows = index.rank(paper_id, among, max_shared)
    unlinked = [r.id for r in rows if not r.shared]
    if not unlinked:
        return rows
    wording = wording_similarity(g, paper_id, unlinked)
    if index.dense is not None:
        return [r if r.shared else RelatedPaper(r.id, r.title, r.score, (), NOTE_WORDING if wording[r.id] >= WORDING_MIN
                                                else NOTE_NOTHING) for r in rows]
    linked = [r for r in rows if r.shared]
    rest = sorted((RelatedPaper(r.id, r.title, 0.0, (), NOTE_WORDING if wording[r.id] >= WORDING_MIN else NOTE_NOTHING)
                   for r in rows if not r.shared), key=lambda r: (-round(wording[r.id], 9), r.id))
    return linked + rest


def wording_similarity(g: nx.DiGraph, paper_id: str, others: Iterable[str]) -> dict[str, float]:
    """TF-IDF cosine of the title and abstract of ``paper_id`` with each of ``others``' (scikit-learn:
    English stop words, sublinear tf, IDF over every paper of ``g``)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    pids = papers_of(g)
    at = {p: i for i, p in enumerate(pids)}

    def text(p: str) -> str:
        d = g.nodes[p]
        return f"{d.get('title') or ''}. {paper_text(d)}"

    x = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit_transform([text(p) for p in pids])
    others = list(others)
    sims = (x[[at[o] for o in others]] @ x[at[paper_id]].T).toarray().ravel()
    return {o: float(v) for o, v in zip(others, sims)}


def add_related_edges(g: nx.DiGraph, k: int = 5, related: dict[str, list[RelatedPaper]] | None = None) -> int:
    """Add RELATED_TO {score, rank, shared} edges to every paper's top ``k``; returns how many.

    ``related`` is a precomputed ``related_all`` of at least ``k`` rows per paper (it must be
    computed before any RELATED_TO edge exists). Existing RELATED_TO edges are replaced, so
    running it twice gives the same graph.
    """
    old = [(u, v, schema.RELATED_REL) for u, v, t in g.edges(data="type") if t == schema.RELATED_REL]
    g.remove_edges_from(old)
    related = related_all(g, k) if related is None else related
    added = 0
    for pid, rows in related.items():
        for rank, row in enumerate(rows[:k], 1):
            g.add_edge(
                pid, row.id, schema.RELATED_REL, type=schema.RELATED_REL, score=round(row.score, 4), rank=rank,
                shared=[s.name for s in row.shared], shared_types=[s.type for s in row.shared],
                shared_papers=[s.papers for s in row.shared],
            )
            added += 1
    return added


def find_paper(g: nx.DiGraph, query: str) -> str:
    """The id of the paper named by ``query``: an exact id, else title words (all must match),
    else a concept the paper names (an entity, one of its aliases, or a key phrase)."""
    return find_paper_in({p: g.nodes[p].get("title") or "" for p in papers_of(g)}, query,
                         lambda: paper_concepts(g))


def paper_concepts(g: nx.DiGraph) -> dict[str, list[str]]:
    """Paper id -> the phrases naming its concepts: its entities' names and aliases, its key phrases."""
    mention_types = set(schema.MENTION_REL.values())
    out: dict[str, list[str]] = {}
    for pid in papers_of(g):
        names = list(g.nodes[pid].get("key_concepts") or ())
        for _, eid, t in g.out_edges(pid, data="type"):
            if t in mention_types:
                ent = g.nodes[eid]
                names += [ent.get("name") or "", *(ent.get("aliases") or ())]
        out[pid] = names
    return out


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def find_paper_in(titles: dict[str, str], query: str,
                  concepts: Callable[[], dict[str, list[str]]] | None = None) -> str:
    """``find_paper`` over a mapping of paper id -> title (as read from a store); ``concepts``
    gives paper id -> concept phrases, asked for only when no id or title matches."""
    query = query.strip()
    if not query:
        raise KgError("empty paper query: give a paper id, words of its title or a concept it names")
    if query in titles:
        return query
    words = query.lower().split()

    def matches(pid: str) -> bool:
        hay = f"{pid} {titles[pid] or ''}".lower()
        return all(w in hay for w in words)

    hits = [p for p in titles if matches(p)]
    if len(hits) > 1:
        exact = [p for p in hits if (titles[p] or "").strip().lower() == query.lower()]
        hits = exact or hits
    if not hits and concepts is not None:
        # What a user remembers of a paper is often the name it introduces ("FedBiscuit"): a
        # paper naming that concept exactly, else one of whose concepts holds every query word.
        phrases = {p: [_fold(c) for c in cs if c] for p, cs in concepts().items() if p in titles}
        q = _fold(query)
        hits = [p for p, cs in phrases.items() if q in cs]
        if not hits:
            pattern = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)") for w in q.split()]
            hits = [p for p, cs in phrases.items() if any(all(r.search(c) for r in pattern) for c in cs)]
    if not hits:
        raise KgError(f"no paper matches {query!r} (give a paper id, words of its title or a concept it names; "
                      f"`kg query 'MATCH (p:Paper) RETURN p.id, p.title'` lists them)")
    if len(hits) > 1:
        shown = "; ".join(f"{p} ({clip(titles[p], 60)})" for p in sorted(hits)[:5])
        more = f" and {len(hits) - 5} more" if len(hits) > 5 else ""
        raise KgError(f"{query!r} matches {len(hits)} papers: {shown}{more}; give the id or more title words")
    return hits[0]


def ranking_version() -> str:
    """Digest of this module and of kg.text.normalize (whose plural rules make the concepts): a
    build's stored RELATED_TO links are its ranking only if it matches."""
    import hashlib

    import kg.text.normalize
    import kg.text.words

    h = hashlib.sha256(Path(__file__).read_bytes())
    for module in (kg.text.normalize, kg.text.words):  # the plural rules and the generic words
        h.update(Path(module.__file__).read_bytes())
    return h.hexdigest()[:12]


def related_in_build(build: Build, paper: str, k: int = 10,
                     by: str | None = None) -> tuple[str, str, list[RelatedPaper]]:
    """(id, title, top ``k`` related papers) of the paper ``paper`` names (an id or title words)
    in a build on disk; ``by``: one facet's concepts (``related``).

    Read from the RELATED_TO links the build stored when it stored ``k`` or more with today's
    ranking (and no facet is asked for): a few rows from the embedded store, milliseconds at any
    corpus size. Otherwise ranked from the build's graph, which takes seconds once the corpus is large."""
    _facet_type(by)  # a bad facet fails before the build is read
    found = _stored_related(build, paper, k) if by is None else None
    if found is not None:
        return found
    g = build.graph()
    pid = find_paper(g, paper)
    return pid, g.nodes[pid].get("title") or pid, related(g, pid, k, by)


def _stored_related(build: Build, paper: str, k: int) -> tuple[str, str, list[RelatedPaper]] | None:
    from kg.store import Store

    manifest = build.manifest
    # Links stored by another version of the ranking would disagree with a fresh one (-k above them).
    if k > int(manifest.related_k or 0) or manifest.related_version != ranking_version():
        return None
    with Store(build.store_path) as store:
        hit = store.query("MATCH (p:Paper {id: $id}) RETURN p.id, p.title", {"id": paper.strip()}).rows
        titles = dict(hit or store.query("MATCH (p:Paper) RETURN p.id, p.title").rows)

        def concepts() -> dict[str, list[str]]:
            out: dict[str, list[str]] = {p: list(kc or ()) for p, kc in store.query(
                "MATCH (p:Paper) RETURN p.id, p.key_concepts").rows}
            for label, rel in schema.MENTION_REL.items():
                for p, name, aliases in store.query(
                        f"MATCH (p:Paper)-[:{rel}]->(e:{label}) RETURN p.id, e.name, e.aliases").rows:
                    out.setdefault(p, []).extend([name or "", *(aliases or ())])
            return out

        pid = find_paper_in(titles, paper, concepts)
        rows = store.query(
            "MATCH (a:Paper {id: $id})-[r:RELATED_TO]->(b:Paper) "
            "RETURN b.id, b.title, r.score, r.shared, r.shared_types, r.shared_papers ORDER BY r.rank LIMIT $k",
            {"id": pid, "k": k},
        ).rows
    return pid, titles[pid] or pid, [
        RelatedPaper(oid, otitle or oid, score, tuple(SharedConcept(n, t, c) for n, t, c in zip(names, types, counts)),
                     "" if names else NOTE_WORDING)
        for oid, otitle, score, names, types, counts in rows
    ]
