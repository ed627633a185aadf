"""Officers' Skat at the one kind of server table: created with ``POST /api/tables`` (``"variant": "officers"``),
played over the table WebSocket protocol (docs/protocol.md), stored in skat_tables/skat_seats/skat_deals/
skat_actions, restored after a restart (SQLite and PostgreSQL), taken up by a second server process, listed in
the lobby. No state message ever holds a card its receiver may not see."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from fastapi.testclient import TestClient

from skat.cards import Card
from skat.records.wire import officers_view_to_json
from skat.server import create_app
from skat.server.manager import TableManager
from skat.server.store import Store
from skat.variants.officers import OfficersGame
from skat.variants.officers.game import DOWN, OUT, OWN, UP
from skat.variants.officers.options import VARIANTS
from test_server import recv, recv_state
from test_server_support import postgres  # noqa: F401 - the fixture

CARD_RE = re.compile(r"\b[CSHD][789TJQKA]\b")


# ------------------------------------------------------------------ helpers
def new_table(client: TestClient, **body) -> dict:
    body = {"variant": "officers", "player_name": "Ada", "public": True, **body}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()




def hello(ws, token: str | None) -> dict:
    """Say hello; returns the first state (the welcome and the sheet come before it)."""
    ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": token}))
    first = recv(ws)
    assert first["type"] == "welcome", first
    assert recv(ws)["type"] == "sheet"
    return recv_state(ws)


def my_turn(state: dict) -> bool:
    v = state["view"]
    return v is not None and v["phase"] != "finished" and v["to_move"] == v["seat"] and bool(v["legal_actions"])


def until(ws, state: dict, done) -> dict:
    while not done(state):
        state = recv_state(ws)
    return state


def until_mine(ws, state: dict) -> dict:
    """States until it is this seat's turn or the game is over."""
    return until(ws, state, lambda s: my_turn(s) or s["view"]["phase"] == "finished")


def choice(state: dict) -> str:
    """A random legal action, drawn from the point of the game only (so two tables alike play alike)."""
    rng = random.Random(f"{state['table']['deal_no']}:{state['seq']}")
    return rng.choice(state["view"]["legal_actions"])


def act(ws, state: dict, token: str) -> None:
    ws.send_text(json.dumps({"type": "action", "action": token, "seq": state["seq"]}))


def hidden_cards(game: OfficersGame, seat: int) -> set[str]:
    """The cards ``seat`` may not see now, judged from the table itself: not yet dealt, face down,
    facing only the other player; played cards are open. Empty once the game is over."""
    if game.is_over:
        return set()
    played = {c for _, cs, _ in game.tricks for c in cs} | set(game.trick)
    out = set()
    for c in range(32):
        if c in played:
            continue
        face, owner = game.face[c], game.owner[c]
        dealt = bool(game.dealt >> c & 1)
        seen = dealt and (face == UP or (face == OWN and owner == seat) or (face == OUT and owner != seat))
        if face == DOWN or not seen:
            out.add(Card(c).name)
    return out


def game_at(client: TestClient, table_id: str, deal_no: int, seq: int) -> OfficersGame:
    """The table's game ``deal_no`` as it was after ``seq`` actions (from the server's own copy)."""
    table = client.app.state.manager.get(table_id)
    record = table.kept_record(deal_no)
    if record is None:
        assert deal_no == table.deal_no
        record = table.game.to_record()
    return OfficersGame.from_record({**record, "actions": record["actions"][:seq], "result": None})


def check_no_leak(client: TestClient, table_id: str, state: dict) -> set[str]:
    """No card of the state message is one its receiver may not see; returns the cards hidden from it."""
    if state["view"] is None:
        return set()
    game = game_at(client, table_id, state["table"]["deal_no"], state["seq"])
    seat = state["you"]["seat"]
    hidden = hidden_cards(game, 0) | hidden_cards(game, 1) if seat is None else hidden_cards(game, seat)
    leaked = set(CARD_RE.findall(json.dumps(state))) & hidden
    assert not leaked, f"seat {seat} was sent cards it may not see: {sorted(leaked)} (phase {game.phase})"
    return hidden


def play_game(client: TestClient, ws, table_id: str, state: dict) -> dict:
    """Play this seat's part of the game with random legal actions (each state checked for leaks); returns
    the final state."""
    saw_hidden = False
    for _ in range(200):
        saw_hidden |= bool(check_no_leak(client, table_id, state))
        state = until_mine(ws, state)
        if state["view"]["phase"] == "finished":
            break
        act(ws, state, choice(state))
        state = recv_state(ws)
    else:
        raise AssertionError("the game did not end")
    check_no_leak(client, table_id, state)
    assert saw_hidden, "the test never met a hidden card: it checks nothing"
    return state


@pytest.fixture()
def client(db_url: str):
    with TestClient(create_app(db_url)) as c:
        yield c


# --------------------------------------------------------------- creation
def test_an_officers_table_is_a_server_table_listed_in_the_lobby(client):
    meta = client.get("/api/meta").json()
    assert "officers" in meta["variants"] and meta["officers_variants"] == list(VARIANTS)
    made = new_table(client, officers_variant="admirals", options={"kontra": False}, name="Officers")
    info = made["table"]
    assert made["position"] == 0 and made["token"] and made["invite"] is None and made["url"] == f"/t/{made['table_id']}"
    assert info["variant"] == "officers" and info["officers_variant"] == "admiral" and info["ruleset"] is None
    assert info["options"] == {"kontra": False} and info["n_players"] == 2 and info["status"] == "playing"
    assert [(s["kind"], s["bot"]) for s in info["seats"]] == [("human", None), ("bot", "officers")]
    assert info["positions"] == [0, 1] and info["dealer"] == 1 and info["totals"] == {"scores": [0, 0]}
    lobby = client.get("/api/tables").json()["tables"]
    assert [(t["id"], t["variant"]) for t in lobby] == [(made["table_id"], "officers")]
    # private by default: not in the lobby, the invite lets a spectator in
    private = client.post("/api/tables", json={"variant": "officers"}).json()
    assert private["invite"] and private["table_id"] not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
    assert client.get(f"/api/tables/{private['table_id']}").status_code == 403
    assert client.get(f"/api/tables/{private['table_id']}", headers={"X-Invite": private["invite"]}).status_code == 200
    # the table is stored like every other: its deal's start is the game's record without actions
    store = client.app.state.manager.store
    stored = store.load_table(made["table_id"])
    assert stored.settings["variant"] == "officers" and [s["kind"] for s in stored.seats] == ["human", "bot"]
    assert [d.positions for d in stored.deals] == [(0, 1)]
    start = stored.deals[0].start
    assert start["format"] == "officers-skat" and "actions" not in start and start["variant"] == "admiral"


@pytest.mark.parametrize("body, code", [
    ({"officers_variant": "poker"}, "bad_variant"),
    ({"officers_variant": 3}, "bad_variant"),
    ({"officers_variant": "admiral", "options": {"allow_null": True}}, "bad_options"),
    ({"options": {"scoring": "nonsense"}}, "bad_options"),
    ({"options": {"colour": 1}}, "bad_options"),
    ({"options": {"kontra": 1}}, "bad_options"),  # strict JSON types: 1 is no boolean
    ({"options": {"null_value": 1000}}, "bad_options"),
    ({"options": ["kontra"]}, "bad_options"),
    ({"options": {"deck": ["CJ"]}}, "bad_options"),  # no keyword of the engine gets through
    ({"seats": ["human", "strong"]}, "bad_seats"),
    ({"seats": ["human", "officers", "officers"]}, "bad_seats"),
    ({"seats": ["officers", "officers"], "claim": 0}, "bad_claim"),
    ({"claim": 1}, "bad_claim"),
    ({"ruleset": "pub"}, "bad_ruleset"),
    ({"seed": -1}, "bad_seed"),
    ({"deals": 0}, "bad_deals"),
    ({"variant": "standard", "officers_variant": "classic"}, "bad_variant"),
])
def test_bad_officers_table_requests_say_what_is_wrong(client, body, code):
    r = client.post("/api/tables", json={"variant": "officers", **body})
    assert r.status_code == 400 and r.json()["error"] == code and r.json()["message"], r.text
    assert client.get("/api/tables").json()["tables"] == []


# ------------------------------------------------------------------ playing
def test_a_whole_game_against_the_computer_then_the_next_with_seats_swapped(client):
    t = new_table(client, seed=11, options={"allow_null": True, "allow_ramsch": True})
    tid = t["table_id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        state = hello(ws, t["token"])
        assert state["you"] == {"position": 0, "seat": 0, "role": "player"} and state["hints"] == {}
        view = state["view"]
        assert view["variant"] == "classic" and view["seat"] == 0 and len(view["own_piles"]) == 8
        table = client.app.state.manager.get(tid)
        assert view == officers_view_to_json(table.game.view(0))
        final = play_game(client, ws, tid, state)
        result = final["view"]["result"]
        assert result == table.kept_record(1)["result"] and final["table"]["status"] == "between_deals"
        sheet = ws_sheet(ws)
        assert [r["deal_no"] for r in sheet["rows"]] == [1] and sheet["rows"][0]["forehand"] == 0
        assert sheet["totals"] == result["scores"] and sheet["rows"][0]["scores"] == result["scores"]
        # an action now is refused: the game is over
        act(ws, final, "pass")
        assert recv(ws)["code"] == "deal_over"
        ws.send_text(json.dumps({"type": "next_deal"}))
        second = until(ws, recv_state(ws), lambda s: s["table"]["deal_no"] == 2)
        assert second["you"] == {"position": 0, "seat": 1, "role": "player"}  # the dealer now
        assert second["table"]["positions"] == [1, 0] and second["table"]["game_no"] == 2
        assert second["view"]["phase"] != "finished"
        assert game_at(client, tid, 2, 0).deck != game_at(client, tid, 1, 0).deck
        final2 = play_game(client, ws, tid, second)
        sheet = ws_sheet(ws)
        r1, r2 = sheet["rows"]
        assert r2["forehand"] == 1 and r2["dealer"] == 0
        # game 2's scores by seat are [computer, person]; the sheet keeps them by table position
        assert r2["scores"] == [final2["view"]["result"]["scores"][1], final2["view"]["result"]["scores"][0]]
        assert sheet["totals"] == [r1["scores"][0] + r2["scores"][0], r1["scores"][1] + r2["scores"][1]]
        assert final2["table"]["totals"] == {"scores": sheet["totals"]}
    table.records.clear()  # an older game's record is rebuilt from the database
    assert client.get(f"/api/tables/{tid}/games/1.json").json()["result"] == result
    games = client.get(f"/api/tables/{tid}/games").json()["games"]
    assert [g["positions"] for g in games] == [[0, 1], [1, 0]]
    record = client.get(f"/api/tables/{tid}/games/2.json").json()
    assert record["seed"] is not None  # a seeded table shows its deals' seeds
    assert OfficersGame.from_record(record).result.to_json() == final2["view"]["result"]
    assert client.get(f"/api/tables/{tid}/games/1.iss").json()["error"] == "no_iss_record"
    assert client.get(f"/api/tables/{tid}/games/1/analysis").json()["error"] == "no_analysis"


def ws_sheet(ws) -> dict:
    ws.send_text(json.dumps({"type": "sheet"}))
    while True:
        m = recv(ws)
        if m["type"] == "sheet":
            return m["sheet"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_is_played_to_the_end(client, variant):
    t = new_table(client, officers_variant=variant, seed=5, claim=1, seats=["officers", "human"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        state = hello(ws, t["token"])
        assert state["you"]["seat"] == 1
        final = play_game(client, ws, t["table_id"], state)
        assert final["view"]["result"]["variant"] == variant and final["view"]["result"]["explanation"]
    record = client.get(f"/api/tables/{t['table_id']}/games/1.json").json()
    assert record["seed"] is not None and OfficersGame.from_record(record).is_over


def test_bad_actions_are_answered_with_codes_and_change_nothing(client):
    t = new_table(client, seed=3)
    tid = t["table_id"]
    with client.websocket_connect(f"/ws/{tid}") as ws, client.websocket_connect(f"/ws/{tid}") as watcher:
        state = hello(ws, t["token"])
        spectator = hello(watcher, None)
        # the spectator's arrival: a state for the newcomer only, the others hear the number of spectators
        for sock in (ws, watcher):  # (the notice comes to the newcomer too: it may tell of later arrivals)
            assert recv(sock) == {"type": "spectators", "table_id": tid, "spectators": 1}
        assert state["view"]["phase"] == "choose" and my_turn(state)

        def refused(message: dict, code: str, sock=ws) -> None:
            sock.send_text(json.dumps(message))
            answer = recv(sock)
            assert answer["type"] == "error" and answer["code"] == code and answer["message"], answer
            sock.send_text(json.dumps({"type": "state"}))
            now = recv_state(sock)
            assert now["seq"] == state["seq"] and (sock is not ws or now["view"] == state["view"])

        refused({"type": "action", "action": "frobnicate", "seq": 0}, "bad_action")
        refused({"type": "action", "action": 18, "seq": 0}, "bad_action")
        refused({"type": "action", "action": "CJ", "seq": 0}, "illegal_action")  # a card while choosing
        refused({"type": "action", "action": "declare null", "seq": 0}, "illegal_action")  # not agreed
        refused({"type": "action", "action": "kontra", "seq": 0}, "illegal_action")
        refused({"type": "next_deal"}, "deal_running")
        refused({"type": "action", "action": "declare clubs", "seq": 0}, "not_a_player", sock=watcher)
        ws.send_text(json.dumps({"type": "action", "action": "declare clubs", "seq": 5}))
        assert recv(ws)["code"] == "stale" and recv_state(ws)["seq"] == 0
        assert client.app.state.manager.get(tid).game.history == []
        assert client.app.state.manager.store.load_table(tid).deals[0].actions == []
        # a legal action goes on; the computer answers (Kontra or not) and the play starts
        act(ws, state, "declare clubs")
        state = until_mine(ws, recv_state(ws))
        assert state["seq"] >= 1 and state["view"]["game"] == "clubs"
        table = client.app.state.manager.get(tid)
        if state["view"]["phase"] == "play":  # a covered card is refused with the reason
            covered = next(Card(p[1]).name for p in table.game.piles[0] if len(p) > 1)
            refused({"type": "action", "action": covered, "seq": state["seq"]}, "illegal_action")
        assert spectator["you"]["role"] == "spectator"


def test_a_spectator_and_the_other_person_never_see_face_down_cards(client):
    """Person against person (``["human", "human"]``): each seat sees only its own face-down cards' backs,
    the spectator only what faces both."""
    t = new_table(client, officers_variant="harlequin", seats=["human", "human"], seed=21)
    tid = t["table_id"]
    joined = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
    assert joined.status_code == 200 and joined.json()["position"] == 1
    with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b, \
            client.websocket_connect(f"/ws/{tid}") as s:
        socks = [a, b]
        states = [hello(a, t["token"]), hello(b, joined.json()["token"]), hello(s, None)]
        seen_hidden = [False, False, False]
        for _ in range(200):
            for i, st in enumerate(states):
                seen_hidden[i] |= bool(check_no_leak(client, tid, st))
            spec = states[2]["view"]
            assert spec["seat"] is None and spec["hand"] == [] and spec["legal_actions"] == []
            if spec["phase"] == "finished":
                break
            mover = spec["to_move"]
            st = states[mover]
            assert my_turn(st)
            act(socks[mover], st, choice(st))
            seq = st["seq"] + 1  # every socket sees the state after this action
            states = [until(ws, recv_state(ws), lambda m, seq=seq: m["seq"] == seq) for ws in (a, b, s)]
        else:
            raise AssertionError("the game did not end")
        assert all(seen_hidden)


# ---------------------------------------------------------- restart, processes
def restart_restores_the_game(url: str) -> None:
    with TestClient(create_app(url)) as client:
        t = new_table(client, seed=8)
        tid = t["table_id"]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            state = hello(ws, t["token"])
            for _ in range(6):
                state = until_mine(ws, state)
                act(ws, state, choice(state))
                state = recv_state(ws)
            state = until_mine(ws, state)
        app = client.app
    old = app.state.manager.get(tid).game
    history = [(s, str(a)) for s, a in old.history]
    assert 6 <= len(history) and not old.is_over
    app = create_app(url)  # a new server on the same database
    table = app.state.manager.get(tid)
    assert [(s, str(a)) for s, a in table.game.history] == history
    assert officers_view_to_json(table.game.view(0)) == officers_view_to_json(old.view(0))
    assert table.positions == (0, 1)
    with TestClient(app) as client:
        with client.websocket_connect(f"/ws/{tid}") as ws:
            state = hello(ws, t["token"])
            assert state["seq"] == len(history)
            final = play_game(client, ws, tid, state)
        record = client.get(f"/api/tables/{tid}/games/1.json").json()
    assert [tuple(a) for a in record["actions"][: len(history)]] == [tuple(h) for h in history]
    # the computer played as it would have without the restart (its choices follow from the table's seed)
    with TestClient(create_app(url)) as client:
        again = new_table(client, seed=8)
        with client.websocket_connect(f"/ws/{again['table_id']}") as ws:
            straight = play_game(client, ws, again["table_id"], hello(ws, again["token"]))
        straight_record = client.get(f"/api/tables/{again['table_id']}/games/1.json").json()
    assert straight_record["actions"] == record["actions"]
    assert straight["view"]["result"] == final["view"]["result"]


def test_a_restart_mid_game_restores_it_sqlite(tmp_path):
    restart_restores_the_game(f"sqlite:///{tmp_path / 'skat.sqlite'}")


def test_a_restart_mid_game_restores_it_postgresql(postgres):  # noqa: F811 - the fixture
    restart_restores_the_game(postgres.new_database())


def test_another_server_process_takes_the_actions_and_the_next_game(tmp_path):
    """What a second server process holds of the table follows the notices (``take_notice``) and catches up
    with the database when one is missed (``catch_up``)."""
    url = f"sqlite:///{tmp_path / 'skat.sqlite'}"
    with TestClient(create_app(url)) as client:
        t = new_table(client, seed=13)
        tid = t["table_id"]
        here = client.app.state.manager.get(tid)
        store = Store(url)
        other = TableManager(store, bot_processes=False)
        try:
            there = other._rebuild(store.load_table(tid))
            assert there.game.history == here.game.history and there.positions == (0, 1)
            with client.websocket_connect(f"/ws/{tid}") as ws:
                state = until_mine(ws, hello(ws, t["token"]))
                act(ws, state, choice(state))
                state = until_mine(ws, recv_state(ws))
                for seq in range(len(there.game.history), len(here.game.history)):
                    seat, action = here.game.history[seq]
                    notice = {"t": tid, "k": "act", "d": 1, "s": seq, "seat": seat, "a": str(action)}
                    assert asyncio.run(there.take_notice(notice))
                assert there.game.history == here.game.history
                # the notices of the rest of the game are missed: the next one makes it catch up
                final = play_game(client, ws, tid, state)
                seq = len(here.game.history) - 1
                seat, action = here.game.history[seq]
                asyncio.run(there.take_notice({"t": tid, "k": "act", "d": 1, "s": seq, "seat": seat, "a": str(action)}))
                assert there.game.history == here.game.history and there.game.is_over
                assert there.series.sheet()["rows"] == here.series.sheet()["rows"]
                assert there.deal_result(1)["result"] == final["view"]["result"]
                ws.send_text(json.dumps({"type": "next_deal"}))
                until(ws, recv_state(ws), lambda s: s["table"]["deal_no"] == 2)
                assert asyncio.run(there.take_notice({"t": tid, "k": "deal", "d": 2}))
                assert there.deal_no == 2 and there.positions == (1, 0)
                assert there.game.deck == here.game.deck
        finally:
            other.shutdown()
            store.close()


def test_a_failing_computer_opponent_is_replaced_and_the_game_goes_on(client, monkeypatch, caplog):
    from skat.players.officers import OfficersBot

    def broken(self, view):
        raise RuntimeError("the bot is broken")

    monkeypatch.setattr(OfficersBot, "choose", broken)
    t = new_table(client, seed=2, claim=1, seats=["officers", "human"])  # the computer begins
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        final = play_game(client, ws, t["table_id"], hello(ws, t["token"]))
    assert final["view"]["result"] is not None and final["table"]["stopped"] is None
    assert [s["bot"] for s in final["table"]["seats"]] == ["random", None]
    assert "replaced by random legal choices" in caplog.text
