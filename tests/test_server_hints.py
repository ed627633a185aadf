"""The card-play hint (docs/protocol.md, ``hint``): the strong computer player's card for the seat whose turn it
is, computed from that seat's own view only, with an honest one-line reason; refused, saying why, where there is
no hint to give; switched off per table (``"hints": false``: no hint and no bid estimate)."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from skat.cards import Card, suit_mask
from skat.deal.game import Game, Phase
from skat.players.heuristic import HeuristicPlayer
from skat.records.wire import seat_view_to_json
from skat.rules.actions import Play, parse_action
from skat.rules.ranking import POWER, TRUMP_MASK, GameType
from skat.rules.rulesets import get_ruleset
from skat.server import create_app
from skat.server.hints import HINT_TEXTS, card_hint, hint_reason, view_seed
from skat.server.manager import TableManager
from skat.server.store import Store
from test_server import hello, new_table, recv, recv_state, visible_cards

# The deal of the tests: forehand (seat 0) wins the auction at 18, picks up, puts two away and plays a grand;
# the defenders' bids are mere words, so their hands may be swapped and every action stays legal.
HANDS = ["CJ SJ CA CT CK SA ST HA HT DA", "HJ C9 C8 S9 S8 H9 H8 D9 D8 D7", "DJ CQ C7 SK SQ S7 HK HQ DT DK"]
SKAT = "H7 DQ"
ACTIONS = [(1, "18"), (0, "hold"), (1, "pass"), (2, "pass"), (0, "pickup"), (0, "discard H7 DQ"),
           (0, "declare grand")]


def grand_game(hands: list[str]) -> Game:
    game = Game(seed=0, hands=[h.split() for h in hands], skat=SKAT.split())
    for seat, token in ACTIONS:
        game.apply(parse_action(token), seat)
    assert game.phase is Phase.PLAY and game.to_move == 0
    return game


def receive(ws, kind: str) -> dict:
    """The next message of ``kind`` (or an error), the states between skipped."""
    while True:
        m = recv(ws)
        if m["type"] in (kind, "error"):
            return m


@pytest.fixture()
def threaded(db_url):
    """A test client whose manager thinks in threads (so that a test may watch what the hint is computed from)."""
    manager = TableManager(Store(db_url, serve=True), bot_processes=False)
    with TestClient(create_app(db_url, manager=manager)) as c:
        yield c


def test_the_hint_is_computed_from_the_seats_own_view_only(threaded, monkeypatch):
    """Two deals alike for forehand, the defenders' hands swapped: the hint's input is the same view, so the
    hint is the same; neither the input nor the answer holds a card forehand cannot see."""
    import skat.server.tables as tables

    seen = []

    def recording(view):  # the search's answer would depend on the CPU time it gets: an answer of the view alone
        seen.append(view)
        return {"card": str(view.legal_actions[0]), "reason": f"view {view_seed(view)}", "why": [{"key": "rule_of_thumb"}]}

    monkeypatch.setattr(tables, "card_hint", recording)
    t = new_table(threaded, seats=("human", "human", "human"))
    table = threaded.app.state.manager.get(t["table_id"])
    answers = []
    for hands in (HANDS, [HANDS[0], HANDS[2], HANDS[1]]):
        table.game, table.hint_job = grand_game(hands), None
        with threaded.websocket_connect(f"/ws/{t['table_id']}") as ws:
            state = hello(ws, t["token"])[2]
            assert state["view"]["phase"] == "play" and state["dealt"] is None
            ws.send_text(json.dumps({"type": "hint"}))
            answers.append(receive(ws, "hint"))
    assert len(seen) == 2 and seen[0] == seen[1]  # the same information set, field by field
    own = set(HANDS[0].split()) | set(SKAT.split())
    unseen = set(" ".join(HANDS[1:]).split())
    for view in seen:
        assert visible_cards(seat_view_to_json(view)) <= own and not visible_cards(seat_view_to_json(view)) & unseen
    a, b = answers
    assert a["type"] == "hint" and a == b and a["seq"] == len(ACTIONS)
    assert a["card"] in HANDS[0].split() and visible_cards(a) <= own
    assert a["reason"] and a["why"] and all(part["key"] in HINT_TEXTS for part in a["why"])


def test_a_hint_names_a_legal_card_and_says_why(client):
    """Through the server's process pool, as the computer players think: the hint for the person's turn in the
    card play is one of its legal cards, with a reason; asking again at the same point gives the same hint."""
    t = new_table(client, seats=("human", "random", "random"))
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        state = hello(ws, t["token"])[2]
        assert state["table"]["hints"] is True
        hinted = 0
        while state["view"]["phase"] != "finished":
            v = state["view"]
            if v["to_move"] == v["seat"] and v["legal_actions"]:
                if v["phase"] == "bidding" and state["seq"] < 3:
                    assert "bid_estimate" in state["hints"]
                if v["phase"] == "play" and hinted < 2:
                    ws.send_text(json.dumps({"type": "hint"}))
                    ws.send_text(json.dumps({"type": "hint"}))
                    first, again = receive(ws, "hint"), receive(ws, "hint")
                    assert first["type"] == "hint", first
                    assert first == again and first["seq"] == state["seq"] and first["card"] in v["legal_actions"]
                    assert first["reason"][0].isupper() and visible_cards(first) <= set(v["hand"])
                    hinted += 1
                    action = first["card"]
                else:
                    legal = v["legal_actions"]
                    action = "hold" if "hold" in legal else "18" if "18" in legal else legal[0]
                ws.send_text(json.dumps({"type": "action", "action": action, "seq": state["seq"]}))
            state = recv_state(ws)
        assert hinted == 2  # the person held to 18 and played: two hints were asked for
        ws.send_text(json.dumps({"type": "hint"}))
        assert recv(ws)["code"] == "deal_over"


def test_no_hint_where_there_is_none_to_give(client):
    t = new_table(client, seats=("human", "human", "human"))
    joined = client.post(f"/api/tables/{t['table_id']}/join", json={"name": "Bo"}).json()
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as a, client.websocket_connect(f"/ws/{t['table_id']}") as b, \
            client.websocket_connect(f"/ws/{t['table_id']}") as spectator:
        hello(a, t["token"])
        hello(b, joined["token"])
        hello(spectator, None)
        a.send_text(json.dumps({"type": "hint"}))
        assert receive(a, "hint")["code"] == "no_deal"  # the third seat is still free
        table.game = Game(seed=0, hands=[h.split() for h in HANDS], skat=SKAT.split())  # the auction
        a.send_text(json.dumps({"type": "hint"}))
        err = receive(a, "hint")
        assert err["code"] == "not_in_play" and "bidding" in err["message"]
        spectator.send_text(json.dumps({"type": "hint"}))
        assert receive(spectator, "hint")["code"] == "not_a_player"
        table.game, table.hint_job = grand_game(HANDS), None  # the play: forehand (position 0) leads
        b.send_text(json.dumps({"type": "hint"}))
        err = receive(b, "hint")
        assert err["code"] == "not_your_turn" and "forehand" in err["message"]
        b.send_text(json.dumps({"type": "ping", "t": 2}))
        assert receive(b, "pong") == {"type": "pong", "t": 2}  # the connection stays


def test_a_table_without_hints_gives_no_advice(client):
    """``"hints": false``: no card hint and no bid estimate; the facts of the rules (contract values, sorting, the
    auction's question) stay. A hints value that is no JSON boolean is refused."""
    for bad in (1, "no", None):
        r = client.post("/api/tables", json={"seats": ["human", "random", "random"], "hints": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_hints" and "true" in r.json()["message"]
    t = new_table(client, seats=("human", "random", "random"), hints=False)
    assert client.get(f"/api/tables/{t['table_id']}").json()["hints"] is False
    table = client.app.state.manager.get(t["table_id"])
    with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
        state = hello(ws, t["token"])[2]
        bidding_turns = 0
        while state["view"]["phase"] != "finished":
            v = state["view"]
            assert "bid_estimate" not in state["hints"] and state["table"]["hints"] is False
            if v["phase"] == "bidding":
                assert "auction_turn" in state["hints"] and state["hints"]["sorted"]["hand"]
            if v["to_move"] == v["seat"] and v["legal_actions"]:
                bidding_turns += v["phase"] == "bidding"
                if v["phase"] == "play":
                    ws.send_text(json.dumps({"type": "hint"}))
                    err = receive(ws, "hint")
                    assert err["code"] == "hints_off" and "switched off" in err["message"]
                    break
                legal = v["legal_actions"]
                action = "hold" if "hold" in legal else "18" if "18" in legal else legal[0]
                ws.send_text(json.dumps({"type": "action", "action": action}))
            state = recv_state(ws)
        assert bidding_turns and table.hint_job is None  # nothing was thought


def test_each_reason_is_true_of_the_position():
    """Every part of a reason is checked against the engine: a card said to take the trick takes it, a smear goes
    to the partner, a lost trick is lost whatever one plays, a cashed card is the highest left of its suit."""
    checked = {key: 0 for key in ("take", "smear", "partner_takes", "lost", "stay_under", "trump_out", "cash")}
    rng = random.Random(5)
    for seed in range(12):
        ramsch = seed % 3 == 2
        game = Game(seed=seed, ruleset=get_ruleset("pub")) if ramsch else Game(seed=seed)
        bots = [HeuristicPlayer(seed * 3 + i) for i in range(3)]
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            if game.phase is Phase.PLAY:
                legal = [a for a in view.legal_actions if isinstance(a, Play)]
                for action in legal:
                    why = hint_reason(view, int(action.card), None, 0, only=len(legal) == 1)
                    assert why and all(part["key"] in HINT_TEXTS for part in why)
                    for part in why:
                        if part["key"] in checked:
                            checked[part["key"]] += 1
                            assert _holds(game, seat, action, part), (seed, view, action, part)
                game.apply(rng.choice(legal) if rng.random() < 0.3 else bots[seat].choose(view), seat)
            elif ramsch and parse_action("pass") in view.legal_actions:
                game.apply(parse_action("pass"), seat)  # everybody passes: a Ramsch
            else:
                game.apply(bots[seat].choose(view), seat)
    assert all(checked.values()), checked  # every kind of reason was met


def _holds(game: Game, seat: int, action: Play, part: dict) -> bool:
    key = part["key"]
    declarer = game.declarer
    gt = GameType.GRAND if game.contract is None else game.contract.game_type

    def winner_after(card) -> int:
        trial = game.copy()
        trial.apply(card, seat)
        return trial.tricks[-1][2]

    if key in ("take", "smear", "partner_takes", "lost", "stay_under"):
        assert len(game.trick) == 2
        won_by = winner_after(action)
        if key == "take":
            return won_by == seat
        if key == "stay_under":
            return won_by != seat
        partner = None if declarer in (None, seat) else 3 - seat - declarer
        if key in ("smear", "partner_takes"):
            return won_by == partner and (action.card.points > 0) == (key == "smear")
        others = [a for a in game.legal_actions(seat) if isinstance(a, Play)]
        return all(winner_after(a) not in (seat, partner) for a in others) and \
            action.card.points == min(a.card.points for a in others)
    played = 0
    for _ld, cards, _w in game.tricks:
        for c in cards:
            played |= 1 << int(c)
    if key == "trump_out":
        return seat == declarer and not game.trick and (1 << int(action.card)) & TRUMP_MASK[gt] > 0
    assert key == "cash"
    c = int(action.card)
    others = suit_mask(c >> 3) & ~TRUMP_MASK[gt] & ~game.hand(seat).mask & ~played
    if seat == declarer and game.discard is not None:
        others &= ~game.discard
    return not game.trick and all(POWER[gt][x] < POWER[gt][c] for x in range(32) if others >> x & 1)


def test_the_english_reason_reads_the_parts():
    view = grand_game(HANDS).view(0)
    hint = card_hint(view, seed=3)
    assert Card[hint["card"]] in view.hand
    assert hint["reason"].lower().startswith(HINT_TEXTS[hint["why"][0]["key"]].split("{")[0].lower())
