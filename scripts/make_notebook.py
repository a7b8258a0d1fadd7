"""Write notebooks/iclr2025_walkthrough.ipynb (outputs stripped) from the cells below.

The notebook is generated so its source stays reviewable as Python; run
`python scripts/make_notebook.py` after editing the cells.
"""
import argparse
import hashlib
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "iclr2025_walkthrough.ipynb"

CELLS = [
    ("md", """# From abstracts to answers: the ICLR 2025 list with kg

This notebook builds the knowledge graph of the 19 ICLR 2025 abstracts in `seeds/` through kg's
Python API, looks at what was extracted, asks Cypher questions of the embedded store, finds
related papers with the reasons, shows the interactive view, and plots the top methods and tasks.
Everything runs offline."""),
    ("code", """import os
from pathlib import Path

import kg
from kg import BuildOptions, build

ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
# The build folder: exports/ of the clone, unless KG_WALKTHROUGH_OUT names another (the tests' temp dir).
OUT = Path(os.environ.get("KG_WALKTHROUGH_OUT") or ROOT / "exports" / "iclr2025_walkthrough")
result = build(ROOT / "seeds" / "iclr2025_abstracts.txt", BuildOptions(out=OUT))
print(f"{len(result.corpus.papers)} papers -> {result.entity_counts}")
print(result.resolution.summary)
g = result.graph"""),
    ("md", """## What was extracted from two papers

`g` is a NetworkX `MultiDiGraph` keyed by relationship type: papers and entities are nodes
(attribute `label`), and each paper-to-entity edge carries its evidence: surface forms, spans,
sentences and a confidence."""),
    ("code", """from html import escape

from IPython.display import HTML, display


def table(rows, columns):
    # Escaped: a title or entity may hold "<" or "&" (corpora carry markup).
    head = "".join(f"<th>{escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(r[c]))}</td>" for c in columns) + "</tr>" for r in rows)
    return HTML(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def entities_of(paper_title):
    pid = next(n for n, d in g.nodes(data=True) if d["label"] == "Paper" and d["title"] == paper_title)
    rows = [
        {"type": g.nodes[e]["type"], "entity": g.nodes[e]["name"], "as written": ", ".join(d["surface"]),
         "mentions": d["mentions"], "confidence": round(d["score"], 2)}
        for _, e, d in g.out_edges(pid, data=True) if d["type"] != "RELATED_TO"
    ]
    return pid, sorted(rows, key=lambda r: (r["type"], -r["confidence"]))


for title in ["ThinK", "LOL"]:
    pid, rows = entities_of(title)
    print(f"{title} ({pid})")
    display(table(rows, ["type", "entity", "as written", "mentions", "confidence"]))"""),
    ("md", """## Cypher on the embedded store

The build loaded the graph into LadybugDB, an embedded engine: no server to run. The ready
queries in `queries/` run as they are (and run unchanged on Neo4j after `kg export neo4j`)."""),
    ("code", """from kg.store.querying import read_query
from kg.store import Store

store = Store(result.path / "store")


def run(name, **params):
    res = store.query(read_query(str(ROOT / "queries" / name)), params)
    return table([dict(zip(res.columns, r)) for r in res.rows], res.columns)


display(run("top_methods.cypher"))
display(run("methods_for_task.cypher"))
think_id, _ = entities_of("ThinK")
display(run("papers_sharing_concepts.cypher", paper=think_id))"""),
    ("md", """## Related papers, with the reasons

`kg.analysis.related` ranks papers by the concepts they share, weighting rare concepts more
(docs/related.md has the formula); each row says which concepts were shared."""),
    ("code", """from kg.analysis.related import find_paper, related

pid = find_paper(g, "ThinK")
for row in related(g, pid, k=5):
    reasons = ", ".join(f"{s.name} ({s.type}, in {s.papers} papers)" for s in row.shared)
    print(f"{row.score:6.3f}  {row.title}\\n        shared: {reasons}")"""),
    ("md", """## The interactive view

`index.html` in the build folder is the overview (colour and shape by type, size by degree,
a type filter and a search box). It is self-contained, so it can be shown inline."""),
    ("code", """import html

page = (result.path / "index.html").read_text(encoding="utf-8")
HTML(f'<iframe srcdoc="{html.escape(page)}" style="width:100%;height:620px;border:1px solid #ccc"></iframe>')"""),
    ("md", """## Top methods and tasks"""),
    ("code", """import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
for ax, label in zip(axes, ["Method", "Task"]):
    ents = sorted((n for n, d in g.nodes(data=True) if d["label"] == label),
                  key=lambda n: (-g.nodes[n]["papers"], g.nodes[n]["name"]))[:10]
    ax.barh([g.nodes[n]["name"] for n in ents][::-1], [g.nodes[n]["papers"] for n in ents][::-1])
    ax.set_title(f"Top {label.lower()}s by papers")
    ax.set_xlabel("papers")
fig.tight_layout()
plt.show()"""),
    ("code", """store.close()"""),
]


def notebook() -> nbformat.NotebookNode:
    """The notebook of CELLS, outputs stripped; cell ids follow from position and source, so that
    writing it again changes nothing unless a cell did."""
    nb = new_notebook()
    nb.cells = [new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in CELLS]
    for i, cell in enumerate(nb.cells):
        cell.id = hashlib.sha1(f"{i}:{cell.source}".encode("utf-8")).hexdigest()[:8]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=NOTEBOOK, help=f"where to write (default: {NOTEBOOK.relative_to(ROOT)})")
    args = ap.parse_args()
    nbformat.write(notebook(), args.out)
    print(args.out)


if __name__ == "__main__":
    main()
