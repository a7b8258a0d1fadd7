"""Where `kg build` writes, and what it tells the user afterwards.

The extraction is stood in for (no models), so each build takes a fraction of a second;
what is checked is the folder handling and the printed summary.
"""
from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.builds import is_build
from kg.errors import KgError
from kg.builds.pipeline import BuildOptions, build
from kg.records import Extraction


def no_extraction(corpus, options):
    return [Extraction(p.id, (), ()) for p in corpus.papers], 0


def must_not_extract(corpus, options):
    raise AssertionError("extraction started although the build folder is refused")


def corpus_file(folder: Path, *titles: str, name: str = "abstracts.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(json.dumps({"id": f"a{i}", "title": t, "abstract": f"Abstract {i} about {t}."}) + "\n"
                            for i, t in enumerate(titles, 1)))
    return path


def options(out: Path | str | None) -> BuildOptions:
    return BuildOptions(out=Path(out) if out is not None else None, views=False, related_k=0)


@pytest.mark.parametrize("typed,built", [(".", "here"), ("sub/.", "here/sub"), ("sub/../other", "here/other")])
def test_dot_paths_as_out_build_the_folder_they_name(tmp_path, monkeypatch, typed, built):
    corpus = corpus_file(tmp_path / "in", "A title")
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    result = build(corpus, options(typed), extract=no_extraction)
    target = tmp_path / built
    assert result.path == target and is_build(target)
    # Nothing of the build's own (its temporary folder, its lock) is left inside the folder.
    assert not [p.name for p in target.iterdir() if p.name.startswith(".")]


def test_dot_dot_as_out_from_inside_an_earlier_build_rebuilds_it(tmp_path, monkeypatch):
    corpus = corpus_file(tmp_path / "in", "A title")
    out = tmp_path / "exports" / "x"
    build(corpus, BuildOptions(out=out, related_k=0), extract=no_extraction)
    monkeypatch.chdir(out / "views")
    result = build(corpus, BuildOptions(out=Path(".."), related_k=0), extract=no_extraction)
    assert result.path == out and is_build(out) and sorted(os.listdir(out.parent)) == [".x.lock", "x"]


def test_a_build_into_the_current_folder_can_be_rebuilt_from_inside_it(tmp_path, monkeypatch):
    corpus = corpus_file(tmp_path / "in", "A title")
    (tmp_path / "f5").mkdir()
    for _ in range(2):
        monkeypatch.chdir(tmp_path / "f5")  # again: the first build replaced the folder
        build(corpus, options("."), extract=no_extraction)
    assert is_build(tmp_path / "f5")


def test_the_summary_of_a_build_into_the_current_folder_names_it_by_its_full_path(tmp_path, monkeypatch):
    from kg.cli.build import summary

    corpus = corpus_file(tmp_path / "in", "A title")
    (tmp_path / "f5").mkdir()
    monkeypatch.chdir(tmp_path / "f5")
    text = summary(build(corpus, options("."), extract=no_extraction))
    # The shell's current folder was replaced by the build: "." there is an empty, deleted folder.
    assert f"Built {tmp_path / 'f5'}/" in text and f"--db {tmp_path / 'f5'}" in text


@pytest.mark.parametrize("case", ["a non-empty current folder", "a file in the way"])
def test_an_out_that_cannot_be_written_is_refused_before_the_extraction(tmp_path, monkeypatch, case):
    corpus = corpus_file(tmp_path / "in", "A title")
    (tmp_path / "f5").mkdir()
    monkeypatch.chdir(tmp_path / "f5")
    if case == "a non-empty current folder":
        Path("notes.txt").write_text("mine")
        out, message = ".", "is a folder that is not a kg build"
    else:
        Path("notes.txt").write_text("mine")
        out, message = "notes.txt/build", "notes.txt: is a file, so it cannot hold the build folder"
    with pytest.raises(KgError, match=message):
        build(corpus, options(out), extract=must_not_extract)
    assert sorted(os.listdir(tmp_path / "f5")) == ["notes.txt"] and sorted(os.listdir(tmp_path)) == ["f5", "in"]


def test_the_suggested_related_command_finds_its_paper_when_titles_differ_only_in_case(tmp_path):
    from kg.cli.app import app
    from kg.cli.build import summary

    corpus = corpus_file(tmp_path, "Deep Learning", "Deep learning", "Other")
    result = build(corpus, BuildOptions(out=tmp_path / "b", views=False), extract=no_extraction)
    hint = next(line for line in summary(result).splitlines() if line.strip().startswith("kg related"))
    args = shlex.split(hint)[2:]
    assert "a1" in args  # by id: "Deep Learning" names two papers for `kg related`
    r = CliRunner().invoke(app, ["related", *args, "--format", "json"])
    assert r.exit_code == 0, r.output


def test_a_unique_title_is_what_the_suggested_related_command_names(tmp_path):
    from kg.cli.build import summary

    corpus = corpus_file(tmp_path, "Deep Learning", "Shallow learning")
    result = build(corpus, BuildOptions(out=tmp_path / "b", views=False), extract=no_extraction)
    assert "  kg related 'Deep Learning' --db " in summary(result)


@pytest.mark.parametrize("give_out,advice", [(False, "(give --out to keep both)"),
                                             (True, "(give another --out to keep both)")])
def test_replacing_another_corpuss_build_says_how_to_keep_both(tmp_path, monkeypatch, give_out, advice):
    monkeypatch.chdir(tmp_path)
    a, b = corpus_file(tmp_path / "a", "A title"), corpus_file(tmp_path / "b", "Another title")
    out = tmp_path / "exports" / "abstracts"  # the default for both: exports/<corpus name>
    build(a, options(out if give_out else None), extract=no_extraction)
    said: list[str] = []
    build(b, options(out if give_out else None), extract=no_extraction, warn=said.append)
    assert said == [f"{out}: replacing the build of {a.resolve()} {advice}"]


def test_the_manifest_is_typed_and_older_or_partial_manifests_still_read(tmp_path):
    from kg.builds import Manifest, open_build

    out = tmp_path / "b"
    build(corpus_file(tmp_path, "One", "Two"), BuildOptions(out=out, views=False), extract=no_extraction)
    m = open_build(out).manifest
    assert (m.papers, m.name, m.related_k) == (2, "abstracts", 10) and Path(m.corpus).is_absolute()
    assert Manifest.from_json(json.loads((out / "build.json").read_text(encoding="utf-8"))) == m
    # A manifest of an older kg: fields it lacks read as empty, fields kg no longer writes are ignored.
    old = Manifest.from_json({"corpus": "abstracts.jsonl", "papers": 3, "some_old_field": 1})
    assert (old.papers, old.corpus, old.entities, old.related_version) == (3, "abstracts.jsonl", {}, None)
    (out / "build.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(KgError, match="build.json: not a kg build manifest"):
        open_build(out).manifest
