"""A plain `kg build` or `kg add` uses what the machine offers: its cores, as memory allows."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import kg.builds.machine
import kg.builds.pipeline
from kg.cli import app
from kg.builds.machine import WORKER_BYTES, available_memory, default_workers, usable_cores
from kg.builds.pipeline import BuildOptions

SEED = Path(__file__).parent.parent / "seeds" / "iclr2025_abstracts.txt"
GB = WORKER_BYTES


def test_one_worker_per_core_when_memory_holds_them():
    assert default_workers(cores=2, memory=24 * GB) == 2
    assert default_workers(cores=8, memory=64 * GB) == 8


def test_memory_bounds_the_workers_leaving_room_for_the_main_process():
    assert default_workers(cores=8, memory=4 * GB) == 3
    assert default_workers(cores=8, memory=int(2.5 * GB)) == 1


def test_at_least_one_worker_however_short_memory_is():
    assert default_workers(cores=4, memory=0) == 1
    assert default_workers(cores=1, memory=64 * GB) == 1


def test_where_memory_is_unknown_the_cores_decide(monkeypatch):
    monkeypatch.setattr(kg.builds.machine, "available_memory", lambda: None)
    assert default_workers(cores=4) == 4


def test_available_memory_reads_memavailable(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n")
    assert available_memory(str(meminfo)) == 20_000_000 * 1024
    assert available_memory(str(tmp_path / "missing")) is None


def test_usable_cores_are_this_process_s():
    assert 1 <= usable_cores()


def test_the_api_default_is_the_machine_s():
    assert BuildOptions().workers == default_workers()
    assert BuildOptions(workers=1).workers == 1


class _Stop(Exception):
    pass


@pytest.mark.parametrize("args,workers", [([], default_workers()), (["--workers", "1"], 1)])
def test_kg_build_runs_the_default_workers_unless_told(monkeypatch, args, workers):
    seen = []

    def fake_build(corpus, options, warn=None):
        seen.append(options.workers)
        raise _Stop

    monkeypatch.setattr(kg.builds.pipeline, "build", fake_build)
    result = CliRunner().invoke(app, ["build", str(SEED), *args])
    assert isinstance(result.exception, _Stop) and seen == [workers]


@pytest.mark.parametrize("command", ["build", "add"])
def test_help_says_what_the_default_picks(command):
    out = " ".join(CliRunner().invoke(app, [command, "--help"], terminal_width=200).output.split())
    assert f"the usable cores, while memory holds 1 GB for each: {default_workers()} here" in out
