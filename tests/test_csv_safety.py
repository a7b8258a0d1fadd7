"""CSV from `kg query`, `kg related` and `kg stats` opens in a spreadsheet as text, never as formulas."""
from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from kg.cli.app import app
from kg.cli.common import FORMULA_START, spreadsheet_safe
from kg.builds.pipeline import BuildOptions, build
from kg.records import Extraction
from tests.helpers import mention

FORMULA_TITLE = '=HYPERLINK("http://example.invalid","click")'
PAPERS = [
    ("p_formula", FORMULA_TITLE, "We train @risk nets for image segmentation on Cityscapes."),
    ("p_plain", "Segmenting streets", "We train @risk nets for image segmentation on Cityscapes again."),
    ("p_minus", "-1 trick for nets", "+Plus nets for image segmentation on Cityscapes."),
]
ENTITIES = [("@risk nets", "Method"), ("+Plus nets", "Method"), ("image segmentation", "Task"), ("Cityscapes", "Dataset")]


def _extract(corpus, options):
    out = []
    for p in corpus.papers:
        found = tuple(mention(p, s, t) for s, t in ENTITIES if s in p.text)
        out.append(Extraction(p.id, found, key_concepts=()))
    return out, len(out)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("csv")
    corpus = tmp / "formulas.jsonl"
    corpus.write_text("".join(json.dumps({"id": i, "title": t, "abstract": a}) + "\n" for i, t, a in PAPERS),
                      encoding="utf-8")
    build(corpus, BuildOptions(out=tmp / "build", views=False, cache_dir=None, workers=1), extract=_extract)
    return tmp / "build"


def _csv(*args: str) -> list[list[str]]:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return list(csv.reader(io.StringIO(res.output)))


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _no_formula(rows: list[list[str]]) -> None:
    """No text cell starts a formula (a number such as -1 is no text)."""
    cells = [c for row in rows for c in row if not _number(c)]
    assert not [c for c in cells if c.startswith(FORMULA_START)], rows


def test_a_formula_title_from_kg_query_is_text(db):
    rows = _csv("query", "MATCH (p:Paper) RETURN p.id AS id, p.title AS title, -1 AS n, -2.5 AS x ORDER BY id",
                "--db", str(db), "--format", "csv")
    _no_formula(rows)
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["p_formula"][1] == "'" + FORMULA_TITLE
    assert by_id["p_minus"][1] == "'-1 trick for nets"
    assert by_id["p_plain"][1:] == ["Segmenting streets", "-1", "-2.5"]  # numbers stay numbers


def test_a_formula_title_from_kg_related_is_text(db):
    rows = _csv("related", "p_plain", "--db", str(db), "-f", "csv")
    _no_formula(rows)
    titles = [r[rows[0].index("title")] for r in rows[1:]]
    assert "'" + FORMULA_TITLE in titles
    pairs = _csv("related", "--all", "--db", str(db), "-f", "csv")
    _no_formula(pairs)


def test_formula_like_entity_names_from_kg_stats_are_text(db):
    rows = _csv("stats", "--db", str(db), "--format", "csv")
    _no_formula(rows)
    assert rows[0] == ["kind", "type", "name", "tail", "papers"]
    names = {r[2]: r[4] for r in rows[1:] if r[0] == "entity"}
    assert names["'@risk nets"] == "2" and names["'+Plus nets"] == "1"


@pytest.mark.parametrize("value,safe", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("a=b", "a=b"), ("", ""), (-1, -1), (-2.5, -2.5), (None, None), (True, True),
])
def test_only_text_that_starts_a_formula_is_marked(value, safe):
    assert spreadsheet_safe(value) == safe
