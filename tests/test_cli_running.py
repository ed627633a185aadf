"""What a person sees when starting the servers (issue 32): `skat serve` starts with a few lines a person needs, and
a second `skat play` on the same database opens the table of the one that runs already (or the table it asks
for, made there) instead of failing on the database."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time

import httpx

from test_cli_flags import Command
from test_server_support import ROOT


def play(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """A `skat play` that ends by itself (it finds the running one), its output."""
    return subprocess.run([sys.executable, "-m", "skat", "play", "--no-browser", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, check=False)


def table_info(url: str) -> dict:
    base, rest = url.split("/t/")
    table_id, token = rest.split("#token=")
    answer = httpx.get(f"{base}/api/tables/{table_id}", headers={"X-Seat-Token": token}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def health(port: int) -> dict:
    """The server's /api/health once it answers (it prints its address a moment before it listens)."""
    deadline = time.time() + 60
    while True:
        try:
            return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10).json()
        except httpx.ConnectError:
            assert time.time() < deadline, f"nothing answers on port {port}"
            time.sleep(0.1)


def test_serve_starts_with_the_lines_a_person_needs(tmp_path):
    cmd = Command("serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 's.sqlite'}")
    try:
        address = cmd.line("skat serve: http://")
        cmd.line("/keeper")
        port = int(address.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
        assert health(port)["status"] == "ok"
    finally:
        cmd.stop()
    # (a loaded machine may add the server's own warnings of a stalled event loop: not start-up lines)
    lines = [line for line in cmd.output.splitlines() if line.strip() and "event loop was held up" not in line]
    # a new database says once that its tables were made; then the address and where the pages are
    assert len(lines) <= 3, cmd.output
    assert "made the database's tables" in lines[0]
    assert not any(word in cmd.output for word in ("alembic", "plugin", "Started server process", "Waiting for",
                                                   "Application startup", "Shutting down", "GET /")), cmd.output
    again = Command("serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 's.sqlite'}")
    try:
        again.line("/keeper")
    finally:
        again.stop()
    assert len([line for line in again.output.splitlines() if line.strip()]) == 2, again.output  # nothing to migrate


def test_serve_keeps_an_idle_connection_longer_than_its_clients_do(tmp_path):
    """An idle connection stays open past uvicorn's own 5 s (KEEP_ALIVE_SECONDS), so that a client reusing it within
    its own expiry (httpx's 5 s) never sends a request into the server's closing."""
    cmd = Command("serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 's.sqlite'}")
    try:
        address = cmd.line("skat serve: http://")
        port = int(address.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
        health(port)
        kept = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        kept.request("GET", "/api/health")
        assert kept.getresponse().read() and kept.sock is not None
        time.sleep(6)
        kept.request("GET", "/api/health")  # the same connection
        assert kept.getresponse().status == 200
        kept.close()
    finally:
        cmd.stop()


def test_a_second_play_opens_the_running_table_or_makes_the_one_asked_for(tmp_path):
    db = tmp_path / "p.sqlite"
    first = Command("play", "--no-browser", "--db", str(db), "--level", "random", "--bot-delay", "0")
    try:
        table = first.line("Your table:").split("Your table:")[1].strip()
        first.line("Lobby")
        note = db.with_name(db.name + ".play.json")
        assert json.loads(note.read_text())["table"] == table
        assert note.stat().st_mode & 0o077 == 0  # the seat token is the person's: readable by its owner only

        again = play("--db", str(db))
        assert again.returncode == 0, again.stderr
        assert "runs already" in again.stdout
        assert f"Your table: {table}" in again.stdout  # the same table, the same seat

        pub = play("--db", str(db), "--ruleset", "pub", "--level", "random")
        assert pub.returncode == 0, pub.stderr
        other = pub.stdout.split("Your table:")[1].strip()
        assert other != table and other.split("/t/")[0] == table.split("/t/")[0]  # on the running server
        info = table_info(other)
        assert info["ruleset"] == "pub"
        assert [s["bot"] or s["kind"] for s in info["seats"]] == ["human", "random", "random"]

        officers = play("--db", str(db), "--variant", "officers")
        assert officers.returncode == 0, officers.stderr
        assert "/officers?variant=classic" in officers.stdout

        refused = play("--db", str(db), "--ruleset", "pub", "--deals", "0")
        assert refused.returncode == 2 and "--deals must be at least 1" in refused.stderr
    finally:
        first.stop()
    assert not note.exists()  # a stopped skat play takes its note away


def test_a_stale_note_or_another_server_on_the_database(tmp_path):
    db = tmp_path / "p.sqlite"
    first = Command("play", "--no-browser", "--db", str(db), "--level", "random", "--bot-delay", "0")
    try:
        first.line("Lobby")
    finally:
        first.proc.send_signal(signal.SIGKILL)
        first.proc.wait(10)
    note = db.with_name(db.name + ".play.json")
    assert note.exists()  # killed: its note stays, naming a process that is gone
    second = Command("play", "--no-browser", "--db", str(db), "--level", "random", "--bot-delay", "0")
    try:
        second.line("Lobby")  # starts a server of its own and writes its own note
        assert json.loads(note.read_text())["pid"] == second.proc.pid
    finally:
        second.stop()

    serve = Command("serve", "--port", "0", "--db", f"sqlite:///{db}")
    try:
        serve.line("/keeper")
        refused = play("--db", str(db))
        assert refused.returncode == 2
        assert "another server process serves the SQLite database" in refused.stderr  # skat serve: no table of ours
    finally:
        serve.stop()
    assert os.path.exists(db)


def test_skat_play_signs_its_browser_in_as_the_local_player(tmp_path):
    """`skat play` asks for no sign-in: the person at the keyboard is the database's local player, whose seat the
    table is from the first deal, and the addresses it opens and prints sign the browser in (issue 29)."""
    db = tmp_path / "local.sqlite"
    first = Command("play", "--no-browser", "--db", str(db), "--level", "random", "--bot-delay", "0", "--name", "Ada")
    try:
        table = first.line("Your table:").split("Your table:")[1].strip()
        mine = first.line("Your games, statistics and rating:").split("rating:")[1].strip()
        base, rest = table.split("/t/")
        table_id, token = rest.split("#token=")
        players = httpx.get(f"{base}/api/tables/{table_id}/players", headers={"X-Seat-Token": token},
                            timeout=10).json()["players"]
        assert players[0]["player"]["name"] == "Ada" and players[0]["player"]["kind"] == "person"
        with httpx.Client(timeout=10, follow_redirects=True) as browser:
            landed = browser.get(mine)
            assert landed.status_code == 200 and str(landed.url) == f"{base}/me"
            assert browser.get(f"{base}/api/me").json()["player"]["name"] == "Ada"
            again = browser.get(mine)  # a code signs in once
            assert str(again.url) == f"{base}/me"
        with httpx.Client(timeout=10, follow_redirects=True) as stranger:
            stranger.get(mine)
            assert stranger.get(f"{base}/api/me").json() == {"player": None, "signed_in": False}
            assert stranger.get(f"{base}/local-sign-in", params={"code": "x", "next": "//evil.example"}).url \
                == httpx.URL(f"{base}/")  # only a path of this server
        # nobody signs in to the local player with a password
        refused = httpx.post(f"{base}/api/account/login", json={"name": "Ada", "password": "anything-1"},
                             headers={"Origin": base}, timeout=10)
        assert refused.status_code == 401
    finally:
        first.stop()
    second = Command("play", "--no-browser", "--db", str(db), "--level", "random", "--bot-delay", "0")
    try:
        table = second.line("Your table:").split("Your table:")[1].strip()
        base, rest = table.split("/t/")
        table_id, token = rest.split("#token=")
        players = httpx.get(f"{base}/api/tables/{table_id}/players", headers={"X-Seat-Token": token},
                            timeout=10).json()["players"]
        assert players[0]["player"]["name"] == "Ada"  # the same local player, not a second one
    finally:
        second.stop()
