"""Support for the server tests: a real PostgreSQL, a Chromium for the browser tests and a server
process. ``SKAT_TEST_PG_URL`` names a running PostgreSQL (``.ci/run`` starts one); without it a
throw-away cluster is started from Debian's packages. In CI (``CI=true``) a missing PostgreSQL or
Chromium is a failure, never a skip."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
        port = free_port()
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
    """``skat serve`` (or ``skat play``) in a child process, as a person would run it."""

    def __init__(self, db: str, *, port: int | None = None, command: str = "serve", extra: tuple = ()) -> None:
        self.db = db
        self.port = port or free_port()
        self.command = command
        self.extra = extra
        self.proc: subprocess.Popen | None = None
        self.output = ""

    def start(self) -> ServerProcess:
        args = [sys.executable, "-m", "skat", self.command, "--port", str(self.port), "--db", self.db,
                "--bot-delay", "0.05", *self.extra]
        if self.command == "play":
            args.append("--no-browser")
        else:
            args += ["--log-level", "warning"]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 30
        import httpx

        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stdout.read()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("server did not start within 30 s")
        if self.command == "play":
            line = ""
            while "Your table:" not in line:
                line = self.proc.stdout.readline()
                if not line:
                    raise RuntimeError("skat play printed no table address")
            self.table_url = line.split("Your table:")[1].strip()
        return self

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


def serve(app, port: int):
    """Run ``app`` on ``port`` in a thread; returns the uvicorn server (``stop(srv)`` ends it)."""
    import uvicorn

    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started:
        assert time.time() < deadline, "the test server did not start"
        time.sleep(0.05)
    srv.thread = thread  # type: ignore[attr-defined]
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
