"""One list of player names everywhere (skat play, the lobby, skat bot, skat arena, the README), and
commands that behave like good Unix tools (a closed pipe, errors on stderr, --version)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT
from skat import __version__
from skat.cli import main
from skat.players.arena import ArenaConfig, arena_player, run_match
from skat.players.registry import LEVELS, PLAYER_NAMES, check_player_name, make_player

SKAT = [sys.executable, "-m", "skat"]


def test_the_list_of_names():
    assert LEVELS == ("easy", "medium", "strong", "expert")
    assert PLAYER_NAMES == ("easy", "medium", "strong", "expert", "learned", "heuristic", "random")
    for name in PLAYER_NAMES:
        assert callable(make_player(name, 1).choose)
    from skat.server.bots import SEARCH_LEVELS

    assert set(LEVELS) <= SEARCH_LEVELS  # every level for people thinks in the server's worker processes


@pytest.mark.parametrize("name", ["superstrong", "pimc", "Strong", "", "mybot.py"])
def test_an_unknown_name_is_refused_with_the_known_ones(name):
    with pytest.raises(ValueError) as info:
        make_player(name, 1)
    assert repr(name) in str(info.value) and "easy, medium, strong, expert, learned, heuristic, random" in str(info.value)
    with pytest.raises(ValueError, match="FILE.py:Factory"):
        check_player_name(name, own_bots=True)


def test_own_bot_forms_pass_the_name_check():
    assert check_player_name("mybot.py:MyBot", own_bots=True) == "mybot.py:MyBot"
    with pytest.raises(ValueError):
        check_player_name("mybot.py:MyBot")  # the web table has no bots of one's own


def test_skat_play_refuses_an_unknown_level_at_once(capsys):
    with pytest.raises(SystemExit) as info:
        main(["play", "--text", "--level", "superstrong"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "superstrong" in err and all(n in err for n in PLAYER_NAMES)


def test_skat_play_help_names_the_levels(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "easy, medium, strong, expert" in out and "heuristic" in out and "random" in out


@pytest.mark.parametrize("argv", [
    ["arena", "--players", "superstrong,heuristic", "--deals", "1", "--quiet"],
    ["bot", "http://127.0.0.1:9/t/abc#token=x", "--player", "superstrong"],
])
def test_arena_and_bot_refuse_an_unknown_player_before_they_start(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "'superstrong'" in err and "easy, medium, strong, expert, learned, heuristic, random" in err and "FILE.py:Factory" in err


def test_a_match_and_arena_player_check_names():
    with pytest.raises(ValueError, match="unknown player 'medum'"):
        run_match(ArenaConfig(players=("medum", "heuristic"), deals=1), workers=1, progress=False)
    assert arena_player("heuristic", 3).choose


def test_the_lobby_offers_the_same_names(client):
    meta = client.get("/api/meta").json()
    assert meta["levels"] == list(PLAYER_NAMES) and meta["default_level"] == "strong"
    before = client.get("/api/tables").json()["tables"]
    r = client.post("/api/tables", json={"seats": ["human", "superstrong", "random"]})
    assert r.status_code == 400 and r.json()["error"] == "bad_seats"
    assert "'superstrong'" in r.json()["message"] and "easy, medium, strong, expert, learned, heuristic, random" in r.json()["message"]
    assert client.get("/api/tables").json()["tables"] == before  # nothing was created
    for name in PLAYER_NAMES:
        r = client.post("/api/tables", json={"seats": ["human", name, "random"]})
        assert r.status_code in (200, 201), (name, r.text)


def test_every_name_is_translated_in_the_lobby():
    for lang in ("en", "de", "ru", "pl", "ko"):  # the catalogs of the pages' languages (src/skat/web/static/i18n)
        table = json.loads((ROOT / f"src/skat/web/static/i18n/{lang}.json").read_text(encoding="utf-8"))["table"]
        for name in PLAYER_NAMES:
            assert table.get(f"level_{name}") and table.get(f"lvl_{name}"), (lang, name)


def test_the_readme_uses_the_same_names():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("### Computer players", 1)[1].split("###", 1)[0]
    listed = re.findall(r"^\| `(\w+)`", table, flags=re.M)
    assert tuple(listed) == ("expert", "strong", "medium", "easy", "learned", "heuristic", "random")
    assert "pimc" not in readme.split("## Commands", 1)[1].split("## Layout", 1)[0]


# ------------------------------------------------------------------ Unix manners
def test_version():
    out = subprocess.run([*SKAT, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"skat {__version__}"
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^version = "(.*)"$', project, flags=re.M).group(1) == __version__  # skat/_version.py


@pytest.mark.parametrize("argv", [["deal", "--seed", "1"], ["series", "--games", "2", "--seed", "1", "--json"], ["--help"],
                                  ["series", "--games", "2", "--seed", "1"]])
def test_a_closed_pipe_ends_quietly(argv):
    """`skat deal --seed 1 | head -n 0`: the reader is gone before the first line; no message, status 0."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        out = subprocess.run([*SKAT, *argv], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)
    assert out.returncode in (0, 141) and out.stderr == ""


def test_errors_go_to_stderr_with_a_status():
    out = subprocess.run([*SKAT, "play", "--text", "--deals", "0"], capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == "" and "--deals must be at least 1" in out.stderr
    out = subprocess.run([*SKAT, "series", "--ruleset", "moon"], capture_output=True, text=True)
    assert out.returncode != 0 and out.stdout == "" and "moon" in out.stderr


def test_help_points_to_the_rules_reference(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "docs/rules.md" in capsys.readouterr().out
