"""Shared fixtures: the rules vectors and the ISS sample, both kept in tests/data (see tests/data/README.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

# Every message a server of the tests sends (in this process and in the servers it starts) is checked against
# the protocol's models first (skat.server.messages.check_outgoing): a message that does not match fails its test.
os.environ.setdefault("SKAT_CHECK_MESSAGES", "1")

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
ISS_SAMPLE = DATA / "iss" / "sample.sgf"


def load_vectors() -> list[dict]:
    path = DATA / "vectors.json"
    return json.loads(path.read_text())["cases"]


def vectors(category: str, rulesets: tuple[str, ...] | None = None) -> list[dict]:
    return [c for c in load_vectors() if c["category"] == category and (rulesets is None or c["ruleset"] in rulesets)]


@pytest.fixture(scope="session")
def iss_sample_path() -> Path:
    return ISS_SAMPLE


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database file for a server."""
    return f"sqlite:///{tmp_path / 'skat.sqlite'}"


@pytest.fixture()
def client(db_url: str):
    """A test client of the table server on a fresh database (lifespan started)."""
    from fastapi.testclient import TestClient

    from skat.server import create_app

    with TestClient(create_app(db_url)) as c:
        yield c


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (one per test module that asks for it)."""
    from playwright.sync_api import sync_playwright

    from test_server_support import chromium_launch_kwargs

    with sync_playwright() as p:
        b = p.chromium.launch(**chromium_launch_kwargs())
        yield b
        b.close()


@pytest.fixture(scope="session", autouse=True)
def own_data_directory(tmp_path_factory: pytest.TempPathFactory):
    """The default database (``skat play`` or ``skat serve`` without ``--db``) of every test, and of every
    command a test starts, lies in the session's temporary folder, never in the user's data directory."""
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))
    yield
    if before is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = before
