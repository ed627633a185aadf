"""The move clock and its computer stand-in (docs/clock.md): a person whose time runs out is played for by a
computer of the table's level, the record, the history and the statistics say so, and the person takes the seat
back; a lost connection is replaced after the grace; a finished deal waits only so long for the next."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from skat.server import create_app
from skat.server.clock import ClockError, MoveClock, plan_clock
from skat.server.database import actions_t, player_deals_t
from skat.server.games import table_game
from skat.server.history import player_stats
from test_server_support import postgres  # noqa: F401 - the fixture

SCALE = 0.04
"""Real seconds per clock second in these tests: a 5-second decision lasts 0.2 s."""
ORIGIN = {"Origin": "http://testserver"}


# ------------------------------------------------------------------ the settings
def test_the_clock_is_on_by_default_where_people_wait_for_each_other():
    skat = table_game("standard")
    assert plan_clock(None, ["human", "strong", "strong"], skat) is None  # one person: nobody waits on them
    clock = plan_clock(None, ["human", "human", "medium"], skat)
    assert clock == {"decision": 30, "reserve": 60, "grace": 20, "ready": 60, "stand_in": "medium"}
    assert plan_clock(None, ["human", "human", "human"], skat)["stand_in"] == "strong"
    assert plan_clock(None, ["human", "human", "random"], skat)["stand_in"] == "strong"  # nobody plays randomly for you
    assert plan_clock(True, ["human", "strong", "strong"], skat)["decision"] == 30
    assert plan_clock(False, ["human", "human", "human"], skat) is None
    assert plan_clock({"decision": 15, "reserve": 0, "stand_in": "easy"}, ["human"] * 3, skat) == {
        "decision": 15, "reserve": 0, "grace": 20, "ready": 60, "stand_in": "easy"}
    officers = table_game("officers")
    assert plan_clock(None, ["human", "human"], officers)["stand_in"] == "officers"


@pytest.mark.parametrize("value, words", [
    ({"decision": 4}, "decision is whole seconds from 5 to 600"),
    ({"decision": 30.5}, "decision is whole seconds"),
    ({"reserve": -1}, "reserve is whole seconds from 0 to 1800"),
    ({"grace": True}, "grace is whole seconds"),
    ({"minutes": 3}, "no setting 'minutes'"),
    ({"stand_in": "grandmaster"}, "stand_in"),
    ({"stand_in": 3}, "stand_in is a computer level"),
    ("30", "clock is true"),
    (30, "clock is true"),
])
def test_a_clock_out_of_range_is_refused_saying_what_is_wrong(value, words):
    with pytest.raises(ClockError) as caught:
        plan_clock(value, ["human", "human", "strong"], table_game("standard"))
    assert caught.value.code == "bad_clock" and words in str(caught.value)


def test_a_computer_only_table_has_no_clock():
    skat = table_game("standard")
    assert plan_clock(None, ["strong"] * 3, skat) is None
    with pytest.raises(ClockError, match="computer players only"):
        plan_clock(True, ["strong"] * 3, skat)


def test_a_decisions_overrun_comes_from_the_deals_reserve():
    clock = MoveClock({"decision": 10, "reserve": 30, "grace": 20, "ready": 60, "stand_in": "strong"})

    class Core:  # the facts of a table the clock reads
        stopped, closed, deal_no, positions = None, False, 1, (0, 1, 2)

        class seats_row:
            kind, taken = "human", True
        seats = [seats_row(), seats_row(), seats_row()]
        game = type("G", (), {"is_over": False, "to_move": 0, "history": []})()

    core = Core()
    assert clock.update(core, 100.0) and clock.point == ("decision", 1, 0, 0)
    assert clock.deadline() == 140.0  # 10 seconds, then the reserve's 30
    core.game.history, core.game.to_move = [1], 1
    clock.update(core, 125.0)  # position 0 took 25 s: 15 from the reserve
    assert clock.reserve_of(0) == 15.0 and clock.reserve_of(1) == 30.0
    assert clock.deadline() == 165.0
    info = clock.info()
    assert info["turn"] == {"position": 1, "started": 125.0, "decision_ends": 135.0, "ends": 165.0}
    assert info["reserve_left"] == {"0": 15.0}
    core.deal_no = 2  # a new deal: the whole reserve again
    core.game.history = []
    clock.update(core, 200.0)
    assert clock.reserve_of(0) == 30.0


# ------------------------------------------------------------------ at a server table
def _hello(ws, token):
    ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": token}))


def _state(ws, until, limit=400):
    """Read states until one satisfies ``until``."""
    for _ in range(limit):
        m = json.loads(ws.receive_text())
        if m["type"] == "state" and until(m):
            return m
    raise AssertionError("no such state came")


def _table(client, clock):
    t = client.post("/api/tables", json={"seats": ["human", "human", "heuristic"], "seed": 7, "clock": clock}).json()
    client.cookies.clear()  # the second person is another browser
    b = client.post(f"/api/tables/{t['table_id']}/join", json={"name": "Bernd", "invite": t["invite"]}).json()
    return t, b


@pytest.fixture()
def client(tmp_path: Path):
    app = create_app(f"sqlite:///{tmp_path / 'clock.sqlite'}")
    app.state.manager.clock_scale = SCALE
    with TestClient(app) as client:
        yield client


def _play(table, sockets, until, seconds=20.0):
    """Play the decisions of the people whose sockets are given (position: socket) at once, the first legal action,
    until ``until()``; the others' decisions are left to their clock."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the table did not get there"
        game = table.game
        mover = None if game is None or game.is_over else game.to_move
        if mover is not None:
            position = table.positions[mover]
            if position in sockets and position not in table.clock.away:
                sockets[position].send_text(json.dumps({"type": "action", "action": str(game.legal_actions(mover)[0]),
                                                        "seq": len(game.history)}))
        time.sleep(0.01)


def test_a_person_whose_time_runs_out_is_played_for_and_takes_the_seat_back(client):
    t, b = _table(client, {"decision": 5, "reserve": 0, "grace": 600, "ready": 600})
    manager = client.app.state.manager
    table = manager.get(t["table_id"])
    assert t["table"]["clock"]["decision"] == 5 and t["table"]["clock"]["stand_in"] == "heuristic"
    with client.websocket_connect(f"/ws/{t['table_id']}") as anna, \
            client.websocket_connect(f"/ws/{t['table_id']}") as bernd:
        _hello(anna, t["token"])
        _hello(bernd, b["token"])
        seat_b = lambda: table.seat_of(1)  # noqa: E731
        # Anna plays her decisions at once, Bernd does nothing: when his decision's time is over the stand-in
        # decides for him, and goes on deciding for him while he is away
        _play(table, {0: anna}, lambda: any(table.game.history[i][0] == seat_b() for i in table.stand_ins))
        assert table.clock.away == {1}
        away = _state(anna, lambda m: m["table"]["clock"]["away"] == [1])
        assert away["table"]["status"] == "playing"
        # Bernd is back: the seat is his again, his next decision waits for him (and his clock runs)
        bernd.send_text(json.dumps({"type": "back"}))
        back = _state(bernd, lambda m: m["table"]["clock"]["away"] == [])
        assert back["you"]["position"] == 1
        _play(table, {0: anna, 1: bernd}, lambda: table.game.is_over)
        assert not table.clock.away
    record = table.kept_record(1)
    marked = record["stand_in"]
    assert marked and all(record["actions"][i][0] == table.seat_of(1) for i in marked)  # only Bernd's decisions
    stored = manager.store.load_deal(t["table_id"], 1)
    assert stored.stand_ins == set(marked)
    rows = {}
    deadline = time.monotonic() + 10
    while len(rows) < 2 and time.monotonic() < deadline:  # the finished deal's write may land a moment later
        time.sleep(0.05)
        with manager.store.engine.connect() as conn:
            rows = {r.position: r for r in conn.execute(select(player_deals_t).where(
                player_deals_t.c.table_id == t["table_id"]))}
    with manager.store.engine.connect() as conn:
        assert rows[1].stand_in == len(marked) and rows[0].stand_in == 0
        stats = player_stats(conn, rows[1].player)["stats"]
        assert stats["stand_in"] == {"deals": 1, "decisions": len(marked)}
        assert conn.execute(select(actions_t.c.seq).where(actions_t.c.stand_in.is_(True))).scalars().all() == marked
    # the replay shows it to Bernd (this browser sat at the deal as Bernd)
    replay = client.get(f"/api/replays/{t['table_id']}/1")
    assert replay.status_code == 200 and replay.json()["record"]["stand_in"] == marked


def test_a_lost_connection_is_replaced_after_the_grace_and_the_person_comes_back(client):
    t, b = _table(client, {"decision": 600, "reserve": 0, "grace": 5, "ready": 600})
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as anna:
        _hello(anna, t["token"])
        with client.websocket_connect(f"/ws/{t['table_id']}") as bernd:
            _hello(bernd, b["token"])
            _state(bernd, lambda m: m["view"] is not None)
        # Bernd's connection is gone: after the grace (0.2 s here) his stand-in takes the seat
        gone = _state(anna, lambda m: 1 in m["table"]["clock"]["away"])
        assert not [s for s in gone["table"]["seats"] if s["position"] == 1][0]["connected"]
        with client.websocket_connect(f"/ws/{t['table_id']}") as bernd:
            _hello(bernd, b["token"])  # he is back with the connection
            again = _state(bernd, lambda m: m["table"]["clock"]["away"] == [])
            assert again["you"]["position"] == 1 and 1 not in table.clock.away


def test_a_finished_deal_waits_for_the_next_only_as_long_as_the_clock_says(client):
    t, b = _table(client, {"decision": 5, "reserve": 0, "grace": 600, "ready": 10})
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as anna, \
            client.websocket_connect(f"/ws/{t['table_id']}") as bernd:
        _hello(anna, t["token"])
        _hello(bernd, b["token"])
        # nobody plays: both are away soon and the stand-ins play the deal out
        _state(anna, lambda m: m["table"]["status"] in ("between_deals", "finished") or m["table"]["deal_no"] > 1,
               limit=2000)
        deadline = time.monotonic() + 3  # the state may come a moment before the last stand-in's marks
        while sorted(table.clock.away) != [0, 1] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert sorted(table.clock.away) == [0, 1]
        # nobody who is present and back is ready: the table rests (no series plays itself)
        time.sleep(0.6)
        assert table.deal_no == 1
        # Anna is back and ready; Bernd (away) counts as ready, and the next deal starts
        anna.send_text(json.dumps({"type": "back"}))
        anna.send_text(json.dumps({"type": "next_deal"}))
        _state(anna, lambda m: m["table"]["deal_no"] == 2, limit=2000)


def test_a_slow_person_not_ready_is_counted_ready_when_the_wait_is_over(client):
    t, b = _table(client, {"decision": 600, "reserve": 0, "grace": 600, "ready": 10})
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as anna, \
            client.websocket_connect(f"/ws/{t['table_id']}") as bernd:
        _hello(anna, t["token"])
        _hello(bernd, b["token"])
        _play(table, {0: anna, 1: bernd}, lambda: table.game is not None and table.game.is_over)
        assert table.game.is_over and not table.clock.away and table.stand_ins == set()
        anna.send_text(json.dumps({"type": "next_deal"}))
        waiting = _state(anna, lambda m: m["table"]["clock"]["ready_ends"] is not None)
        assert waiting["table"]["ready"] == [0]
        # Bernd reads the result for longer than the table waits (0.4 s here): he is counted ready
        _state(anna, lambda m: m["table"]["deal_no"] == 2, limit=2000)
        assert 1 not in table.clock.away


def test_a_new_table_refuses_a_clock_out_of_range(client):
    r = client.post("/api/tables", json={"seats": ["human", "human", "strong"], "clock": {"decision": 1}})
    assert r.status_code == 400 and r.json()["error"] == "bad_clock"
    r = client.post("/api/tables", json={"seats": ["human", "human", "strong"], "clock": "fast"})
    assert r.status_code == 400 and r.json()["error"] == "bad_clock"
    assert not client.app.state.manager.tables  # nothing was made
    off = client.post("/api/tables", json={"seats": ["human", "strong", "strong"]}).json()
    assert off["table"]["clock"] is None


def test_a_spectator_cannot_come_back(client):
    t, _b = _table(client, {"decision": 600})
    with client.websocket_connect(f"/ws/{t['table_id']}") as watcher:
        watcher.send_text(json.dumps({"type": "hello", "protocol": 1, "invite": t["invite"]}))
        watcher.send_text(json.dumps({"type": "back"}))
        for _ in range(10):
            m = json.loads(watcher.receive_text())
            if m["type"] == "error":
                assert m["code"] == "not_a_player"
                break
        else:
            raise AssertionError("no error came")


# ------------------------------------------------------------------ the table core (no I/O)
def test_the_core_lets_the_stand_in_move_for_a_person_away_and_marks_its_actions():
    from test_server_core import make_core, start

    core = make_core(seats=("human", "human", "human"))
    assert core.settings["clock"]["stand_in"] == "strong"  # people only: the game's default level
    start(core)
    game = core.game
    mover = game.to_move
    position = core.positions[mover]
    assert core.bot_to_move() is None and core.stands_in(position) is None
    core.clock.away.add(position)
    assert core.bot_to_move() == (position, mover) and core.stands_in(position) is True
    stand_in = core.computer_at(position)
    assert stand_in.name == "strong" and core.computer_at(position) is stand_in  # made once
    # another process's notice of a stand-in's action: applied, marked, and the person shown away there too
    other = make_core(seats=("human", "human", "human"))
    start(other)
    token = str(game.legal_actions(mover)[0])
    assert other.apply_notice({"k": "act", "d": 1, "s": 0, "seat": mover, "a": token, "si": 1}) == "changed"
    assert other.stand_ins == {0} and other.clock.away == {position}
    assert other.apply_notice({"k": "away", "pos": position, "on": False}) == "changed"
    assert other.clock.away == set()
    assert other.apply_notice({"k": "away", "pos": position, "on": False}) == ""  # nothing new
    assert other.apply_notice({"k": "away", "pos": 99, "on": True}) == ""  # no such seat


def test_people_away_count_as_ready_only_while_somebody_present_waits():
    from test_server_core import make_core, start

    core = make_core(seats=("human", "human", "human"))
    start(core)
    while not core.game.is_over:  # everybody passes or plays the first legal action
        seat = core.game.to_move
        core.play(seat, core.game.legal_actions(seat)[0], store=False)
    core.clock.away = {1, 2}
    assert not core.deal_due()  # nobody who is there is ready: the table rests
    core.ready.add(0)
    assert core.deal_due()  # Anna waits: Bernd and Clara, away, count as ready
    core.clock.away = {2}
    assert not core.deal_due()  # Bernd is back and not ready yet


def test_a_rebuilt_table_knows_which_actions_the_stand_in_made():
    from skat.server.store import StoredDeal, StoredTable
    from test_server_core import make_core, start

    core = make_core(seats=("human", "human", "human"))
    start(core)
    game = core.game
    actions = []
    for _ in range(3):
        seat = game.to_move
        action = game.legal_actions(seat)[0]
        actions.append((seat, str(action)))
        core.play(seat, action, store=False)
    rebuilt = make_core(seats=("human", "human", "human"))
    stored = StoredTable(id=core.id, name=core.name, created=0.0, settings=core.settings, seats=[], ready=None,
                         deals=[StoredDeal(deal_no=1, dealer=core.dealer, positions=core.positions, start={},
                                           finished=False, result=None, sheet_row=None, actions=actions,
                                           stand_ins=frozenset({1}))])
    rebuilt.replay(stored)
    assert len(rebuilt.game.history) == 3 and rebuilt.stand_ins == {1}


def test_people_join_a_new_clock_table_on_postgresql_at_once(postgres):  # noqa: F811 - the fixture
    """A table of people with a clock takes its lease when it is made, and the lease's catch-up with the database
    ran between a join's seat in memory and its row: the next person was told the seat was taken (bench/load.py,
    session 20). Joining takes the seat under the table's lock."""
    with TestClient(create_app(postgres.new_database())) as browser:
        for _ in range(5):
            browser.cookies.clear()
            t = browser.post("/api/tables", json={"seats": ["human"] * 3, "public": True}, headers=ORIGIN).json()
            assert t["table"]["clock"]["decision"] == 30
            joined = []
            for _seat in (1, 2):
                browser.cookies.clear()
                r = browser.post(f"/api/tables/{t['table_id']}/join", json={}, headers=ORIGIN)
                assert r.status_code == 200, r.text
                joined.append(r.json()["position"])
            assert joined == [1, 2]
            seats = browser.get(f"/api/tables/{t['table_id']}").json()["seats"]
            assert [s["taken"] for s in seats] == [True, True, True]
