"""Titles derived from abstracts, and the commands `kg build` suggests next, as a user meets them."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from kg.corpus.titles import derive_title

ROOT = Path(__file__).parent.parent


def kg(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "kg", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("abstract,title", [
    ("BACKGROUND: Type 2 diabetes is common in adults. METHODS: We followed 500 patients.",
     "Type 2 diabetes is common in adults"),
    ("Objective: To assess the effect of aspirin on stroke. Methods: A randomised trial.",
     "To assess the effect of aspirin on stroke"),
    ("objectives. Sleep loss impairs memory. Results: It does.", "Sleep loss impairs memory"),
    ("Background and Aims: Liver disease is rising. Methods: A cohort.", "Liver disease is rising"),
    ("ABSTRACT: BACKGROUND: Asthma is underdiagnosed. CONCLUSIONS: Screen more.", "Asthma is underdiagnosed"),
    ("Abstract—We build a dataset of proofs. It is large.", "We build a dataset of proofs"),
])
def test_a_structured_abstract_is_titled_by_its_content_not_its_heading(abstract, title):
    assert derive_title(abstract) == title


def test_papers_with_structured_abstracts_get_different_titles():
    titles = {derive_title(f"BACKGROUND: {topic} is poorly understood. METHODS: A survey.")
              for topic in ("Malaria", "Asthma", "Gout")}
    assert len(titles) == 3, titles


@pytest.mark.parametrize("abstract", [
    "Abstract reasoning is hard for language models. We study it.",
    "Context windows limit transformers. We extend them.",
    "Results.",
])
def test_a_heading_word_that_is_the_text_itself_is_kept(abstract):
    assert derive_title(abstract) == abstract.split(".")[0]


@pytest.mark.parametrize("abstract,title", [
    ("The U.S. Food and Drug Administration approved the drug. It works.",
     "The U.S. Food and Drug Administration approved the drug"),
    ("e.g. graphs are hard to learn. More text.", "e.g. graphs are hard to learn"),
    ("Sparse graphs i.e. few edges are common. More.", "Sparse graphs i.e. few edges are common"),
    ("Large models (e.g., GPT-4) fail at arithmetic, sadly. More.", "Large models (e.g., GPT-4) fail at arithmetic"),
    ("Smith et al. showed that nets forget. We fix it.", "Smith et al. showed that nets forget"),
    ("J. Smith showed that nets forget. We fix it.", "J. Smith showed that nets forget"),
    ("Trials in the U.K. vs. the U.S. differ. More.", "Trials in the U.K. vs. the U.S. differ"),
    ("Fig. 2 of prior work is wrong. We fix it.", "Fig. 2 of prior work is wrong"),
    ("The dose was approx. 5 mg per day. More.", "The dose was approx. 5 mg per day"),
    ("Drugs are approved in the U.S.", "Drugs are approved in the U.S."),
    # A real full stop still ends the sentence.
    ("Latency is 5 ms. We fix it.", "Latency is 5 ms"),
    # an initial follows a name; a capital letter after a common word ends its sentence
    ("John F. Kennedy studied it. More.", "John F. Kennedy studied it"),
    ("We extend the framework of R. Sutton to control. More.", "We extend the framework of R. Sutton to control"),
    ("We measured vitamin D. It prevents fractures.", "We measured vitamin D"),
    ("We study the role of vitamin D. Experiments on mice show it.", "We study the role of vitamin D"),
])
def test_titles_are_not_cut_at_abbreviations(abstract, title):
    assert derive_title(abstract) == title


@pytest.fixture(scope="module")
def dash_build(tmp_path_factory) -> tuple[Path, str]:
    """A build whose first paper's title and whose folder both start with "-", and what it printed."""
    work = tmp_path_factory.mktemp("dash")
    corpus = work / "omics.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in [
        {"title": "-omics integration for cancer",
         "abstract": "Multi-omics data integration helps cancer subtyping. We combine transcriptomics and "
                     "proteomics with graph neural networks on TCGA."},
        {"title": "Graph networks for proteins",
         "abstract": "We study protein structure prediction with graph neural networks and evaluate on CASP14."},
    ]))
    proc = kg("build", str(corpus), "--out", "./-builds/omics", "--no-keybert", "--no-cache", "--quiet", cwd=work)
    assert proc.returncode == 0, proc.stderr
    return work, proc.stdout


@pytest.mark.slow
def test_every_kg_command_the_build_suggests_runs_when_pasted(dash_build):
    work, stdout = dash_build
    hints = [shlex.split(line) for line in stdout.splitlines() if line.strip().startswith("kg ")]
    assert any(h[1] == "related" for h in hints), stdout
    for hint in hints:
        proc = kg(*hint[1:], cwd=work)
        assert proc.returncode == 0, (hint, proc.stderr)
    related = next(h for h in hints if h[1] == "related")
    assert "-omics integration for cancer" in kg(*related[1:], cwd=work).stdout


@pytest.mark.slow
def test_the_suggested_open_command_names_a_file_not_an_option(dash_build):
    _, stdout = dash_build
    lines = [line for line in stdout.splitlines() if line.strip().startswith("open ")]
    paths = [shlex.split(line)[1] for line in lines]
    assert [p.rsplit("/", 1)[-1] for p in paths] == ["index.html", "map.html"], lines
    assert not any(p.startswith("-") for p in paths), lines


@pytest.mark.slow
def test_cache_and_no_cache_together_are_a_usage_error(tmp_path):
    corpus = tmp_path / "one.txt"
    corpus.write_text("We study protein structure prediction with graph neural networks.\n")
    out = tmp_path / "out"
    proc = kg("build", str(corpus), "--out", str(out), "--cache", str(tmp_path / "cache"), "--no-cache", "--quiet",
              cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--cache" in lines[0] and "--no-cache" in lines[0], proc.stderr
    assert not out.exists() and not (tmp_path / "cache").exists()


def test_titles_name_the_contribution():
    assert derive_title("In this paper we propose ThinK, a pruning method. It is good.") == "ThinK"
    assert derive_title("We introduce Graph Kernel Networks (GKN) for molecules.") == "GKN"
    assert derive_title("Deep nets are large, and slow. We study them.") == "Deep nets are large"
    # A scene-setting opener names nothing: the clause after it does.
    assert derive_title("In this paper, we present a corpus of dialogues. It is big.") == "we present a corpus of dialogues"
    assert derive_title("In recent years, deep nets have grown. We study them.") == "deep nets have grown"
    assert derive_title("In the absence of labels we learn. More text.") == "In the absence of labels we learn"
    # So does a clause giving a reason or a purpose.
    assert derive_title("Because rewards are hard to specify, agents learn from proxies. We fix it.") == \
        "agents learn from proxies"
    assert derive_title("To address this, we build a benchmark of tasks. More.") == "we build a benchmark of tasks"
    # A method the paper only uses is not its contribution.
    assert derive_title("Feedback is scarce. We propose utilizing Federated Learning (FL) for it.") == "Feedback is scarce"
