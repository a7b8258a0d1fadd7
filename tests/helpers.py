"""Hand-made papers and extractions, so graph, store and CLI tests need no models."""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings

from kg.graph import build_graph
from kg.records import Extraction, Mention, Paper, Relation
from kg.concepts.resolve import resolve


def paper(pid: str, text: str, title: str | None = None) -> Paper:
    return Paper(id=pid, title=title or pid, abstract=text, text=text, source=f"test:{pid}")


def mention(p: Paper, surface: str, etype: str, nth: int = 0, score: float = 0.8) -> Mention:
    starts = [m.start() for m in re.finditer(re.escape(surface), p.text)]
    start = starts[nth]
    return Mention(surface, etype, start, start + len(surface), p.text, score, "test")


def extraction(p: Paper, *items: tuple[str, str], key_concepts=()) -> Extraction:
    return Extraction(p.id, tuple(mention(p, s, t) for s, t in items), key_concepts=tuple(key_concepts))


def with_relations(ex: Extraction, *rels: tuple) -> Extraction:
    """``ex`` stating relations (head index, tail index, SciERC label[, score]) between its mentions."""
    made = tuple(Relation(h, t, label, *rest) if rest else Relation(h, t, label, 0.7) for h, t, label, *rest in rels)
    return Extraction(ex.paper_id, ex.mentions, ex.relations + made, ex.key_concepts)


def small_corpus() -> tuple[list[Paper], list[Extraction]]:
    """Three papers sharing a method (by acronym and long form), a task and a dataset."""
    p1 = paper("p1", "We propose Policy Mirror Descent (PMD) for reinforcement learning on MinAtar.")
    p2 = paper("p2", "PMD improves reinforcement learning; Natural Policy Gradient (NPG) is a special case.")
    p3 = paper("p3", "Large Language Models (LLMs) are evaluated on MinAtar by accuracy.")
    ex = [
        extraction(p1, ("Policy Mirror Descent", "Method"), ("PMD", "Method"), ("reinforcement learning", "Task"),
                   ("MinAtar", "Dataset"), key_concepts=[("policy mirror descent", 0.7)]),
        extraction(p2, ("PMD", "Method"), ("reinforcement learning", "Task"), ("Natural Policy Gradient", "Method"),
                   ("NPG", "Method")),
        extraction(p3, ("Large Language Models", "Method"), ("LLMs", "Method"), ("MinAtar", "Dataset"),
                   ("accuracy", "Metric")),
    ]
    return [p1, p2, p3], ex


# --- corpus files ------------------------------------------------------------------------------

SEED = Path(__file__).parent.parent / "seeds" / "iclr2025_abstracts.txt"
A1 = "We propose Latent Optimal Linear combinations (LOL) as a general method. It works well on images."
A2 = "Policy Mirror Descent (PMD) is a popular framework in reinforcement learning with many algorithms."
LONG1 = " ".join([A1] * 4)  # 60+ words: a line this long is a whole abstract
LONG2 = " ".join([A2] * 4)


def write(tmp_path: Path, name: str, content: str | bytes, mode: str = "w") -> Path:
    """``content`` written to ``tmp_path / name`` (as UTF-8 text, or bytes with ``mode="wb"``)."""
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return p


def examples(n: int) -> int:
    """``n`` Hypothesis cases under the default profile; under ``--hypothesis-profile=fuzz``
    (tests/conftest.py) as many times more as that profile runs."""
    return max(1, n * settings().max_examples // 100)


# --- a graph for the views ------------------------------------------------------------------------

HOSTILE = '</script><script>alert("pwned")</script><img src=x onerror=alert(1)>'


def view_corpus():
    """Five papers: two on mirror descent, two on translation, one with a hostile abstract and URL."""
    specs = [
        ("pmd", "Policy Mirror Descent (PMD) converges fast on MinAtar.",
         [("Policy Mirror Descent", "Method"), ("PMD", "Method"), ("MinAtar", "Dataset")]),
        ("pmd2", "We analyse Policy Mirror Descent for reinforcement learning.",
         [("Policy Mirror Descent", "Method"), ("reinforcement learning", "Task")]),
        ("mt", "Neural machine translation with attention, scored by BLEU.",
         [("Neural machine translation", "Task"), ("BLEU", "Metric")]),
        ("mt2", "Statistical machine translation on Europarl, scored by BLEU.",
         [("Statistical machine translation", "Task"), ("Europarl", "Dataset"), ("BLEU", "Metric")]),
        ("evil", f"Reinforcement learning on MinAtar. {HOSTILE}",
         [("Reinforcement learning", "Task"), ("MinAtar", "Dataset")]),
    ]
    papers, exs = [], []
    for pid, text, ents in specs:
        p = paper(pid, text, title=HOSTILE if pid == "evil" else text.split(" with")[0].split(" on ")[0])
        if pid == "evil":
            p = type(p)(**{**p.__dict__, "url": "javascript:alert(1)"})
        papers.append(p)
        exs.append(extraction(p, *ents))
    return build_graph(papers, exs, resolve(papers, exs))
