"""The extractor: spaCy's parse, the fine-tuned entity tagger, a few checked steps after it, KeyBERT salience."""
from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.util.compat import batched
from kg.records import ENTITY_TYPES, Extraction, Mention, Paper, Relation

from . import component, docvec, keyphrases, models, parallel, postprocess, tagger

# Bumped by hand whenever output changes in a way no hashed file shows.
LOGIC_VERSION = "3"
# Longest text parsed, in characters (the rest of a longer one is not read).
MAX_CHARS = 5_000_000


def _source_digest() -> str:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in ("extractor.py", "postprocess.py", "keyphrases.py", "tagger.py", "bio.py", "component.py",
                 "relations.py", "docvec.py"):
        h.update((here / name).read_bytes())
    # The word lists and the acronym matcher the post-processing steps read (kg/text/).
    for name in ("acronyms.py", "words.py"):
        h.update((here.parent / "text" / name).read_bytes())
    return h.hexdigest()[:12]


class Extractor:
    """Typed mentions and key concepts of abstracts.

    Construction is cheap; the spaCy pipeline, the tagger and KeyBERT's embedder load on the
    first ``extract`` call. ``version`` changes whenever output could. ``model`` is a tagger
    folder written by ``kg train`` (default: the shipped one); ``steps`` names the steps of
    kg/extract/postprocess.py applied after it.
    """

    def __init__(self, model: str | Path | None = None, use_keybert: bool = True, workers: int = 1,
                 batch_size: int = 64, top_n: int = 10, steps: Iterable[str] = postprocess.DEFAULT_STEPS,
                 embedder: str = "static"):
        if embedder not in models.EMBEDDERS:
            raise ValueError(f"embedder must be one of {models.EMBEDDERS}")
        self.steps = tuple(steps)
        unknown = [s for s in self.steps if s not in postprocess.STEPS]
        if unknown:
            raise ValueError(f"unknown step {unknown[0]!r}; steps are {', '.join(postprocess.STEPS)}")
        self.model = Path(model) if model is not None else models.TAGGER_DIR
        self.embedder = embedder
        self.use_keybert = use_keybert
        self.workers = max(1, int(workers))
        self.batch_size = batch_size
        self.top_n = top_n
        self._embedder = None

    @property
    def version(self) -> str:
        parts = [LOGIC_VERSION, _source_digest(), tagger.digest(self.model), models.packages(),
                 f"kb{int(self.use_keybert)}{self.embedder}", ",".join(self.steps), f"top{self.top_n}",
                 docvec.MODEL if self.use_keybert else ""]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

    # ------------------------------------------------------------------ models
    def load(self) -> None:
        """Load the models now (otherwise the first ``extract`` loads them)."""
        self._nlp()
        if self.use_keybert:
            self._emb()
            docvec.load()

    def _nlp(self):
        return models.load_nlp(self.model)

    def _emb(self):
        if self._embedder is None:
            self._embedder = keyphrases.PhraseEmbedder(models.load_keybert(self.embedder))
        return self._embedder

    # ------------------------------------------------------------------ extraction
    def extract(self, papers: Iterable[Paper], progress: bool = False) -> Iterator[Extraction]:
        """One Extraction per paper, in input order (``progress``: a bar on stderr)."""
        nlp = self._nlp()
        bar = None
        if progress:
            from tqdm import tqdm
            total = len(papers) if hasattr(papers, "__len__") else None  # type: ignore[arg-type]
            bar = tqdm(desc="extracting", unit=" abstracts", total=total, file=sys.stderr)

        # spaCy's default cap (1M characters) guards memory; corpus readers already cut texts at
        # 20k words, so only direct API calls can come near this one.
        nlp.max_length = max(nlp.max_length, MAX_CHARS + 1)

        def texts():
            for p in papers:
                yield (p.text or "")[:MAX_CHARS], p

        # Starting processes costs more than a few abstracts take.
        workers = 1 if hasattr(papers, "__len__") and len(papers) < 2 * self.batch_size else self.workers
        if workers > 1 and parallel.can_fork():
            parsed = parallel.parse(nlp, texts(), workers, [])
        else:
            parsed = nlp.pipe(texts(), as_tuples=True, batch_size=32)
        try:
            for batch in batched(parsed, self.batch_size):
                docs = [d for d, _ in batch]
                mentions = [self.mentions(doc) for doc in docs]
                relations = [self.relations(doc, ms) for doc, ms in zip(docs, mentions)]
                if self.use_keybert:
                    results = self._keybert(docs, mentions)
                    # The abstract's dense vector, kept for the related-paper ranking (kg.graph.vectors).
                    vectors = docvec.as_bytes(docvec.load().embed(
                        [docvec.document_text(p.title, d.text) for d, p in batch]))
                else:
                    results = [(m, ()) for m in mentions]
                    vectors = [b""] * len(batch)
                # Counted before yielding: a caller that stops at its last paper (zip) never resumes
                # this generator, and the bar would stay a batch behind.
                if bar is not None:
                    bar.update(len(batch))
                for (_, paper), (ms, concepts), rels, vec in zip(batch, results, relations, vectors):
                    yield Extraction(paper_id=paper.id, mentions=tuple(ms), relations=tuple(rels),
                                     key_concepts=tuple(concepts), embedding=vec)
        finally:
            # Worker processes end here, also on Ctrl-C or an error, not when the
            # garbage collector gets to the generator.
            parsed.close()
            if bar is not None:
                bar.close()

    def mentions(self, doc) -> list[Mention]:
        """The mentions of one parsed abstract: the tagger's spans of the graph's types, then the steps."""
        group = doc.spans.get(component.KEY, [])
        scores = group.attrs.get("scores", []) if len(group) else []
        out = []
        for span, score in zip(group, scores):
            if span.label_ in ENTITY_TYPES:
                out.append(Mention(text=span.text, type=span.label_, start=span.start_char, end=span.end_char,
                                   sentence=span.sent.text, score=float(score), source="tagger"))
        for name, step in postprocess.STEPS.items():
            if name in self.steps:
                out = step(doc, out)
        return out

    def relations(self, doc, mentions: list[Mention]) -> list[Relation]:
        """The relation model's relations (component.py) between the tagger's spans, moved onto the
        mentions the steps made of those spans (a step may trim a span or drop it)."""
        group = doc.spans.get(component.KEY, [])
        found = group.attrs.get("relations", []) if len(group) else []
        if not found:
            return []
        # Each tagger span's mention: the first that overlaps it most.
        of_span: dict[int, int] = {}
        for k, span in enumerate(group):
            best, best_overlap = None, 0
            for i, m in enumerate(mentions):
                overlap = min(m.end, span.end_char) - max(m.start, span.start_char)
                if overlap > best_overlap:
                    best, best_overlap = i, overlap
            if best is not None:
                of_span[k] = best
        out, seen = [], set()
        for h, t, label, score in found:
            head, tail = of_span.get(h), of_span.get(t)
            if head is None or tail is None or head == tail or (head, tail) in seen:
                continue
            seen.add((head, tail))
            out.append(Relation(head, tail, label, float(score)))
        return out

    def _keybert(self, docs, mentions):
        emb = self._emb()
        cand_lists = []
        for doc, ms in zip(docs, mentions):
            cands = keyphrases.chunk_candidates(doc)
            cands += [m.text for m in ms if m.text not in cands]
            cand_lists.append(cands)
        vecs = emb.phrases([c for cs in cand_lists for c in cs])
        doc_vecs = emb.documents([d.text for d in docs])
        out = []
        for dv, cands, ms in zip(doc_vecs, cand_lists, mentions):
            salience, top = keyphrases.rank(dv, cands, vecs, top_n=self.top_n)
            new = []
            for m in ms:
                sal = salience.get(m.text, 0.0)
                score = min(1.0, m.score * (0.8 + 0.4 * sal))
                new.append(Mention(m.text, m.type, m.start, m.end, m.sentence, round(score, 4), m.source))
            out.append((new, top))
        return out
