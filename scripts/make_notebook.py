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

This notebook builds the knowledge graph of the 19 ICLR 2025 abstracts in `seeds/` with kg's
Python API (`import kg`, docs/python.md), looks at what was extracted, asks Cypher questions of the
embedded store, finds related papers with the reasons (by all concepts, then by method), asks
for trends, shows the interactive view, and plots the top methods and tasks. Everything runs offline."""),
    ("code", """import os
from pathlib import Path

import kg

ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
# The build folder: exports/ of the clone, unless KG_WALKTHROUGH_OUT names another (the tests' temp dir).
OUT = Path(os.environ.get("KG_WALKTHROUGH_OUT") or ROOT / "exports" / "iclr2025_walkthrough")
# What `kg build` does, with its defaults (kg.BuildOptions); the build written is returned.
# kg.open_build(OUT) opens it again later, without building.
b = kg.build(ROOT / "seeds" / "iclr2025_abstracts.txt", out=OUT)
print(f"{b.manifest.papers} papers -> {b.manifest.entities}")
print(b.manifest.resolution)
g = b.graph()"""),
    ("md", """## What was extracted from two papers

`g` is a NetworkX `MultiDiGraph` keyed by relationship type: papers and entities are nodes
(attribute `label`), and each paper-to-entity edge carries its evidence: surface forms, spans,
sentences and a confidence. `b.find` names a paper or a concept as `kg related` and `kg view` do."""),
    ("code", """from html import escape

from IPython.display import HTML, display


def table(rows, columns=None):
    # Escaped: a title or entity may hold "<" or "&" (corpora carry markup).
    columns = columns or (list(rows[0]) if rows else [])
    head = "".join(f"<th>{escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(r[c]))}</td>" for c in columns) + "</tr>" for r in rows)
    return HTML(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def entities_of(pid):
    rows = [
        {"type": g.nodes[e]["type"], "entity": g.nodes[e]["name"], "as written": ", ".join(d["surface"]),
         "mentions": d["mentions"], "confidence": round(d["score"], 2)}
        for _, e, d in g.out_edges(pid, data=True) if d["type"] != "RELATED_TO"
    ]
    return sorted(rows, key=lambda r: (r["type"], -r["confidence"]))


for title in ["ThinK", "LOL"]:
    paper = next(f for f in b.find(title) if f.kind == "paper")
    print(f"{paper.name} ({paper.id})")
    display(table(entities_of(paper.id), ["type", "entity", "as written", "mentions", "confidence"]))"""),
    ("md", """## Cypher on the embedded store

The build loaded the graph into LadybugDB, an embedded engine: no server to run. `b.query` takes a
statement, a `.cypher` file or a ready query's name, with `$parameters` as keywords, and gives the
rows as dicts. The ready queries in `queries/` run unchanged on Neo4j after `kg export neo4j`."""),
    ("code", """display(table(b.query("top_methods")))
display(table(b.query("methods_for_task")))
think = b.find("ThinK")[0].id
display(table(b.query("papers_sharing_concepts", paper=think)))
display(table(b.query("MATCH (p:Paper)-[:ADDRESSES]->(t:Task) WHERE p.id = $paper RETURN t.name AS task", paper=think)))"""),
    ("md", """## Related papers, with the reasons

`b.related` ranks papers by the concepts they share, weighting rare concepts more
(docs/related.md has the formula); each row says which concepts were shared. `by="method"`
compares the methods only (or `"task"`, `"dataset"`): papers close in how they work."""),
    ("code", """def show(rows):
    for row in rows:
        reasons = ", ".join(f"{s.name} ({s.type}, in {s.papers} papers)" for s in row.shared)
        print(f"{row.score:6.3f}  {row.title}\\n        shared: {reasons}")


show(b.related("ThinK", k=5))
print("\\nBy method:")
show(b.related("ThinK", k=5, by="method"))"""),
    ("md", """## Trends

`b.trends()` lists the concepts rising, falling and emerging between a corpus's first and last
years (`kg trends`). This list has no years, so it says why it cannot; a corpus whose records
carry a year (JSON, CSV, BibTeX, RIS...) gets the tables."""),
    ("code", """try:
    t = b.trends(type="Method", top=5)
except kg.KgError as why:
    print(f"no trends: {why}")
else:
    for section in ("rising", "falling", "emerging"):
        print(section, [c.name for c in getattr(t, section)])"""),
    ("md", """## The interactive view

`index.html` in the build folder is the overview: a labelled map of the concepts most papers name,
placed so that concepts named together sit together, sized by papers, coloured by research theme (or
by average year in a corpus of several years). Open it in a browser: a click on a concept opens its
page in `views/`, which lists its papers. Shown inline here, the map can be panned and zoomed."""),
    ("code", """import html

page = (b.path / "index.html").read_text(encoding="utf-8")
HTML(f'<iframe srcdoc="{html.escape(page)}" style="width:100%;height:620px;border:1px solid #ccc"></iframe>')"""),
    ("md", """## Top methods and tasks

`b.stats()` is `kg stats`: what the build holds, and its most used specific entities per type."""),
    ("code", """import matplotlib.pyplot as plt

stats = b.stats(top=10)
fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
for ax, label in zip(axes, ["Method", "Task"]):
    top = stats.top[label][::-1]
    ax.barh([e.name for e in top], [e.papers for e in top])
    ax.set_title(f"Top {label.lower()}s by papers")
    ax.set_xlabel("papers")
fig.tight_layout()
plt.show()"""),
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
