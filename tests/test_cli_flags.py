"""Command-line flags that no other test runs, each checked for its effect (not only the exit status):
``solve --all-tricks/--indent``, ``tournament new --force``, ``tournament ranking/lists --lang``,
``arena --plot/--ray``, ``bot --token``, ``series --names``, ``serve --host``, ``play --host/--name``."""

from __future__ import annotations

import io
import json
import os
import queue
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from skat.cli import main
from skat.solver import Position
from skat.solver import reference as ref
from test_server_support import ROOT, missing, serve, stop

# ------------------------------------------------------------------ solve
# Clubs, the declarer (forehand) leads with 7 tricks taken and none lost. TRUMPS: he holds the three top trumps
# and takes every trick. SPADE_LOSER: his S7 loses to middlehand's SA, though he makes far more than 61.
TRUMPS = {"game": "clubs", "declarer": 0, "hands": [["CJ", "SJ", "HJ"], ["D7", "D8", "D9"], ["H7", "H8", "H9"]],
          "trick": [], "leader": 0, "declarer_points": 114, "defender_points": 0,
          "declarer_tricks": 7, "defender_tricks": 0}
SPADE_LOSER = {"game": "clubs", "declarer": 0, "hands": [["CJ", "SJ", "S7"], ["SA", "ST", "D7"], ["D8", "D9", "DT"]],
               "trick": [], "leader": 0, "declarer_points": 85, "defender_points": 0,
               "declarer_tricks": 7, "defender_tricks": 0}


def solve_cli(capsys, monkeypatch, position: dict, *flags: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(position)))
    assert main(["solve", *flags]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("position", [TRUMPS, SPADE_LOSER], ids=["all-tricks", "one-lost"])
def test_solve_all_tricks_answers_whether_the_declarer_takes_every_trick(capsys, monkeypatch, position):
    out = json.loads(solve_cli(capsys, monkeypatch, position, "--all-tricks"))
    pos = Position.from_json(position)
    takes_all = ref.brute_force_all_tricks(pos)
    assert out["question"] == "all_tricks" and "declarer_points" not in out
    assert out["declarer_wins"] is takes_all
    assert {m["card"] for m in out["moves"]} == {"CJ", "SJ", position["hands"][0][2]}
    assert all(set(m) == {"card", "declarer_wins"} for m in out["moves"])
    # without the flag the same position is answered in card points, and he makes his game in both
    plain = json.loads(solve_cli(capsys, monkeypatch, position))
    assert plain["declarer_points"] == ref.brute_force_points(pos) > 90 and "question" not in plain
    if position is SPADE_LOSER:
        assert takes_all is False
        assert {m["card"]: m["declarer_wins"] for m in out["moves"]} == {"CJ": False, "SJ": False, "S7": False}
    else:
        assert takes_all is True
        # leading the HJ first still takes every trick (the defenders hold no trump)
        assert all(m["declarer_wins"] for m in out["moves"])


def test_solve_indent_indents_the_json(capsys, monkeypatch):
    compact = solve_cli(capsys, monkeypatch, SPADE_LOSER)
    assert compact.count("\n") == 1  # one line by default
    indented = solve_cli(capsys, monkeypatch, SPADE_LOSER, "--indent", "3")
    assert json.loads(indented) == json.loads(compact)
    assert indented == json.dumps(json.loads(compact), indent=3) + "\n"
    assert '\n   "to_move": 0,' in indented and '\n      {\n         "card": ' in indented


# ------------------------------------------------------------------ tournament
def pdf_text(path: Path) -> str:
    if shutil.which("pdftotext") is None:
        missing("pdftotext (Debian package poppler-utils)")  # a failure under CI=true, a skip elsewhere
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    return subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=True,
                          timeout=30).stdout.decode()


@pytest.fixture
def players_file(tmp_path) -> Path:
    path = tmp_path / "players.txt"
    path.write_text("Ada\nBo\nCy\nDora\nEmil\nFrida\nGus\n", encoding="utf-8")
    return path


def test_tournament_new_force_overwrites_an_existing_file(tmp_path, players_file, capsys):
    cup = tmp_path / "cup.json"
    assert main(["tournament", "new", "First cup", "--players", str(players_file), "-o", str(cup)]) == 0
    first = cup.read_text(encoding="utf-8")
    assert json.loads(first)["name"] == "First cup"
    capsys.readouterr()
    # without --force the file stays as it was
    assert main(["tournament", "new", "Second cup", "--players", str(players_file), "-o", str(cup)]) == 2
    err = capsys.readouterr().err
    assert "exists" in err and "--force" in err
    assert cup.read_text(encoding="utf-8") == first
    # with it the new tournament replaces the old
    assert main(["tournament", "new", "Second cup", "--players", str(players_file), "-o", str(cup), "--games3", "24",
                 "--force"]) == 0
    data = json.loads(cup.read_text(encoding="utf-8"))
    assert data["name"] == "Second cup" and "Second cup" in capsys.readouterr().out
    assert [p if isinstance(p, str) else p["name"] for p in data["players"]][:2] == ["Ada", "Bo"]


def test_tournament_lang_prints_the_pdfs_in_that_language(tmp_path, players_file, capsys):
    cup = tmp_path / "cup.json"
    assert main(["tournament", "new", "Cup", "--players", str(players_file), "-o", str(cup)]) == 0
    assert main(["tournament", "next", str(cup), "--seed", "3"]) == 0
    words = {"en": ("ranking", "table 1", "declarer"), "de": ("Rangliste", "Tisch 1", "Alleinspieler"),
             "ru": ("рейтинг", "стол 1", "играющий")}
    texts = {}
    for lang in ("en", "de", "ru"):
        flag = [] if lang == "en" else ["--lang", lang]  # en is the default
        ranking, lists = tmp_path / f"ranking-{lang}.pdf", tmp_path / f"lists-{lang}.pdf"
        assert main(["tournament", "ranking", str(cup), "--pdf", str(ranking), *flag]) == 0
        assert main(["tournament", "lists", str(cup), "1", "--pdf", str(lists), "--blank", *flag]) == 0
        texts[lang] = (pdf_text(ranking), pdf_text(lists))
    capsys.readouterr()
    for lang, (ranking_word, table_word, declarer_word) in words.items():
        ranking, lists = texts[lang]
        assert ranking_word in ranking, (lang, ranking)
        assert table_word in lists and declarer_word in lists, (lang, lists)
        for other, (other_ranking, other_table, other_declarer) in words.items():
            if other != lang:
                assert other_ranking not in ranking, (lang, other)
                assert other_table not in lists and other_declarer not in lists, (lang, other)
        assert "Ada" in ranking and "Ada" in lists


# ------------------------------------------------------------------ arena
@pytest.mark.parametrize("suffix, magic", [(".svg", b"<svg"), (".png", b"\x89PNG")])
def test_arena_plot_writes_the_plot_where_asked(tmp_path, capsys, monkeypatch, suffix, magic):
    monkeypatch.chdir(tmp_path)
    plot = tmp_path / "out" / f"difference{suffix}"
    plot.parent.mkdir()
    assert main(["arena", "--players", "heuristic,random", "--deals", "2", "--seed", "4", "--workers", "1",
                 "--plot", str(plot), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"plot: {plot}" in out and "json:" not in out
    data = plot.read_bytes()
    assert magic in data[:400] and len(data) > 2000
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [plot.name]  # nothing else written
    # without --plot (and without --json) no plot is drawn
    assert main(["arena", "--players", "heuristic,random", "--deals", "1", "--workers", "1", "--quiet"]) == 0
    assert "plot:" not in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [plot.name]


def test_arena_ray_runs_the_match_on_a_local_ray_instance(tmp_path, capsys):
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the environment
        missing("Ray (pip install 'skat[cluster]')")  # a failure under CI=true, a skip elsewhere
    on_ray, local = tmp_path / "ray.json", tmp_path / "local.json"
    common = ["arena", "--players", "heuristic,random", "--deals", "2", "--seed", "8", "--quiet"]
    assert main([*common, "--ray", "local", "--json", str(on_ray)]) == 0
    assert main([*common, "--workers", "1", "--json", str(local)]) == 0
    capsys.readouterr()
    a, b = json.loads(on_ray.read_text()), json.loads(local.read_text())
    assert a["execution"] == "ray:local" and b["execution"] != a["execution"]
    assert a["per_deal_difference"] == b["per_deal_difference"] and a["deals"] == 2
    assert not ray.is_initialized()  # the command shuts its local instance down


# ------------------------------------------------------------------ series
def test_series_names_names_the_players(capsys):
    assert main(["series", "--names", "Ada,Bo,Cy", "--games", "3", "--seed", "1", "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["players"] == ["Ada", "Bo", "Cy"]
    assert {g["dealer"] for g in sheet["games"]} == {"Ada", "Bo", "Cy"}  # one deal each, in seat order
    assert [g["dealer"] for g in sheet["games"]] == ["Ada", "Bo", "Cy"]
    assert main(["series", "--names", "Ada,Bo,Cy,Dora", "--players", "4", "--games", "1", "--seed", "1"]) == 0
    head = capsys.readouterr().out.splitlines()[1]
    assert head.split()[-4:] == ["Ada", "Bo", "Cy", "Dora"]
    assert main(["series", "--games", "1", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["P1", "P2", "P3"]  # the default names
    assert main(["series", "--names", "Ada,Bo", "--games", "1"]) == 2
    assert "--names gives 2 names for --players 3" in capsys.readouterr().err


# ------------------------------------------------------------------ bot
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from skat.server.app import create_app

    srv = serve(create_app(f"sqlite:///{tmp_path_factory.mktemp('flags') / 'skat.sqlite'}"))
    yield f"http://127.0.0.1:{srv.port}"
    stop(srv)


def test_bot_token_gives_the_seat_token_the_link_lacks(server, capsys):
    r = httpx.post(f"{server}/api/tables", json={"seats": ["human", "random", "random"], "seed": 21}, timeout=10)
    assert r.status_code == 201, r.text
    table = r.json()
    bare = f"{server}/t/{table['table_id']}"
    assert main(["bot", bare, "--player", "random", "--deals", "1"]) == 2  # no token: refused before connecting
    assert "no seat token" in capsys.readouterr().err
    assert main(["bot", bare, "--token", table["token"], "--player", "random", "--deals", "1", "--seed", "2"]) == 0
    assert "1 deal(s) played" in capsys.readouterr().out
    # --token wins over a token in the link
    assert main(["bot", bare + "#token=wrong", "--token", table["token"], "--player", "random", "--deals", "1"]) == 0
    assert "1 deal(s) played" in capsys.readouterr().out
    games = httpx.get(f"{server}/api/tables/{table['table_id']}/games", headers={"X-Seat-Token": table["token"]},
                      timeout=10).json()["games"]
    assert len([g for g in games if g["result"]]) >= 2
    assert main(["bot", bare, "--token", "wrong", "--player", "random", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "spectator" in err or "refused the seat" in err
    # a token beginning with "-" (one in 64 of the old ones did) is the token, not another flag: it reaches the server
    assert main(["bot", bare, "--token", "-wrong", "--player", "random", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "expected one argument" not in err and ("spectator" in err or "refused the seat" in err)
    # a forgotten token is still reported as one, not the next flag taken as it
    with pytest.raises(SystemExit):
        main(["bot", bare, "--token", "--player", "random"])
    assert "--token: expected one argument" in capsys.readouterr().err


def test_the_server_never_hands_out_a_secret_beginning_with_a_dash(monkeypatch):
    """Seat tokens, invites and keys are pasted after command-line flags, where a leading "-" reads as a flag."""
    from skat.server import core

    drawn = iter(["-Ab3", "--x9", "Zq-7"])
    monkeypatch.setattr(core.secrets, "token_urlsafe", lambda nbytes: next(drawn))
    assert core.new_secret() == "Zq-7"  # drawn again while it began with "-"
    monkeypatch.undo()
    assert not any(core.new_secret(1).startswith("-") for _ in range(2000))  # "-" starts 1 in 64 of one byte's


# ------------------------------------------------------------------ serve / play --host, play --name
HOST = "127.0.0.2"  # a loopback address that is not the default 127.0.0.1


class Command:
    """``python -m skat ARGS`` in a child process; :meth:`line` waits for a printed line."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "skat", *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        self.output = ""
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.output += line
            self.lines.put(line)
        self.lines.put(None)

    def line(self, marker: str, timeout: float = 60) -> str:
        deadline = time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                raise AssertionError(f"no line with {marker!r} within {timeout} s: {self.output}") from None
            assert line is not None, f"the command ended ({self.proc.wait(10)}): {self.output}"
            if marker in line:
                return line.strip()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def listening_addresses(pid: int) -> set[tuple[str, int]] | None:
    """The (IPv4 address, port) pairs process ``pid`` listens on over TCP, from Linux's ``/proc`` (None elsewhere)."""
    table, fds = Path("/proc/net/tcp"), Path(f"/proc/{pid}/fd")
    if not table.exists() or not fds.exists():
        return None
    inodes = set()
    for fd in fds.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    found = set()
    for row in table.read_text().splitlines()[1:]:
        fields = row.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and inode in inodes:  # 0A: LISTEN
            address, port = local.split(":")
            found.add((socket.inet_ntoa(struct.pack("<I", int(address, 16))), int(port, 16)))
    return found


def listens_only_on_host(port: int, pid: int) -> None:
    """The server (process ``pid``) answers at HOST:port and listens nowhere else: it bound the address it was
    given. Its own sockets are read from ``/proc``, not probed at 127.0.0.1:port, where another test's server
    may have been given the same port number."""
    deadline = time.time() + 60
    while True:  # skat serve prints its address once bound, a moment before it answers
        try:
            health = httpx.get(f"http://{HOST}:{port}/api/health", timeout=10)
            break
        except httpx.ConnectError:
            assert time.time() < deadline, f"nothing answers at {HOST}:{port}"
            time.sleep(0.1)
    assert health.json()["status"] == "ok"
    addresses = listening_addresses(pid)
    if addresses is not None:
        assert addresses == {(HOST, port)}
    else:  # no /proc: at least nothing answers on the default address
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)


def test_serve_host_listens_there_and_prints_it(tmp_path):
    cmd = Command("serve", "--host", HOST, "--port", "0", "--db", f"sqlite:///{tmp_path / 's.sqlite'}",
                  "--log-level", "warning")
    try:
        line = cmd.line("skat serve: http://")
        address = line.split("skat serve: ")[1].split()[0]
        assert address.startswith(f"http://{HOST}:") and address.endswith("/")
        port = int(address.rstrip("/").rsplit(":", 1)[1])
        assert port > 0
        listens_only_on_host(port, cmd.proc.pid)
    finally:
        cmd.stop()


def test_play_host_and_name_in_the_browser_mode(tmp_path):
    cmd = Command("play", "--no-browser", "--host", HOST, "--name", "Ada Lovelace", "--level", "random",
                  "--db", f"sqlite:///{tmp_path / 'p.sqlite'}", "--bot-delay", "0")
    try:
        table = cmd.line("Your table:").split("Your table:")[1].strip()
        lobby = cmd.line("Lobby")
        assert table.startswith(f"http://{HOST}:") and "/t/" in table and "#token=" in table
        port = int(table.split("/t/")[0].rsplit(":", 1)[1])
        assert f"http://{HOST}:{port}/" in lobby
        listens_only_on_host(port, cmd.proc.pid)
        table_id, token = table.split("/t/")[1].split("#token=")
        info = httpx.get(f"http://{HOST}:{port}/api/tables/{table_id}", headers={"X-Seat-Token": token},
                         timeout=10).json()
        assert [s["name"] for s in info["seats"] if s["kind"] == "human"] == ["Ada Lovelace"]
    finally:
        cmd.stop()


def test_play_name_in_the_terminal(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--text", "--name", "Ada", "--level", "random", "--seed", "3", "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Skat: Ada against Anna (random) and Bernd (random).")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--text", "--level", "random", "--seed", "3", "--deals", "1"]) == 0
    assert capsys.readouterr().out.startswith("Skat: You against")  # the default
