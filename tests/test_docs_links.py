"""Every relative link in README.md, exports/README.md and docs/ leads somewhere: to a file of the
repository and, when it names a heading (`file.md#heading`, `#heading`), to a heading of that file,
as GitHub names them. Links to the web are not followed (the tests run offline)."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "exports" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).+?\1")
# [text](target) and ![alt](target), the target up to a space (a title may follow) or the ")".
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text: str):
    """(line number, line) outside fenced code blocks, with inline code spans blanked."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced and not line.startswith("    "):
            yield n, CODE_SPAN.sub("", line)


def links(text: str) -> list[tuple[int, str]]:
    found = []
    for n, line in prose_lines(text):
        found += [(n, m.group(1)) for m in INLINE.finditer(line)]
        m = REFERENCE.match(line)
        if m:
            found.append((n, m.group(1)))
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text (a link's text, no markup) in lower case, punctuation
    dropped, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[*`]", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if m:
            base = slug(m.group(2))
            k = seen.get(base, 0)
            seen[base] = k + 1
            out.add(base if k == 0 else f"{base}-{k}")
    return out


def broken_links(doc: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with ``doc``'s relative links, one line each (empty: nothing)."""
    problems = []
    for n, target in links(doc.read_text(encoding="utf-8")):
        if SCHEME.match(target) or target.startswith("//"):
            continue  # the web, mail: not followed offline
        path, _, anchor = target.partition("#")
        dest = (doc.parent / unquote(path)).resolve() if path else doc
        where = f"{doc.relative_to(root)}:{n}: {target}"
        if not dest.exists():
            problems.append(f"{where}: no such file")
        elif root.resolve() not in dest.parents and dest != root.resolve():
            problems.append(f"{where}: outside the repository")
        elif anchor and dest.suffix == ".md" and unquote(anchor).lower() not in anchors(dest):
            problems.append(f"{where}: no heading #{anchor} in {dest.name}")
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(doc):
    assert broken_links(doc) == []


def reachable_docs(start: Path) -> set[Path]:
    """The Markdown files a reader reaches from ``start`` by following relative links."""
    seen, todo = {start.resolve()}, [start.resolve()]
    while todo:
        doc = todo.pop()
        for _, target in links(doc.read_text(encoding="utf-8")):
            path = target.partition("#")[0]
            if not path or SCHEME.match(target):
                continue
            dest = (doc.parent / unquote(path)).resolve()
            if dest.suffix == ".md" and dest.is_file() and dest not in seen:
                seen.add(dest)
                todo.append(dest)
    return seen


def test_readme_shows_the_views_and_leads_to_every_doc():
    """The README shows the views (images kept in the repository), is short, and every doc can be
    reached from it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    images = [t for _, t in links(readme) if t.endswith(".png")]
    assert len(images) >= 2 and all((ROOT / t).is_file() for t in images)
    assert len(readme.splitlines()) <= 150
    reached = reachable_docs(ROOT / "README.md")
    unreached = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p.resolve() not in reached]
    assert unreached == [], f"docs no link from README.md leads to: {unreached}"


def test_the_checker_finds_a_broken_link(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\n## The `kg add` stage\n", encoding="utf-8")
    doc = tmp_path / "README.md"
    doc.write_text(
        "See [a](docs/a.md), [the stage](docs/a.md#the-kg-add-stage), [web](https://example.invalid/x),\n"
        "![pic](docs/images/missing.png), [gone](docs/gone.md) and [no heading](docs/a.md#nowhere).\n"
        "```\n[in code](docs/also-gone.md)\n```\n`[span](docs/span-gone.md)`\n",
        encoding="utf-8")
    problems = broken_links(doc, tmp_path)
    assert [p.split(": ", 2)[1:] for p in problems] == [
        ["docs/images/missing.png", "no such file"],
        ["docs/gone.md", "no such file"],
        ["docs/a.md#nowhere", "no heading #nowhere in a.md"],
    ]
