"""What a phrase names: the concept keys an entity or key phrase implies (kg.analysis.related).

A phrase is read into words (case, plural, a leading determiner and word endings folded: Snowball
stems, so "parsing"/"parse" and "translation"/"translate" meet), and ``derive`` gives the concepts
it implies with a strength each: the phrase itself and its aliases (W_PHRASE), its broader
concepts (the suffixes of the phrase without its generic tail, both sides of "X of/for Y":
W_BROADER) and its domain words, the content words modifying a head (W_DOMAIN). A concept is
keyed by its words' stems joined by spaces.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import networkx as nx
import snowballstemmer

from kg.graph import entities_of
from kg.text.normalize import singular
from kg.text.words import DETERMINERS, GENERIC_HEADS
from kg.text.words import NO_CONCEPT_ALONE, NOT_A_MENTION

# Strength of each way a paper comes to have a concept.
W_PHRASE = 1.0  # the entity / key phrase itself, or an alias of it
W_BROADER = 0.7  # a broader concept implied by the phrase
W_DOMAIN = 0.7  # a content word modifying the head: it names the research area
_STOP = frozenset(
    """a an the of for in on with from to by using via and or as at into over under
    between through than its their our this that these those is are be we""".split()
)
# Words that name no concept alone: the generic nouns and adjectives of scientific writing, and
# the describing words no mention is made of alone ("previous", "downstream", "datasets").
GENERIC = NO_CONCEPT_ALONE | NOT_A_MENTION
_SPLIT_PREP = re.compile(r"\s+(?:of|for|in|on|with|from|to|by|using|via|over|under)\s+", re.I)
_WORD = re.compile(r"[\w][\w\-+.']*[\w+]|[\w]")
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


@dataclass(frozen=True, slots=True)
class Word:
    stem: str  # what concepts are compared by: lower case, singular, Snowball stem
    low: str  # lower-case singular, what the stop and generic lists are checked on
    surface: str  # as written, for display


@lru_cache(maxsize=None)
def _stemmer():
    return snowballstemmer.stemmer("english")


# Endings that make another word, not another form of one: Snowball would fold "complexity" into
# "complex", "objective" into "object", "computational" into "computer", "visualization" into
# "visual" (of "visual question answering"), "normalization" into "normal"; such words stay whole.
_DERIVED = re.compile(r"(?:ity|ive|al|ness|ous|ful|able|ible|ic|ism|ist|ally|ization|isation)$")


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


def read(text: str) -> tuple[Word, ...]:
    """The words of ``text``; what it has in brackets is left out when words remain: "natural language
    processing (NLP) tasks" names what "natural language processing tasks" names (an acronym in
    brackets is an alias, as kg.concepts reads it)."""
    text = unicodedata.normalize("NFKC", text)
    bare = _BRACKETED.sub(" ", text)
    raw = _WORD.findall(bare) or _WORD.findall(text)
    if len(raw) > 1 and raw[0].lower() in DETERMINERS:
        raw = raw[1:]
    out = []
    for w in raw:
        if w.isupper():  # an acronym is its letters: Snowball would make "EDS" the "ED" of "EDs"
            low = w.lower()
            parts = low.split("-")
            out.append(Word(" ".join(parts) if len(parts) > 1 and all(p.isalpha() for p in parts) else low, low, w))
            continue
        low = singular(w.lower())
        # Stems fold "parsing"/"parse" and "translation"/"translate" into one concept.
        out.append(Word(_stem(low), low, w))
    return tuple(out)


Reader = Callable[[str], "tuple[Word, ...]"]  # text -> its words (``read``, or a memo of it)


def _content(word: Word) -> bool:
    return (word.low not in _STOP and word.low not in GENERIC and not word.low.isdigit() and len(word.low) > 1
            and not _adverb(word))


def _adverb(word: Word) -> bool:
    """Whether ``word`` is an adverb of an adjective ("distantly" of "distant", "jointly",
    "automatically"), which names no concept alone; "family" or "anomaly" is no such word."""
    low = word.low
    return len(low) > 4 and low.endswith("ly") and (low.endswith("ally") or (
        word.stem != low and low[:-2].startswith(word.stem)))


def derive(phrase: str, aliases: Iterable[str] = (), words_of: Reader = read) -> dict[str, tuple[float, str, bool]]:
    """Concept key -> (strength, surface, headed) for one entity or key phrase (module doc).

    ``headed`` is False for a word the phrase has only as a modifier (a domain word): whether
    such a word names a concept is known only once the corpus has used it as a head somewhere
    ("speech" in "spontaneous speech" does; "complex" in "complex reasoning" never does)."""
    out: dict[str, tuple[float, str, bool]] = {}

    def put(words: tuple[Word, ...], w: float, tail: str = "", domain: bool = False) -> None:
        if not words or (len(words) == 1 and not _content(words[0])):
            return
        if all(x.low in _STOP or x.low in GENERIC for x in words):
            return
        key = " ".join(x.stem for x in words)
        headed = not domain or (key in out and out[key][2])
        if key not in out or out[key][0] < w:
            # A phrase cut before its generic tail is shown with it: "large language models", not
            # "large language"; a single word stays a word.
            shown = " ".join(x.surface for x in words) + (f" {tail}" if tail and _size(words) > 1 else "")
            out[key] = (w, shown, headed)
        elif headed and not out[key][2]:
            out[key] = (out[key][0], out[key][1], True)

    for form in (phrase, *aliases):
        put(canonical(words_of(form)), W_PHRASE)
        key = concept_key(form, words_of)
        if key in out and names_its_concept(form, words_of):  # shown as written, brackets and all
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
        tail = " ".join(x.surface for x in whole[len(words):]) if _shows_tail(whole, words) else ""
        same = len(parts) == 1 and (len(words) == full or _size(words) > 1)
        for j in range(len(words)):
            put(words[j:], W_PHRASE if (j == 0 and same) else W_BROADER, tail)
        for w in words[:-1]:
            if _content(w):
                put((w,), W_DOMAIN, domain=True)
    return out


def canonical(words: tuple[Word, ...]) -> tuple[Word, ...]:
    """The words naming a phrase's concept: without a generic tail when two words or more remain
    ("large language models" and "large language" are one concept; "language model" stays)."""
    core = words
    while len(core) > 1 and core[-1].low in GENERIC:
        core = core[:-1]
    return core if _size(core) > 1 else words


def _size(words: tuple[Word, ...]) -> int:
    """How many words ``words`` are, a hyphenated compound counted as its parts: "fact-checking
    systems" is "fact checking systems", whose concept is "fact checking", as it is unhyphenated."""
    return sum(1 + w.stem.count(" ") for w in words)


@lru_cache(maxsize=None)
def _head_stems() -> frozenset[str]:
    return frozenset(_stem(w) for w in GENERIC_HEADS)


@lru_cache(maxsize=200_000)
def reason_core(key: str) -> str:
    """A concept key without the generic heads it ends with ("summar system" -> "summar"): as a
    reason, "summarization systems" says what "summarization models" or "summarization" says,
    and a link listing all three says one thing three times."""
    words = key.split()
    while len(words) > 1 and words[-1] in _head_stems():
        words.pop()
    return " ".join(words)


def names_its_concept(form: str, words_of: Reader = read) -> bool:
    """Whether ``form`` can stand for its concept (``canonical``): it is the concept's words, or
    those and one generic word ("large language models" for "large language", "multi-task
    learning" for "multi-task"). "large-scale real-world scenarios" keys the concept
    "large-scale", which every "large-scale ..." phrase implies: shown by that name, it would be
    the reason of links sharing only the modifier."""
    words = words_of(form)
    return _shows_tail(words, canonical(words))


def _shows_tail(whole: tuple[Word, ...], core: tuple[Word, ...]) -> bool:
    return len(whole) - len(core) <= 1


def bare(form: str, words_of: Reader = read) -> str:
    """``form`` without the generic tail its concept leaves out: "task-oriented evaluation" ->
    "task-oriented"; a form naming its concept whole is returned as it is."""
    words = words_of(form)
    core = canonical(words)
    return " ".join(x.surface for x in core) if len(core) < len(words) else form


def concept_key(form: str, words_of: Reader = read) -> str:
    return " ".join(x.stem for x in canonical(words_of(form)))


def memo_reader() -> Reader:
    """``read`` remembering each text it has read: an index reads most phrases several times.
    One memo per index built, not per process (at 100k papers it holds some 200k phrases)."""
    memo: dict[str, tuple[Word, ...]] = {}

    def words_of(text: str) -> tuple[Word, ...]:
        found = memo.get(text)
        if found is None:
            found = memo[text] = read(text)
        return found

    return words_of


ALIAS_TAKES_NAME = 10  # how many times the papers of a name's node an alias's entity needs to take it


def alias_keys(g: nx.DiGraph, words_of: Reader = read) -> dict[str, str]:
    """Alias key -> name key, for every entity: "LLMs" and "large language models (LLMs)" are the
    concept "large language models", not two more, wherever they are written.

    An alias that keys another entity's name takes that name only from a node stated by a tenth as
    many papers or fewer (ALIAS_TAKES_NAME): the entity "NMT training" (7 ACL papers), whose alias
    "neural machine translation training" keys "neural machine translation" without its generic
    word, does not take that concept and every paper naming it, nor does NMT (349 papers), to
    which one paper's "machine translation (NMT)" was merged, take machine translation (272);
    BERT's alias "BERT-based models" takes the one paper's "BERT-base". An alias two entities
    share names nothing (""): "ED", defined in one paper as encoder-decoder and in another as
    event detection, links neither to the other."""
    same: dict[str, str] = {}
    clash: set[str] = set()
    entities = [(eid, g.nodes[eid]) for eid in entities_of(g)]
    names = [concept_key(d.get("name") or eid, words_of) for eid, d in entities]
    owner: dict[str, int] = {}  # name key -> papers of the commonest entity so named
    for (_, d), name in zip(entities, names):
        owner[name] = max(owner.get(name, 0), d.get("papers") or 0)
    for (_, d), name in zip(entities, names):
        for alias in d.get("aliases") or ():
            k = concept_key(alias, words_of)
            if not k or k == name or owner.get(k, -1) * ALIAS_TAKES_NAME > (d.get("papers") or 0):
                continue
            if same.setdefault(k, name) != name:
                clash.add(k)
    for k in clash:
        if k in owner:
            del same[k]  # the name of an entity of its own stays that entity's
        else:
            same[k] = ""
    return same


def keys_of_type(g: nx.DiGraph, etype: str, same: dict[str, str], words_of: Reader = read) -> set[str]:
    """The concept keys the entities of type ``etype`` name (their names and aliases) in at least as
    many papers as the entities of any other type: on the ACL abstracts "neural machine
    translation" is a Task's (a Method's name implies it too), "attention" a Method's."""
    papers: dict[str, Counter] = {}
    for eid in entities_of(g):
        d = g.nodes[eid]
        n = d.get("papers") or 1
        for form in {d.get("name") or eid, *(d.get("aliases") or ())}:
            k = concept_key(form, words_of)
            k = same.get(k, k)
            if k:
                papers.setdefault(k, Counter())[d.get("type")] += n
    return {k for k, by_type in papers.items() if by_type[etype] and by_type[etype] >= max(by_type.values())}


def display_name(votes: Counter) -> str | None:
    """The commonest surface form; on a tie not the sentence-initial capitalised one ("Sampling"),
    then the shortest ("machine translation" over "machine translation system")."""
    if not votes:
        return None
    return max(votes, key=lambda s: (votes[s], not (s[:1].isupper() and s[1:] == s[1:].lower()), -len(s), s))

