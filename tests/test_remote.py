"""A computer player in a person's seat over the table protocol (``skat bot``), against a real server."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from skat import Game
from skat.cli import main
from skat.players import make_player
from skat.players.remote import parse_table_link, play_remote, view_from_json
from skat.records.wire import view_to_json
from skat.rules.rulesets import PUB, TOURNEE
from skat.server.app import create_app
from skat.variants.tournee import TourneeGame
from test_server_support import serve, stop


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("remote") / "skat.sqlite"
    srv = serve(create_app(f"sqlite:///{db}"))
    yield f"http://127.0.0.1:{srv.port}"
    stop(srv)


def new_table(base: str, **body) -> dict:
    body.setdefault("seats", ["human", "random", "random"])
    r = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("rules", [None, PUB, TOURNEE])
def test_a_view_comes_back_from_its_json(rules):
    """Every view of random games, rebuilt from its JSON, is the same view (the result aside)."""
    rng = make_player("random", 1)
    for seed in range(15):
        if rules is TOURNEE:
            game = TourneeGame(seed, ruleset=rules)
        else:
            game = Game(seed=seed) if rules is None else Game(seed=seed, ruleset=rules)
        while not game.is_over:
            for seat in range(3):
                view = game.view(seat)
                back = view_from_json(json.loads(json.dumps(view_to_json(view))))
                assert view_to_json(back) == dict(view_to_json(view), result=None)
            seat = game.to_move
            game.apply(rng.choose(game.view(seat)), seat)


def test_table_links_are_read_or_refused():
    a = parse_table_link("http://127.0.0.1:8765/t/abc123#token=s3cret")
    assert (a.websocket_url, a.table_id, a.token) == ("ws://127.0.0.1:8765/ws/abc123", "abc123", "s3cret")
    assert parse_table_link("https://club.example/t/x", token="t").websocket_url == "wss://club.example/ws/x"
    for bad, message in (("ftp://host/t/x#token=a", "not a table link"), ("http://host/lobby#token=a", "/t/TABLE"),
                         ("http://host/t/x", "no seat token")):
        with pytest.raises(ValueError, match=message):
            parse_table_link(bad)


def test_a_bot_plays_a_persons_seat_over_the_wire(server):
    t = new_table(server, seed=11)
    address = parse_table_link(f"{server}/t/{t['table_id']}", t["token"])
    played = asyncio.run(asyncio.wait_for(play_remote(address, make_player("heuristic", 3), deals=2), 120))
    assert played == 2
    games = httpx.get(f"{server}/api/tables/{t['table_id']}/games", timeout=10,  # a private table: the seat's token
                      headers={"X-Seat-Token": t["token"]}).json()["games"]
    assert len(games) >= 2 and all(g["result"] for g in games[:2])


def test_skat_bot_command(server, capsys):
    t = new_table(server, seed=12, ruleset="pub")
    link = f"{server}/t/{t['table_id']}#token={t['token']}"
    assert main(["bot", link, "--player", "random", "--deals", "1", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "deal 1:" in out and "1 deal(s) played" in out
    assert main(["bot", f"{server}/t/{t['table_id']}#token=wrong", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "spectator" in err or "refused the seat" in err  # a wrong token is not a seat
    assert main(["bot", f"{server}/t/nosuchtable#token=a", "--deals", "1"]) == 2
    assert "no open table" in capsys.readouterr().err
    assert main(["bot", "http://127.0.0.1:9/t/x#token=a", "--deals", "1"]) == 2
    assert "cannot reach the table" in capsys.readouterr().err
