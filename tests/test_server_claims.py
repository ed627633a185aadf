"""Computer defenders answer a person's claim: they concede when the declarer surely takes the rest
(checked double-dummy in every world their own view allows), and play on otherwise."""

from __future__ import annotations

import json
import random
from pathlib import Path

from fastapi.testclient import TestClient

from skat.deal.game import Game
from skat.players import make_player
from skat.rules.actions import CLAIM
from skat.server import create_app
from skat.server.bots import claim_is_sound
from skat.solver import declarer_takes_all


def claim_positions(count: int, after_tricks: int):
    """Games of heuristic players, stopped after some tricks with the declarer's claim said."""
    for seed in range(count):
        game = Game(seed=seed)
        player = make_player("heuristic", seed)
        while not game.is_over and not (game.phase.value == "play" and len(game.tricks) >= after_tricks):
            game.apply(player.choose(game.view(game.to_move)), game.to_move)
        if game.is_over or game.declarer is None or game.contract.game_type.label == "null":
            continue
        game.apply(CLAIM, game.declarer)
        yield game


def true_world_sound(game: Game) -> bool:
    leader = game.trick_leader
    return declarer_takes_all(game.contract.game_type, [game.hand(s).mask for s in range(3)],
                              [int(c) for c in game.trick], leader, game.declarer)


def test_a_defender_concedes_only_claims_that_hold_in_the_real_deal():
    conceded = played_on = 0
    for game in claim_positions(40, after_tricks=6):
        for seat in range(3):
            if seat == game.declarer:
                continue
            if claim_is_sound(game.view(seat)):
                conceded += 1
                assert true_world_sound(game)  # never concedes a trick the declarer could lose
            else:
                played_on += 1
    assert conceded and played_on


def test_a_claim_before_the_first_card_of_a_weak_hand_is_not_conceded():
    for game in claim_positions(6, after_tricks=0):
        if not true_world_sound(game):
            defender = (game.declarer + 1) % 3
            assert not claim_is_sound(game.view(defender))
            return
    raise AssertionError("no weak claim among the positions")


def test_computer_defenders_concede_a_persons_sound_claim(tmp_path: Path):
    """Series seed 1168 gives forehand all four jacks and three aces: the person plays grand and claims
    as soon as the rest is his; the computer defenders concede, and the game ends as claimed."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'skat.sqlite'}")) as client:
        t = client.post("/api/tables", json={"seats": ["human", "heuristic", "heuristic"], "seed": 1168}).json()
        table = client.app.state.manager.get(t["table_id"])
        assert t["table"]["seeded"] is True
        rng = random.Random(5)
        with client.websocket_connect(f"/ws/{t['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "protocol": 1, "token": t["token"]}))
            claimed = False
            while True:
                m = json.loads(ws.receive_text())
                if m["type"] != "state" or m["seq"] != len(table.game.history):
                    continue
                v = m["view"]
                if v["phase"] == "finished":
                    break
                if v["to_move"] != v["seat"] or not v["legal_actions"]:
                    continue
                legal = v["legal_actions"]
                if v["phase"] == "bidding":
                    action = "hold" if "hold" in legal else next((b for b in legal if b != "pass"), "pass")
                elif v["phase"] == "skat":
                    action = "declare grand hand"
                elif v["phase"] == "play" and not claimed and true_world_sound(table.game):
                    action, claimed = "claim", True
                else:
                    action = rng.choice(legal)
                ws.send_text(json.dumps({"type": "action", "action": action}))
        result = table.kept_record(1)["result"]
        assert claimed and result["kind"] == "claimed" and result["won"]
        assert table.game.declarer == 0 and len(table.game.tricks) < 10


def test_a_defender_plays_on_when_judging_the_claim_would_take_too_long():
    for game in claim_positions(40, after_tricks=6):
        defender = (game.declarer + 1) % 3
        if claim_is_sound(game.view(defender)):
            assert not claim_is_sound(game.view(defender), time_budget=0.0)  # no time to check: play on
            assert claim_is_sound(game.view(defender), time_budget=5.0)
            return
    raise AssertionError("no sound claim among the positions")
