"""The concept index: the ranking of papers by the concepts they share and their abstracts' vectors.

A paper's *concepts* come from the graph alone (kg.analysis.related.reading): the entities it
mentions (Method, Task, Dataset, Metric) and the KeyBERT key phrases stored on its Paper node.
Exact entity names are rarely shared between abstracts, so each phrase is also canonicalised into
the concepts it implies (kg.analysis.related.phrases):

* its key: case, plural, a leading determiner and word endings folded
  (Snowball stems: "parsing"/"parse", "translation"/"translate" meet);
  every alias of an entity is that entity's concept wherever it is written
  ("LLMs" and "large language models (LLMs)" are "large language models"),
  so an acronym used alone still matches and is not counted twice (an alias
  keying another entity's name, or two entities', is no concept of its own);
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
concepts add what they name in common and explain it. A neighbour sharing no specific concept
lists no reasons and is noted NOTE_WORDING, and is listed only when the cosine is at least
WORDING_COSINE_MIN (so a paper may have fewer than k neighbours; ``rank_among`` keeps them all).
Single words naming no node of the graph ("sentences", derived from "long source sentences":
``unnamed``) count in the score; they are shown as reasons only where the link rests on them, the
cosine below that floor, and a neighbour sharing nothing else above it is noted NOTE_WORDING. A
graph some of whose papers have no vector (extracted with --no-keybert, or added to a build made
before vectors were kept) is ranked by concepts alone, every paper alike. docs/related.md has the
benchmark.
"""
from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import networkx as nx

from kg import schema
from kg.analysis.related.facets import facet_type, facet_vectors, ranks_by_facet
from kg.analysis.related.phrases import reason_core
from kg.analysis.related.reading import read_concepts
from kg.errors import KgError
from kg.graph.vectors import PaperVectors

# A neighbour of ``related`` that shares no specific concept (the floor below lets it in) is noted so.
NOTE_WORDING = "similar wording"
# With vectors, ``related``/``related_all`` (and so the stored RELATED_TO links and the pages) leave out
# a neighbour that shares no specific concept when its abstracts' cosine is below WORDING_COSINE_MIN;
# ``rank_among`` ranks every listed paper whatever its cosine. Calibrated on EMNLP 2020 (781 abstracts,
# 20 tracks; `python bench/related_floor.py --cache .kg-bench-cache`): of the pairs sharing no specific
# concept, those of cosine 0.40-0.45 are in the same track 6.3% of the time, no more than any pair
# (6.4%), those of 0.45-0.50 9.7%, 0.50-0.55 15%, 0.55-0.60 23%; so the floor is 0.45, the lowest
# cosine above which such a neighbour beats a random paper. There it leaves out 23 of the 7,810
# top-10 links (the 479 sharing no specific concept have cosines 0.50-0.59 between quartiles).
WORDING_COSINE_MIN = 0.45
# Fusion (module doc): score = (cosine + CONCEPT_WEIGHT * concept score) / (1 + CONCEPT_WEIGHT). Chosen on
# EMNLP 2020 same-track P@5 (0.1-1.0 tried; 0.5 best), checked on CSFCube (docs/related.md).
CONCEPT_WEIGHT = 0.5
# With ``by``: + FACET_WEIGHT * the cosine of the two papers' facet vectors (the mean of the static
# phrase vectors of their mentions of the facet's type), in numerator and denominator alike. Chosen
# on half of CSFCube's development pools (0.15-0.75 tried), checked on the other half (docs/related.md).
FACET_WEIGHT = 0.75


@dataclass(frozen=True, slots=True)
class Weights:
    """How the ranking weighs its terms; the defaults are the measured ones (above). A benchmark
    trying others passes its own to ``ConceptIndex.from_graph``."""

    concepts: float = CONCEPT_WEIGHT
    facet: float = FACET_WEIGHT
    floor: float = WORDING_COSINE_MIN  # a neighbour sharing no specific concept needs this cosine


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
    note: str = ""  # a row listing no reason: NOTE_WORDING (or, from ``rank_among``, NOTE_NOTHING)

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


@dataclass
class ConceptIndex:
    """The concept vectors of every paper of a graph."""

    titles: dict[str, str]
    vectors: dict[str, dict[str, float]]  # paper -> concept -> w * sqrt(idf)
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
    # let a link exist. With vectors they are shown as reasons only where the abstracts' cosine is
    # below the floor (the link rests on them); above it a neighbour with nothing else to show is
    # noted NOTE_WORDING, which is then what the link rests on.
    unnamed: frozenset[str] = frozenset()
    # The abstracts' unit vectors (kg.graph.vectors), one for every paper, or None: then the
    # ranking is the concept score alone (module doc, "Fusion").
    dense: PaperVectors | None = field(default=None, repr=False, compare=False)
    _shared_cache: dict[str, SharedConcept] = field(default_factory=dict, repr=False, compare=False)
    _dense_row: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    # With ``by`` and ``dense``: each paper's facet vector, rows as ``dense``'s (zero: no mention of the facet).
    facet_vectors: object = field(default=None, repr=False, compare=False)
    # With ``by`` and ``dense``, for a facet ranked as no facet (facets.RANKED_BY_FACET): the index that
    # ranks (every concept); this one, the facet's concepts, gives the reasons.
    ranking: ConceptIndex | None = field(default=None, repr=False, compare=False)
    weights: Weights = field(default_factory=Weights, repr=False, compare=False)
    # Concept -> the keys of its node's longer aliases (reading._long_forms): one of them cut short
    # is no reason of its own beside it.
    long_forms: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    # With ``by``: concepts that entities of another type name more often ("question answering" in
    # the dataset facet). They add to the score, and are not shown as the facet's reasons.
    off_facet: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.dense is not None:
            if set(self.dense.ids) != set(self.vectors):
                raise ValueError("dense vectors must be given for every paper of the index, and only those")
            self._dense_row.update(self.dense.row_of())

    @classmethod
    def from_graph(cls, g: nx.DiGraph, by: str | None = None, dense: bool = True,
                   weights: Weights | None = None, own_terms: bool | None = None) -> ConceptIndex:
        """The index of every paper of ``g``; ``by`` (a key of facets.FACETS) keeps one facet's
        concepts: the entities of that type, and the key phrases naming a concept such an entity
        implies somewhere in the corpus. ``dense``: fuse in the abstracts' vectors the graph carries
        (kg.graph.vectors) when every paper has one; otherwise, or when False, concepts alone.
        With vectors, a facet not in facets.RANKED_BY_FACET ranks as no facet (``ranking``, an index
        of every concept) and gives the facet's concepts as reasons; ``own_terms`` overrides that
        table (a benchmark comparing the two). ``weights``: the ranking's, by default the measured ones."""
        read = read_concepts(g, by, dense)
        index = cls(read.titles, read.vectors, read.norms, read.df, read.names, read.types, read.entities,
                    read.postings, read.broad, read.generic, read.unnamed, read.dense, weights=weights or Weights(),
                    long_forms=read.long_forms, off_facet=read.off_facet)
        if by is not None and read.dense is not None:
            if own_terms if own_terms is not None else ranks_by_facet(by):
                index.facet_vectors = facet_vectors(g, read.dense.ids, schema.MENTION_REL[facet_type(by)])
            else:
                index.ranking = cls.from_graph(g, None, dense, weights)
        return index

    def score(self, a: str, b: str) -> float:
        """The score of papers ``a`` and ``b``: what ``related`` ranks by, for any pair, not only a
        paper's top k. With vectors, ``fuse(cosine, concept_score, facet_cosine)``; else the concept score."""
        if self.ranking is not None:
            return self.ranking.score(a, b)
        concepts = self.concept_score(a, b)
        if self.dense is None:
            return concepts
        return fuse(self.cosine(a, b), concepts, self.facet_cosine(a, b), self.weights)

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
        if self.dense is None:
            return RelatedPaper(other, self.titles[other], concepts,
                                self._explain(contrib, max_shared) if explained else ())
        cos = self.cosine(pid, other) if cosine is None else cosine
        # Single words naming no node are shown where the link rests on them: below the cosine floor
        # the wording is not close enough to list the paper alone, so "similar wording" would not say why.
        shared = self._explain(contrib, max_shared, words=cos < self.weights.floor) if explained else ()
        score = fuse(cos, concepts, self.facet_cosine(pid, other), self.weights)
        return RelatedPaper(other, self.titles[other], score, shared, "" if shared else NOTE_WORDING)

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
        return [self._pair(paper_id, other, cs, max_shared) for other, cs in ranked]

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
        scores = fuse(cos, concepts, None if f is None else f @ f[self._dense_row[paper_id]], self.weights)
        scores[(concepts == 0) & (cos < self.weights.floor)] = -np.inf  # wording too weak to list alone
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
                scores = fuse(cos, explained, None if fm is None else fm[lo: lo + block] @ fm.T, self.weights)
                scores[(explained == 0) & (cos < self.weights.floor)] = -np.inf  # as in ``related``
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
                out[pids[i]] = [self._pair(pids[i], pids[j], self._contrib(pids[i], pids[j]), max_shared)
                                for j in ranked]
        return out

    def _explain(self, contrib: dict[str, float], limit: int, words: bool = False) -> tuple[SharedConcept, ...]:
        """The shared specific concepts, most informative first, without ones a shown concept contains;
        ``words``: single words naming no node too, which with vectors are otherwise left out."""
        # Most informative first; on a tie the more specific (longer) concept. Plain tuples sort
        # in C: this runs for every stored related pair, millions of times at 100k papers.
        order = sorted([(-round(v, 9), -len(c), c) for c, v in contrib.items()])
        shown: list[str] = []
        padded: list[str] = []
        longer: list[tuple[str, ...]] = []  # each shown concept's longer aliases (``long_forms``)
        # With the abstracts' vectors, a link resting only on words naming no concept is shown as
        # "similar wording" (``unnamed``); ranked by concepts alone, those words are its reasons.
        hidden = self.unnamed if self.dense is not None and not words else frozenset()
        for _, _, c in order:
            # A broad concept ("pre-training" in a fifth of EMNLP 2020's papers) adds to the score
            # but explains nothing: the reasons are specific concepts.
            if c in self.broad or c in hidden or c in self.off_facet:
                continue
            pc = f" {reason_core(c)} "
            mine = self.long_forms.get(c, ())
            # A shown concept's long form cut short says what it says ("Bidirectional Encoder
            # Representations" beside BERT); the rest of it may be another concept ("question
            # answering" of SQuAD's "Stanford Question Answering Dataset").
            if any(pc in s for s in padded) or (
                    pc.count(" ") > 2 and any(_cut_short(pc, f) for fs in longer if fs for f in fs)):
                continue  # "translation" adds nothing next to "machine translation", nor "QA systems" next to "QA"
            inside = [i for i, s in enumerate(padded) if s in pc or (mine and any(_cut_short(s, f) for f in mine))]
            if inside:  # "neural networks" says what "networks", listed first, said: it takes that place
                shown[inside[0]], padded[inside[0]], longer[inside[0]] = c, pc, mine
                for i in reversed(inside[1:]):
                    del shown[i], padded[i], longer[i]
                continue
            shown.append(c)
            padded.append(pc)
            longer.append(mine)
            if len(shown) == limit:
                break
        return tuple(self._shared(c) for c in shown)

    def _shared(self, c: str) -> SharedConcept:
        # One object per concept: a corpus-wide ranking holds ten million references at 100k papers.
        sc = self._shared_cache.get(c)
        if sc is None:
            sc = self._shared_cache[c] = SharedConcept(self.names[c], self.types[c], self.df[c],
                                                       self.entities.get(c))
        return sc


def _cut_short(padded: str, form: str) -> bool:
    """Whether the concept ``padded`` (" key ") is the longer form ``form`` or its first words,
    two or more: "LSTM" is no cut of "LSTM-based models"."""
    return padded.count(" ") > 2 and f" {form} ".startswith(padded)


def fuse(cosine, concepts, facet=None, weights: Weights | None = None):
    """The fused score of a pair (or arrays of pairs): the cosine of the abstracts' vectors plus
    ``weights.concepts`` (CONCEPT_WEIGHT) times the concept score (plus ``weights.facet``, FACET_WEIGHT,
    times the cosine of the facet vectors, with ``by``), scaled so that a score is at most 1."""
    w = weights or Weights()
    if facet is None:
        return (cosine + w.concepts * concepts) / (1.0 + w.concepts)
    return (cosine + w.concepts * concepts + w.facet * facet) / (1.0 + w.concepts + w.facet)


def _top(scores, pids: tuple[str, ...] | list[str], k: int) -> list[int]:
    """The indices of the ``k`` best ``scores`` (finite ones only), ties broken by id as ``related`` does."""
    import numpy as np

    finite = np.flatnonzero(np.isfinite(scores))
    if len(finite) > k:
        vals = scores[finite]
        kth = np.partition(vals, len(vals) - k)[len(vals) - k]
        finite = finite[vals >= kth - 1e-9]  # float noise must not split a tie
    return sorted(finite.tolist(), key=lambda j: (-round(float(scores[j]), 9), pids[j]))[:k]


def check_paper(g: nx.DiGraph, paper_id: str) -> None:
    if paper_id not in g or g.nodes[paper_id].get("label") != schema.PAPER:
        raise KgError(f"no paper with id {paper_id!r} in the graph")


def related(g: nx.DiGraph, paper_id: str, k: int = 10, by: str | None = None) -> list[RelatedPaper]:
    """The ``k`` papers closest to ``paper_id`` (module doc); ``by`` (a key of facets.FACETS): close
    in that facet, the reasons of it too."""
    check_paper(g, paper_id)
    return ConceptIndex.from_graph(g, by).related(paper_id, k)


def related_all(g: nx.DiGraph, k: int = 5, by: str | None = None) -> dict[str, list[RelatedPaper]]:
    """The top ``k`` related papers of every paper (one index for all)."""
    return ConceptIndex.from_graph(g, by).related_all(k)


