"""Entity resolution: map every mention to one canonical entity per real-world thing.

Rules:

* one type per entity: a name typed differently in different papers takes the
  type most papers give it ("RLHF" is one node, not a Method and a Task);
* case, Unicode form, white space, hyphen spacing, a leading determiner and a
  plural last word do not make a new entity ("Large Language Models" ==
  "large language model");
* an acronym defined anywhere in the corpus, as "Long Form (LF)", "LF (Long
  Form)", "LF, or Long Form", "LF, which stands for Long Form" or "Long Form,
  LF," (kg/text/acronyms.py), is merged with its long form, its plural too ("LLMs" ->
  "large language model"); in a paper that defines it itself, with that paper's long form
  (PCA is principal component analysis in most papers, probabilistic cellular automata in
  one); inside a longer name only where written as an acronym ("mean absolute error" keeps
  its "mean" where some paper defines MEAN);
* a generic head after a name does not make a new entity: "Mistral models",
  "the Llama2-7B model family" and "the MS MARCO dataset" are "Mistral", "Llama2-7B" and
  "MS MARCO", when what precedes the head is a name-shaped word, or is itself an
  entity of the same type in the corpus and more than one common word ("deep
  learning models" is "deep learning" only if that is a Method somewhere; "reward
  model" is never "reward", but "summarization task" is "summarization"), or one word that
  several papers name alone as that type ("attention mechanism" is attention); a dataset's
  name also loses the words that describe its data ("the ShARC conversational machine
  reading dataset" is ShARC), and once types are decided its treebanks are the dataset
  (``merge_data_heads``);
* nor does "-based" after a name the corpus writes as one: "BERT-based models" is
  "BERT", "rule-based" stays;
* version numbers do: "Llama-3.1" and "LLaMA" are different nodes, because
  users compare versions.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from kg.concepts.specificity import KEYPHRASENESS_MIN, generic_word, word_papers
from kg.records import ENTITY_TYPES, Entity, Extraction, Mention, Paper
from kg.text.acronyms import acronym_singular, definitions as acronym_definitions, stands_for
from kg.text.names import Casing, name_strength, sentence_capital, written_as_name
from kg.text.normalize import normalize, singular  # noqa: F401  (singular: part of this module's API)
from kg.text.words import FUNCTION_WORDS, GENERIC_HEADS

_ACRONYM_DEF = re.compile(r"\s*\(\s*([A-Za-z][\w.\-]*[A-Z][\w.\-]*?)s?\s*\)")


_WORD_BREAK = re.compile(r"[\s\-\u2010-\u2015]+")  # spaces, hyphens and dashes
_TRAILING_PARENS = re.compile(r"^(.*\S)\s*\(([^()]+)\)$")
_LEADING_PARENS = re.compile(r"^([^()]*\S)\s*\(([^()]+)\)")
# A word in lower case with capitals inside it, as an acronym's letters are picked out where it is
# spelled out ("MAssive eVENt detection" for MAVEN); "fastText", "mBERT" and "biLSTMs" are names.
_HIGHLIGHTED = re.compile(r"\b[a-z]+[A-Z]{2,}(?!s\b)[a-z]")
_BASED = re.compile(r"([^\s-]+)-based")  # a key such as "bert-based"
_TASK_HEADS = frozenset({"task", "tasks", "problem", "problems"})
_HYPHEN_SCORE = re.compile(r"(?<=\w)-(scores?)$", re.IGNORECASE)  # "F1-score"
_DATA_SET = re.compile(r"\bdata set(s?)\b", re.IGNORECASE)  # "the BUCC data set"
# Heads that say a named thing before them is data: "the Newsela corpus" is Newsela.
_DATA_HEADS = frozenset({"dataset", "datasets", "corpus", "corpora", "benchmark", "benchmarks"})


def acronym_of(mention: Mention, paper_text: str) -> str | None:
    """The acronym defined with a long-form mention: "Policy Mirror Descent (PMD)", in the text
    right after the mention or inside the mention itself."""
    inner = _TRAILING_PARENS.match(mention.text.strip())
    if inner:
        long_form, acro = inner.group(1), inner.group(2).strip()
        acro = acronym_singular(acro)
    else:
        m = _ACRONYM_DEF.match(paper_text, mention.end)
        if not m:
            return None
        long_form, acro = mention.text, m.group(1)
    return acro if _abbreviates(acro, long_form) else None


def _defines_acronym(text: str) -> bool:
    """"Natural Policy Gradient (NPG)": a long form with the acronym it defines."""
    m = _LEADING_PARENS.match(text)  # "Low-Rank Adaptation (LoRA) method" as it loses "family"
    return bool(m) and _abbreviates(m.group(2).strip(), m.group(1))


# The share of the papers defining an acronym that must agree on its long form for it to stand for
# that long form in every paper.
DOMINANT_SHARE = 0.75
# An acronym names its entity when written at least this often, and twice as often as the rest.
ACRONYM_NAMES_MIN = 3
# Papers that must type a single word alone as one type for "word model" to be that word.
STANDALONE_PAPERS = 5


def _content_words(key: str) -> str:
    """A long form's key without its short function words, to compare spellings of one name."""
    # Hyphens break words too: "part-of-speech" and "part of speech" both define POS.
    return " ".join(w for w in _WORD_BREAK.split(key) if w not in FUNCTION_WORDS)


@lru_cache(maxsize=1 << 17)  # resolution folds every key, over and over
def fold(key: str) -> str:
    """A key with no hyphens, spaces or plurals: what two spellings of one name share."""
    return re.sub(r"[\W_]", "", "".join(singular(w) for w in _WORD_BREAK.split(key)))


def _multiword(text: str) -> bool:
    """Several words, counting dashed compounds: "Karush–Kuhn–Tucker" is three."""
    return len(_WORD_BREAK.split(text.strip())) > 1


def _abbreviates(acro: str, long_form: str) -> bool:
    """Does the acronym stand for the (multi-word) long form, by kg.text.acronyms' one matcher?"""
    return _multiword(long_form) and stands_for(acro, long_form.split())


_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")  # a word, hyphenated parts included
_ET_AL = re.compile(r"\bet al\b\.?")


def _leading_name(text: str) -> str | None:
    """The name-shaped words that open ``text`` when only lower-case words follow them: "ShARC"
    of "ShARC conversational machine reading", "MS COCO" of "MS COCO caption"; else None."""
    words = text.split()
    last = max((i for i, w in enumerate(words) if name_strength(w) > 0), default=-1)
    if last < 0 or last == len(words) - 1 or name_strength(words[0]) == 0 and not words[0][:1].isupper():
        return None
    rest = words[last + 1:]
    if all(w.isalpha() and w.islower() and w not in FUNCTION_WORDS for w in rest):
        return " ".join(words[:last + 1])
    return None


def written_as_acronym(texts: Iterable[str]) -> set[str]:
    """The words (lower case, singular) a corpus writes in capitals at least half the times it
    writes them: "BERT", "POS" and "LSTMs", not "mean" or "tags" where a paper defines MEAN or TAG."""
    written: Counter[str] = Counter()
    for text in texts:
        written.update(_TOKEN.findall(_ET_AL.sub(" ", text)))  # "et al." is no lower-case "AL"
    caps: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for w, n in written.items():  # each spelling once: a corpus repeats its words
        low = acronym_singular(w).lower()
        seen[low] += n
        if w.isupper() or any(c.isupper() for c in w[1:]):
            caps[low] += n
    return {w for w, n in caps.items() if n >= 0.5 * seen[w]}


def unified_types(items: Iterable[tuple[str, str, str, float]]) -> dict[str, str]:
    """For (paper id, type, key, score) of every mention, each key's type: the one most papers give
    it; a tie goes to the higher total score, then to the earlier of ENTITY_TYPES."""
    papers: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    weight: dict[str, Counter[str]] = defaultdict(Counter)
    for pid, etype, key, score in items:
        papers[key][etype].add(pid)
        weight[key][etype] += score
    order = {t: i for i, t in enumerate(ENTITY_TYPES)}
    return {k: max(by, key=lambda t: (len(by[t]), weight[k][t], -order.get(t, len(order))))
            for k, by in papers.items()}


@dataclass(frozen=True)
class Resolution:
    """The canonical entities of a corpus and, per paper, the entity of each mention."""

    entities: dict[str, Entity]
    mention_entity: dict[str, list[str | None]]  # paper id -> entity id per mention (None: no node), in order
    mentions: int  # mentions over the corpus
    surface_forms: int  # distinct (type, surface form) pairs among them
    # Mentions the concept stage found beyond the extractor's (kg.concepts.linking): paper id ->
    # (mention, entity id).
    linked: dict[str, list[tuple[Mention, str]]] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        return (f"{self.mentions} mentions ({self.surface_forms} distinct surface forms) "
                f"resolved to {len(self.entities)} entities")


def renamed(resolution: Resolution, extractions: Iterable[Extraction], papers: Iterable[Paper]) -> Resolution:
    """``resolution`` with each entity that the linking stages gave mentions (``linked``) named by
    its acronym where, counting the linked mentions too, the corpus writes that far more often
    (``display_name``): resolution names an entity before names are linked wherever written, and
    the tagger, which seldom tags "CoNLL" alone, had left the entity of "Computational Language
    Learning (CoNLL)" that long name where 70 ACL abstracts write "CoNLL". Only a one-word name
    replaces the old: the other names the count gives ("NIST Chinese-to-English" for NIST) are
    no better than the ones resolution and the dataset merges chose."""
    from dataclasses import replace

    linked = {eid for pairs in resolution.linked.values() for _, eid in pairs} & resolution.entities.keys()
    if not linked:
        return resolution
    extractions = list(extractions)
    mentions = [(m, eid) for ex in extractions for m, eid in zip(ex.mentions, resolution.mention_entity.get(ex.paper_id, ()))
                if eid in linked]
    mentions += [(m, eid) for pairs in resolution.linked.values() for m, eid in pairs if eid in linked]
    # The forms as written in mid-sentence, as ``resolve`` counts them: "Sarcasm" at a sentence's start
    # is not another name of "sarcasm".
    casing = mid_sentence_casing(papers, [m for m, _ in mentions])
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    for m, eid in mentions:
        forms[eid][casing.as_written(m.text, m.sentence)] += 1
    entities = dict(resolution.entities)
    for eid in sorted(linked):
        ent = entities[eid]
        name = display_name(eid.split(":", 1)[1], forms[eid])
        if name != ent.name and len(name.split()) == 1:
            entities[eid] = replace(ent, name=name, aliases=sorted({*ent.aliases, ent.name, name}))
    return replace(resolution, entities=entities)


def _capitalised(form: str) -> bool:
    """Whether ``form`` is a lower-case form with its words' first letters capitalised."""
    return form != form.lower() and all(w[1:] == w[1:].lower() for w in form.split())


def display_name(key: str, forms: Counter[str]) -> str:
    """An entity's name from its key and its surface forms (with their counts): the long form when
    an acronym was merged into it, else the commonest form that is the key itself ("Mistral", not
    "Mistral models"), else the commonest form."""
    named = Counter(forms)
    for s, n in forms.items():
        # A long form written with its acronym and a generic head ("Federated Learning (FL)
        # techniques", "Natural Policy Gradient (NPG) method") names the entity without them.
        defined = _LEADING_PARENS.match(s)
        if defined and defined.end() < len(s) and _abbreviates(defined.group(2), defined.group(1)) \
                and normalize(defined.group(1)) == key:
            named[defined.group(1)] += n
    for s, n in forms.items():
        # "the Newsela corpus" is named Newsela when its key has lost the head, "the ShARC
        # conversational machine reading data set" ShARC when it has lost the words after the name.
        words = s.split()
        for i in range(len(words) - 1, 0, -1):
            if "(" not in " ".join(words[i:]) and normalize(" ".join(words[:i])) == key:
                named[" ".join(words[:i])] += n
                break
    # An acronym that people write far more often than its long form names the entity: "BERT",
    # not "bidirectional encoder representations from transformers". (Where it is written only
    # a little more, the long form says more to a reader.)
    # A form with a generic head counts as the form without it ("SNLI dataset" is written "SNLI"),
    # a plural acronym as the acronym ("GCNs" is GCN, as the key is singular).
    bare: Counter[str] = Counter()
    for s, n in forms.items():
        words = s.split()
        while len(words) > 1 and words[-1].lower() in GENERIC_HEADS:
            words = words[:-1]
        bare[" ".join(words[:-1] + [acronym_singular(words[-1])])] += n
    acronyms = Counter({s: n for s, n in bare.items() if "(" not in s and fold(normalize(s)) != fold(key)
                        and any(name_strength(w) > 0 for w in s.split())})
    written = sum(acronyms.values())
    if written >= ACRONYM_NAMES_MIN and written >= 2 * sum(n for s, n in bare.items() if s not in acronyms):
        return max(acronyms, key=lambda s: (acronyms[s], s))
    # On a tie the form in lower case where it is written so: "reinforcement learning" over a
    # sentence's "Reinforcement learning" and a title's "Reinforcement Learning" ("BERT" and
    # "WordNet" are written so, not capitalised where a sentence or a title starts). An acronym's
    # letters picked out ("eVENt detection") name it only where no other form does.
    ranked = sorted(named, key=lambda s: (not (_multiword(_TRAILING_PARENS.sub(r"\1", s)) and normalize(s) == key),
                                          normalize(s) != key, "(" in s, _HIGHLIGHTED.search(s) is not None,
                                          -named[s], _capitalised(s) and s.lower() in named, s))
    name = ranked[0]
    defined = _TRAILING_PARENS.match(name)
    if defined and _abbreviates(defined.group(2), defined.group(1)):
        name = defined.group(1)  # "Policy Mirror Descent (PMD)" is named "Policy Mirror Descent"
    return name


def mid_sentence_casing(papers: Iterable[Paper], mentions: Iterable[Mention]) -> Casing:
    """How the corpus writes, in mid-sentence, the first words of the ``mentions`` that start a sentence."""
    firsts = {first.lower() for m in mentions if (first := sentence_capital(m.text, m.sentence))}
    return Casing.of((p.text for p in papers), firsts)


def resolve(papers: Iterable[Paper], extractions: Iterable[Extraction]) -> Resolution:
    """Group the mentions of all papers into canonical entities, one type per entity."""
    papers = list(papers)
    texts = {p.id: p.text for p in papers}
    extractions = list(extractions)

    # Pass 1: acronym definitions, per paper and over the corpus. A paper's own "probabilistic
    # cellular automata (PCA)" is what PCA means in it, whatever its type there. Elsewhere an
    # acronym takes the long form defined for mentions of its type ("MAP" as a metric is not the
    # "maximum a posteriori (MAP)" method of another paper, when some paper defines the metric),
    # else its only long form in the corpus. Definitions come from the mentions
    # ("Long Form (LF)" read as one) and from the text in every form kg.acronyms reads.
    typed: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    own: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for ex in extractions:
        text = texts.get(ex.paper_id, "")
        pairs = {(normalize(d.acronym), normalize(d.long_form)) for d in acronym_definitions(text)}
        for m in ex.mentions:
            acro = acronym_of(m, text)
            if acro:
                pairs.add((normalize(acro), normalize(m.text)))
        for acro, long in pairs:
            if acro == long:
                continue
            own[ex.paper_id][acro][long] += 1
            for t in {m.type for m in ex.mentions if normalize(m.text) in (acro, long)
                      or acronym_of(m, text) and normalize(acronym_of(m, text)) == acro}:
                typed[(t, acro)][long] += 1
    acronym_to_long = {key: c.most_common(1)[0][0] for key, c in typed.items()}
    own_long = {pid: {key: c.most_common(1)[0][0] for key, c in defs.items()} for pid, defs in own.items()}
    # Long forms that differ only in their short words are one: "reinforcement learning from human
    # feedback" and "... with human feedback" both define RLHF. The commonest spelling stands.
    # So are spellings that differ in hyphens, spaces and plurals ("Bi-directional Encoder
    # Representation" and "bidirectional encoder representations" both define BERT).
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for defs in own.values():
        for c in defs.values():
            for long, n in c.items():
                spellings[fold(_content_words(long))][long] += n
    canonical = {long: c.most_common(1)[0][0] for c in spellings.values() for long in c}

    # An acronym whose long form is the same in (nearly) every paper that defines it stands for it
    # in every paper, whatever type a mention of it has: the tagger types a name inconsistently
    # more often than two fields share an acronym. One paper in four may define it otherwise
    # ("MT" for Mechanical Turk in a corpus where it is machine translation); more, and it stays
    # an acronym of its own outside the papers that define it.
    untyped: dict[str, Counter[str]] = defaultdict(Counter)
    for defs in own.values():
        for acro, c in defs.items():
            untyped[acro].update({canonical[long] for long in c})
    unambiguous = {}
    for acro, longs in untyped.items():
        (long, n), = longs.most_common(1)
        if n >= DOMINANT_SHARE * sum(longs.values()):
            unambiguous[acro] = long

    unambiguous_folded = {fold(acro): long for acro, long in unambiguous.items()}
    acronym_words = written_as_acronym(texts.values())

    memo: dict[tuple[str, str, str | None], str] = {}

    def plain_key(etype: str, text: str, pid: str) -> str:
        # A paper's own acronyms make its keys its own; the rest are the corpus's, worked out once.
        at = (etype, text, pid if pid in own_long else None)
        k = memo.get(at)
        if k is None:
            k = memo[at] = _plain_key(etype, text, pid)
        return k

    def _plain_key(etype: str, text: str, pid: str) -> str:
        defined = _LEADING_PARENS.match(text)
        if defined and defined.end() < len(text.rstrip()) and _abbreviates(defined.group(2).strip(), defined.group(1)):
            # An acronym defined inside a name is no part of it: "Part-of-speech (POS) tagging".
            text = f"{defined.group(1)}{text[defined.end():]}"
        k = normalize(text)
        mine = own_long.get(pid)
        inner = _TRAILING_PARENS.match(text.strip())
        if mine and k in mine:
            k = mine[k]
        elif mine and inner and mine.get(normalize(acronym_singular(inner.group(2).strip())), "").endswith(f" {k}"):
            # A mention cut short of the long form its paper defines is that long form: "Semantic
            # Hashing (NASH)" where the text reads "Neural Architecture for Semantic Hashing (NASH)".
            k = mine[normalize(acronym_singular(inner.group(2).strip()))]
        else:
            # "GPT2" is the acronym "GPT-2" spelled without its hyphen.
            k = acronym_to_long.get((etype, k)) or unambiguous.get(k) or unambiguous_folded.get(fold(k), k)
        k = canonical.get(k, k)
        if " " in k and not any(c.isdigit() for c in k):  # "ACE 2005" is a name of its own
            # An acronym inside a longer name stands for its long form too: "bidirectional LSTM"
            # is "bidirectional long short-term memory". Only a word written as an acronym here or
            # mostly in the corpus is one: "mean" in "mean absolute error" is no MEAN a paper defines.
            words = k.split(" ")
            here = {v.lower() for w in text.split() if w.isupper() for v in (w, acronym_singular(w))}
            longer = [canonical.get(long, long) if (w in acronym_words or w in here) and (long := (mine or {}).get(w)
                                                                            or unambiguous.get(w)) else w
                      for w in words]
            if longer != words:
                k = " ".join(longer)
        return k

    known = set()
    as_name: Counter[str] = Counter()  # mentions of each key written as a name ("the Transformer")
    written: Counter[str] = Counter()
    typed_in: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # key -> type -> papers
    for ex in extractions:
        for m in ex.mentions:
            k = plain_key(m.type, m.text, ex.paper_id)
            known.add((m.type, k))
            written[k] += 1
            as_name[k] += written_as_name(m.text, m.sentence)
            typed_in[k][m.type].add(ex.paper_id)
    # Keys the corpus writes as a name at least half the time: "Transformer", not "language".
    named = {k for k, n in as_name.items() if n >= 0.5 * written[k]}
    # Single words that are a concept of one type in their own right: several papers name the word
    # alone as that type, and not rarely among the papers that write it (specificity's
    # keyphraseness): "attention" and "seq2seq" are Methods, so "attention model" is attention;
    # "sequence model", "neural model" and "reward model" stay, as those words are mostly
    # modifiers or general words.
    word_df = word_papers(papers)
    standalone = set()
    for k, by in typed_in.items():
        t = max(by, key=lambda t: len(by[t]))
        n = len(by[t])
        if " " not in k and n >= STANDALONE_PAPERS and not generic_word(k) \
                and n >= KEYPHRASENESS_MIN * word_df.get(k, 0):
            standalone.add((t, k))

    def key_of(m: Mention, pid: str) -> str:
        k = _head_key(m, pid)
        # "BERT-based" (models, systems, ...) names nothing new: it is BERT, where the corpus writes
        # BERT as a name of the same type. "rule-based" and "attention-based" stay: no name there.
        based = _BASED.fullmatch(k)
        if based:
            base = plain_key(m.type, based.group(1), pid)
            if (m.type, base) in known and base in named:
                return base
        return k

    def _head_key(m: Mention, pid: str) -> str:
        text = _DATA_SET.sub(r"dataset\1", m.text.strip())  # "the BUCC data set"
        text = _HYPHEN_SCORE.sub(r" \1", text)  # "F1-score" is an F1 score
        # Generic heads come off one by one ("Mistral model family" -> "Mistral model" ->
        # "Mistral"); the shortest name left that stands for the same thing is the key.
        names = []
        name, _, head = text.rpartition(" ")
        while name and head.lower() in GENERIC_HEADS and ("(" not in name or _defines_acronym(name)):
            names.append((name, head.lower()))
            name, _, head = name.rpartition(" ")
        for name, head in reversed(names):
            core = plain_key(m.type, name, pid)
            last = name.split()[-1]
            if name_strength(last) > 0:  # "Llama2-7B model"
                return core
            # Otherwise the name must be an entity of its own, and more than a common word
            # before a model-like head: "reward model" is no "reward", "summarization task" is.
            if (m.type, core) in known and (" " in name or "-" in name or written_as_name(name, m.sentence)
                                            or head in _TASK_HEADS or core in named
                                            or (m.type, core) in standalone):
                return core
            # A name written as one before a data head is that dataset, even where the corpus
            # never writes it alone: "the Newsela corpus", "the CNN/Daily Mail dataset".
            # (Not a long form an acronym stands for: "Stanford Question Answering Dataset" is SQuAD.)
            if head in _DATA_HEADS and m.type == "Dataset" and written_as_name(name, m.sentence) \
                    and normalize(text) not in canonical:
                # Words that say what the data is about come off the name: "the ShARC
                # conversational machine reading dataset" is ShARC, "MS COCO caption data" MS COCO.
                # (Only a name the corpus does not mostly write as another type: "the KG updating
                # dataset" is no knowledge graph.)
                named_part = _leading_name(name)
                if named_part:
                    short = plain_key(m.type, named_part, pid)
                    by = typed_in.get(short)
                    if not by or len(by.get("Dataset", ())) >= max(len(v) for v in by.values()):
                        return short
                return core
        return plain_key(m.type, text, pid)

    # Pass 2: each mention's key; then one type per key over the corpus, the type most papers give
    # it ("RLHF" is one node whether a paper reads it as a method or as a task).
    keys = {ex.paper_id: [key_of(m, ex.paper_id) for m in ex.mentions] for ex in extractions}
    # Keys that differ only in hyphens, spaces and plurals are one ("multi-task learning" and
    # "multitask learning", "ACE 2005" and "ACE2005"): the commonest spelling stands.
    spelled: dict[str, Counter[str]] = defaultdict(Counter)
    for ks in keys.values():
        for k in ks:
            spelled[fold(k)][k] += 1
    one = {k: max(c, key=lambda x: (c[x], -len(x), x)) for c in spelled.values() if len(c) > 1 for k in c}
    if one:
        keys = {pid: [one.get(k, k) for k in ks] for pid, ks in keys.items()}
    best = unified_types((ex.paper_id, m.type, k, m.score) for ex in extractions
                         for m, k in zip(ex.mentions, keys[ex.paper_id]))

    # Pass 3: group surface forms under their entity. A name is chosen among the forms as written in
    # mid-sentence: "Sarcasm is ..." counts as "sarcasm" where the corpus writes the word so.
    casing = mid_sentence_casing(papers, (m for ex in extractions for m in ex.mentions))
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    naming: dict[str, Counter[str]] = defaultdict(Counter)
    mention_entity: dict[str, list[str]] = {}
    for ex in extractions:
        ids = []
        for m, k in zip(ex.mentions, keys[ex.paper_id]):
            eid = f"{best[k]}:{k}"
            surfaces[eid][m.text.strip()] += 1
            naming[eid][casing.as_written(m.text, m.sentence)] += 1
            ids.append(eid)
        mention_entity[ex.paper_id] = ids

    entities: dict[str, Entity] = {}
    for eid, forms in surfaces.items():
        etype, key = eid.split(":", 1)
        entities[eid] = Entity(id=eid, type=etype, name=display_name(key, naming[eid]), aliases=sorted(forms))
    return Resolution(
        entities=entities,
        mention_entity=mention_entity,
        mentions=sum(len(ids) for ids in mention_entity.values()),
        surface_forms=sum(len(e.aliases) for e in entities.values()),
    )

