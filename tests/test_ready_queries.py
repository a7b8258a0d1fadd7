"""The ready queries ship with the package, and the repository's queries/ folder is the same files."""
from __future__ import annotations

from pathlib import Path

from kg.store.querying import READY_QUERIES, is_ready_query, read_query, ready_queries

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


def test_the_pair_queries_list_pairs_that_two_papers_make(tmp_path):
    from kg.graph import build_graph
    from kg.concepts.resolve import resolve
    from kg.store import Store, write_store
    from tests.helpers import small_corpus

    papers, extractions = small_corpus()  # PMD for reinforcement learning in p1 and p2; NPG in p2 only
    write_store(build_graph(papers, extractions, resolve(papers, extractions)), tmp_path / "store")
    with Store(tmp_path / "store") as store:
        rows = store.query(read_query("method_task_pairs")).rows
    assert [papers for _, _, papers in rows] == [2]
    method, task, _ = rows[0]
    assert "PMD" in method or "Policy Mirror Descent" in method
    assert task == "reinforcement learning"
