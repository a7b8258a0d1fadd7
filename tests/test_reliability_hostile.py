"""Hostile text is data: stored verbatim, passed to Cypher only as parameters, shown escaped.

Abstracts, titles and concept names carry Cypher, quotes, backslashes, ``</script>``
and HTML. Each carries a canary word so the tests can tell whether any of it ever
became part of a Cypher statement (it must not: values travel as parameters) or of
the views' markup and scripts (it must not: it is text there).
"""
from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.graph import build_graph
from kg.graph.io import read_json, write_json
from kg.records import Extraction, Mention, Paper
from kg.concepts.resolve import resolve
from kg.store import Store, write_store

REPO = Path(__file__).resolve().parent.parent
CANARY = "zqxcanary"
PAYLOADS = [
    "'}) MATCH (n) DETACH DELETE n //",
    '"}) CREATE (:Paper {id: "pwned"}) RETURN 1 //',
    "`Paper`) DETACH DELETE p; CALL db.labels() YIELD label RETURN label",
    "$rows $id {id: 'x'} {{ template }} ${injection} %s %(x)s \\' \\\" \\\\ \\u0027",
    "</script><script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\">",
    "<a href=\"javascript:window.__pwned = 3\">link</a> <b>bold</b> &amp; &lt;i&gt; <!-- comment -->",
    "back\\slash\\\\double C:\\new\\table \\textbf{x} \u202eRTL\u202c zero\u200bwidth 模型 🙂",
]
HOSTILE_ABSTRACTS = [f"We propose {CANARY}Net{i} for image classification. {p} It works on ImageNet."
                     for i, p in enumerate(PAYLOADS)]


def hostile_corpus(tmp: Path) -> Path:
    """JSON Lines with hostile abstracts, titles, authors and venues."""
    rows = [{"id": f"h{i}", "title": f"{CANARY} {p}", "abstract": a, "authors": [f"{CANARY} O'Brien", p],
             "venue": p, "year": 2025}
            for i, (a, p) in enumerate(zip(HOSTILE_ABSTRACTS, PAYLOADS))]
    path = tmp / "hostile.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return path


def hostile_extract(corpus, options):
    """Concepts named by the hostile text itself: "<canary>Net<i>" and the payload."""
    out = []
    for p in corpus.papers:
        ms = []
        for surface, etype in ((p.text.split()[2], "Method"), ("image classification", "Task"),
                               ("ImageNet", "Dataset")):
            start = p.text.find(surface)
            ms.append(Mention(surface, etype, start, start + len(surface), p.text, 0.9, "test"))
        payload = p.text[p.text.find("classification.") + len("classification. "):p.text.find(" It works")]
        start = p.text.find(payload)
        if payload.strip():
            ms.append(Mention(payload, "Metric", start, start + len(payload), p.text, 0.5, "test"))
        out.append(Extraction(p.id, tuple(ms), key_concepts=((f"{CANARY} {p.abstract[-40:]}", 0.5),)))
    return out, len(out)


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory):
    """A full build (store, views, related) of the hostile corpus, recording every Cypher statement run."""
    import ladybug

    from kg.builds.pipeline import BuildOptions, build

    tmp = tmp_path_factory.mktemp("hostile")
    statements: list[tuple[str, dict]] = []
    real, real_prepare = ladybug.Connection.execute, ladybug.Connection.prepare

    def recording(self, query, parameters=None, *a, **kw):
        if isinstance(query, str):  # a prepared statement was recorded as its text by prepare
            statements.append((query, parameters or {}))
        return real(self, query, parameters, *a, **kw) if parameters is not None else real(self, query, *a, **kw)

    def recording_prepare(self, query, parameters=None, *a, **kw):
        statements.append((query, parameters or {}))
        return real_prepare(self, query, parameters, *a, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(ladybug.Connection, "execute", recording)
    mp.setattr(ladybug.Connection, "prepare", recording_prepare)
    try:
        result = build(hostile_corpus(tmp), BuildOptions(out=tmp / "out", related_k=3, views=True),
                       extract=hostile_extract)
    finally:
        mp.undo()
    return result, statements


def test_abstracts_titles_and_names_are_stored_verbatim(hostile_build):
    result, _ = hostile_build
    papers = {p.id: p for p in result.corpus.papers}
    assert len(papers) == len(PAYLOADS)
    g = read_json(result.path / "graph.json")
    with Store(result.path / "store") as s:
        rows = s.query("MATCH (p:Paper) RETURN p.id, p.title, p.abstract, p.authors, p.venue").rows
        names = dict(s.query("MATCH (m:Metric) RETURN m.id, m.name").rows)
    assert len(rows) == len(papers)
    for pid, title, abstract, authors, venue in rows:
        p = papers[pid]
        assert abstract == p.abstract == g.nodes[pid]["abstract"]
        assert abstract in HOSTILE_ABSTRACTS  # as the user wrote it, not cleaned or escaped
        assert (title, list(authors), venue) == (p.title, list(p.authors), p.venue)
        assert g.nodes[pid]["title"] == title
    # Concept names made of payloads come back as written (resolution may only trim white space).
    assert names and all(names[e] == g.nodes[e]["name"] for e in names)
    surfaces = {m.text.strip() for ex in hostile_extract(result.corpus, None)[0] for m in ex.mentions
                if m.type == "Metric"}
    assert set(names.values()) == surfaces


def test_corpus_text_never_becomes_cypher(hostile_build):
    result, statements = hostile_build
    assert statements, "the store was not written through ladybug.Connection.execute or prepare"
    for query, params in statements:
        assert CANARY not in query, f"corpus text spliced into Cypher: {query[:200]}"
    # ... and it did reach the store, as data (the Parquet files the COPYs read).
    with Store(result.path / "store") as s:
        assert all(CANARY in title for title, in s.query("MATCH (p:Paper) RETURN p.title").rows)


def test_queries_with_hostile_parameters_find_the_text(hostile_build):
    from typer.testing import CliRunner

    import kg.cli  # noqa: F401  (registers the commands on the app)
    from kg.cli.app import app

    result, _ = hostile_build
    runner = CliRunner()
    for p in result.corpus.papers:
        r = runner.invoke(app, ["query", "MATCH (p:Paper) WHERE p.title = $t RETURN p.id AS id",
                                "--db", str(result.path), "-p", f"t={json.dumps(p.title)}", "--format", "json"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout) == [{"id": p.id}]
    r = runner.invoke(app, ["related", "h4", "--db", str(result.path), "--format", "json"])
    assert r.exit_code == 0, r.output
    json.loads(r.stdout)


# Hypothesis: any text in any string property survives graph.json and the embedded store.
any_text = st.text(max_size=40)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(abstract=st.text(min_size=1, max_size=200), title=any_text, name=st.text(min_size=1, max_size=30),
       authors=st.lists(any_text, max_size=3))
def test_any_text_round_trips_through_graph_json_and_store(tmp_path_factory, abstract, title, name, authors):
    text = f"{name} {abstract}"
    p = Paper(id="x", title=title, abstract=abstract, text=text, source="t", authors=tuple(authors))
    ex = [Extraction("x", (Mention(name, "Method", 0, len(name), text, 0.5, "t"),), key_concepts=((abstract, 0.5),))]
    g = build_graph([p], ex, resolve([p], ex))
    tmp = tmp_path_factory.mktemp("rt")
    write_json(g, tmp / "g.json")
    h = read_json(tmp / "g.json")
    assert dict(h.nodes(data=True)) == dict(g.nodes(data=True))
    write_store(g, tmp / "store")
    with Store(tmp / "store") as s:
        (row,) = s.query("MATCH (p:Paper) RETURN p.title, p.abstract, p.text, p.authors, p.key_concepts").rows
        ents = s.query("MATCH (:Paper)-[r:USES]->(m:Method) RETURN m.id, m.name, m.aliases, r.surface").rows
    assert row == [title, abstract, text, authors, [abstract]]
    (eid, ename, aliases, surface), = ents
    d = g.nodes[eid]
    assert (ename, aliases, surface) == (d["name"], d["aliases"], [name])


# --- the views ---------------------------------------------------------------------------------

class _Markup(HTMLParser):
    """Scripts, event-handler attributes and javascript: links of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts: list[tuple[dict, str]] = []
        self.handlers: list[str] = []
        self.js_links: list[str] = []
        self._script: dict | None = None
        self._buf: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.handlers += [f"{tag} {k}={v}" for k, v in attrs if k.lower().startswith("on")]
        self.js_links += [v for k, v in attrs if k in ("href", "src", "action") and (v or "").strip().lower()
                          .startswith("javascript:")]
        if tag == "script":
            self._script, self._buf = a, []

    def handle_data(self, data):
        if self._script is not None:
            self._buf.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._buf)))
            self._script = None


def test_views_hold_hostile_text_only_as_text(hostile_build):
    result, _ = hostile_build
    pages = [result.path / "index.html", *sorted((result.path / "views").glob("*.html"))]
    assert len(pages) > len(PAYLOADS)
    for page in pages:
        html = page.read_text(encoding="utf-8")
        m = _Markup()
        m.feed(html)
        assert not m.handlers and not m.js_links, f"{page.name}: {m.handlers or m.js_links}"
        for attrs, body in m.scripts:
            if attrs.get("type") == "application/json":
                json.loads(body)  # a data block, whole: no payload closed it early
            else:
                assert "__pwned" not in body and CANARY not in body, f"{page.name}: corpus text in a script"
        # No payload tag survives as markup anywhere in the page.
        assert "<img src=x" not in html and "<script>window.__pwned" not in html, page.name


@pytest.mark.slow
def test_hostile_paper_page_runs_no_script_in_a_browser(hostile_build, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright for Python is not installed")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("chromium not installed (apt-get install chromium)")
    from kg.view import paper_page

    result, _ = hostile_build
    # The overview and the pages of the papers whose payloads are markup (script, img, javascript: link).
    pages = [result.path / "index.html"] + [result.path / "views" / paper_page(p.id)
                                            for p in result.corpus.papers[4:6]]
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page()
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            for path in pages:
                page.goto(path.as_uri())
                page.wait_for_load_state("load")
                page.wait_for_timeout(300)  # let any injected handler (img onerror) fire
                assert page.evaluate("() => window.__pwned") is None, f"{path.name} ran injected script"
                assert page.locator("img[src='x']").count() == 0
            assert dialogs == []
            # The paper's own page shows its abstract as text, payload and all.
            p = result.corpus.papers[4]
            page.goto((result.path / "views" / paper_page(p.id)).as_uri())
            page.wait_for_timeout(300)
            assert PAYLOADS[4] in page.inner_text("body")
        finally:
            browser.close()


# --- the code ----------------------------------------------------------------------------------

_CYPHER = re.compile(r"\b(MATCH|MERGE|CREATE|UNWIND|COPY|RETURN|WHERE|SET|DELETE)\b")


def test_no_cypher_is_built_with_quoted_interpolation():
    """Static check: a Cypher f-string never wraps an interpolation in quotes ('{x}'), which is
    how a value (rather than a label or a property name from kg.schema) gets spliced in."""
    offenders = []
    for path in sorted((REPO / "kg").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            parts = node.values
            consts = "".join(p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str))
            if not _CYPHER.search(consts):
                continue
            for i, part in enumerate(parts):
                if isinstance(part, ast.FormattedValue):
                    before = parts[i - 1].value if i and isinstance(parts[i - 1], ast.Constant) else ""
                    after = parts[i + 1].value if i + 1 < len(parts) and isinstance(parts[i + 1], ast.Constant) else ""
                    if isinstance(before, str) and isinstance(after, str) and before[-1:] in "'\"" and \
                            before[-1:] and after[:1] == before[-1:]:
                        offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not offenders, f"Cypher built with quoted values: {offenders}"
