"""A server table of five (docs/rules.md 1: the dealer and the third player to his left sit out each deal) and the
declarer's hints (docs/protocol.md, ``hint``): the strong computer player's choice of skat, discard and game."""

from __future__ import annotations

import json
import time

from skat.deal.game import Game, Phase
from skat.rules.actions import Declare, Discard, PickUp, parse_action
from skat.rules.rulesets import get_ruleset
from skat.server.core import TableError
from skat.server.hints import HINT_TEXTS, declarer_hint, declarer_hint_possible, table_hint
from skat.table.series import seats_for
from test_server import hello, new_table, recv, recv_state


def wait_finished(client, table_id: str, deals: int, timeout: float = 60) -> list[dict]:
    deadline = time.time() + timeout
    while True:
        games = client.get(f"/api/tables/{table_id}/games").json()["games"]
        if len(games) >= deals:
            return games
        assert time.time() < deadline, games
        time.sleep(0.05)


def test_a_table_of_five_plays_its_series_with_two_sitting_out(client):
    r = client.post("/api/tables", json={"seats": ["heuristic"] * 5, "claim": None, "public": True, "seed": 3,
                                         "deals": 5})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["n_players"] == 5 and len({s["name"] for s in table["seats"]}) == 5  # five computer players' names
    games = wait_finished(client, table["id"], 5)
    for g in games:  # the deal passes to the left; forehand, middlehand, rearhand as in the library
        dealer = (4 + g["deal_no"] - 1) % 5
        assert g["dealer"] == dealer and g["positions"] == list(seats_for(dealer, 5))
        out = {dealer, (dealer + 3) % 5}
        assert not out & set(g["positions"]) and len(g["sheet_row"]["scores"]) == 5
        assert all(g["sheet_row"]["scores"][p] == 0 for p in out) or g["sheet_row"]["declarer"] is None
    sheet = client.get(f"/api/tables/{table['id']}/sheet.json").json()["sheet"]
    assert sheet["n_players"] == 5 and len(sheet["classic"]) == 5 and len(sheet["rows"]) == 5
    header = client.get(f"/api/tables/{table['id']}/sheet.csv").text.splitlines()[0]
    assert all(f"{name} (heuristic)" in header for name in ("Anna", "Bernd", "Clara", "Dieter", "Emil"))


def test_six_or_two_players_are_refused(client):
    for seats in (["human"] * 6, ["human", "heuristic"]):
        r = client.post("/api/tables", json={"seats": seats})
        assert r.status_code == 400 and r.json()["error"] == "bad_seats", r.text
        assert "3, 4 or 5" in r.json()["message"]


def test_a_player_sitting_out_at_five_sees_the_public_view_and_cannot_act(client):
    """Position 2 is the third to the left of the first dealer (position 4): it sits out deal 1. Forehand (position
    0) is a person who does not answer, so the deal waits in its auction."""
    t = new_table(client, seats=("human", "heuristic", "human", "heuristic", "heuristic"), claim=2)
    forehand = client.post(f"/api/tables/{t['table_id']}/join", json={"name": "Bea", "position": 0}).json()
    assert forehand["position"] == 0
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        state = hello(ws, t["token"])[2]
        while not (state["view"] and state["view"]["phase"] == "bidding" and state["view"]["to_move"] == 0):
            state = recv_state(ws)
        assert state["table"]["dealer"] == 4 and state["table"]["positions"] == [0, 1, 3]
        assert state["you"] == {"position": 2, "seat": None, "role": "player"}
        assert state["view"]["hand"] == [] and state["view"]["seat"] is None
        seats = {s["position"]: s["game_seat"] for s in state["table"]["seats"]}
        assert seats == {0: 0, 1: 1, 2: None, 3: 2, 4: None}
        ws.send_text(json.dumps({"type": "action", "action": "pass"}))
        err = recv(ws)
        while err["type"] != "error":
            err = recv(ws)
        assert err["code"] == "sitting_out" and "at a table of five" in err["message"]
        ws.send_text(json.dumps({"type": "hint"}))
        err = recv(ws)
        while err["type"] != "error":
            err = recv(ws)
        assert err["code"] == "sitting_out"


# ------------------------------------------------------------------ the declarer's hints
HANDS = ["CJ SJ CA CT CK SA ST HA HT DA", "HJ C9 C8 S9 S8 H9 H8 D9 D8 D7", "DJ CQ C7 SK SQ S7 HK HQ DT DK"]
SKAT = "H7 DQ"


def won_auction(ruleset: str = "isko2018") -> Game:
    """Forehand (seat 0) wins the auction at 18: the skat phase."""
    game = Game(seed=0, hands=[h.split() for h in HANDS], skat=SKAT.split(), ruleset=get_ruleset(ruleset))
    for seat, token in [(1, "18"), (0, "hold"), (1, "pass"), (2, "pass")]:
        game.apply(parse_action(token), seat)
    assert game.phase is Phase.SKAT
    return game


def test_the_declarer_hint_is_a_legal_choice_in_each_phase():
    game = won_auction()
    seen = []
    for phase in (Phase.SKAT, Phase.DISCARD, Phase.DECLARE):
        assert game.phase is phase
        view = game.view(0)
        hint = declarer_hint(view)
        assert hint == table_hint(view)  # the same, from the view alone
        action = parse_action(hint["action"])
        assert action in view.legal_actions and hint["card"] is None
        assert hint["why"] and all(part["key"] in HINT_TEXTS for part in hint["why"])
        assert hint["reason"][0].isupper() and "{" not in hint["reason"]
        if phase is Phase.SKAT:
            assert isinstance(action, PickUp | Declare)
            game.apply(PickUp(), 0)  # whatever it says: the discard's hint comes next
        elif phase is Phase.DISCARD:
            assert isinstance(action, Discard) and sorted(hint["discard"]) == sorted(c.name for c in action.cards)
            assert set(hint["discard"]) <= {c.name for c in view.hand} and hint["contract"]
            assert hint["why"][0]["key"] == "discard_for" and hint["why"][0]["contract"] == hint["contract"]
            game.apply(action, 0)
        else:
            assert isinstance(action, Declare) and action.contract.to_json() == hint["contract"]
            assert hint["why"][0]["key"] == "declare"
            game.apply(action, 0)
        seen.append(hint)
    assert game.phase is Phase.PLAY
    # a strong hand: the chance is said
    assert any(part["key"] == "win_chance" and 0 <= part["p"] <= 100 for part in seen[1]["why"])


def test_no_declarer_hint_for_others_or_a_tournee_turn():
    game = won_auction()
    assert declarer_hint_possible(game.view(0)) and not declarer_hint_possible(game.view(1))
    tournee = Game(seed=4, ruleset=get_ruleset("tournee"))
    while tournee.phase is Phase.BIDDING:
        seat = tournee.to_move
        legal = tournee.legal_actions(seat)
        tournee.apply(next((a for a in legal if str(a) not in ("pass",)), legal[0]) if seat == 0 else
                      next(a for a in legal if str(a) == "pass"), seat)
    # Gucki or a Solo: Tournee's games, not the standard ones the hint's model knows
    assert tournee.phase is Phase.SKAT and not declarer_hint_possible(tournee.view(tournee.to_move))


def test_the_table_answers_a_hint_in_the_skat_discard_and_declaration(client):
    """Over the WebSocket (every message checked against the protocol's models): the person wins the auction and
    asks for a hint at each of the declarer's choices; the hint names a legal action."""
    t = new_table(client, seats=("human", "random", "random"))
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        hello(ws, t["token"])
        table.game, table.hint_job = won_auction(), None
        ws.send_text(json.dumps({"type": "state"}))
        state = recv_state(ws)
        for _ in range(10):  # a state of the deal before the swap may still be on its way (a computer's bid)
            if state["view"]["phase"] != "bidding":
                break
            state = recv_state(ws)
        for _ in range(3):
            v = state["view"]
            assert v["phase"] in ("skat", "discard", "declare") and v["to_move"] == v["seat"] == 0
            ws.send_text(json.dumps({"type": "hint"}))
            hint = recv(ws)
            while hint["type"] != "hint":
                assert hint["type"] != "error", hint
                hint = recv(ws)
            assert hint["seq"] == state["seq"] and hint["action"] in v["legal_actions"]
            if v["phase"] == "discard":
                assert len(hint["discard"]) == 2
            action = "pickup" if v["phase"] == "skat" else hint["action"]
            ws.send_text(json.dumps({"type": "action", "action": action, "seq": state["seq"]}))
            state = recv_state(ws)
        assert state["view"]["phase"] == "play"


def test_the_core_refuses_a_hint_in_the_auction():
    from skat.server.core import Seat, TableCore
    from skat.server.series import TableSeries

    core = TableCore("t", "T", {}, [Seat(p, "human", f"P{p}", token_hash=f"h{p}") for p in range(3)],
                     TableSeries(3, get_ruleset("isko2018"), seed=1))
    core.enter(core.series.start_deal(), 1)
    try:
        core.hint_point(core.positions[core.game.to_move])
    except TableError as exc:
        assert exc.code == "not_in_play" and "skat, discard and declaration" in str(exc)
    else:
        raise AssertionError("a hint in the auction")
