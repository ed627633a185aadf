"""Support for the server tests: a real PostgreSQL, a Chromium for the browser tests and a server
process. ``SKAT_TEST_PG_URL`` names a running PostgreSQL (``.ci/run`` starts one); without it a
throw-away cluster is started from Debian's packages. In CI (``CI=true``) a missing PostgreSQL or
Chromium is a failure, never a skip."""

from __future__ import annotations

import glob
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
IN_CI = os.environ.get("CI", "").lower() == "true"
ROOT = Path(__file__).resolve().parent.parent


def missing(what: str) -> None:
    """Fail in CI, skip (with the reason) elsewhere."""
    if IN_CI:
        pytest.fail(f"{what} is required in CI (.ci/run installs it)")
    pytest.skip(f"{what} is not installed here")


class Postgres:
    """A PostgreSQL server: either the one named by SKAT_TEST_PG_URL or a throw-away cluster."""

    def __init__(self) -> None:
        self.admin_url = os.environ.get("SKAT_TEST_PG_URL")
        self.tmp: str | None = None
        self.bindir: str | None = None
        self.as_postgres: list[str] = []
        if not self.admin_url:
            self._start_cluster()

    def _start_cluster(self) -> None:
        bindirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not bindirs:
            missing("PostgreSQL (Debian package postgresql)")
        self.bindir = bindirs[-1]
        self.tmp = tempfile.mkdtemp(prefix="skat-pg-")
        os.chmod(self.tmp, 0o777)
        if os.geteuid() == 0:
            self.as_postgres = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.tmp, "postgres")
        data, sock = os.path.join(self.tmp, "data"), self.tmp
        port = 5432  # only a Unix socket in its own directory (listen_addresses=''): no TCP port to collide on
        subprocess.run([*self.as_postgres, f"{self.bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres"],
                       check=True, capture_output=True)
        subprocess.run([*self.as_postgres, f"{self.bindir}/pg_ctl", "-D", data, "-w", "-l",
                        os.path.join(self.tmp, "log"), "-o", f"-p {port} -k {sock} -c listen_addresses=''",
                        "start"], check=True, capture_output=True)
        self.admin_url = f"postgresql://postgres@/postgres?host={sock}&port={port}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        name = "skat_" + uuid.uuid4().hex[:10]
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        base, _, query = self.admin_url.partition("?")
        base = base.rsplit("/", 1)[0] + "/" + name
        return base + ("?" + query if query else "")

    def stop(self) -> None:
        if self.tmp and self.bindir:
            subprocess.run([*self.as_postgres, f"{self.bindir}/pg_ctl", "-D", os.path.join(self.tmp, "data"),
                            "-m", "immediate", "stop"], capture_output=True)
            shutil.rmtree(self.tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    pg = Postgres()
    yield pg
    pg.stop()


def chromium_launch_kwargs() -> dict:
    if not os.path.exists(CHROMIUM):
        missing(f"Chromium at {CHROMIUM} (Debian package chromium)")
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


class ServerProcess:
    """``skat serve`` (or ``skat play``) in a child process, as a person would run it.

    It binds port 0 (a free port the system picks, so nothing can take it between choosing and binding) and
    the port is read from the address the command prints; ``port`` is given only to restart a server on the
    address a page already has open. Everything it prints is collected in :attr:`output`."""

    def __init__(self, db: str, *, port: int | None = None, command: str = "serve", extra: tuple = ()) -> None:
        self.db = db
        self.port = port or 0
        self.command = command
        self.extra = extra
        self.proc: subprocess.Popen | None = None
        self.output = ""
        self._lines: queue.Queue[str | None] = queue.Queue()

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output += line
            self._lines.put(line)
        self._lines.put(None)

    def _line(self, marker: str, deadline: float) -> str:
        """The first printed line containing ``marker`` (waiting until ``deadline``)."""
        while True:
            try:
                line = self._lines.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                raise RuntimeError(f"skat {self.command} printed no {marker!r} within its time: {self.output}") from None
            if line is None:
                self.proc.wait(10)
                raise RuntimeError(f"skat {self.command} exited ({self.proc.returncode}): {self.output}")
            if marker in line:
                return line

    def start(self) -> ServerProcess:
        args = [sys.executable, "-m", "skat", self.command, "--port", str(self.port), "--db", self.db,
                "--bot-delay", "0.05", *self.extra]
        if self.command == "play":
            args.append("--no-browser")
        else:
            args += ["--log-level", "warning"]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self._wait_until_up(time.time() + 60)
        except BaseException:
            self.kill()  # never leave a half-started server behind
            raise
        return self

    def _wait_until_up(self, deadline: float) -> None:
        if self.command == "play":  # printed once the server is up
            self.table_url = self._line("Your table:", deadline).split("Your table:")[1].strip()
            self.port = urllib.parse.urlsplit(self.table_url).port
        else:  # printed before the server starts
            line = self._line("skat serve: http://", deadline)
            self.port = urllib.parse.urlsplit(line[line.index("http://"):].split()[0]).port
        self.url = f"http://127.0.0.1:{self.port}"
        import httpx

        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.output}")
            try:
                if httpx.get(self.url + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.time() > deadline:
                raise RuntimeError(f"server did not answer /api/health within 60 s: {self.output}")
            time.sleep(0.1)

    def kill(self) -> None:
        """Kill hard, like a crash."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def serve(app, port: int = 0):
    """Run ``app`` in a thread on ``port`` (default 0: a free one the system picks); returns the uvicorn
    server, whose ``port`` attribute is the port it listens on (``stop(srv)`` ends it). Pass the port of a
    stopped server to restart on the address a page already has open."""
    import uvicorn

    from skat.server.limits import KEEP_ALIVE_SECONDS

    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                        timeout_keep_alive=KEEP_ALIVE_SECONDS))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 60
    while not srv.started:
        assert time.time() < deadline and thread.is_alive(), "the test server did not start"
        time.sleep(0.05)
    srv.thread = thread  # type: ignore[attr-defined]
    srv.port = srv.servers[0].sockets[0].getsockname()[1]  # type: ignore[attr-defined]
    return srv


def stop(srv) -> None:
    """End a server started by :func:`serve`."""
    srv.should_exit = True
    srv.thread.join(10)


SHOTS = ROOT / "test-output" / "screenshots"
"""Where the browser tests save their screenshots (look at them: desktop and phone)."""


def axe_problems(page, where: str) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on ``page`` (WCAG 2.x A and AA, best
    practices and the label-content-name-mismatch rule), each as one line naming the rule, its help and the first elements; ``where`` names the
    screen in the lines."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"resultTypes": ["violations"],
                                       "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a",
                                                                              "wcag21aa", "best-practice"]},
                                       # experimental, so off by default: a visible label is part of the name
                                       "rules": {"label-content-name-mismatch": {"enabled": True}}})
    problems = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = "; ".join(" ".join(n["target"]) + ": " + n["failureSummary"].replace("\n", " ")[:160]
                              for n in v["nodes"][:3])
            problems.append(f"{where}: {v['id']} ({v['impact']}, {len(v['nodes'])} elements) {v['help']}: {nodes}")
    return problems


def shot(page, name: str) -> None:
    """Save a screenshot of ``page`` as test-output/screenshots/NAME.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def advanced(page, before: int, seconds: float = 15) -> bool:
    """Whether the page's state moved past ``before`` within ``seconds``. A caller that acted and sees False
    reads the state again and acts again if it is still its turn: on a busy machine a click can fall in a
    moment the page does not take it (a trick being cleared away), and the loop's own deadline judges progress."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"() => S.state && S.state.seq > {before}", timeout=seconds * 1000)
    except PlaywrightTimeout:
        return False
    return True


def browser(client: TestClient, **kwargs: Any) -> TestClient:
    """Another browser (its own cookies, ``kwargs`` as for a TestClient) at the server that ``client`` runs, its
    requests and sockets served on ``client``'s event loop, as a real server serves every socket on one loop.
    A TestClient of its own would start an event loop for each socket: sockets that reach each other (a chat line,
    a table's news) would then meet an asyncio lock bound to another loop and hang (CI 2026-12-07)."""
    from fastapi.testclient import TestClient

    other = TestClient(client.app, **kwargs)
    other.portal = client.portal
    return other
