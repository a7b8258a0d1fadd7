"""Dataset names known beforehand: a list the concept stage reads as distant supervision.

The tagger misses a dataset's name now and then ("FewRel" in a list, "DROP" at a sentence's end) or
types it as what the paper does with it ("Universal Dependencies" as a task). kg ships the names
Papers with Code tags as datasets on ACL Anthology papers (``known_datasets.txt``, made by
scripts/known_datasets.py); a build may bring its own list (``BuildOptions.known_datasets``).

A known name counts where the corpus writes it as a name: case and all, as whole words, not
written in lower case as a plain phrase elsewhere ("Hate Speech", "Kinship" are words too), and
written as data, not as a source or an event ("from Wikipedia", "the SemEval 2014 shared task"):
the typer's own judgement of every place a name is written (kg.concepts.typer.usage). There the
concept is a Dataset, and every paper writing the name is linked to it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from kg.errors import KgError

SHIPPED = Path(__file__).with_name("known_datasets.txt")


@dataclass(frozen=True)
class KnownDatasets:
    """Names of datasets, as written ("SQuAD", "Penn Treebank")."""

    names: frozenset[str]

    @classmethod
    def read(cls, path: Path | str) -> KnownDatasets:
        """A list of names, one a line; blank lines and lines starting with "#" are skipped."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise KgError(f"{path}: cannot read the known dataset names ({e.__class__.__name__})") from None
        return cls(frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")))

    @classmethod
    def none(cls) -> KnownDatasets:
        return cls(frozenset())


@lru_cache(maxsize=1)
def shipped() -> KnownDatasets:
    """The names kg ships."""
    return KnownDatasets.read(SHIPPED)


def link_known(papers, resolution, names: frozenset[str]):
    """(new entities, per paper the (mention, entity id) of each known dataset name its text
    writes and its mentions do not already resolve to). A name the corpus gives a concept of
    another type stays that concept's ("ConceptNet" the typer kept a Method)."""
    from kg.concepts.linking import LINKED_SCORE, _sentence, first_tokens, occurrences, tokens
    from kg.concepts.datasets import full_years, year_key
    from kg.concepts.typer import usage
    from kg.records import Entity, Mention
    from kg.text.normalize import normalize

    if not names:
        return {}, {}
    by_tokens = {tokens(n): n for n in names if tokens(n)}
    firsts = first_tokens(by_tokens)
    found = [(p, start, end, form) for p in papers for start, end, form in occurrences(p.text, by_tokens, firsts)]
    if not found:
        return {}, {}
    written = {form for *_, form in found}
    judged = usage(papers, {f"Dataset:{normalize(f)}": {f} for f in written})
    datasets = {f for f in written if (u := judged.get(f"Dataset:{normalize(f)}")) and u.known_data()}
    # A name -> the entity holding it: by its key, else a Dataset by the key folded ("ACE-2005" is
    # "ACE 2005", "WMT14" "WMT 2014": kg.concepts.datasets; "FollowUp" is not the task "follow-up").
    owner: dict[str, str] = {}
    folded: dict[str, str] = {}
    years = full_years({normalize(f) for ent in resolution.entities.values() for f in (ent.name, *ent.aliases)}
                       | {normalize(f) for f in written})
    for eid, ent in resolution.entities.items():
        for form in (ent.name, *ent.aliases):
            k = normalize(form)
            if k not in owner or eid.split(":", 1)[1] == k:
                owner[k] = eid
            if ent.type == "Dataset" and (year_key(k, years) not in folded or eid.split(":", 1)[1] == k):
                folded[year_key(k, years)] = eid
    new: dict[str, Entity] = {}
    linked: dict[str, list] = {}
    for p, start, end, form in found:
        if form not in datasets:
            continue
        k = normalize(form)
        eid = owner.get(k) or folded.setdefault(year_key(k, years), f"Dataset:{k}")
        if not eid.startswith("Dataset:"):
            continue
        if eid not in resolution.entities and eid not in new:
            new[eid] = Entity(id=eid, type="Dataset", name=form, aliases=[form])
        else:
            # The name as written here is an alias of the entity it folds into ("SimpleQuestions"
            # of the one a paper spelled "SimpleQuestion"; "Multi30k" beside "Multi30K").
            ent = new.get(eid) or resolution.entities[eid]
            if form not in ent.aliases and form != ent.name:
                new[eid] = replace(ent, aliases=[*ent.aliases, form])
        have = set(resolution.mention_entity.get(p.id, ())) | {e for _, e in linked.get(p.id, ())}
        if eid not in have:
            linked.setdefault(p.id, []).append(
                (Mention(p.text[start:end], "Dataset", start, end, _sentence(p.text, start, end), LINKED_SCORE, "known"), eid))
    return new, linked
