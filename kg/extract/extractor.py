"""The extractor: spaCy parse + SciERC-trained NER + textual rules + span typer + KeyBERT salience."""
from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

from kg.records import ENTITY_TYPES, Extraction, Mention, Paper

from . import keyphrases, models, parallel, recognizers, rules, typer

NER_BASE_SCORE = 0.75
# The span typer acts where its probability reaches this (tuned on dev.json).
TYPER_THRESHOLD = 0.5
TYPER_OVER_RULES = False
# Bumped by hand whenever the merging logic changes output.
LOGIC_VERSION = "1"
# Longest text parsed, in characters (the rest of a longer one is not read).
MAX_CHARS = 5_000_000


def _source_digest() -> str:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in ("rules.py", "extractor.py", "keyphrases.py", "typer.py", "recognizers.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:12]


def _chunks(it: Iterable, n: int) -> Iterator[list]:
    it = iter(it)
    while batch := list(islice(it, n)):
        yield batch


_FINITE_VERB = {"VBZ", "VBD", "VBP", "MD"}


_SIZE = re.compile(r"[\d.]+[KMBT]?(?:/[\d.]+[KMBT]?)*", re.IGNORECASE)


def _trim(ent):
    """An NER span without a clause it ran into ("REDS facilitates generalization" -> "REDS",
    "... models struggle"), a word it started on ("down inference", "leverages X") or
    stopped on ("KL penalty between"); None for a bare size such as "8B/405B"."""
    doc, start, end = ent.doc, ent.start, ent.end
    for i in range(start + 1, end):
        if doc[i].tag_ in _FINITE_VERB:
            end = i
            break
    while end - start > 1 and doc[start].tag_ in _FINITE_VERB:
        start += 1
    while end - start > 1 and doc[start].pos_ in ("ADP", "PART", "CCONJ") and doc[start].whitespace_:
        start += 1
    while end - start > 1 and doc[end - 1].pos_ in ("ADP", "CCONJ", "DET", "PART", "SCONJ"):
        end -= 1
    if _SIZE.fullmatch(doc[start:end].text):
        return None
    if (start, end) == (ent.start, ent.end):
        return ent
    return doc.char_span(doc[start].idx, doc[end - 1].idx + len(doc[end - 1]), label=ent.label_)


def _types_by_head(mentions: list[Mention]) -> list[Mention]:
    """A learned mention whose head noun names a kind of entity takes that type: "... detection"
    is a Task, "... system" a Method, "... corpus" a Dataset (rules.phrase_type). The evidence is
    train.json's: of its Method, Task or Dataset spans with such a head, the head's type is right
    for 673 of 750 method heads, 354 of 408 task heads and 141 of 152 dataset heads; heads right
    for under 80% of theirs ("learning", "parsing": rules.UNRELIABLE_HEADS) are not used.
    Rule-typed mentions keep their cue's type."""
    out = []
    for m in mentions:
        head = rules.phrase_type(m.text) if m.type in _SCORED and "rule:" not in m.source else None
        if head in _SCORED and head != m.type and rules.head_word(m.text) not in rules.UNRELIABLE_HEADS:
            m = Mention(m.text, head, m.start, m.end, m.sentence, m.score, m.source + "+head")
        out.append(m)
    return out


_SCORED = ("Method", "Task", "Dataset")


def _one_type_per_form(mentions: list[Mention]) -> list[Mention]:
    """One surface form keeps one type in one abstract: the type with the highest total score."""
    votes: dict[str, dict[str, float]] = {}
    for m in mentions:
        v = votes.setdefault(m.text.lower(), {})
        v[m.type] = v.get(m.type, 0.0) + m.score
    out = []
    for m in mentions:
        v = votes[m.text.lower()]
        best = max(v, key=lambda t: (v[t], t))
        out.append(m if best == m.type else
                   Mention(m.text, best, m.start, m.end, m.sentence, m.score, m.source + "+unified"))
    return out


class Extractor:
    """Typed mentions and key concepts of abstracts.

    Construction is cheap; the spaCy pipeline and the sentence-transformer load
    on the first ``extract`` call. ``version`` changes whenever output could.
    ``recognition`` picks the SciERC recognizers (default: the shipped ones).
    """

    def __init__(self, use_keybert: bool = True, workers: int = 1, batch_size: int = 64, top_n: int = 10,
                 use_ner: bool = True, use_rules: bool = True, embedder: str = "static", use_typer: bool = True,
                 recognition: models.Recognition = models.SHIPPED):
        if embedder not in models.EMBEDDERS:
            raise ValueError(f"embedder must be one of {models.EMBEDDERS}")
        self.recognition = recognition
        self.embedder = embedder
        self.use_typer = use_typer
        self.use_keybert = use_keybert
        self.workers = max(1, int(workers))
        self.batch_size = batch_size
        self.top_n = top_n
        self.use_ner = use_ner
        self.use_rules = use_rules
        self._embedder = None

    @property
    def version(self) -> str:
        parts = [LOGIC_VERSION, _source_digest(), self.recognition.digest() if self.use_ner else "no-ner",
                 models.SPACY_MODEL, f"kb{int(self.use_keybert)}{self.embedder}", f"r{int(self.use_rules)}", f"t{int(self.use_typer)}",
                 typer.weights_digest() if self.use_typer else "", f"top{self.top_n}"]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

    # ------------------------------------------------------------------ models
    def _nlp(self):
        return models.load_nlp(self.recognition)

    def _emb(self):
        if self._embedder is None:
            self._embedder = keyphrases.PhraseEmbedder(models.load_keybert(self.embedder))
        return self._embedder

    # ------------------------------------------------------------------ extraction
    def extract(self, papers: Iterable[Paper], progress: bool = False) -> Iterator[Extraction]:
        nlp = self._nlp()
        skip = [] if self.use_ner else [n for n in nlp.pipe_names if n == recognizers.KEY]
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
            parsed = parallel.parse(nlp, texts(), workers, skip)
        else:
            parsed = nlp.pipe(texts(), as_tuples=True, batch_size=32, disable=skip)
        try:
            for batch in _chunks(parsed, self.batch_size):
                docs = [d for d, _ in batch]
                mentions = [self._mentions(doc, list(doc.spans.get(recognizers.KEY, ()))) for doc in docs]
                if self.use_typer:
                    mentions = self._retype(docs, mentions)
                if self.use_rules:
                    mentions = [_types_by_head(ms) for ms in mentions]
                if self.use_typer or self.use_rules:
                    mentions = [_one_type_per_form(ms) for ms in mentions]
                if self.use_keybert:
                    results = self._keybert(docs, mentions)
                else:
                    results = [(m, ()) for m in mentions]
                # Counted before yielding: a caller that stops at its last paper (zip) never resumes
                # this generator, and the bar would stay a batch behind.
                if bar is not None:
                    bar.update(len(batch))
                for (_, paper), (ms, concepts) in zip(batch, results):
                    yield Extraction(paper_id=paper.id, mentions=tuple(ms), key_concepts=tuple(concepts))
        finally:
            # Worker processes end here, also on Ctrl-C or an error, not when the
            # garbage collector gets to the generator.
            parsed.close()
            if bar is not None:
                bar.close()

    def _mentions(self, doc, ents) -> list[Mention]:
        """Merge NER spans and rule candidates into the mentions of one abstract.

        * the NER's spans stand; a rule candidate on the same span confirms it
          (higher score) or, when the rule is a strong cue, retypes it;
        * a strong rule name inside an NER span that is only that name plus a
          generic head ("the LLaMA and Mistral models") replaces the span by
          the names themselves;
        * an acronym definition the NER read as one span ("Long Form (LF)")
          takes the type the rule gives the pair when the NER has none better;
        * other rule candidates fill the gaps the NER left;
        * finally one surface form keeps one type in one abstract (the
          type with the highest total score wins).
        """
        text = doc.text
        spans: dict[tuple[int, int], list] = {}  # (start, end) -> [type, score, source]
        if self.use_ner:
            for ent in ents:
                if ent.label_ in ENTITY_TYPES:
                    ent = _trim(ent)
                    if ent is not None:
                        spans[(ent.start_char, ent.end_char)] = [ent.label_, NER_BASE_SCORE, "ner"]
        if self.use_rules:
            cands = rules.find_candidates(doc, {k: v[0] for k, v in spans.items()})
            cand_keys = {(c.start, c.end): c for c in cands}
            # Coordinations the NER read as one span are split when a conjunct is a rule name:
            # "Flickr30K and MS-COCO" -> both; "LLaMA and Mistral models" -> "LLaMA", "Mistral models".
            for k in list(spans):
                seg = text[k[0]:k[1]]
                if not re.search(r",|\band\b|\bor\b", seg):
                    continue
                parts, pos = [], k[0]
                for m in re.finditer(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", seg):
                    parts.append((pos, k[0] + m.start()))
                    pos = k[0] + m.end()
                parts.append((pos, k[1]))
                parts = [p for p in parts if p[1] > p[0]]
                def name_in(p):
                    if p in cand_keys:
                        return p
                    for ck in cand_keys:
                        if p[0] <= ck[0] and ck[1] <= p[1] and \
                                rules.only_generic(text[p[0]:ck[0]] + " " + text[ck[1]:p[1]]):
                            return ck
                    return None
                named = {p: name_in(p) for p in parts}
                if len(parts) < 2 or not any(named.values()):
                    continue
                t, sc, src = spans.pop(k)
                cue = max((n for n in named.values() if n), key=lambda n: cand_keys[n].score)
                new_t = cand_keys[cue].type if cand_keys[cue].score >= 0.8 else t
                for p in parts:
                    n = named[p]
                    if n is not None:
                        spans[n] = [cand_keys[n].type, sc, src + "+split"]
                    else:
                        spans[p] = [new_t, sc, src + "+split"]
            ner_keys = sorted(spans)
            for c in cands:
                key = (c.start, c.end)
                if key in spans:
                    t, sc, src = spans[key]
                    if c.type != t and c.score >= 0.8:
                        spans[key] = [c.type, max(sc, c.score), src + "+" + c.source]
                    elif c.type == t:
                        spans[key] = [t, min(1.0, max(sc, c.score) + 0.1), src + "+" + c.source]
                    continue
                overlapping = [k for k in ner_keys if k[0] < c.end and c.start < k[1]]
                if not overlapping:
                    spans[key] = [c.type, c.score, c.source]
                    continue
                for k in overlapping:
                    if k not in spans:
                        continue
                    inside = k[0] <= c.start and c.end <= k[1]
                    rest = (text[k[0]:c.start] + " " + text[c.end:k[1]]).strip()
                    if inside and c.score >= 0.8 and c.source != "rule:acronym" and "(" not in rest \
                            and rules.only_generic(rest):
                        # "Mistral models": keep the span and add the name itself.
                        spans[key] = [c.type, max(c.score, NER_BASE_SCORE), "ner+" + c.source]
                    elif c.source == "rule:acronym" and c.start <= k[0] and (
                            k[1] <= c.end or c.start < k[0] and re.fullmatch(r"\s*\([^()]*\)", text[c.end:k[1]])):
                        # The letters of "Long Form (LF)" fix the long form's edges: a recognizer
                        # span inside it is a piece of it ("Karush" of "Karush–Kuhn–Tucker"), also
                        # with the parenthesis ("Multi-granularity Reasoning (MMR)" of "Multi-target
                        # and Multi-granularity Reasoning (MMR)").
                        t, sc, src = spans.pop(k)
                        spans[key] = [c.type, max(sc, c.score), src + "+" + c.source]
                    elif c.source == "rule:acronym" and k[0] == c.start and c.score >= 0.8 \
                            and re.match(r"\s*\(", text[c.end:k[1]]):
                        if spans[k][0] != c.type:
                            spans[k] = [c.type, max(spans[k][1], c.score), spans[k][2] + "+" + c.source]
                        if not re.fullmatch(r"\s*\([^()]*\)", text[c.end:k[1]]):
                            # "Policy Mirror Descent (PMD) variants": the defined name itself too.
                            spans[key] = [c.type, c.score, c.source]
        # One type per surface form per abstract.
        votes: dict[str, dict[str, float]] = {}
        for (s, e), (t, sc, _) in spans.items():
            form = text[s:e].lower()
            votes.setdefault(form, {}).setdefault(t, 0.0)
            votes[form][t] += sc
        out = []
        for (s, e), (t, score, src) in sorted(spans.items()):
            v = votes[text[s:e].lower()]
            best = max(v, key=lambda x: (v[x], x))
            if best != t:
                t, src = best, src + "+unified"
            while e > s and text[e - 1] in " ,;:":
                e -= 1
            if e <= s:
                continue
            sent = doc.char_span(s, e, alignment_mode="expand")
            sentence = sent.sent.text if sent is not None else text
            out.append(Mention(text=text[s:e], type=t, start=s, end=e, sentence=sentence,
                               score=round(score, 4), source=src))
        return out

    def _retype(self, docs, mentions):
        """The span typer's second opinion where it is confident (TYPER_THRESHOLD, tuned on dev.json):
        retype a mention, or drop an NER-only span it reads as no entity or an unscored term.
        Mentions a rule typed, and name-shaped words, are left as they are."""
        model = typer.load_typer()
        if model is None:
            return mentions
        infos = [typer.span_info(doc, m.start, m.end, text)
                 for doc, ms in zip(docs, mentions) for text in (doc.text,) for m in ms]
        proba = model.proba(infos)
        out, i = [], 0
        for ms in mentions:
            kept = []
            for m in ms:
                p = proba[i]
                i += 1
                k = int(p.argmax())
                label = model.classes[k]
                if p[k] < TYPER_THRESHOLD or label == m.type:
                    kept.append(m)
                    continue
                # Rule types and name-shaped words (KIVI, Llama-3.1) are outside what SciERC taught it.
                protected = "rule:" in m.source or rules.name_strength(m.text) == 2
                if protected and not TYPER_OVER_RULES:
                    kept.append(m)
                    continue
                if label not in ENTITY_TYPES:
                    continue
                kept.append(Mention(m.text, label, m.start, m.end, m.sentence, m.score, m.source + "+typer"))
            out.append(kept)
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
