"""Read annotated abstracts: SciERC JSON Lines and the generic gold format.

SciERC (Luan et al., 2018) stores each abstract as Penn-Treebank tokens with
global, inclusive token spans. ``read_scierc`` turns every line into natural
text (PTB brackets and quotes mapped back, no space before punctuation), keeps
the character span of every token, and gives the gold entities as character
spans into that text, typed with the graph's types (Material -> Dataset;
OtherScientificTerm and Generic are kept with their own names so a caller may
use them for training, but they are never scored).

``read_gold`` reads either format (decided per line) into the same
``ScierDoc`` records; it is what ``kg eval`` uses. As a corpus (``kg build``), a SciERC
file's abstracts become papers whose ids are the ``doc_key`` (``sniff``, ``read``, ``to_paper``).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kg.corpus.jsonfile import json_lines
from kg.corpus.source import Located, Source, decode, split_lines
from kg.corpus.titles import derive_title
from kg.errors import KgError
from kg.records import Paper

# SciERC type -> graph type. Types missing here are not part of the graph.
TYPE_MAP: dict[str, str] = {
    "Method": "Method",
    "Task": "Task",
    "Material": "Dataset",
    "Metric": "Metric",
}
UNSCORED_TYPES = ("OtherScientificTerm", "Generic")
_GOLD_TYPES = frozenset({*TYPE_MAP, *TYPE_MAP.values(), *UNSCORED_TYPES})

PTB_TOKENS: dict[str, str] = {
    "-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
    "``": '"', "''": '"',
}
# No space before these tokens ...
_NO_SPACE_BEFORE = {",", ".", ";", ":", "?", "!", "%", ")", "]", "}", "...", "'s", "'S", "n't", "'re",
                    "'ve", "'ll", "'d", "'m"}
# ... nor after these.
_NO_SPACE_AFTER = {"(", "[", "{", "$", "#"}


@dataclass(frozen=True)
class GoldEntity:
    text: str  # == ScierDoc.text[start:end]
    type: str  # graph type (Method, Task, Dataset, Metric) or an unscored SciERC type
    start: int
    end: int


@dataclass(frozen=True)
class GoldRelation:
    head: int  # index into ScierDoc.entities
    tail: int
    label: str  # SciERC's relation type (kg.records.RELATION_LABELS), in its direction


@dataclass(frozen=True)
class ScierDoc:
    doc_key: str
    text: str
    entities: tuple[GoldEntity, ...] = ()
    # Character span of each token (SciERC only) and sentence spans.
    token_spans: tuple[tuple[int, int], ...] = ()
    sentence_spans: tuple[tuple[int, int], ...] = ()
    source: str = ""  # "file:line"
    relations: tuple[GoldRelation, ...] = ()

    @property
    def scored_entities(self) -> tuple[GoldEntity, ...]:
        return tuple(e for e in self.entities if e.type in TYPE_MAP.values())


def detokenize(tokens: Iterable[str]) -> tuple[str, list[tuple[int, int]]]:
    """Natural text from PTB tokens, with the (start, end) character span of every token."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    prev_raw: str | None = None
    for raw in tokens:
        tok = PTB_TOKENS.get(raw, raw)
        space = prev_raw is not None
        if tok in _NO_SPACE_BEFORE or raw == "''":
            space = False
        if prev_raw is not None and (PTB_TOKENS.get(prev_raw, prev_raw) in _NO_SPACE_AFTER or prev_raw == "``"):
            space = False
        if space:
            out.append(" ")
            pos += 1
        out.append(tok)
        spans.append((pos, pos + len(tok)))
        pos += len(tok)
        prev_raw = raw
    return "".join(out), spans


def sniff(source: Source) -> bool:
    """JSON Lines whose first record has SciERC's ``sentences``."""
    first = next((line for line in split_lines(source.head)[:5] if line.strip()), "")
    try:
        obj = json.loads(first)
    except ValueError:
        return False
    return isinstance(obj, dict) and "sentences" in obj and "abstract" not in obj


def read(source: Source) -> Iterator[Located]:
    """(line, record) for each line: ``kg.corpus.papers`` turns the SciERC ones into papers (``to_paper``)."""
    return json_lines(source.path, source.text)


def is_scierc(rec: dict) -> bool:
    """Whether a record is SciERC's (tokenised ``sentences``, no ``abstract``)."""
    return "sentences" in rec and "abstract" not in rec


def to_paper(rec: dict, where: str, warn) -> Paper | None:
    """A SciERC record as a Paper (its tokens as natural text), or None after ``warn``ing why not."""
    try:
        doc = parse_scierc(rec, where)
    except (KeyError, TypeError, ValueError) as exc:
        warn(f"{where}: malformed SciERC record ({exc}); skipped")
        return None
    if not doc.text.strip():
        warn(f"{where}: empty abstract; skipped")
        return None
    return Paper(
        id=doc.doc_key, title=derive_title(doc.text), abstract=doc.text, text=doc.text, source=where,
        venue=_venue(doc.doc_key),
    )


def _venue(doc_key: str) -> str:
    prefix = doc_key.split("_", 1)[0]
    return prefix if prefix.isalpha() and prefix.isupper() else "ACL"


def parse_scierc(obj: dict, source: str = "") -> ScierDoc:
    """One SciERC JSON object as a ScierDoc."""
    sentences = obj.get("sentences")
    if not isinstance(sentences, list):
        raise KgError(f"{source}: not a SciERC record (no 'sentences' list)")
    tokens = [t for s in sentences for t in s]
    text, spans = detokenize(tokens)
    sent_spans = []
    i = 0
    for s in sentences:
        if s:
            sent_spans.append((spans[i][0], spans[i + len(s) - 1][1]))
        i += len(s)
    ents = []
    seen = set()
    at: dict[tuple[int, int], int] = {}  # token span -> its (first) entity, for the relations
    for sent in obj.get("ner", []):
        for s, e, label in sent:
            etype = TYPE_MAP.get(label, label)
            start, end = spans[s][0], spans[e][1]
            key = (start, end, etype)
            if key in seen:
                continue
            seen.add(key)
            at.setdefault((s, e), len(ents))
            ents.append(GoldEntity(text[start:end], etype, start, end))
    rels = []
    for sent in obj.get("relations", []) or []:
        for s1, e1, s2, e2, label in sent:
            if (s1, e1) in at and (s2, e2) in at:
                rels.append(GoldRelation(at[(s1, e1)], at[(s2, e2)], label))
    return ScierDoc(doc_key=str(obj.get("doc_key", source)), text=text, entities=tuple(ents),
                    token_spans=tuple(spans), sentence_spans=tuple(sent_spans), source=source,
                    relations=tuple(rels))


def parse_generic(obj: dict, source: str = "") -> ScierDoc:
    """One record of the generic gold format: {"id", "text", "entities": [{"text", "type"}]}."""
    text = obj.get("text")
    if not isinstance(text, str):
        raise KgError(f"{source}: gold record has no 'text' string")
    if not isinstance(obj.get("entities"), list):
        # Scored against nothing, every prediction would be wrong and the figure meaningless.
        raise KgError(f"{source}: gold record has no 'entities' list (an abstract with none has \"entities\": [])")
    ents = []
    for e in obj["entities"]:
        etext, etype = e.get("text"), e.get("type")
        if not isinstance(etext, str) or not isinstance(etype, str):
            raise KgError(f"{source}: gold entity without 'text' and 'type': {e!r}")
        if etype not in _GOLD_TYPES:  # a typo would silently score as "no gold entity"
            raise KgError(f"{source}: gold entity type {etype!r} is none of {', '.join(sorted(_GOLD_TYPES))}")
        start = e.get("start")
        if start is None:
            start = text.find(etext)
            if start < 0:  # the format's entities are substrings of the text: this one is a typo
                raise KgError(f"{source}: gold entity {etext!r} is not in the record's text")
        end = e.get("end", start + len(etext) if start >= 0 else -1)
        ents.append(GoldEntity(etext, TYPE_MAP.get(etype, etype), start, end))
    return ScierDoc(doc_key=str(obj.get("id", source)), text=text, entities=tuple(ents), source=source)


def _records(path: Path) -> Iterator[tuple[dict, str]]:
    if not path.exists():
        raise KgError(f"{path}: no such file")
    if path.is_dir():
        raise KgError(f"{path}: is a directory, expected a gold file (SciERC or generic JSON Lines)")
    text = decode(path, path.read_bytes())
    for lineno, obj in json_lines(path, text):
        if not isinstance(obj, dict):
            raise KgError(f"{path}:{lineno}: expected a JSON object per line")
        yield obj, f"{path}:{lineno}"


def read_scierc(path: str | Path) -> Iterator[ScierDoc]:
    """The abstracts of a SciERC JSON Lines file, as natural text with gold character spans."""
    for obj, source in _records(Path(path)):
        yield parse_scierc(obj, source)


def read_gold(path: str | Path) -> Iterator[ScierDoc]:
    """A gold file in either format (SciERC or generic), one ScierDoc per line."""
    for obj, source in _records(Path(path)):
        if "sentences" in obj:
            yield parse_scierc(obj, source)
        elif "text" in obj:
            yield parse_generic(obj, source)
        else:
            raise KgError(f"{source}: neither a SciERC record ('sentences') nor a generic gold record ('text')")
