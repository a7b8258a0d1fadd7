"""The graph, its files and the embedded store hold the same typed data."""
import json

import pytest

from kg import schema
from kg.errors import KgError
from kg.graph import build_graph, paper_text
from kg.graph.io import read_json, write_graphml, write_json
from kg.concepts.resolve import resolve
from kg.store import Store, write_store
from tests.helpers import small_corpus


@pytest.fixture
def graph():
    papers, ex = small_corpus()
    return build_graph(papers, ex, resolve(papers, ex))


def test_papers_link_to_typed_entities_with_evidence(graph):
    e = graph.edges["p1", "Method:policy mirror descent", "USES"]
    assert e["type"] == "USES" and e["mentions"] == 2
    assert e["surface"] == ["Policy Mirror Descent", "PMD"]
    text = paper_text(graph.nodes["p1"])
    assert [text[s:t] for s, t in zip(e["span_starts"], e["span_ends"])] == e["surface"]
    assert graph.edges["p3", "Dataset:minatar", "EVALUATES_ON"]["type"] == "EVALUATES_ON"
    assert graph.edges["p3", "Metric:accuracy", "MEASURES"]["type"] == "MEASURES"
    assert graph.nodes["Dataset:minatar"]["papers"] == 2
    assert graph.nodes["p1"]["key_concepts"] == ["policy mirror descent"]


def test_a_paper_stores_its_abstract_once(tmp_path):
    """``text`` only where cleaning changed the abstract; the spans index whichever holds the clean text."""
    from kg.records import Extraction, Mention, Paper

    plain = Paper(id="a", title="a", abstract="We use BERT.", text="We use BERT.", source="t:1")
    marked = Paper(id="b", title="b", abstract="We use \\textsc{BERT}.", text="We use BERT.", source="t:2")
    ex = [Extraction(p.id, (Mention("BERT", "Method", 7, 11, "We use BERT.", 0.9),)) for p in (plain, marked)]
    g = build_graph([plain, marked], ex, resolve([plain, marked], ex))
    assert g.nodes["a"]["abstract"] == "We use BERT." and g.nodes["a"]["text"] is None
    assert g.nodes["b"]["abstract"] == "We use \\textsc{BERT}." and g.nodes["b"]["text"] == "We use BERT."
    for pid in "ab":
        e = g.edges[pid, "Method:bert", "USES"]
        assert paper_text(g.nodes[pid])[e["span_starts"][0]:e["span_ends"][0]] == "BERT"
    write_store(g, tmp_path / "store")
    with Store(tmp_path / "store") as s:
        rows = s.query("MATCH (p:Paper) RETURN p.id, p.text ORDER BY p.id").rows
    assert rows == [["a", None], ["b", "We use BERT."]]


def test_every_attribute_is_in_the_schema(graph):
    for _, d in graph.nodes(data=True):
        assert set(d) - {"label"} <= set(schema.node_properties(d["label"]))
    for _, _, d in graph.edges(data=True):
        assert set(d) - {"type"} <= set(schema.relationship_properties(d["type"]))


def test_json_round_trip_and_graphml(graph, tmp_path):
    write_json(graph, tmp_path / "g.json")
    back = read_json(tmp_path / "g.json")
    assert dict(back.nodes(data=True)) == dict(graph.nodes(data=True))
    assert sorted(back.edges(data=True)) == sorted(graph.edges(data=True))
    write_graphml(graph, tmp_path / "g.graphml")
    import networkx as nx
    gm = nx.read_graphml(tmp_path / "g.graphml")
    assert gm.number_of_nodes() == graph.number_of_nodes()
    assert json.loads(gm.nodes["Method:policy mirror descent"]["aliases"]) == ["PMD", "Policy Mirror Descent"]


def test_store_answers_cypher_with_the_graph_counts(graph, tmp_path):
    write_store(graph, tmp_path / "store")
    with Store(tmp_path / "store") as s:
        n = s.query("MATCH (p:Paper) RETURN count(p) AS n").rows[0][0]
        assert n == 3
        rows = s.query(
            "MATCH (p:Paper)-[r:USES]->(m:Method) RETURN m.name, count(p) AS n ORDER BY n DESC, m.name"
        ).rows
        assert rows[0] == ["Policy Mirror Descent", 2]
        r = s.query("MATCH (p:Paper {id: $id})-[r:USES]->(m:Method {id: $m}) RETURN r.span_starts, r.surface",
                    {"id": "p1", "m": "Method:policy mirror descent"}).rows
        assert r == [[graph.edges["p1", "Method:policy mirror descent", "USES"]["span_starts"], ["Policy Mirror Descent", "PMD"]]]


def test_store_errors_are_the_engines_one_line_message(graph, tmp_path):
    write_store(graph, tmp_path / "store")
    with Store(tmp_path / "store") as s, pytest.raises(KgError) as exc:
        s.query("MATC (n) RETURN n")
    assert "Parser exception" in str(exc.value) and "\n" not in str(exc.value)


def test_neo4j_habits_get_a_hint_and_unnamed_columns_read_as_written(graph, tmp_path):
    write_store(graph, tmp_path / "store")
    with Store(tmp_path / "store") as s:
        with pytest.raises(KgError, match=r"a relationship's type is label\(r\) here"):
            s.query("MATCH (p:Paper)-[r]->(m) RETURN type(r)")
        result = s.query("MATCH (p:Paper)-[r]->(m) RETURN label(r), count(p), count(DISTINCT p), id(p) LIMIT 1")
    assert result.columns == ["LABEL(r)", "COUNT(p)", "COUNT(DISTINCT p)", "p._ID"]
    with Store(tmp_path / "store") as s:
        with pytest.raises(KgError, match="APOC procedures exist only in Neo4j"):
            s.query('CALL apoc.help("x")')
        with pytest.raises(KgError) as exc:  # "apoc." only inside a string: no APOC hint
            s.query("MATCH (p:Paper) WHERE p.title = 'apoc.x' RETURN p LIMT 1")
        assert "APOC" not in str(exc.value)
        with pytest.raises(KgError, match="read-only: change the corpus and rebuild"):
            s.query("CREATE (:Paper {id: 'x'})")


def test_a_damaged_store_is_named_in_one_line(tmp_path):
    (tmp_path / "store").write_bytes(b"not a database" * 100)
    with pytest.raises(KgError) as exc:
        Store(tmp_path / "store")
    assert str(exc.value).startswith(f"{tmp_path / 'store'}: not a LadybugDB store") and "\n" not in str(exc.value)


def test_schema_doc_names_every_property():
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "schema.md").read_text()
    names = set(schema.PAPER_PROPERTIES) | set(schema.ENTITY_PROPERTIES) | set(schema.MENTION_PROPERTIES) \
        | set(schema.RELATED_PROPERTIES) | set(schema.MENTION_REL.values()) | {schema.RELATED_REL} \
        | set(schema.ENTITY_REL_PROPERTIES) | set(schema.ENTITY_RELS)
    assert all(f"`{n}`" in doc for n in names), [n for n in names if f"`{n}`" not in doc]


@pytest.mark.slow
def test_store_loads_relationship_tables_larger_than_one_batch(tmp_path):
    """Many rows per relationship table load in full (several COPYs into one table crashed ladybug)."""
    import subprocess
    import sys
    from pathlib import Path
    code = f"""
import networkx as nx
import kg.store as st
st._BATCH = 50
g = nx.DiGraph()
for i in range(120):
    g.add_node(f"p{{i}}", label="Paper", title="t", abstract="a", text="a")
for i in range(120):
    for r in range(1, 4):
        g.add_edge(f"p{{i}}", f"p{{(i + r) % 120}}", type="RELATED_TO", score=0.5, rank=r, shared=["x"],
                   shared_types=["Method"], shared_papers=[2])
st.write_store(g, {str(tmp_path / 'store')!r})
with st.Store({str(tmp_path / 'store')!r}) as s:
    print(s.query("MATCH ()-[r:RELATED_TO]->() RETURN count(r)").rows[0][0])
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parent.parent)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "360"


def test_graph_files_keep_awkward_text_readable(tmp_path):
    """Markup, quotes, newlines and control characters in titles and ids survive both graph files."""
    import networkx as nx

    g = nx.DiGraph()
    pid = 'p1 & <x> "q"\n\ttab'
    g.add_node(pid, label="Paper", title="A & B <c> 'd' \"e\" \x01 end", year=2024, aliases=["a", "b&"], url=None)
    g.add_node("Method:m", label="Method", name="m")
    g.add_edge(pid, "Method:m", type="USES", score=0.25, rank=2, shared=["x"])
    write_json(g, tmp_path / "g.json")
    assert json.loads((tmp_path / "g.json").read_text(encoding="utf-8")) == \
        json.loads(json.dumps(nx.node_link_data(g, edges="links")))
    write_graphml(g, tmp_path / "g.graphml")
    gm = nx.read_graphml(tmp_path / "g.graphml")  # well-formed XML despite the \x01
    assert gm.nodes[pid]["title"] == "A & B <c> 'd' \"e\" \ufffd end"
    assert gm.nodes[pid]["year"] == 2024 and "url" not in gm.nodes[pid]
    assert json.loads(gm.nodes[pid]["aliases"]) == ["a", "b&"]
    assert gm.edges[pid, "Method:m"] == {"type": "USES", "score": 0.25, "rank": 2, "shared": '["x"]'}


def test_store_write_grows_a_too_small_buffer_pool(tmp_path, monkeypatch):
    """A graph too big for the engine's write pool is still stored whole: the write is retried with more."""
    import networkx as nx

    import kg.store as store_mod

    g = nx.DiGraph()
    for i in range(2000):
        g.add_node(f"p{i}", label="Paper", title=f"Paper {i}", abstract="word " * 200, text="word " * 200)
        g.add_node(f"Method:m{i % 50}", label="Method", name=f"m{i % 50}")
        g.add_edge(f"p{i}", f"Method:m{i % 50}", type="USES", mentions=1, surface=["m"], sentences=["s " * 50])
    pools: list[int] = []
    write = store_mod._write_tables
    monkeypatch.setattr(store_mod, "_write_tables", lambda *a: pools.append(a[-1]) or write(*a))
    monkeypatch.setattr(store_mod, "_WRITE_POOL_MIN", 2 * 1024 * 1024)
    monkeypatch.setattr(store_mod, "_WRITE_POOL_PER_PAPER", 1)
    write_store(g, tmp_path / "store")
    assert len(pools) > 1 and pools == sorted(pools)  # it failed at least once, then grew
    with Store(tmp_path / "store") as s:
        assert s.query("MATCH (p:Paper)-[:USES]->(m:Method) RETURN count(*), count(DISTINCT m)").rows == [[2000, 50]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]  # no half-written leftovers


def test_a_store_written_beside_other_work_is_whole_when_the_block_ends(graph, tmp_path):
    from kg.store import store_written_meanwhile

    with store_written_meanwhile(graph, tmp_path / "store") as seconds:
        write_json(graph, tmp_path / "g.json")  # what a build does meanwhile
    assert seconds() > 0
    with Store(tmp_path / "store") as s:
        assert s.query("MATCH (p:Paper) RETURN count(p)").rows == [[3]]


def test_a_store_write_that_fails_fails_the_block_and_one_cut_short_stops_the_write(graph, tmp_path):
    import threading

    from kg.store import store_written_meanwhile

    (tmp_path / "taken").mkdir()
    with pytest.raises(KgError, match="already exists"):
        with store_written_meanwhile(graph, tmp_path / "taken"):
            pass
    # The block fails: its error is the one raised, and no writer is left running, so the
    # folder can be removed at once (a build then deletes its half-written folder).
    with pytest.raises(KeyboardInterrupt):
        with store_written_meanwhile(graph, tmp_path / "cut"):
            raise KeyboardInterrupt
    assert not [t for t in threading.enumerate() if t.name == "kg-store-writer"]


def test_a_second_ctrl_c_while_the_writer_stops_still_waits_for_it(graph, tmp_path, monkeypatch):
    import os
    import signal
    import threading
    import time

    import kg.store as store_mod

    def slow_write(g, path, cancelled=None):  # a statement that takes a while to end once cancelled
        while not cancelled():
            time.sleep(0.01)
        time.sleep(0.5)

    monkeypatch.setattr(store_mod, "write_store", slow_write)
    second = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
    with pytest.raises(KeyboardInterrupt):
        with store_mod.store_written_meanwhile(graph, tmp_path / "cut"):
            second.start()  # lands while the block's own Ctrl-C waits for the writer to stop
            raise KeyboardInterrupt
    second.join()
    assert not [t for t in threading.enumerate() if t.name == "kg-store-writer"]


def test_the_store_write_never_holds_a_whole_table(tmp_path):
    """The rows reach the engine through a file written a batch at a time: a table held in memory
    during its copy cost 0.45 GB more at 100k papers, and one held until the store closed, 2 GB."""
    import pyarrow as pa

    from tests.test_export_samples import sample_graph

    g = sample_graph(extra_papers=3000)
    rows = [{p: d.get(p) for p in schema.PAPER_PROPERTIES if p != "id"} for _, d in g.nodes(data=True)
            if d["label"] == schema.PAPER]
    table_bytes = pa.Table.from_pylist(rows).nbytes  # the Paper table in memory (not kept here)
    held = []  # Arrow's allocated bytes between statements: before and after each COPY
    write_store(g, tmp_path / "store", cancelled=lambda: held.append(pa.total_allocated_bytes()) or False)
    assert table_bytes > 300_000
    assert max(held) < table_bytes / 10
    with Store(tmp_path / "store") as store:
        assert store.query("MATCH (p:Paper) RETURN count(p)").rows == [[len(rows)]]
    assert sorted(x.name for x in tmp_path.iterdir()) == ["store"]  # the row files are gone
