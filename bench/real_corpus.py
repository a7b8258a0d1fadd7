#!/usr/bin/env python
"""What a researcher sees first in a real corpus: kg's top concepts, scored against outside labels.

    python bench/real_corpus.py                          # build the ACL 2017-2019 corpus (5,721 abstracts), score it
    python bench/real_corpus.py --db exports/acl_2017_2019   # score a build made before
    python bench/real_corpus.py --limit 40 --workers 1   # a tiny run (CI's smoke test)
    python bench/real_corpus.py --years 2019 --cache .kg-cache   # the year the stage was not tuned on
    python scripts/known_datasets.py --years 2017,2018 --out known-2017-2018.txt
    python bench/real_corpus.py --years 2019 --cache .kg-cache --known-datasets known-2017-2018.txt
                                                         # ... with known dataset names of the other years only
    python bench/real_corpus.py --corpus ../shared/bench/real/emnlp2020_tracks.jsonl --tags none  # another year

The corpus is ``../shared/bench/real/acl_2017_2019.jsonl`` and its Papers with Code dataset tags
``acl_2017_2019_pwc.json`` (read ``../shared/bench/README.md``). The top lists are the ones kg shows
(``kg stats --top 30``, ``kg.analysis.stats.build_stats``). It prints one JSON object:

- ``top_datasets_pwc_share``: the share of the top 30 Dataset nodes that are Papers with Code datasets
  (a node's name or an alias equals a tag, the tag's long form or its parenthesised short form,
  compared lower-case on letters and digits alone);
- ``pwc_linked_recall``: of the tags a paper has that its title or abstract names (case-insensitive,
  with or without the tag's trailing parenthesis), the share kg links to that paper as a Dataset;
- ``generic_share``: the share of the top 30 Methods and top 30 Tasks that name no method or task.
  The judge is ``JUDGE_GENERIC`` below: a list written for this benchmark, apart from kg's own word
  lists (kg must not read it), plus any one-word name made of a generic adjective;
- ``field_coverage``: of the reference concepts (``REFERENCE``, written from general knowledge of the
  field, not from kg's output; and the Papers with Code tags) that the corpus's text names most often,
  the share that stand in the top 30 of their type;
- ``split_groups``: groups of top-100 nodes (any type) that are one concept by a coarse key (case,
  hyphens, spaces, plurals, a generic head, an acronym an alias spells out);
- ``two_typed``: names in the top 30 lists under two types;
- ``build_s`` and ``abstracts_per_s`` when this run built the corpus.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from _common import ROOT, kg_build, report

REAL = ROOT.parent / "shared" / "bench" / "real"

# Names of no method or task: the judge of ``generic_share``. Kept here, for scoring only.
JUDGE_GENERIC = frozenset("""
    training learning prediction inference generalization classification classifier encoder decoder
    neural-network deep-learning machine-learning natural-language-processing nlp sota state-of-the-art
    pretrained pre-trained pretraining fine-tuning finetuning model method approach algorithm framework
    architecture system network embedding representation feature optimization evaluation analysis
    supervision supervised-learning unsupervised-learning annotation modeling modelling generation
    understanding reasoning detection recognition extraction estimation regression search ranking
    baseline transformer-based neural-model neural-approach language deep-neural-network
    artificial-intelligence ai data text computation processing task problem application
""".split())
# Generic adjectives: a one-word name made of one of these names nothing.
JUDGE_ADJECTIVES = frozenset("""
    neural deep supervised unsupervised semi-supervised self-supervised pretrained pre-trained
    end-to-end multilingual cross-lingual monolingual zero-shot few-shot low-resource large-scale
    robust efficient effective novel
""".split())

# Concepts of the field as a reference for coverage: (type, name, other spellings). Written from
# general knowledge of NLP, not read off kg's output.
REFERENCE: list[tuple[str, str, tuple[str, ...]]] = [
    ("Method", "BERT", ()), ("Method", "LSTM", ("long short-term memory",)), ("Method", "BiLSTM", ("Bi-LSTM",)),
    ("Method", "CNN", ("convolutional neural network",)), ("Method", "RNN", ("recurrent neural network",)),
    ("Method", "word2vec", ()), ("Method", "GloVe", ()), ("Method", "ELMo", ()), ("Method", "Transformer", ()),
    ("Method", "CRF", ("conditional random field",)), ("Method", "attention mechanism", ()),
    ("Method", "sequence-to-sequence", ("seq2seq",)), ("Method", "reinforcement learning", ()),
    ("Method", "transfer learning", ()), ("Method", "multi-task learning", ("multitask learning",)),
    ("Method", "word embeddings", ()), ("Method", "adversarial training", ()), ("Method", "GAN", ()),
    ("Method", "variational autoencoder", ("VAE",)), ("Method", "pointer network", ()),
    ("Method", "beam search", ()), ("Method", "SVM", ("support vector machine",)),
    ("Method", "knowledge distillation", ()), ("Method", "data augmentation", ()),
    ("Method", "active learning", ()), ("Method", "domain adaptation", ()),
    ("Method", "graph convolutional network", ("GCN",)), ("Method", "language model", ()),
    ("Task", "machine translation", ("MT",)), ("Task", "neural machine translation", ("NMT",)),
    ("Task", "named entity recognition", ("NER",)), ("Task", "sentiment analysis", ()),
    ("Task", "question answering", ("QA",)), ("Task", "dependency parsing", ()),
    ("Task", "summarization", ("text summarization",)), ("Task", "relation extraction", ()),
    ("Task", "semantic role labeling", ("SRL",)), ("Task", "coreference resolution", ()),
    ("Task", "part-of-speech tagging", ("POS tagging",)), ("Task", "text classification", ()),
    ("Task", "natural language inference", ("NLI",)), ("Task", "entity linking", ()),
    ("Task", "reading comprehension", ()), ("Task", "semantic parsing", ()),
    ("Task", "information extraction", ()), ("Task", "dialogue systems", ()),
    ("Task", "language modeling", ()), ("Task", "word sense disambiguation", ("WSD",)),
    ("Task", "paraphrase identification", ()), ("Task", "constituency parsing", ()),
    ("Task", "speech recognition", ()), ("Task", "image captioning", ()),
    ("Task", "response generation", ()), ("Task", "text generation", ()),
    ("Task", "event extraction", ()), ("Task", "knowledge base completion", ()),
    ("Task", "word segmentation", ()), ("Task", "fact checking", ()),
]


def key(text: str) -> str:
    """Lower case, letters and digits alone (the README's comparison of dataset names)."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


_GENERIC_HEADS = ("models", "model", "methods", "method", "networks", "network", "approaches", "approach",
                  "dataset", "datasets", "corpus", "benchmark", "task", "tasks", "systems", "system")


def coarse(text: str) -> str:
    """The coarse key of ``split_groups``: case, hyphens, spaces, a plural and a generic head folded."""
    words = re.sub(r"\s*\([^()]*\)\s*$", "", text.strip()).lower().split()
    if len(words) > 1 and words[-1] in _GENERIC_HEADS:
        words = words[:-1]
    k = key(" ".join(words))
    return k[:-1] if len(k) > 3 and k.endswith("s") and not k.endswith("ss") else k


def tag_forms(tag: str) -> set[str]:
    """A tag, its long form and its parenthesised short form, as keys."""
    forms = {key(tag)}
    m = re.match(r"^(.*?)\s*\(([^()]+)\)\s*$", tag)
    if m:
        forms |= {key(m.group(1)), key(m.group(2))}
    return {f for f in forms if f}


def named_in(tag: str, text: str) -> bool:
    """Does the text name the tag (case-insensitive, with or without a trailing parenthesis)?"""
    variants = {tag, re.sub(r"\s*\([^()]*\)\s*$", "", tag)}
    low = text.lower()
    return any(v and re.search(rf"(?<![\w-]){re.escape(v.lower())}(?![\w-])", low) for v in variants)


def node_keys(d: dict) -> set[str]:
    names = [d.get("name") or "", *(d.get("aliases") or ())]
    out = set()
    for n in names:
        out.add(key(n))
        m = re.match(r"^(.*?)\s*\(([^()]+)\)\s*$", n)
        if m:
            out |= {key(m.group(1)), key(m.group(2))}
    return {k for k in out if k}


def is_generic(name: str) -> bool:
    words = re.sub(r"\s*\([^()]*\)\s*$", "", name).lower().replace("-", " ").split()
    joined = "-".join(words)
    if joined in JUDGE_GENERIC or joined.rstrip("s") in JUDGE_GENERIC:
        return True
    return len(words) == 1 and (words[0] in JUDGE_ADJECTIVES)


def score(build: Path, corpus: Path, tags_path: Path, top: int = 30) -> dict:
    import kg

    return score_graph(kg.open_build(build).graph(), corpus, tags_path, top)


def score_graph(g, corpus: Path, tags_path: Path, top: int = 30) -> dict:
    """The figures of the module's doc for the graph ``g`` of ``corpus``."""
    from kg.records import ENTITY_TYPES
    from kg.analysis.stats import top_entities

    tops = {t: top_entities(g, t, 100) for t in ENTITY_TYPES}
    by_name: dict[tuple[str, str], dict] = {}
    for n, d in g.nodes(data=True):
        if d.get("label") != "Paper":
            by_name[(d["label"], d.get("name"))] = d
    papers = {json.loads(line)["id"]: json.loads(line) for line in corpus.open(encoding="utf-8") if line.strip()}
    papers = {pid: p for pid, p in papers.items() if pid in g}
    # A corpus without dataset tags (--tags none) still gets its generic share, coverage and splits.
    known = json.loads(tags_path.read_text()) if tags_path.name != "none" else {}
    tags = {pid: t for pid, t in known.items() if pid in papers}
    all_tag_forms = set().union(*(tag_forms(t) for ts in tags.values() for t in ts)) if tags else set()

    # Top datasets that Papers with Code knows.
    top_ds = tops.get("Dataset", [])[:top]
    pwc_top = [e.name for e in top_ds if node_keys(by_name.get(("Dataset", e.name), {"name": e.name})) & all_tag_forms]

    # Tags named in a paper's text, linked to that paper as a Dataset.
    named = linked = 0
    missed: Counter[str] = Counter()
    for pid, ts in tags.items():
        p = papers[pid]
        text = f"{p.get('title') or ''} {p.get('abstract') or ''}"
        ds_keys = set()
        for _, eid, t in g.out_edges(pid, data="type"):
            if t == "EVALUATES_ON":
                ds_keys |= node_keys(g.nodes[eid])
        for t in ts:
            if named_in(t, text):
                named += 1
                if tag_forms(t) & ds_keys:
                    linked += 1
                else:
                    missed[t] += 1

    # Generic share of the top Methods and Tasks.
    mt = [(t, e.name) for t in ("Method", "Task") for e in tops.get(t, [])[:top]]
    generic = [f"{n} ({t})" for t, n in mt if is_generic(n)]

    # Coverage of the reference concepts the text names most.
    texts = [f"{p.get('title') or ''} {p.get('abstract') or ''}".lower() for p in papers.values()]
    ref_counts = []
    for t, name, others in REFERENCE:
        pats = [re.compile(rf"(?<![\w-]){re.escape(v.lower())}s?(?![\w-])") for v in (name, *others)]
        n = sum(1 for x in texts if any(pat.search(x) for pat in pats))
        ref_counts.append((n, t, name, others))
    tag_text = Counter()
    for pid, ts in tags.items():
        p = papers[pid]
        for t in set(ts):
            if named_in(t, f"{p.get('title') or ''} {p.get('abstract') or ''}"):
                tag_text[t] += 1
    for t, n in tag_text.most_common(15):
        ref_counts.append((n, "Dataset", t, ()))
    ref_counts.sort(key=lambda r: -r[0])
    reference = [r for r in ref_counts if r[0] >= 5][:45]
    covered, uncovered = [], []
    top_keys = {t: set().union(*(node_keys(by_name.get((t, e.name), {"name": e.name})) for e in rows[:top]))
                if rows else set() for t, rows in tops.items()}
    top_coarse = {t: {coarse(e.name) for e in rows[:top]} for t, rows in tops.items()}
    for n, t, name, others in reference:
        forms = {key(v) for v in (name, *others)} | tag_forms(name)
        hit = bool(forms & top_keys.get(t, set())) or coarse(name) in top_coarse.get(t, set())
        (covered if hit else uncovered).append(f"{name} ({t}, {n} papers)")

    # One concept over several top-100 nodes; one name under two types in the top lists.
    groups: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for t, rows in tops.items():
        for e in rows[:100]:
            d = by_name.get((t, e.name), {"name": e.name})
            for k in {coarse(e.name)} | {coarse(a) for a in d.get("aliases") or ()} | node_keys(d):
                groups[k].add((t, e.name))
    split = sorted({tuple(sorted(v)) for v in groups.values() if len({n for _, n in v}) > 1})
    names_by_type: dict[str, set[str]] = defaultdict(set)
    for t, rows in tops.items():
        for e in rows[:top]:
            names_by_type[coarse(e.name)].add(t)
    two_typed = sorted(k for k, ts in names_by_type.items() if len(ts) > 1)

    return {
        "papers": len(papers),
        "top_datasets_pwc_share": round(len(pwc_top) / max(1, len(top_ds)), 3),
        "pwc_linked_recall": round(linked / max(1, named), 3),
        "pwc_named": named,
        "generic_share": round(len(generic) / max(1, len(mt)), 3),
        "field_coverage": round(len(covered) / max(1, len(reference)), 3),
        "split_groups": len(split),
        "two_typed": len(two_typed),
        "top_datasets": [f"{e.name} ({e.papers})" for e in top_ds],
        "top_methods": [f"{e.name} ({e.papers})" for e in tops.get("Method", [])[:top]],
        "top_tasks": [f"{e.name} ({e.papers})" for e in tops.get("Task", [])[:top]],
        "generic_in_top": generic,
        "reference_missing": uncovered,
        "split_examples": [" / ".join(f"{n} ({t})" for t, n in grp) for grp in split[:15]],
        "two_typed_examples": two_typed[:15],
        "pwc_missed_most": missed.most_common(15),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=REAL / "acl_2017_2019.jsonl")
    ap.add_argument("--tags", type=Path, default=REAL / "acl_2017_2019_pwc.json",
                    help="Papers with Code tags {paper id: [dataset]}, or 'none' for a corpus without them")
    ap.add_argument("--db", type=Path, help="score this build instead of building the corpus")
    ap.add_argument("--limit", type=int, help="build only the first N abstracts")
    ap.add_argument("--years", help="build only the papers of these years (2017,2018 or 2019): the concept "
                                    "stage was tuned on 2017-2018 and checked on 2019")
    ap.add_argument("--cache", type=Path, help="extraction cache folder to read and fill (default: none, "
                                               "so that build_s times a cold build)")
    ap.add_argument("--known-datasets", type=Path, metavar="FILE",
                    help="kg build's --known-datasets: the list of known dataset names to build with (default: "
                         "the shipped one, made from all three years' tags; for a held-out year, make one from the "
                         "other years: scripts/known_datasets.py --years 2017,2018 --out FILE)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    if not args.corpus.exists():
        sys.exit(f"bench: {args.corpus} not found (../shared/bench/real/ beside the clone)")
    timing = {}
    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.corpus
        if args.limit or args.years:
            years = {int(y) for y in args.years.split(",")} if args.years else None
            corpus = Path(tmp) / "corpus.jsonl"
            with args.corpus.open(encoding="utf-8") as f:
                lines = [line for line in f if line.strip()
                         and (years is None or json.loads(line).get("year") in years)]
            corpus.write_text("".join(lines[:args.limit]), encoding="utf-8")
        build = args.db
        if build is None:
            build = Path(tmp) / "build"
            t0 = time.perf_counter()
            cache = ("--cache", str(args.cache)) if args.cache else ("--no-cache",)
            known = ("--known-datasets", str(args.known_datasets)) if args.known_datasets else ()
            kg_build(corpus, build, "--workers", str(args.workers), *cache, *known)
            dt = time.perf_counter() - t0
            n = sum(1 for line in corpus.open(encoding="utf-8") if line.strip())
            timing = {"build_s": round(dt, 1), "abstracts_per_s": round(n / dt, 2), "workers": args.workers}
        result = score(build, corpus, args.tags, top=args.top)
    report({**timing, **result})


if __name__ == "__main__":
    main()
