"""The `kg` command as a user runs it: build the seed list, query it, and get one-line errors."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.records import Extraction

pytestmark = pytest.mark.slow  # kg in a subprocess; seed_build (tests/conftest.py): the seed list built once
ROOT = Path(__file__).parent.parent
SEED = ROOT / "seeds" / "iclr2025_abstracts.txt"


def kg(*args: str, cwd: Path = ROOT, check: bool = False) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "kg", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"kg {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def query(build: Path, cypher: str, *params: str) -> list[dict]:
    args = ["query", cypher, "--db", str(build), "--format", "json"]
    for p in params:
        args += ["--param", p]
    return json.loads(kg(*args, check=True).stdout)


def test_build_writes_every_output(seed_build):
    for name in ("build.json", "graph.json", "graph.graphml", "store", "index.html"):
        assert (seed_build / name).exists(), name
    manifest = json.loads((seed_build / "build.json").read_text())
    assert manifest["papers"] == 19


def test_lol_paper_links_to_a_method_node_for_lol(seed_build):
    rows = query(seed_build, "MATCH (p:Paper {title: 'LOL'})-[:USES]->(m:Method) RETURN m.name AS name, m.aliases AS aliases")
    forms = {f for r in rows for f in [r["name"], *r["aliases"]]}
    assert "LOL" in forms, rows


def test_think_paper_links_to_the_models_it_names(seed_build):
    rows = query(seed_build, "MATCH (p:Paper {title: 'ThinK'})-[:USES]->(m:Method) RETURN m.name AS name, m.aliases AS aliases")
    forms = {f.lower() for r in rows for f in [r["name"], *r["aliases"]]}
    for name in ("llama", "mistral", "kivi"):
        assert any(name in f for f in forms), (name, forms)


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "queries").glob("*.cypher")))
def test_every_ready_query_runs_on_the_embedded_store(seed_build, name):
    paper = query(seed_build, "MATCH (p:Paper {title: 'LOL'}) RETURN p.id AS id")[0]["id"]
    # Each ready query takes the parameters it uses; one it does not use is only a warning.
    proc = kg("query", f"queries/{name}", "--db", str(seed_build), "--param", f"paper={paper}",
              "--param", "name=LOL", "--param", "task=reinforcement learning")
    assert proc.returncode == 0, proc.stderr
    assert "row" in proc.stdout.splitlines()[-1]


def test_top_methods_prints_a_table(seed_build):
    out = kg("query", "queries/top_methods.cypher", "--db", str(seed_build), check=True).stdout
    header, rule, first = out.splitlines()[:3]
    assert header.split() == ["method", "papers"] and set(rule.replace(" ", "")) == {"-"}
    assert int(first.split()[-1]) >= 1


def test_query_formats(seed_build):
    csv_out = kg("query", "MATCH (p:Paper) RETURN p.id AS id ORDER BY id LIMIT 2", "--db", str(seed_build),
                 "--format", "csv", check=True).stdout.splitlines()
    assert csv_out[0] == "id" and len(csv_out) == 3


def test_query_syntax_error_prints_the_engines_message(seed_build):
    proc = kg("query", "MATC (n) RETURN n", "--db", str(seed_build))
    assert proc.returncode == 2
    assert proc.stderr.startswith("kg: error:") and "Parser exception" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_ready_queries_run_by_name_from_any_folder(seed_build, tmp_path):
    for name in ("top_methods", "queries/top_methods.cypher"):
        rows = json.loads(kg("query", name, "--db", str(seed_build), "--format", "json", cwd=tmp_path,
                             check=True).stdout)
        assert rows and set(rows[0]) == {"method", "papers"}
    proc = kg("query", "top_method", "--db", str(seed_build), cwd=tmp_path)
    assert proc.returncode == 2 and "no such query file" in proc.stderr and "top_methods" in proc.stderr


def test_view_of_an_empty_name_is_an_error_not_the_overview(seed_build):
    before = (seed_build / "index.html").stat().st_mtime_ns
    proc = kg("view", "--concept", "", "--db", str(seed_build))
    assert proc.returncode == 2 and "--concept needs a value" in proc.stderr
    assert (seed_build / "index.html").stat().st_mtime_ns == before


def test_query_needs_its_documented_parameter(seed_build):
    proc = kg("query", "queries/papers_sharing_concepts.cypher", "--db", str(seed_build))
    assert proc.returncode == 2 and "--param paper=" in proc.stderr


def test_a_title_given_for_a_paper_id_finds_nothing_and_says_which_id_was_meant(seed_build):
    """`kg related ThinK` takes title words; a ready query's $paper is an id, and a user who gives
    the title gets no rows and, on stderr, the id to give instead."""
    think = kg("query", "paper_entities", "-p", "paper=ThinK", "--db", str(seed_build))
    (pid,) = [r["p.id"] for r in query(seed_build, "MATCH (p:Paper) WHERE p.title STARTS WITH 'ThinK' RETURN p.id")]
    assert think.returncode == 0 and "(0 rows)" in think.stdout
    assert f"-p paper={pid}" in think.stderr and "no paper has the id 'ThinK'" in think.stderr
    nothing = kg("query", "paper_entities", "-p", "paper=no such words", "--db", str(seed_build))
    assert "no paper has the id 'no such words'" in nothing.stderr and "kg related" in nothing.stderr
    found = kg("query", "paper_entities", "-p", f"paper={pid}", "--db", str(seed_build))
    assert "(0 rows)" not in found.stdout and found.stderr == ""

@pytest.mark.parametrize("cypher,params,message", [
    ("MATCH (n) RETURN count(n); MATCH (p:Paper) RETURN p.id", [], "holds 2 statements"),
    ("MATCH (p:Paper {id: $y}) RETURN p.id", [], "needs --param y=VALUE"),
    ("queries/paper_entities.cypher", ["papr=x"], "--param papr is not one it uses"),
    ("MATCH (p:Paper {id: $id}) RETURN p.id", ["id=a", "id=b"], "--param id given twice"),
])
def test_query_statements_and_parameters_are_checked(seed_build, cypher, params, message):
    args = ["query", cypher, "--db", str(seed_build)] + [a for p in params for a in ("-p", p)]
    proc = kg(*args)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_an_unused_parameter_is_a_warning(seed_build):
    proc = kg("query", "MATCH (p:Paper) RETURN count(p) AS n", "--db", str(seed_build), "-p", "paper=x", "-f", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout) == [{"n": 19}]
    assert "--param paper: not used by the query (it uses no parameters)" in proc.stderr


def test_two_columns_of_one_name_are_both_kept(seed_build):
    rows = query(seed_build, "MATCH (p:Paper {title: 'LOL'}) RETURN p.id AS id, p.title AS id")
    assert rows == [{"id": rows[0]["id"], "id_2": "LOL"}]


def test_semicolons_and_dollars_inside_strings_are_text(seed_build):
    assert query(seed_build, "MATCH (p:Paper) WHERE p.title = 'a;b $c' RETURN p.id // one; $x") == []


def test_an_id_that_reads_as_a_number_still_finds_its_paper(tmp_path):
    from kg.builds.pipeline import BuildOptions, build

    corpus = tmp_path / "arxiv.jsonl"
    ids = ["2410.01234", "12345", "true"]
    corpus.write_text("".join(json.dumps({"id": i, "abstract": f"Abstract number {n} about graphs."}) + "\n"
                              for n, i in enumerate(ids)))
    out = tmp_path / "b"
    build(corpus, BuildOptions(out=out, views=False), extract=lambda c, o: ([Extraction(p.id, (), ()) for p in c.papers], 0))
    for pid in ids:
        assert query(out, "MATCH (p:Paper {id: $paper}) RETURN p.id AS id", f"paper={pid}") == [{"id": pid}]
    assert len(query(out, "MATCH (p:Paper) RETURN p.id LIMIT $k", "k=2")) == 2  # a number where one is meant
    # Compared in WHERE, the number cannot be cast to the text property: the text is what was meant.
    assert query(out, "MATCH (p:Paper) WHERE p.id = $id RETURN p.id AS id", "id=12345") == [{"id": "12345"}]
    assert query(out, "MATCH (p:Paper) WHERE p.id IN $ids RETURN p.id AS id ORDER BY id",
                 "ids=[12345, 2410.01234]") == [{"id": "12345"}, {"id": "2410.01234"}]
    # Neither reading fits an integer property: the engine's error, saying what was tried.
    proc = kg("query", "MATCH (p:Paper) WHERE p.year = $y RETURN p.id", "--db", str(out), "-p", "y=[1]")
    assert proc.returncode == 2 and 'was read as [1], then as ["1"]: neither fits' in proc.stderr, proc.stderr
    # A syntax error is not a parameter's fault: no retry, no hint.
    proc = kg("query", "MATCH (p:Paper) RETURN p.id LIMT $k", "--db", str(out), "-p", "k=3")
    assert proc.returncode == 2 and "Parser exception" in proc.stderr and "--param" not in proc.stderr


def test_a_result_cut_by_the_querys_limit_says_there_may_be_more(seed_build):
    proc = kg("query", "MATCH (p:Paper) RETURN p.id LIMIT 3", "--db", str(seed_build))
    assert proc.returncode == 0 and "3 rows, the query's LIMIT; there may be more" in proc.stderr
    proc = kg("query", "MATCH (p:Paper) RETURN p.id LIMIT $k", "--db", str(seed_build), "-p", "k=2")
    assert proc.returncode == 0 and "2 rows, the query's LIMIT" in proc.stderr
    proc = kg("query", "top_methods", "--db", str(seed_build))  # a ready "top 20": its limit is the point
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 20 + 3 and "LIMIT" not in proc.stderr
    for cypher in ("MATCH (p:Paper) RETURN p.id LIMIT 30",  # 19 rows: nothing was cut
                   "MATCH (p:Paper) RETURN count(p) AS n LIMIT 1",  # one row is all an aggregate has
                   "MATCH (p:Paper) RETURN p.id LIMIT 0 UNION ALL MATCH (p:Paper) RETURN p.id LIMIT 2"):
        proc = kg("query", cypher, "--db", str(seed_build))
        assert proc.returncode == 0 and "LIMIT" not in proc.stderr, cypher


def test_a_query_never_writes_files(seed_build, tmp_path):
    target = tmp_path / "rows.csv"
    for cypher in (f"COPY (MATCH (p:Paper) RETURN p.id) TO '{target}'",
                   f"PROFILE COPY (MATCH (p:Paper) RETURN p.id) TO '{target}'",
                   f"EXPLAIN EXPORT DATABASE '{tmp_path / 'db'}'"):
        proc = kg("query", cypher, "--db", str(seed_build))
        assert proc.returncode == 2 and "--format csv" in proc.stderr, cypher
    assert not target.exists() and not (tmp_path / "db").exists()


def test_a_runaway_query_stops_at_the_timeout_with_a_hint(seed_build):
    proc = kg("query", "MATCH (a)-[*]-(b) RETURN count(*)", "--db", str(seed_build), "--timeout", "1")
    assert proc.returncode == 2, proc.stderr
    assert "ran longer than 1 s" in proc.stderr and "keep its bound small, e.g. [*1..3]" in proc.stderr


def test_no_build_yet_says_what_to_do(tmp_path):
    proc = kg("query", "MATCH (n) RETURN n", cwd=tmp_path)
    assert proc.returncode == 2 and "kg build" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("name,content,message", [
    ("missing.txt", None, "no such file"),
    ("empty.txt", "", "file is empty"),
    ("bad.jsonl", '{"abstract": "fine"}\n{oops\n', "bad.jsonl:2: malformed JSON line (Expecting property name"),
    ("cut.jsonl", '{"abstract": "fine"}\n{"abstract": "cut sho\n',
     "cut.jsonl:2: malformed JSON line (Unterminated string starting at column 14)"),
    ("bad.json", '[{"abstract": "fine"},]', "bad.json:1: malformed JSON (Expecting value at column 23)"),
    ("nocol.csv", "title\nx\n", "no 'abstract' column"),
    ("latin.txt", b"caf\xe9\n", "not UTF-8"),
    ("noabs.json", '[{"title": "x"}]', "no abstracts found"),
])
def test_bad_input_gets_one_line_exit_2_and_no_output(tmp_path, name, content, message):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    out = tmp_path / "out"
    proc = kg("build", str(path), "--out", str(out), "--quiet")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kg: error:") and message in lines[0], proc.stderr
    assert not out.exists()


@pytest.mark.parametrize("args,message", [
    (["build", str(SEED), "--workers", "0"], "Invalid value for '--workers'"),
    (["related", "ThinK", "-k", "-1"], "Invalid value for '-k'"),
    (["query", "MATCH (n) RETURN n", "--format", "xml"], "Invalid value for '--format' / '-f': 'xml' is not one of"),
    (["eval", "gold.jsonl", "--match", "fuzzy"], "Invalid value for '--match': 'fuzzy' is not one of 'exact', 'partial'"),
    (["build"], "Missing argument"),
    (["nosuch"], "No such command"),
])
def test_usage_errors_are_a_message_and_exit_2_not_a_traceback(args, message):
    proc = kg(*args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) <= 4


def test_build_never_replaces_a_folder_or_file_that_is_not_a_build(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("a week of work")
    note = tmp_path / "notes.txt"
    note.write_text("more work")
    for out in (mine, note):
        proc = kg("build", str(SEED), "--out", str(out), "--quiet")
        assert proc.returncode == 2 and str(out) in proc.stderr and "Traceback" not in proc.stderr
    link = tmp_path / "link"
    link.symlink_to(mine)
    proc = kg("build", str(SEED), "--out", str(link), "--quiet")
    assert proc.returncode == 2 and "symbolic link" in proc.stderr and link.is_symlink()
    assert (mine / "notes.txt").read_text() == "a week of work" and note.read_text() == "more work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "mine", "notes.txt"]  # nothing else written


def test_a_cache_that_cannot_be_written_is_reported_before_extracting(tmp_path):
    not_a_folder = tmp_path / "cache.txt"
    not_a_folder.write_text("x")
    proc = kg("build", str(SEED), "--out", str(tmp_path / "out"), "--cache", str(not_a_folder))
    assert proc.returncode == 2 and "cannot hold the extraction cache" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and "extracting" not in proc.stderr  # before any model work
    assert not (tmp_path / "out").exists()


def test_a_rebuild_keeps_the_users_files_and_names_the_corpus_it_replaces(tmp_path):
    from kg.builds.pipeline import BuildOptions, build

    def no_extraction(corpus, options):
        return [Extraction(p.id, (), ()) for p in corpus.papers], 0

    a, b = tmp_path / "a" / "abstracts.txt", tmp_path / "b" / "abstracts.txt"
    for path, text in ((a, "A first abstract about graph learning."), (b, "A second abstract about parsing.")):
        path.parent.mkdir()
        path.write_text(text)
    out = tmp_path / "exports" / "abstracts"
    build(a, BuildOptions(out=out, views=False), extract=no_extraction)
    said: list[str] = []
    build(b, BuildOptions(out=out, views=False), extract=no_extraction, warn=said.append)
    assert said == [f"{out}: replacing the build of {a.resolve()} (give another --out to keep both)"]
    (out / "my_notes.md").write_text("mine")
    (out / "views").mkdir()
    (out / "views" / "figure.png").write_text("mine too")
    proc = kg("build", str(b), "--out", str(out), "--no-cache")
    assert proc.returncode == 2 and "also holds my_notes.md, views/figure.png" in proc.stderr, proc.stderr
    assert (out / "my_notes.md").read_text() == "mine" and (out / "views" / "figure.png").is_file()


def test_every_name_kg_writes_in_a_build_is_known_as_its_own():
    from kg.builds import ASSET_FILE, PAGE_FILE
    from kg.view import concept_page, paper_page
    from kg.view.render import ASSETS

    assert all(ASSET_FILE.fullmatch(name) for name in ASSETS)
    assert PAGE_FILE.fullmatch(paper_page("2410.01234")) and PAGE_FILE.fullmatch(concept_page("Method:Ünïcode / LLMs"))


@pytest.mark.parametrize("db,message", [("missing", "no such build folder"), ("empty", "not a kg build folder")])
def test_a_db_that_is_not_a_build_says_what_it_is(tmp_path, db, message):
    (tmp_path / "empty").mkdir()
    proc = kg("query", "top_methods", "--db", str(tmp_path / db))
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_the_next_commands_can_be_pasted_into_a_shell(tmp_path):
    import shlex

    from kg.cli.build import summary
    from kg.builds.pipeline import BuildOptions, build

    corpus = tmp_path / "my papers.jsonl"
    corpus.write_text(json.dumps({"title": 'Title, with "quotes" & <b>', "abstract": "An abstract."}) + "\n")
    out = tmp_path / "my build"
    result = build(corpus, BuildOptions(out=out, views=False),
                   extract=lambda c, o: ([Extraction(p.id, (), ()) for p in c.papers], 0))
    lines = summary(result).split("Next:\n")[1].splitlines()
    related = shlex.split(lines[1])
    assert related[:2] == ["kg", "related"] and related[2] == 'Title, with "quotes" & <b>'
    assert related[3:] == ["--db", str(out)]


def test_the_next_command_names_a_paper_by_id_when_its_title_is_not_unique(tmp_path):
    from kg.cli.build import summary
    from kg.builds.pipeline import BuildOptions, build

    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps({"id": i, "title": "Same title", "abstract": f"Abstract {i}."}) + "\n"
                              for i in ("a1", "a2")))
    result = build(corpus, BuildOptions(out=tmp_path / "b", views=False),
                   extract=lambda c, o: ([Extraction(p.id, (), ()) for p in c.papers], 0))
    assert "  kg related a1 --db " in summary(result)


def test_related_reads_stored_links_only_from_its_own_ranking_version(seed_build, tmp_path):
    import shutil

    from kg.builds import Build
    from kg.analysis.related.stored import _stored_related as _stored

    copy = tmp_path / "build"
    shutil.copytree(seed_build, copy)
    assert _stored(Build(copy), "ThinK", 5) is not None  # this kg's links: read from the store
    manifest = json.loads((copy / "build.json").read_text())
    manifest["related_version"] = "an older ranking"
    (copy / "build.json").write_text(json.dumps(manifest))
    assert _stored(Build(copy), "ThinK", 5) is None  # ranked afresh, as -k above the stored links is
    rows = json.loads(kg("related", "ThinK", "-k", "3", "-f", "json", "--db", str(copy), check=True).stdout)
    assert len(rows) == 3


def test_kg_without_arguments_prints_the_tour():
    proc = kg()
    assert proc.returncode == 0 and "kg build" in proc.stdout and "kg query" in proc.stdout



def test_version_is_the_installed_packages():
    from importlib.metadata import version

    proc = kg("--version")
    assert (proc.returncode, proc.stdout) == (0, f"kg {version('kg')}\n")


@pytest.mark.parametrize("command", [["build"], ["query"], ["related"], ["view"], ["stats"], ["eval"],
                                     ["export", "neo4j"], ["export", "neo4j-import"], ["export", "cypher"]])
def test_help_names_values_for_users_not_python_types(command):
    """Each option's value has a name that says what to give (--workers N, --param NAME=VALUE), not
    the Python type behind it (<int range>, <list[str]>)."""
    proc = kg(*command, "--help", check=True)
    assert "Example" in proc.stdout or "kg " in proc.stdout
    for python_type in ("range>", "list[", "<str>", "<int>", "<float>"):
        options = proc.stdout.partition("Options:")[2]
        assert python_type not in options, (command, python_type)

def test_a_long_run_of_input_warnings_is_cut_short_and_kept_in_the_manifest(tmp_path):
    # A reference manager's export often has no abstracts: one line per entry would bury the summary.
    entries = "".join(f"@article{{k{i}, title={{Title {i}}}, year=2020}}\n" for i in range(30))
    entries += ("@article{real, title={Real}, abstract={We propose FooNet, a network for parsing long documents, "
                "and evaluate it on the Penn Treebank.}}\n")
    bib = tmp_path / "library.bib"
    bib.write_text(entries)
    out = tmp_path / "out"
    proc = kg("build", str(bib), "--out", str(out), "--no-views", "--no-keybert", "--no-cache", "--quiet")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 21 and lines[0] == f"kg: warning: {bib}:1: no abstract; skipped"
    assert lines[-1] == f'kg: warning: ... and 10 more like these; {out / "build.json"} lists them all under "warnings"'
    assert len(json.loads((out / "build.json").read_text())["warnings"]) == 30


def test_stats_reports_a_build_without_rebuilding_it(seed_build):
    proc = kg("stats", "--db", str(seed_build), check=True)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"{seed_build}/") and "  papers        19  (1 skipped, 0 duplicates merged)" in lines
    manifest = json.loads((seed_build / "build.json").read_text())
    assert f"  resolution    {manifest['resolution']};" in proc.stdout
    assert any(line.startswith("  top methods   ") for line in lines)
    report = json.loads(kg("stats", "--db", str(seed_build), "--format", "json", "--top", "2", check=True).stdout)
    assert report["papers"] == 19 and report["entities"] == manifest["entities"]
    methods = report["top"]["Method"]
    assert len(methods) == 2 and methods[0]["papers"] >= methods[1]["papers"] >= 1
    assert 0 < report["merged_entities"] < sum(report["entities"].values())



@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc, where nothing can be created")
@pytest.mark.parametrize("command", [["export", "cypher"], ["export", "neo4j-import"]])
def test_an_output_path_that_cannot_be_created_is_one_line_naming_it(seed_build, command):
    proc = kg(*command, "--db", str(seed_build), "--out", "/proc/kg-test-export")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kg: error: ") and "/proc" in lines[0], proc.stderr


def test_build_takes_a_format_by_name_and_lists_them(tmp_path):
    from kg.corpus import FORMAT_NAMES

    help_text = " ".join(kg("build", "--help", check=True).stdout.split())
    assert all(name in help_text for name in FORMAT_NAMES)
    corpus = tmp_path / "notes.txt"
    corpus.write_text("We study parsing.\n", encoding="utf-8")
    proc = kg("build", str(corpus), "--format", "yaml", cwd=tmp_path)
    assert proc.returncode == 2 and "yaml" in proc.stderr and "Traceback" not in proc.stderr


def test_related_finds_a_paper_by_a_concept_it_names_from_the_store(seed_build):
    """`kg related FedBiscuit`: no title holds the name, the federated-RLHF paper's concepts do."""
    (pid,) = [r["p.id"] for r in query(seed_build, "MATCH (p:Paper) WHERE p.abstract CONTAINS 'FedBiscuit' RETURN p.id")]
    out = kg("related", "FedBiscuit", "-k", "3", "--db", str(seed_build), check=True).stdout
    assert out.startswith(f"Related to {pid}:")
    assert "RLHF" in out.split("\n", 3)[3]  # its first neighbour shares RLHF: the reward-hacking paper


def test_the_seed_builds_themes_keep_the_rlhf_papers_together(seed_build):
    rows = query(seed_build, "topics")
    assert rows and [r["topic"] for r in rows] == list(range(1, len(rows) + 1))
    themes = {r["id"]: r["t"] for r in query(
        seed_build, "MATCH (p:Paper) WHERE p.abstract CONTAINS 'RLHF' OR p.abstract CONTAINS 'reward hacking' "
                    "RETURN p.id AS id, p.topic AS t")}
    assert len(themes) >= 2 and len(set(themes.values())) == 1, themes


def test_known_datasets_that_cannot_be_read_get_one_line_before_any_work(tmp_path):
    out = tmp_path / "out"
    proc = kg("build", str(SEED), "--out", str(out), "--quiet", "--known-datasets", str(tmp_path / "nope.txt"))
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert lines[0].startswith("kg: error:") and "nope.txt" in lines[0] and "known dataset names" in lines[0]
    assert not out.exists()
