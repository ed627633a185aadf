"""Online tournaments (docs/online-tournaments.md): the library's ranking of tables scored at server tables
(:meth:`Tournament.record_result`); a whole tournament of simulated players through the protocol (accounts
registering over REST, each round's seat asked for, the deals played over the table WebSocket), with a no-show and a
leaver whom the move clock's stand-in replaces, over two rounds (the second seated by the ranking) to the finished
ranking, its PDF and the players' histories, statistics and ratings, on SQLite and PostgreSQL; five players made
3 + 3 by a computer player, nobody playing, still finish; bad input refused with its own code, changing nothing."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select

from skat.server.core import TableError
from skat.server.database import normalize_db_url, player_deals_t
from skat.server.online import check_settings, tournament_name
from skat.table.printing import ranking_pdf
from skat.table.tournament import TableResult, Tournament, TournamentError
from test_server_support import postgres  # noqa: F401 - the fixture
from test_server_tournament import pdf_text

ROOT = Path(__file__).resolve().parent.parent
SCALE = 0.04
"""Real seconds per clock second: a 5-second decision or grace lasts 0.2 s."""
CLOCK = {"decision": 5, "reserve": 0, "grace": 5, "ready": 10, "stand_in": "heuristic"}


def _bench():
    spec = importlib.util.spec_from_file_location("bench_online_tournament", ROOT / "bench" / "online_tournament.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_online_tournament"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = _bench()


# ------------------------------------------------------------------ the library
def test_a_table_scored_elsewhere_counts_in_the_ranking_as_a_list_would():
    t = Tournament(["Ann", "Bob", "Cid", "Dora", "Emil", "Fritz", "Gus"], ruleset="isko2018", games={4: 2, 3: 2})
    s = t.draw_series(5)
    four, three = s.draw
    t.record_result(1, 1, TableResult(dict(zip(four, (120, -30, 40, 0), strict=True)),
                                      dict(zip(four, (2, 0, 0, 0), strict=True)), dict(zip(four, (0, 1, 0, 0), strict=True))))
    t.record_result(1, 2, TableResult(dict(zip(three, (40, 40, 40), strict=True)), dict.fromkeys(three, 0),
                                      dict.fromkeys(three, 0), complete=False))
    ranking = t.ranking()
    assert [(r.player, r.points, r.won, r.lost, r.series) for r in ranking[:2]] == [
        (four[0], 120, 2, 0, (120,)), (four[2], 40, 0, 0, (40,))]
    assert {r.rank for r in ranking if r.points == 40} == {2}  # four of them share rank 2 (ties: won, lost, series)
    again = Tournament.from_json(t.to_json())  # kept through JSON
    assert [(r.player, r.points, r.rank) for r in again.ranking()] == [(r.player, r.points, r.rank) for r in ranking]
    assert again.series[0].results[1] == t.series[0].results[1]
    second = again.draw_series(6, by_ranking=True)  # the next round seats the best first
    assert second.draw[0][0] == four[0]
    # a result of other players, or of more games than a table plays, is refused
    with pytest.raises(TournamentError, match="seats"):
        t.record_result(1, 1, TableResult(dict.fromkeys(three, 0), dict.fromkeys(three, 0), dict.fromkeys(three, 0)))
    with pytest.raises(TournamentError, match="plays 2 games"):
        t.record_result(1, 2, TableResult(dict.fromkeys(three, 0), dict.fromkeys(three, 3), dict.fromkeys(three, 0)))
    assert "Tournament" not in Tournament(["A", "B", "C"]).to_json_text()  # a club tournament's JSON is unchanged:
    assert "results" not in Tournament(["A", "B", "C"]).to_json()["series"].__repr__()
    # the printed ranking says how many tables are in and that a table still playing counts as it stands
    text = pdf_text(ranking_pdf(t))
    assert "2 of 2 lists handed in" in text and "in progress count as they stand" in text


def test_the_directors_settings_are_checked_each_with_its_own_code():
    now = 1_000_000.0
    ok = dict(name="Sunday", starts_at=now + 60, ruleset=None, rounds=None, games=None, clock=None, now=now)
    s = check_settings(**ok)
    assert (s.ruleset, s.rounds, s.games, s.clock["grace"], s.clock["stand_in"]) == (
        "isko2018", 3, {"4": 12, "3": 12}, 60, "strong")
    assert check_settings(**{**ok, "games": {"4": 8}}).games == {"4": 8, "3": 8}
    for change, code in [({"starts_at": now - 3600}, "bad_start"), ({"starts_at": "soon"}, "bad_start"),
                         ({"starts_at": now + 400 * 86400}, "bad_start"), ({"rounds": 0}, "bad_rounds"),
                         ({"rounds": 13}, "bad_rounds"), ({"rounds": True}, "bad_rounds"), ({"games": 49}, "bad_games"),
                         ({"games": {"5": 3}}, "bad_games"), ({"games": "12"}, "bad_games"),
                         ({"ruleset": "tournee_no"}, "bad_ruleset"), ({"ruleset": "officers"}, "bad_ruleset"),
                         ({"clock": False}, "bad_clock"), ({"clock": {"grace": 1}}, "bad_clock"),
                         ({"name": "x" * 201}, "bad_name")]:
        with pytest.raises(TableError) as caught:
            check_settings(**{**ok, **change})
        assert caught.value.code == code, (change, caught.value)
    assert tournament_name("passed") == "passed (1)" and tournament_name("Anna") == "Anna"


# ------------------------------------------------------------------ through the protocol
@pytest.fixture()
def server(tmp_path, request):
    """The application on a real port (its clock 25 times faster, the tournaments' task looking every 0.05 s)."""
    db = getattr(request, "param", "sqlite")
    url = f"sqlite:///{tmp_path / 'online.sqlite'}" if db == "sqlite" else request.getfixturevalue("postgres").new_database()
    srv, base = bench.serve_app(url, SCALE, 0.05)
    srv.url, srv.base = url, base  # type: ignore[attr-defined]
    yield srv
    bench.stop_app(srv)


def _deals(url: str) -> list:
    engine = create_engine(normalize_db_url(url))
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(player_deals_t)))
    finally:
        engine.dispose()


@pytest.mark.parametrize("server", ["sqlite", "postgresql"], indirect=True)
def test_a_tournament_of_seven_with_a_no_show_and_a_leaver_to_its_printed_ranking(server):
    figures = asyncio.run(bench.run_tournament(server.base, players=7, rounds=2, games={"4": 2, "3": 2}, no_shows=1,
                                               leavers=1, leave_after=3, clock=CLOCK, timeout=180, prefix="Sim"))
    assert not figures.errors, figures.errors
    state = figures.tournament
    assert state["status"] == "finished" and state["round"] == 2 and state["finished"] >= state["started"]
    # two rounds at a table of 4 and one of 3, every player seated once a round, each table's series played out
    for rnd in state["series"]:
        assert sorted(len(t["players"]) for t in rnd["tables"]) == [3, 4]
        assert sorted(p for t in rnd["tables"] for p in t["players"]) == sorted(figures.accounts)
        assert all(t["status"] == "finished" and t["deal_no"] >= 2 for t in rnd["tables"])
    ranking = state["ranking"]
    assert [r["rank"] for r in ranking] == sorted(r["rank"] for r in ranking) and len(ranking) == 7
    assert all(len(r["series"]) == 2 and None not in r["series"] for r in ranking)
    assert all(r["points"] == sum(r["series"]) for r in ranking)
    assert {r["account"] for r in ranking} == set(figures.accounts.values())
    # round 2 seated by the ranking after round 1: its first table holds the best of round 1
    best_first = max(ranking, key=lambda r: r["series"][0])["series"][0]
    assert any(r["series"][0] == best_first for r in ranking if r["player"] in state["series"][1]["tables"][0]["players"])
    # every player's deals are in their history, the no-show's and the leaver's decided by the stand-in
    rows = _deals(server.url)
    by_player: dict[str, list] = {}
    for r in rows:
        by_player.setdefault(r.player, []).append(r)
    ids = {name: f"a:{aid}" for name, aid in figures.accounts.items()}
    assert all(by_player.get(key) for key in ids.values()), "every account has its deals in its history"
    no_show, leaver, player = ids["Sim 01"], ids["Sim 02"], ids["Sim 05"]
    assert all(r.stand_in > 0 for r in by_player[no_show] if r.role != "out")
    assert sum(r.stand_in for r in by_player[leaver]) > 0
    with httpx.Client(base_url=server.base) as c:
        stats = c.get(f"/api/players/{player.replace(':', '-')}").json()
        assert stats["stats"]["games"] >= 2 and stats["rating"] is not None
        text = pdf_text(c.get(f"/api/online-tournaments/{state['id']}/ranking.pdf").content)
    assert "Sim online tournament" in text
    lines = [line for line in text.splitlines() if line.strip()[:1].isdigit() and "Sim " in line]
    assert [line.split("Sim ")[1][:2] for line in lines] == [r["player"][4:6] for r in ranking]


def _client(base: str, name: str | None = None) -> httpx.Client:
    c = httpx.Client(base_url=base, headers={"Origin": base}, timeout=30)
    if name is not None:
        r = c.post("/api/account/register", json={"name": name, "password": bench.PASSWORD})
        assert r.status_code == 201, r.text
    return c


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert (r.status_code, r.json().get("error")) == (status, code), r.text


def test_bad_input_is_refused_with_its_own_code_and_changes_nothing(server):
    base = server.base
    director, anna, bernd, carla, dora = (_client(base), _client(base, "Anna"), _client(base, "Bernd"),
                                          _client(base, "Carla"), _client(base, "Dora"))
    for body, code in [({"starts_at": time.time() - 7200}, "bad_start"), ({"rounds": 99}, "bad_rounds"),
                       ({"games": 0}, "bad_games"), ({"clock": False}, "bad_clock"), ({"ruleset": "nope"}, "bad_ruleset"),
                       ({"name": 5}, "bad_name"), ({"colour": "red"}, "bad_request")]:
        _refused(director.post("/api/online-tournaments", json=body), 400, code)
    assert director.get("/api/online-tournaments").json()["tournaments"] == []  # nothing was made
    # a slow clock (nobody sits down: the first decision waits 24 s for its stand-in) and 12 games, so that the
    # tournament is still running when it is cancelled below, however slow the machine (with CLOCK's 0.2 s a
    # decision a loaded machine saw its one game played out by the stand-ins first)
    made = director.post("/api/online-tournaments", json={"name": "Bad input", "starts_at": time.time() + 3600,
                                                          "rounds": 1, "games": 12,
                                                          "clock": {**CLOCK, "decision": 600, "grace": 600}}).json()
    tid, key = made["id"], made["key"]
    path = f"/api/online-tournaments/{tid}"
    assert made["director_url"] == f"/online/{tid}#key={key}" and "key" not in director.get(path).json()
    _refused(director.post(f"{path}/register"), 401, "signed_out")
    assert anna.post(f"{path}/register").json()["you"] == {"registered": True, "name": "Anna"}
    _refused(anna.post(f"{path}/register"), 409, "already_registered")
    _refused(bernd.post(f"{path}/withdraw"), 404, "not_registered")
    _refused(anna.post(f"{path}/seat"), 404, "no_seat")  # not started
    _refused(bernd.post(f"{path}/seat"), 404, "not_registered")
    bernd.post(f"{path}/register")
    # a director's action from a player (no key, or a wrong one), and a start with fewer than 3
    _refused(anna.post(f"{path}/start"), 403, "bad_key")
    _refused(anna.post(f"{path}/cancel", headers={"X-Tournament-Key": "guessed"}), 403, "bad_key")
    _refused(anna.get(f"{path}/director", headers={"X-Tournament-Key": "guessed"}), 403, "bad_key")
    assert director.get(f"{path}/director", headers={"X-Tournament-Key": key}).json() == {"director": True}
    _refused(director.post(f"{path}/start", headers={"X-Tournament-Key": key}), 409, "too_few_players")
    _refused(director.get(f"{path}/ranking.pdf"), 404, "no_series")
    _refused(director.get("/api/online-tournaments/" + "0" * 32), 404, "no_tournament")
    _refused(director.get("/api/online-tournaments/nonsense"), 404, "no_tournament")
    state = director.get(path).json()
    assert (state["status"], [p["name"] for p in state["players"]], state["round"]) == ("registering",
                                                                                         ["Anna", "Bernd"], 0)
    # started: registering and withdrawing are over, the director cannot start it twice
    carla.post(f"{path}/register")
    started = director.post(f"{path}/start", headers={"X-Tournament-Key": key}).json()
    assert started["status"] == "running" and started["round"] == 1
    _refused(dora.post(f"{path}/register"), 409, "tournament_started")
    _refused(anna.post(f"{path}/withdraw"), 409, "tournament_started")
    _refused(director.post(f"{path}/start", headers={"X-Tournament-Key": key}), 409, "tournament_started")
    seat = anna.post(f"{path}/seat").json()
    assert seat["url"] == f"/t/{seat['table_id']}#token={seat['token']}"
    again = anna.post(f"{path}/seat").json()  # a fresh token: the older one no longer opens the seat
    assert again["token"] != seat["token"] and again["table_id"] == seat["table_id"]
    with httpx.Client(base_url=base) as c:
        r = c.get(f"/api/tables/{seat['table_id']}", headers={"X-Seat-Token": seat["token"]})
        assert r.status_code == 403 and r.json()["error"] == "bad_token"
        assert c.get(f"/api/tables/{seat['table_id']}", headers={"X-Seat-Token": again["token"]}).status_code == 200
    cancelled = director.post(f"{path}/cancel", headers={"X-Tournament-Key": key}).json()
    assert cancelled["status"] == "cancelled" and cancelled["reason"]
    _refused(director.post(f"{path}/cancel", headers={"X-Tournament-Key": key}), 409, "tournament_over")
    _refused(dora.post(f"{path}/register"), 409, "tournament_over")
    _refused(anna.post(f"{path}/seat"), 404, "no_seat")
    # a scheduled start with fewer than 3 registered cancels the tournament, saying why
    soon = director.post("/api/online-tournaments", json={"name": "Too few", "starts_at": time.time() + 0.3,
                                                          "clock": CLOCK}).json()
    anna.post(f"/api/online-tournaments/{soon['id']}/register")
    deadline = time.monotonic() + 10
    while director.get(f"/api/online-tournaments/{soon['id']}").json()["status"] == "registering":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    late = director.get(f"/api/online-tournaments/{soon['id']}").json()
    assert late["status"] == "cancelled" and "fewer than 3" in late["reason"]
    listed = {t["id"]: t["status"] for t in director.get("/api/online-tournaments").json()["tournaments"]}
    assert listed == {tid: "cancelled", soon["id"]: "cancelled"}
    for c in (director, anna, bernd, carla, dora):
        c.close()


def test_five_who_never_come_are_made_3_and_3_by_a_computer_and_still_finish(server):
    """Nobody connects: every seat is away after the grace, the tables between deals are pushed on, the round ends."""
    figures = asyncio.run(bench.run_tournament(server.base, players=5, rounds=1, games=2, no_shows=5, clock=CLOCK,
                                               timeout=180, prefix="Nob"))
    assert not figures.errors, figures.errors
    state = figures.tournament
    assert state["status"] == "finished"
    assert [len(t["players"]) for t in state["series"][0]["tables"]] == [3, 3]
    computer = [r for r in state["ranking"] if r["account"] is None]
    assert [r["player"] for r in computer] == ["Computer"] and len(state["ranking"]) == 6
