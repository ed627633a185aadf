"""The table server over its REST API and WebSocket protocol (docs/protocol.md), in process."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import re
import secrets

import pytest
from fastapi.testclient import TestClient

from skat.deal.game import Game
from skat.rules.ranking import display_order
from skat.table.series import TABLE_SEED_BITS, deal_seed

CARD_RE = re.compile(r'"(?:discard )?([CSHD][789TJQKA])(?: ([CSHD][789TJQKA]))?"')
CARD_WORD = re.compile(r"\b[CSHD][789TJQKA]\b")
"""A card's name anywhere in a message's text (a word of its own: "CJ", "... CJ ...")."""


def draws(node_name: str) -> random.Random:
    """What the table server draws "from the operating system" in the test named ``node_name`` (replayable_deals)."""
    return random.Random(f"tests/test_server.py::{node_name}")


class _Secrets:
    """The ``secrets`` module as :mod:`skat.server.creation` sees it in these tests: ``randbits`` from a
    :class:`random.Random`, everything else (tokens, invites, comparisons) the real module's."""

    def __init__(self, rng: random.Random) -> None:
        self.randbits = rng.getrandbits

    def __getattr__(self, name: str):
        return getattr(secrets, name)


@pytest.fixture(autouse=True)
def replayable_deals(monkeypatch, request):
    """The tables of a test deal from a seed that follows from the test's name, not from the operating system, so
    a failure replays with the same cards (and the same computer players' choices): the table server's draws
    (``secrets.randbits`` in :mod:`skat.server.creation`: the table seed first, then the computer players' seeds)
    come from :func:`draws`. The tables stay secret tables (``seeded`` false, ``"seed": null`` in their records):
    no player is sent the seed, only this test knows it. (The API's ``seed`` would make duplicate-play tables
    instead, whose records show their deal seeds.)"""
    import skat.server.creation

    monkeypatch.setattr(skat.server.creation, "secrets", _Secrets(draws(request.node.name)))


def new_table(client: TestClient, seats=("human", "random", "random"), **kw) -> dict:
    r = client.post("/api/tables", json={"seats": list(seats), "player_name": "Ada", "public": True, **kw})
    assert r.status_code == 201, r.text
    # without a seed, a secret table: its seed is never sent (replayable_deals); with one, a duplicate-play table
    assert r.json()["table"]["seeded"] == ("seed" in kw)
    return r.json()


def hello(ws, token: str | None) -> list[dict]:
    """Say hello; returns [welcome, sheet, state] (a sheet broadcast when a deal ends meanwhile is taken too)."""
    ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": token}))
    got: dict[str, dict] = {}
    while "state" not in got:
        m = recv(ws)
        got[m["type"]] = m
    return [got["welcome"], got["sheet"], got["state"]]


def recv(ws) -> dict:
    return json.loads(ws.receive_text())


def reply(ws, kind: str) -> dict:
    """The next message of type ``kind`` (an error, a pong), passing over the table's broadcasts in between:
    a computer player may move at any moment, and its state (or a sheet) can come before the answer."""
    while True:
        m = recv(ws)
        if m["type"] == kind:
            return m
        assert m["type"] in ("state", "sheet", "stopped", "closed"), m  # broadcasts, never another answer


def recv_state(ws) -> dict:
    while True:
        m = recv(ws)
        if m["type"] == "state":
            return m


def until_my_turn(ws, state: dict) -> dict:
    """Read states until it is this seat's turn or the deal is over."""
    while True:
        v = state["view"]
        if v["phase"] == "finished" or (v["to_move"] == v["seat"] and v["legal_actions"]):
            return state
        state = recv_state(ws)


# ---------------------------------------------------------------------- REST
def test_health_and_meta(client):
    assert client.get("/api/health").json()["status"] == "ok"
    meta = client.get("/api/meta").json()
    assert meta["protocol"] == 1 and "random" in meta["levels"] and "isko2018" in meta["rulesets"]
    assert {"pub", "pirate", "tournee", "old_pre1999"} <= set(meta["rulesets"])
    assert "Ramsch" in meta["ruleset_descriptions"]["pub"]


def test_create_list_and_join_a_table(client):
    created = new_table(client, seats=("human", "human", "random"), name="Friday club")
    assert created["position"] == 0 and created["token"]
    lobby = client.get("/api/tables").json()["tables"]
    assert [t["name"] for t in lobby] == ["Friday club"]
    assert lobby[0]["status"] == "waiting"
    joined = client.post(f"/api/tables/{created['table_id']}/join", json={"name": "Bo"}).json()
    assert joined["position"] == 1 and joined["token"] != created["token"]
    info = client.get(f"/api/tables/{created['table_id']}").json()
    assert info["status"] == "playing" and [s["name"] for s in info["seats"]][:2] == ["Ada", "Bo"]
    full = client.post(f"/api/tables/{created['table_id']}/join", json={})
    assert full.status_code == 409 and "spectator" in full.json()["message"]


@pytest.mark.parametrize("body, code", [
    ({"seats": ["human", "random"]}, "bad_seats"),
    ({"seats": ["human", "random", "nobody"]}, "bad_seats"),
    ({"ruleset": "moon"}, "bad_ruleset"),
    ({"ruleset": "doppelkopf"}, "bad_ruleset"),
    ({"ruleset": "pub", "options": {"schieberamsh": True}}, "bad_options"),
    ({"options": {"kontra": {"x": 1}}}, "bad_options"),
    ({"seed": "abc"}, "bad_seed"),
    ({"deals": 0}, "bad_deals"),
    ({"claim": 1, "seats": ["human", "random", "random"]}, "bad_claim"),
    ({"variant": "doppelkopf"}, "bad_variant"),
])
def test_bad_table_requests_say_what_is_wrong(client, body, code):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and r.json()["error"] == code and r.json()["message"]


def test_malformed_request_body(client):
    r = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_json"
    assert client.get("/api/tables/nope").status_code == 404


# ----------------------------------------------------------------- WebSocket
def simple_choice(view: dict) -> str:
    """Hold or bid 18 in the auction, else the first legal action."""
    legal = view["legal_actions"]
    if view["phase"] == "bidding":
        return "hold" if "hold" in legal else ("18" if legal == ["18", "pass"] else "pass")
    return legal[0]


def play_deal(ws, state: dict, choose=simple_choice) -> dict:
    """Play one deal for this seat, each action by ``choose(view)``; returns the final state."""
    while True:
        state = until_my_turn(ws, state)
        v = state["view"]
        if v["phase"] == "finished":
            return state
        ws.send_text(json.dumps({"type": "action", "action": choose(v), "seq": state["seq"]}))
        state = recv_state(ws)


def test_a_person_plays_a_full_deal_against_computer_players(client):
    t = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        welcome, sheet, state = hello(ws, t["token"])
        assert welcome["role"] == "player" and welcome["position"] == 0
        assert sheet["sheet"]["rows"] == []
        assert len(state["view"]["hand"]) == 10
        shown = state["hints"]["sorted"]["hand"]
        assert sorted(shown) == sorted(state["view"]["hand"])
        jacks = [c for c in shown if c[1] == "J"]
        assert shown[: len(jacks)] == jacks  # before the game is known, hands are sorted as for a grand
        final = play_deal(ws, state)
        result = final["view"]["result"]
        assert result["explanation"]
        ws.send_text(json.dumps({"type": "sheet"}))
        m = recv(ws)
        assert m["type"] == "sheet" and len(m["sheet"]["rows"]) == 1
        assert m["sheet"]["rows"][0]["score"] == result["scores"][result["declarer"]] if result["declarer"] is not None \
            else m["sheet"]["rows"][0]["declarer"] is None
        ws.send_text(json.dumps({"type": "next_deal"}))
        nxt = recv_state(ws)
        assert nxt["table"]["deal_no"] == 2 and len(nxt["view"]["hand"]) == 10
        # the deal passes to the left: position 0 was forehand, now rearhand
        assert nxt["table"]["positions"] == [1, 2, 0]
    sheet = client.get(f"/api/tables/{t['table_id']}/sheet.json")
    assert "attachment" in sheet.headers["content-disposition"] and len(sheet.json()["sheet"]["rows"]) == 1
    # the Skatliste's columns: dealer, bid, matadors, Hand/Schneider/Schwarz/Ouvert, the game value
    row = sheet.json()["sheet"]["rows"][0]
    assert row["dealer"] == 2 and row["bid"] == result["bid"] and row["kontra"] == result.get("kontra_level", 0)
    outcome, contract = result["outcome"], result["contract"]
    if result["declarer"] is None:  # passed in (the computer players may pass)
        assert row["value"] is None and row["matadors"] is None and not row["hand"] and not row["schneider"]
    else:
        assert row["value"] == outcome["game_value"] and row["declarer"] == 0
        assert (row["matadors"], row["matadors_with"]) == (outcome["matadors"], outcome["matadors_with"])
        assert {k: row[k] for k in ("hand", "ouvert", "schneider_announced", "schwarz_announced")} == {
            "hand": contract["hand"], "ouvert": contract["ouvert"], "schneider_announced": contract["schneider"],
            "schwarz_announced": contract["schwarz"]}
        assert (row["schneider"], row["schwarz"], row["overbid"]) == (
            outcome["schneider"], outcome["schwarz"], outcome["overbid"])
    # the same columns as CSV: a header with the players' names, a row per game
    got = client.get(f"/api/tables/{t['table_id']}/sheet.csv")
    assert got.headers["content-type"] == "text/csv; charset=utf-8"
    assert got.headers["content-disposition"] == f'attachment; filename="skat-{t["table_id"]}-sheet.csv"'
    assert got.content.startswith("\ufeff".encode())
    lines = list(csv.DictReader(io.StringIO(got.content.decode("utf-8-sig"))))
    names = [s["name"] for s in client.get(f"/api/tables/{t['table_id']}").json()["seats"]]
    assert names[0] == "Ada" and len(lines) == 1
    line = lines[0]
    assert list(line)[:15] == ["No.", "Dealer", "Declarer", "Game", "Matadors", "Hand", "Schneider", "Schwarz",
                               "Ouvert", "Bid", "Kontra", "Value", "Result", "Entry", "Round"]
    assert list(line)[15:] == names + [f"{n} Seeger-Fabian" for n in names]
    assert line["No."] == "1" and line["Dealer"] == names[2] and line["Bid"] == (str(row["bid"]) if row["bid"] else "")
    assert [int(line[n]) for n in names] == row["classic"]
    if result["declarer"] is not None:
        assert line["Declarer"] == "Ada" and line["Value"] == str(row["value"]) and line["Entry"] == str(row["score"])
        assert line["Matadors"] == ("with " if row["matadors_with"] else "without ") + str(row["matadors"]) \
            if row["matadors"] is not None else line["Matadors"] == ""
        assert line["Result"].startswith("won" if row["won"] else "lost")
    record = client.get(f"/api/tables/{t['table_id']}/games/1.json").json()
    assert Game.from_record(record).result.explanation == result["explanation"]
    assert client.get(f"/api/tables/{t['table_id']}/games/2.json").status_code == 409


def test_an_illegal_action_is_refused_and_changes_nothing(client):
    t = new_table(client, seats=("human", "human", "random"))
    j = client.post(f"/api/tables/{t['table_id']}/join", json={"name": "Bo"}).json()
    with client.websocket_connect(f"/ws/{t['table_id']}") as a, client.websocket_connect(f"/ws/{t['table_id']}") as b:
        hello(a, t["token"])
        _, _, sb = hello(b, j["token"])
        recv_state(a)  # b's arrival
        # forehand (position 0) must wait for middlehand's bid: acting now is out of turn
        a.send_text(json.dumps({"type": "action", "action": "18"}))
        err = recv(a)
        assert err["type"] == "error" and err["code"] == "illegal_action" and "turn" in err["message"]
        # middlehand bids a value that is not on the ladder
        b.send_text(json.dumps({"type": "action", "action": "19"}))
        err = recv(b)
        assert err["code"] == "illegal_action" and "19" in err["message"]
        # a card during the auction, an unknown token
        b.send_text(json.dumps({"type": "action", "action": "CJ"}))
        assert recv(b)["code"] == "illegal_action"
        b.send_text(json.dumps({"type": "action", "action": "jump"}))
        assert recv(b)["code"] == "bad_action"
        b.send_text(json.dumps({"type": "state"}))
        after = recv_state(b)
        assert after["seq"] == 0 and after["view"]["hand"] == sb["view"]["hand"]
        # a legal bid goes through
        b.send_text(json.dumps({"type": "action", "action": "18"}))
        assert recv_state(b)["seq"] == 1


@pytest.mark.parametrize("raw, code", [
    ("not json", "bad_message"),
    ("[1, 2]", "bad_message"),
    ('{"type": "dance"}', "hello_first"),
    ("x" * 5000, "too_large"),
])
def test_malformed_messages_get_a_clear_error(client, raw, code):
    t = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(raw)
        err = recv(ws)
        assert err["type"] == "error" and err["code"] == code and err["message"]


def test_unknown_message_and_stale_token(client):
    t = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "not-a-token"}))
        err = recv(ws)
        assert err["code"] == "bad_token" and "spectator" in err["message"]
        hello(ws, t["token"])
        ws.send_text(json.dumps({"type": "dance"}))
        while (m := recv(ws))["type"] == "state":  # the computer players may move meanwhile
            pass
        assert m["code"] == "bad_message"
        ws.send_text(json.dumps({"type": "action", "action": "pass", "seq": 99}))
        while (err := recv(ws))["type"] == "state":
            pass
        assert err["code"] == "stale"
        assert recv(ws)["type"] == "state"


def test_a_flood_of_messages_is_refused_and_the_table_is_unharmed(client):
    t = new_table(client)
    other = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        hello(ws, t["token"])
        for _ in range(300):
            ws.send_text(json.dumps({"type": "ping"}))
        replies = [recv(ws) for _ in range(300)]
        assert any(r["type"] == "error" and r["code"] == "rate_limited" for r in replies)
        assert sum(r["type"] == "pong" for r in replies) < 300
    assert client.get(f"/api/tables/{other['table_id']}").json()["status"] == "playing"


def test_spectators_see_only_public_information(client):
    t = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        welcome, _, state = hello(ws, None)
        assert welcome["role"] == "spectator"
        v = state["view"]
        assert v["hand"] == [] and v["legal_actions"] == [] and v["skat"] is None
        assert not CARD_RE.search(json.dumps(v))
        ws.send_text(json.dumps({"type": "action", "action": "pass"}))
        while (m := recv(ws))["type"] == "state":  # the computer players may move meanwhile
            assert not CARD_RE.search(json.dumps(m["view"])) and m["dealt"] is None
        assert m["code"] == "not_a_player"


def visible_cards(message: dict) -> set[str]:
    text = json.dumps(message)
    found = set()
    for m in CARD_RE.finditer(text):
        found |= {c for c in m.groups() if c}
    return found


def card_words(message: dict) -> set[str]:
    return set(CARD_WORD.findall(json.dumps(message, ensure_ascii=False)))


def test_a_seat_never_receives_another_seats_hidden_cards(client):
    """Checked on the wire: every card in every message is this seat's own, played, or shown. The score sheet
    (sent at hello and when a deal ends, before the deal's last state) and every other message that is not a
    state name no card at all: a sheet's rows say the game, the bid and the scores, never a card."""
    t = new_table(client)
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
        seen_hands: set[str] = set()
        messages = 0
        sheets = []
        while True:
            m = recv(ws)
            messages += 1
            if m["type"] != "state":
                assert not card_words(m), m
                if m["type"] == "sheet":
                    sheets.append(len(m["sheet"]["rows"]))
                continue
            v = m["view"]
            seat = m["you"]["seat"]
            game = table.game
            allowed = set(v["hand"]) | {c for _, c in v["trick"]} | {c for tr in v["tricks"] for c in tr[1]}
            allowed |= {c for cards in v["open_hands"].values() for c in cards}
            allowed |= set(v["skat"] or []) | set(v["discard"] or [])  # the declarer's own skat and discard
            if v["result"]:
                allowed |= set(v["result"]["skat"]) | set(v["result"]["discard"] or [])
            if v["phase"] == "finished":  # then every card as dealt, and only then
                assert m["dealt"]["hands"] == [[c.name for c in display_order(h, game.contract and game.contract
                                                                               .game_type)] for h in game.initial_hands]
                allowed |= {c for hand in m["dealt"]["hands"] for c in hand} | set(m["dealt"]["skat"])
            else:
                assert m["dealt"] is None
            assert visible_cards(m) <= allowed
            # and the own hand is exactly the engine's hand of this seat (when the message is current)
            if m["seq"] == len(game.history):
                assert set(v["hand"]) == {c.name for c in game.hand(seat)}
            seen_hands |= set(v["hand"])
            if v["phase"] == "finished":
                break
            if v["to_move"] == seat and v["legal_actions"]:
                legal = v["legal_actions"]
                act = "pass" if v["phase"] == "bidding" and "pass" in legal and "hold" not in legal else legal[0]
                ws.send_text(json.dumps({"type": "action", "action": act}))
        assert messages > 3
        assert sheets == [0, 1]  # both sheets were checked: the empty one at hello, the deal's row when it ended


def test_the_test_tables_deal_from_the_tests_seed_and_keep_it_secret(client, request):
    """replayable_deals at work: the first deal is the one the test's seed gives (so a failure replays), and no
    message or record the players get holds that seed or the deal's seed."""
    t = new_table(client)
    table_seed = draws(request.node.name).getrandbits(TABLE_SEED_BITS)  # the server's first draw: the table seed
    dealt = Game(seed=deal_seed(table_seed, 1))
    texts = []
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
        while (m := recv(ws))["type"] != "state":
            texts.append(json.dumps(m))
        texts.append(json.dumps(m))
        assert sorted(m["view"]["hand"]) == sorted(c.name for c in dealt.hand(m["you"]["seat"]))
        final = play_deal(ws, m)
        texts.append(json.dumps(final))
    record = client.get(f"/api/tables/{t['table_id']}/games/1.json")
    texts.append(record.text)
    assert record.json()["seed"] is None
    assert [sorted(h) for h in record.json()["hands"]] == [sorted(c.name for c in dealt.hand(s)) for s in range(3)]
    for seed in (table_seed, deal_seed(table_seed, 1)):
        assert not [text for text in texts if str(seed) in text or f"{seed:x}" in text]


def test_four_player_table_the_dealer_sits_out(client):
    t = new_table(client, seats=("human", "random", "random", "random"))
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        _, _, state = hello(ws, t["token"])
        assert state["table"]["n_players"] == 4
        assert state["table"]["dealer"] == 3 and state["table"]["positions"] == [0, 1, 2]
        final = play_deal(ws, state)
        record = client.get(f"/api/tables/{t['table_id']}/games/1.json").json()
        assert [sorted(h) for h in final["dealt"]["hands"]] == [sorted(h) for h in record["hands"]]
        assert sorted(final["dealt"]["skat"]) == sorted(record["skat"])
        ws.send_text(json.dumps({"type": "next_deal"}))
        nxt = recv_state(ws)
        assert nxt["table"]["dealer"] == 0 and nxt["you"]["seat"] is None  # position 0 deals and sits out
        assert nxt["view"]["hand"] == [] and not CARD_RE.search(json.dumps(nxt["view"]))
        assert final["view"]["result"]
        while nxt["view"]["phase"] != "finished":  # the dealer sitting out sees no card until the deal is over
            assert nxt["dealt"] is None and nxt["view"]["hand"] == []  # (an ouvert hand is shown to all)
            nxt = recv_state(ws)
        assert [len(h) for h in nxt["dealt"]["hands"]] == [10, 10, 10] and len(nxt["dealt"]["skat"]) == 2


def test_a_failing_computer_player_is_replaced(client, caplog):
    t = new_table(client, seats=("human", "random", "random"))
    table = client.app.state.manager.get(t["table_id"])

    class Broken:
        name = "broken"

        def choose(self, view):
            raise RuntimeError("out of cheese")

    for seat in table.seats[1:]:
        seat.bot_seat.player = Broken()
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        _, _, state = hello(ws, t["token"])
        final = play_deal(ws, state)
    assert final["view"]["phase"] == "finished"
    assert all("out of cheese" in seat.bot_seat.failures[0] for seat in table.seats[1:])
    assert "replaced" in caplog.text


def test_search_players_think_in_worker_processes(client, monkeypatch):
    """Search levels leave the server process, so their thinking never stalls the event loop; nor does
    starting the worker processes (about a second for the first one), which happens in a thread."""
    import threading

    import skat.server.manager as manager_module

    started_in: list[str] = []
    start_workers = manager_module.start_workers

    def recording(pool):
        started_in.append(threading.current_thread().name)
        start_workers(pool)

    monkeypatch.setattr(manager_module, "start_workers", recording)
    t = new_table(client, seats=("human", "easy", "easy"))
    manager = client.app.state.manager
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        _, _, state = hello(ws, t["token"])
        final = play_deal(ws, state)
    assert final["view"]["result"]["explanation"]
    assert manager._processes is not None  # the pool was started for the "easy" players
    assert len(started_in) == 1 and started_in[0] != client.portal.call(_loop_thread_name)
    table = manager.get(t["table_id"])
    assert all(s.bot_seat.name == "easy" and not s.bot_seat.failures for s in table.seats[1:])


async def _loop_thread_name() -> str:
    import threading

    return threading.current_thread().name


def test_hints_bid_estimate_and_contract_values():
    from skat.cards import cards
    from skat.rules.contract import Contract
    from skat.server.hints import bid_estimate, contract_value

    strong = bid_estimate(cards("CJ SJ HJ DJ CA CT CK SA ST HA"))
    assert strong["game"] == "grand" and strong["value"] >= 24 * 5  # with 4, game 5
    assert bid_estimate(cards("D7 D9 H8 HQ S7 S9 SK C8 CQ HK"))["value"] in (0, 23)
    # the reasons the page shows in one line: matadors, trumps, aces, tens and the chance to win
    assert strong["matadors"] == {"with": True, "count": 4} and strong["trumps"] == 4
    assert (strong["aces"], strong["tens"]) == (3, 2) and 0 < strong["p"] <= 100
    weak = bid_estimate(cards("D7 D9 H8 HQ S7 S9 SK C8 C9 HK"))
    assert weak["value"] == 0 and weak["game"] is None and weak["p"] < 50  # pass: no game wins often enough
    # a good suit hand that the skat may still improve is played with the skat, not as a hand game
    pickup = bid_estimate(cards("SJ DJ HA HT HK H9 SA ST C7 D8"))
    assert pickup["game"] in ("hearts", "grand") and pickup["hand"] is False
    twelve = cards("CJ SJ C7 C8 C9 CQ CK HA HT H7 S7 D7").mask
    assert contract_value(Contract.parse("clubs"), twelve, True)["value"] == 36  # with 2, game 3
    hand = contract_value(Contract.parse("grand hand schneider"), twelve, False)
    assert hand["value"] == 24 * (2 + 1 + 1 + 2) and hand["exact"] is False
    assert contract_value(Contract.parse("null ouvert"), twelve, True)["value"] == 46


def test_a_seated_person_closes_the_table(client):
    t = new_table(client)
    other = new_table(client)
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        hello(ws, t["token"])
        refused = client.post(f"/api/tables/{t['table_id']}/close", json={"token": other["token"]})
        assert refused.status_code == 403 and refused.json()["error"] == "bad_token"
        assert client.post(f"/api/tables/{t['table_id']}/close", json={"token": t["token"]}).json()["closed"]
        while recv(ws)["type"] != "closed":
            pass
    assert [x["id"] for x in client.get("/api/tables").json()["tables"]] == [other["table_id"]]
    assert client.get(f"/api/tables/{t['table_id']}").status_code == 404


def test_a_spectator_sees_no_seat_secrets():
    """The public view keeps only what everybody may see: no hand, no discard, no skat without a declarer."""
    from skat.deal.game import Phase
    from skat.records.wire import public_view, seat_view_to_json
    from skat.rules.rulesets import PUB
    from skat.variants.tournee import TourneeGame

    game = Game(seed=4, ruleset=PUB.replace(schieberamsch=True), start="ramsch")
    while game.phase is Phase.GRAND_HAND:
        game.apply("pass")
    game.apply("pickup")  # Schieberamsch: forehand takes the skat up and pushes two cards on
    game.apply(game.legal_actions()[0])
    game.apply("pickup")
    seat_view = seat_view_to_json(game.view(1))
    assert seat_view["phase"] == "push" and seat_view["declarer"] is None and seat_view["skat"]
    out = seat_view_to_json(public_view(game))
    assert out["hand"] == [] and out["skat"] is None and out["seat"] is None and out["legal_actions"] == []
    tournee = TourneeGame(4)
    for token in ("10", "pass", "pass", "turn"):
        tournee.apply(token)
    while tournee.phase is not Phase.PLAY:
        tournee.apply(tournee.legal_actions()[0])  # accept the turned card, discard two
    defender = seat_view_to_json(tournee.view((tournee.declarer + 1) % 3))
    assert tournee.discard is not None and defender["skat"]
    out = seat_view_to_json(public_view(tournee))
    assert out["skat"] == defender["skat"] and out["discard"] is None and out["hand"] == []
    assert seat_view_to_json(game.view(1)) == seat_view  # the seat's own view is left as it was


def test_every_seat_hears_what_the_auction_asks_of_the_seat_to_move(client):
    """``hints.auction_turn`` (public: it follows from the bids said): middlehand is asked to bid 18, forehand
    to hold it; after two passes forehand is asked to play at 18."""
    created = new_table(client, seats=("human", "human", "human"))
    tid = created["table_id"]
    tokens = [created["token"]] + [client.post(f"/api/tables/{tid}/join", json={}).json()["token"] for _ in range(2)]
    with client.websocket_connect(f"/ws/{tid}") as ws, client.websocket_connect(f"/ws/{tid}") as watcher:
        state = hello(ws, tokens[0])[2]
        seen = hello(watcher, None)[2]
        assert state["hints"]["auction_turn"] == seen["hints"]["auction_turn"] == {"seat": 1, "asks": "bid", "value": 18}
    table = client.app.state.manager.get(tid)
    asyncio.run(table.act(table.positions[1], "18"))
    assert table.state_for(0)["hints"]["auction_turn"] == {"seat": 0, "asks": "hold", "value": 18}
    asyncio.run(table.act(table.positions[0], "hold"))
    asyncio.run(table.act(table.positions[1], "pass"))
    turn = table.state_for(None)["hints"]["auction_turn"]
    assert turn["seat"] == 2 and turn["asks"] == "bid" and turn["value"] == 20
    asyncio.run(table.act(table.positions[2], "pass"))  # forehand won at 18: the skat, then the values
    declarer = table.state_for(table.positions[0])["hints"]
    assert "auction_turn" not in declarer and declarer["contracts"]
    assert all(c["contract"]["hand"] for c in declarer["contracts"])  # before the pickup: hand games
    asyncio.run(table.act(table.positions[0], "pickup"))
    assert "contracts" not in table.state_for(table.positions[0])["hints"]  # discarding
