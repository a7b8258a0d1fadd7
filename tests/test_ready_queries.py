"""The ready queries ship with the package, and the repository's queries/ folder is the same files."""
from __future__ import annotations

from pathlib import Path

from kg.querying import READY_QUERIES, is_ready_query, read_query, ready_queries

REPO_QUERIES = Path(__file__).resolve().parent.parent / "queries"


def test_the_packaged_ready_queries_are_the_repositorys():
    packaged = {p.name: p.read_bytes() for p in READY_QUERIES.glob("*.cypher")}
    copies = {p.name: p.read_bytes() for p in REPO_QUERIES.glob("*.cypher")}
    assert packaged and packaged == copies, "edit kg/queries/ and copy it to queries/ (or the reverse)"
    assert READY_QUERIES.parent.name == "kg"  # inside the package: an installed wheel has them


def test_ready_queries_are_found_by_name_and_as_the_repositorys_files(monkeypatch, tmp_path):
    assert "top_methods" in ready_queries()
    assert read_query("top_methods") == read_query(str(REPO_QUERIES / "top_methods.cypher"))
    assert is_ready_query("top_methods") and is_ready_query(str(REPO_QUERIES / "top_methods.cypher"))
    own = tmp_path / "top_methods.cypher"
    own.write_text("MATCH (m:Method) RETURN m.name LIMIT 3", encoding="utf-8")
    assert not is_ready_query(str(own))  # a query of one's own under a ready query's name
