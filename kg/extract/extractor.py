"""The extractor: spaCy parse + SciERC-trained NER + textual rules + KeyBERT salience."""
from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

from kg.records import ENTITY_TYPES, Extraction, Mention, Paper

from . import keyphrases, models, rules

NER_BASE_SCORE = 0.75
# Bumped by hand whenever the merging logic changes output.
LOGIC_VERSION = "1"


def _source_digest() -> str:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in ("rules.py", "extractor.py", "keyphrases.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:12]


def _chunks(it: Iterable, n: int) -> Iterator[list]:
    it = iter(it)
    while batch := list(islice(it, n)):
        yield batch


class Extractor:
    """Typed mentions and key concepts of abstracts.

    Construction is cheap; the spaCy pipeline and the sentence-transformer load
    on the first ``extract`` call. ``version`` changes whenever output could.
    """

    def __init__(self, use_keybert: bool = True, workers: int = 1, batch_size: int = 64, top_n: int = 10,
                 use_ner: bool = True, use_rules: bool = True):
        self.use_keybert = use_keybert
        self.workers = max(1, int(workers))
        self.batch_size = batch_size
        self.top_n = top_n
        self.use_ner = use_ner
        self.use_rules = use_rules
        self._embedder = None

    @property
    def version(self) -> str:
        parts = [LOGIC_VERSION, _source_digest(), models.weights_digest() if self.use_ner else "no-ner",
                 models.SPACY_MODEL, f"kb{int(self.use_keybert)}", f"r{int(self.use_rules)}", f"top{self.top_n}"]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

    # ------------------------------------------------------------------ models
    def _nlp(self):
        return models.load_nlp(with_ner=self.use_ner)

    def _emb(self):
        if self._embedder is None:
            self._embedder = keyphrases.PhraseEmbedder(models.load_keybert())
        return self._embedder

    # ------------------------------------------------------------------ extraction
    def extract(self, papers: Iterable[Paper], progress: bool = False) -> Iterator[Extraction]:
        nlp = self._nlp()
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(desc="extracting", unit="abstract", file=sys.stderr)
        for batch in _chunks(papers, self.batch_size):
            texts = [p.text or "" for p in batch]
            for t in texts:
                if len(t) >= nlp.max_length:
                    nlp.max_length = len(t) + 1
            docs = list(nlp.pipe(texts, batch_size=32, n_process=self.workers if len(batch) > 8 else 1))
            mentions = [self._mentions(doc) for doc in docs]
            if self.use_keybert:
                results = self._keybert(docs, mentions)
            else:
                results = [(m, ()) for m in mentions]
            for paper, (ms, concepts) in zip(batch, results):
                yield Extraction(paper_id=paper.id, mentions=tuple(ms), key_concepts=tuple(concepts))
            if bar is not None:
                bar.update(len(batch))
        if bar is not None:
            bar.close()

    def _mentions(self, doc) -> list[Mention]:
        text = doc.text
        spans: dict[tuple[int, int], tuple[str, float, str]] = {}
        if self.use_ner:
            for ent in doc.ents:
                if ent.label_ in ENTITY_TYPES:
                    spans[(ent.start_char, ent.end_char)] = (ent.label_, NER_BASE_SCORE, "ner")
        if self.use_rules:
            ner_types = {k: v[0] for k, v in spans.items()}
            ner_list = sorted(spans)
            for c in rules.find_candidates(doc, ner_types):
                key = (c.start, c.end)
                if key in spans:
                    t, s, src = spans[key]
                    if c.type != t and c.score >= 0.8:
                        spans[key] = (c.type, max(s, c.score), c.source)
                    else:
                        spans[key] = (t, min(1.0, max(s, c.score) + 0.1), src + "+" + c.source)
                    continue
                overlapping = [k for k in ner_list if k[0] < c.end and c.start < k[1]]
                if not overlapping:
                    spans[key] = (c.type, c.score, c.source)
        out = []
        for (s, e), (t, score, src) in sorted(spans.items()):
            while e > s and text[e - 1] in " ,;:":
                e -= 1
            if e <= s:
                continue
            sent = doc.char_span(s, e, alignment_mode="expand")
            sentence = sent.sent.text if sent is not None else text
            out.append(Mention(text=text[s:e], type=t, start=s, end=e, sentence=sentence,
                               score=round(score, 4), source=src))
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
