"""Players' histories, statistics, ratings, leaderboards and replays (issue 29, docs/history.md): what the store
writes as each deal finishes (skat.server.history), the routes that read it (skat.server.routes.history), who may
see what, a guest who registers, a deleted account, and the rebuild from stored deals that migration 0005 runs."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, delete, select

from skat.server.app import create_app
from skat.server.database import (
    player_days_t,
    player_deals_t,
    player_stats_t,
    rating_history_t,
    ratings_t,
    seats_t,
)
from skat.server.history import LIST_GAMES, count_deal, rebuild
from test_server import hello, play_deal, recv_state
from test_server_support import browser, postgres  # noqa: F401 - the fixture

ORIGIN = {"Origin": "http://testserver"}


def row(role: str, **kw) -> dict:
    base = {"role": role, "game": "grand", "seat": 0, "won": True, "sf": 0, "score": 0, "overbid": False,
            "kontra": 0}
    return base | kw


# ------------------------------------------------------------------ counting
def test_the_counters_count_each_role_once():
    counters: dict[str, int] = {}
    count_deal(counters, row("declarer", game="grand", seat=2, won=True, sf=98, score=48, kontra=1))
    count_deal(counters, row("declarer", game="null", seat=0, won=False, sf=-96, score=-46, overbid=True))
    count_deal(counters, row("defender", game="clubs", seat=1, won=False, sf=0, kontra=1))
    count_deal(counters, row("passed", game="passed", seat=1, won=None))
    count_deal(counters, row("ramsch", game="ramsch", seat=0, won=False, score=-30, sf=-30))
    count_deal(counters, row("out", game="hearts", seat=None, won=None, sf=30))
    assert counters["deals"] == 6 and counters["games"] == 5 and counters["out"] == 1
    assert counters["declarer"] == 2 and counters["declarer.won"] == 1 and counters["declarer.grand.won"] == 1
    assert counters["declarer.null"] == 1 and "declarer.null.won" not in counters and counters["overbid"] == 1
    assert counters["seat.2.declarer"] == 1 and counters["seat.2.won"] == 1 and counters["seat.0.games"] == 2
    assert counters["defender"] == 1 and "defender.won" not in counters
    assert counters["kontra.declarer"] == 1 and counters["kontra.declarer.won"] == 1 and counters["kontra.defender"] == 1
    assert counters["passed"] == 1 and counters["ramsch"] == 1 and counters["ramsch.lost"] == 1
    assert counters["sf"] == 98 - 96 - 30 + 30 and counters["score"] == 48 - 46 - 30


# ------------------------------------------------------------------ helpers
def person_table(client: TestClient, deals: int) -> dict:
    r = client.post("/api/tables", json={"seats": ["human", "random", "random"], "deals": deals}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    return r.json()


def play(client: TestClient, table: dict, deals: int) -> None:
    """Play ``deals`` deals at the table as its person (position 0)."""
    with client.websocket_connect(f"/ws/{table['table_id']}", headers=ORIGIN) as ws:
        _, _, state = hello(ws, table["token"])
        for n in range(deals):
            play_deal(ws, state)
            if n + 1 < deals:
                ws.send_text(json.dumps({"type": "next_deal"}))
                state = recv_state(ws)
                while state["view"] is None or state["table"]["deal_no"] != n + 2:
                    state = recv_state(ws)


def wait_finished(client: TestClient, table_id: str, games: int, seconds: float = 60,
                  headers: dict | None = None) -> dict:
    """The table's info once its series of ``games`` games has ended."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        info = client.get(f"/api/tables/{table_id}", headers=headers).json()
        if info["status"] == "finished" and info["game_no"] == games:
            return info
        time.sleep(0.05)
    raise AssertionError(f"table {table_id} did not finish: {info}")


def history_of(client: TestClient, **query) -> dict:
    r = client.get("/api/me/history", params=query)
    assert r.status_code == 200, r.text
    return r.json()


# ------------------------------------------------------------------ a person's deals
def test_a_persons_deals_statistics_rating_and_leaderboard(client):
    assert client.post("/api/account/register", json={"name": "Edda", "password": "password-e"},
                       headers=ORIGIN).status_code == 201
    table = person_table(client, 2)
    play(client, table, 2)
    seat = {"X-Seat-Token": table["token"]}
    info = wait_finished(client, table["table_id"], 2, headers=seat)
    history = history_of(client)
    while history["total"] < 2:  # the last deal's write may come a moment after the table says it is finished
        time.sleep(0.05)
        history = history_of(client)
    assert history["total"] == 2 and history["next"] is None and history["player"]["name"] == "Edda"
    deals = history["deals"]
    assert [d["deal_no"] for d in deals] == [2, 1]  # newest first
    assert all(d["table_id"] == table["table_id"] and d["position"] == 0 for d in deals)
    assert deals[0]["players"][0] == "Edda" and len(deals[0]["players"]) == 3
    # the history's SF points and list scores add up to the table's totals
    assert sum(d["sf"] for d in deals) == info["totals"]["seeger_fabian"][0]
    assert sum(d["score"] for d in deals) == info["totals"]["classic"][0]
    sheet = client.get(f"/api/tables/{table['table_id']}/games", headers=seat).json()["games"]
    for d in deals:
        played = next(g for g in sheet if g["deal_no"] == d["deal_no"])
        result = played["result"]
        seat = played["positions"].index(0)
        assert d["seat"] == seat
        if result["declarer"] is None:
            assert d["role"] in ("passed", "ramsch")
        else:
            assert d["role"] == ("declarer" if result["declarer"] == seat else "defender")
            assert d["won"] == (result["won"] if d["role"] == "declarer" else not result["won"])
    # filters
    for role in {d["role"] for d in deals}:
        assert history_of(client, role=role)["total"] == sum(d["role"] == role for d in deals)
    assert history_of(client, since=time.time() + 60)["total"] == 0
    page = history_of(client, limit=1)
    assert len(page["deals"]) == 1 and page["next"]
    rest = history_of(client, limit=1, cursor=page["next"])
    assert [d["deal_no"] for d in rest["deals"]] == [1] and rest["next"] is None
    # statistics, the computers at the person's tables, the form
    me = client.get("/api/me").json()["player"]
    stats = client.get(f"/api/players/{me['id']}").json()
    assert stats == client.get("/api/players/me").json()
    assert stats["stats"]["games"] == 2 and stats["stats"]["sf"] == info["totals"]["seeger_fabian"][0]
    assert [f["sf"] for f in stats["form"]] == [d["sf"] for d in reversed(deals)]
    assert stats["computers"]["random"]["games"] == 4  # two computer seats, two deals
    # the table's series ended after 2 games: one rated list, the person and the computer level in it
    assert stats["rating"]["lists"] == 1 and stats["rating"]["games"] == 2
    ratings = client.get(f"/api/players/{me['id']}/ratings").json()["history"]
    assert len(ratings) == 1 and ratings[0]["first_game"] == 1 and ratings[0]["last_game"] == 2
    assert ratings[0]["sf"] == info["totals"]["seeger_fabian"][0]
    board = client.get("/api/leaderboard").json()["rows"]
    assert [r["player"]["name"] for r in board] == ["Edda"]
    assert client.get("/api/leaderboard", params={"kind": "computer"}).json()["rows"][0]["player"]["id"] == "b-random"
    players = client.get(f"/api/tables/{table['table_id']}/players",
                         headers={"X-Seat-Token": table["token"]}).json()["players"]
    assert players[0]["player"]["name"] == "Edda" and players[0]["rating"]["lists"] == 1
    assert players[1]["player"]["id"] == "b-random"


def test_a_second_browser_sees_nothing_private(client):
    client.post("/api/account/register", json={"name": "Fenja", "password": "password-f"}, headers=ORIGIN)
    table = person_table(client, 1)
    play(client, table, 1)
    other = browser(client)
    assert other.get("/api/me").json() == {"player": None, "signed_in": False}
    assert other.get("/api/me/history").json()["error"] == "no_player"
    assert other.get("/api/players/me").status_code == 404
    # the replay: the person's, and nobody else's while the table is open
    mine = client.get(f"/api/replays/{table['table_id']}/1")
    assert mine.status_code == 200 and mine.json()["you"] == 0
    refused = other.get(f"/api/replays/{table['table_id']}/1")
    assert refused.status_code == 403 and refused.json()["error"] == "replay_private"
    assert other.get(f"/api/replays/{table['table_id']}/1.iss").status_code == 403
    assert other.get(f"/api/replays/{table['table_id']}/1/analysis").status_code == 403
    # the public profile shows statistics, never the history
    me = client.get("/api/me").json()["player"]["id"]
    public = other.get(f"/api/players/{me}").json()
    assert public["player"]["name"] == "Fenja" and "deals" not in public
    assert "password" not in json.dumps(public) and "guest" not in json.dumps(public)
    # closed, the deal is everybody's to see (as at ISS)
    assert client.post(f"/api/tables/{table['table_id']}/close", json={"token": table["token"]},
                       headers=ORIGIN).status_code == 200
    seen = other.get(f"/api/replays/{table['table_id']}/1").json()
    assert seen["you"] is None and seen["table_closed"]
    assert other.get(f"/api/replays/{table['table_id']}/1.iss").text.startswith("(;GM[Skat]")


def test_a_replay_steps_through_the_whole_deal(client):
    table = person_table(client, 1)
    play(client, table, 1)
    replay = client.get(f"/api/replays/{table['table_id']}/1").json()
    record, steps = replay["record"], replay["steps"]
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0]["action"] is None and sorted(len(h) for h in steps[0]["hands"]) == [10, 10, 10]
    assert [[s["seat"], s["action"]] for s in steps[1:]] == record["actions"]
    assert steps[-1]["phase"] == "finished" and record["seed"] is None  # a secret table's seed stays secret
    result = replay["result"]
    if result["declarer"] is not None and result["declarer_points"] is not None:
        declarer = result["declarer"]
        taken = steps[-1]["points"][declarer]
        assert taken <= result["declarer_points"]  # the skat's points count for the declarer too
    played = [s for s in steps if s["phase"] == "playing" or (s["action"] and len(s["action"]) == 2)]
    assert played, "a deal has card steps (or was passed in)" if result["declarer"] is not None else True
    assert client.get(f"/api/replays/{table['table_id']}/2").json()["error"] == "no_deal"
    assert client.get("/api/replays/nosuchtable/1").status_code == 404


def test_bad_requests_say_what_is_wrong(client):
    table = person_table(client, 1)
    play(client, table, 1)
    for query, code in (({"game": "skat"}, "bad_filter"), ({"role": "king"}, "bad_filter"),
                        ({"result": "draw"}, "bad_filter"), ({"cursor": "yesterday"}, "bad_filter")):
        r = client.get("/api/me/history", params=query)
        assert r.status_code == 400 and r.json()["error"] == code, r.text
    assert client.get("/api/me/history", params={"limit": 0}).status_code == 422
    for bad in ("x-1", "g-abc", "a", "a-" + "x" * 90):
        assert client.get(f"/api/players/{bad}").json()["error"] == "no_player"
    assert client.get("/api/players/a-nosuchaccount").status_code == 404
    assert client.get("/api/players/b-nosuchlevel/ratings").json()["error"] == "no_player"
    assert client.get("/api/players/b-random/ratings").status_code == 200
    assert client.get("/api/leaderboard", params={"period": "week"}).status_code == 422


def test_a_guest_who_registers_keeps_the_games(client):
    table = person_table(client, 1)  # a guest: the browser gets the guest cookie with the seat
    play(client, table, 1)
    as_guest = history_of(client)
    assert as_guest["total"] == 1 and as_guest["player"] == {"id": "me", "name": None, "kind": "guest"}
    guest_stats = client.get("/api/players/me").json()
    r = client.post("/api/account/register", json={"name": "Gesa", "password": "password-g"}, headers=ORIGIN)
    assert r.json()["claimed"] == 1
    mine = history_of(client)
    assert mine["total"] == 1 and mine["player"]["name"] == "Gesa"
    assert mine["deals"][0]["sf"] == as_guest["deals"][0]["sf"]
    stats = client.get("/api/players/me").json()
    assert stats["stats"] == guest_stats["stats"] and stats["computers"] == guest_stats["computers"]
    assert stats["rating"] == guest_stats["rating"] and stats["rating"]["lists"] == 1
    with client.app.state.manager.store.engine.connect() as conn:
        assert not conn.execute(select(player_deals_t).where(player_deals_t.c.player.like("g:%"))).all()
        assert not conn.execute(select(ratings_t).where(ratings_t.c.player.like("g:%"))).all()


def test_deleting_an_account_removes_its_history(client):
    client.post("/api/account/register", json={"name": "Hedda", "password": "password-h"}, headers=ORIGIN)
    table = person_table(client, 1)
    play(client, table, 1)
    account_id = client.get("/api/me").json()["player"]["id"][2:]
    store = client.app.state.manager.store
    client.app.state.accounts.delete(account_id)
    key = f"a:{account_id}"
    with store.engine.connect() as conn:
        for t in (player_deals_t, player_days_t, ratings_t, rating_history_t):
            assert not conn.execute(select(t).where(t.c.player == key)).all(), t.name
        assert not conn.execute(select(player_stats_t).where(
            (player_stats_t.c.player == key) | (player_stats_t.c.scope == key))).all()
        assert conn.execute(select(seats_t.c.name).where(seats_t.c.table_id == table["table_id"],
                                                         seats_t.c.position == 0)).scalar_one() == "Player 1"
    assert client.get("/api/leaderboard").json()["rows"] == []
    assert client.get(f"/api/players/a-{account_id}").status_code == 404


# ------------------------------------------------------------------ the rebuild (migration 0005)
@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'h.sqlite'}"
    return request.getfixturevalue("postgres").new_database()


def _snapshot(conn) -> dict:
    deals = sorted((r.table_id, r.deal_no, r.position, r.player, r.game_no, r.game, r.contract, r.role, r.seat,
                    r.bid, r.won, r.score, r.sf, r.kontra, r.overbid) for r in conn.execute(select(player_deals_t)))
    stats = sorted((r.player, r.scope, r.games, r.data) for r in conn.execute(select(player_stats_t)))
    ratings = sorted((r.player, round(r.mu, 9), round(r.sigma, 9), r.lists, r.games)
                     for r in conn.execute(select(ratings_t)))
    days = sorted((r.player, r.games, r.sf, r.score) for r in conn.execute(select(player_days_t)))
    return {"deals": deals, "stats": stats, "ratings": ratings, "days": days}


def test_a_rebuild_from_the_stored_deals_writes_what_the_live_server_wrote(any_db):
    games = LIST_GAMES + 2  # a list rated after 12 games, the last two when the series ends
    with TestClient(create_app(any_db)) as client:
        r = client.post("/api/tables", json={"seats": ["random", "easy", "random"], "deals": games, "claim": None},
                        headers=ORIGIN)
        table_id = r.json()["table_id"]
        info = wait_finished(client, table_id, games, 120, {"X-Invite": r.json()["invite"]})
        engine = client.app.state.manager.store.engine
        deadline = time.time() + 30
        while True:  # the last deal's write may come a moment after the table says it is finished
            with engine.connect() as conn:
                live = _snapshot(conn)
            if len(live["deals"]) == 3 * info["deal_no"] or time.time() > deadline:
                break
            time.sleep(0.05)
        assert len(live["deals"]) == 3 * info["deal_no"]
        assert {(p, lists) for p, _, _, lists, _ in live["ratings"]} == {("b:easy", 2), ("b:random", 2)}
        easy = client.get("/api/players/b-easy/ratings").json()["history"]
        assert [(h["first_game"], h["last_game"]) for h in easy] == [(1, 12), (13, 14)]
        with engine.begin() as conn:
            for t in (player_deals_t, player_stats_t, player_days_t, ratings_t, rating_history_t):
                conn.execute(delete(t))
            assert rebuild(conn) == len(live["deals"])
            assert rebuild(conn) == 0  # written once
        with engine.connect() as conn:
            again = _snapshot(conn)
    assert again["deals"] == live["deals"] and again["stats"] == live["stats"]
    assert again["ratings"] == live["ratings"]
    assert _by_player(again["days"]) == _by_player(live["days"])  # dated by the last action: the day may differ


def _by_player(days: list) -> dict:
    sums: dict = {}
    for player, games, sf, score in days:
        s = sums.setdefault(player, [0, 0, 0])
        s[0], s[1], s[2] = s[0] + games, s[1] + sf, s[2] + score
    return sums


def test_migration_0005_brings_an_existing_database_along(tmp_path):
    from alembic import command

    from test_server_migrations import _alembic

    url = f"sqlite:///{tmp_path / 'm.sqlite'}"
    with TestClient(create_app(url)) as client:
        r = client.post("/api/tables", json={"seats": ["random", "easy", "random"], "deals": 3, "claim": None},
                        headers=ORIGIN)
        wait_finished(client, r.json()["table_id"], 3, 60, {"X-Invite": r.json()["invite"]})
        engine = client.app.state.manager.store.engine
        deadline = time.time() + 30
        while True:
            with engine.connect() as conn:
                live = _snapshot(conn)
            if len(live["ratings"]) == 2 or time.time() > deadline:
                break
            time.sleep(0.05)
    engine = create_engine(url)
    _alembic(engine, command.downgrade, "0004")  # a database of the servers before histories
    _alembic(engine, command.upgrade, "head")
    with engine.connect() as conn:
        again = _snapshot(conn)
    assert again["deals"] == live["deals"] and again["ratings"] == live["ratings"] and len(again["deals"]) == 9


def test_a_failed_history_write_is_logged_keeps_the_deal_and_the_operator_rebuilds_it(tmp_path, monkeypatch, caplog,
                                                                                     capsys):
    from skat.cli import main

    def broken(*_args, **_kw):
        raise RuntimeError("the disk is full")

    url = f"sqlite:///{tmp_path / 'f.sqlite'}"
    monkeypatch.setattr("skat.server.store.record_finished_deal", broken)
    with TestClient(create_app(url)) as client:
        r = client.post("/api/tables", json={"seats": ["random", "easy", "random"], "deals": 2, "claim": None},
                        headers=ORIGIN)
        table_id = r.json()["table_id"]
        info = wait_finished(client, table_id, 2, 60, {"X-Invite": r.json()["invite"]})  # the table went on
        assert info["game_no"] == 2
        deadline = time.time() + 30
        while "could not be written" not in caplog.text and time.time() < deadline:
            time.sleep(0.05)
    assert f"table {table_id}, deal 1: the players' history" in caplog.text and "skat user rebuild-history" in \
        caplog.text
    monkeypatch.undo()
    assert main(["user", "--db", url, "rebuild-history"]) == 0
    assert "6 history row(s) written" in capsys.readouterr().out
    assert main(["user", "--db", url, "rebuild-history"]) == 0
    assert "every finished deal is in the histories" in capsys.readouterr().out
    with TestClient(create_app(url)) as client:
        assert client.get("/api/players/b-easy").json()["stats"]["games"] == 2
        assert client.get("/api/players/b-easy").json()["rating"]["lists"] == 1


def test_an_officers_skat_game_is_in_the_history_apart_from_skat(client):
    from test_server_officers_ws import choice, until_mine
    from test_server_officers_ws import hello as officers_hello
    from test_server_officers_ws import recv_state as officers_state

    r = client.post("/api/tables", json={"variant": "officers", "deals": 1}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    table = r.json()
    with client.websocket_connect(f"/ws/{table['table_id']}", headers=ORIGIN) as ws:
        state = officers_hello(ws, table["token"])
        for _ in range(200):
            state = until_mine(ws, state)
            if state["view"]["phase"] == "finished":
                break
            ws.send_text(json.dumps({"type": "action", "action": choice(state), "seq": state["seq"]}))
            state = officers_state(ws)
    deadline = time.time() + 30
    history = history_of(client)
    while history["total"] < 1 and time.time() < deadline:
        time.sleep(0.05)
        history = history_of(client)
    deal = history["deals"][0]
    assert deal["variant"] == "officers" and deal["sf"] == 0 and deal["seat"] in (0, 1)
    assert deal["role"] in ("declarer", "defender") and deal["bid"] == 0
    stats = client.get("/api/players/me").json()
    assert stats["stats"]["games"] == 0 and stats["stats"]["officers"]["games"] == 1  # counted apart
    assert stats["rating"] is None  # Officers' Skat has no SF points to rate


def test_hidden_information_stays_hidden_for_a_signed_in_player(client):
    """The wire checks of tests/test_server.py, run again with the seat's person signed in (a session cookie on
    every request and on the WebSocket)."""
    from test_server import test_a_seat_never_receives_another_seats_hidden_cards as seat_check
    from test_server import test_spectators_see_only_public_information as spectator_check

    client.headers["Origin"] = "http://testserver"
    assert client.post("/api/account/register", json={"name": "Ines", "password": "password-i"}).status_code == 201
    seat_check(client)
    spectator_check(client)
    # the history has no card, and a running deal no replay
    table = person_table(client, 2)
    assert client.get(f"/api/replays/{table['table_id']}/1").json()["error"] == "no_deal"
    assert not any(key in json.dumps(history_of(client)) for key in ("hands", "skat", "token"))


def test_a_redealt_deal_is_no_game_of_the_list():
    counters: dict[str, int] = {}
    count_deal(counters, row("passed", game="passed", won=None, contract="redealt"))
    count_deal(counters, row("passed", game="passed", won=None, contract="passed in"))
    assert counters == {"deals": 2, "redealt": 1, "games": 1, "passed": 1, "seat.0.games": 1, "sf": 0, "score": 0}
