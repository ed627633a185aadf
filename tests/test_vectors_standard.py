"""Every standard-Skat case of shared/rules/vectors.json."""

from __future__ import annotations

import pytest

from conftest import vectors
from skat import BID_VALUES, GameType, legal_cards, trick_winner
from skat.cards import Card, card_points
from skat.commands.value import compute
from skat.rules.bidding import is_valid_bid, next_bid

STANDARD = ("isko2018", "old_grand_ouvert_base36", "old_pre1999", "isko2018+kontra", "isko2018+bock")


@pytest.mark.parametrize("case", vectors("game_value", STANDARD), ids=lambda c: c["id"])
def test_game_value(case):
    data = dict(case["input"])
    ruleset = {"old_grand_ouvert_base36": "isko2018", "isko2018+kontra": "isko2018",
               "isko2018+bock": "isko2018"}.get(case["ruleset"], case["ruleset"])
    if case["ruleset"] == "old_grand_ouvert_base36":
        from skat.rules.contract import Contract
        from skat.rules.rulesets import ISKO
        from skat.rules.value import evaluate

        rules = ISKO.replace(grand_ouvert_base36=True)
        contract = Contract(GameType.parse(data["game"]), hand=data["hand"], ouvert=data["ouvert"],
                            schneider=data["schneider_announced"], schwarz=data["schwarz_announced"])
        o = evaluate(contract, data["declarer_cards"], data["declarer_card_points"], data["declarer_tricks"],
                     data["bid"], rules)
        got = {"matadors": {"with": o.matadors_with, "count": o.matadors}, "multiplier": o.multiplier,
               "base_value": o.base_value, "game_value": o.game_value, "won": o.won, "overbid": o.overbid,
               "score": o.score}
    else:
        got = compute(data, ruleset)
    for key, want in case["expected"].items():
        assert got[key] == want, f"{case['id']}: {key} is {got[key]!r}, expected {want!r}"


@pytest.mark.parametrize("case", vectors("trick_winner", STANDARD), ids=lambda c: c["id"])
def test_trick_winner(case):
    inp, exp = case["input"], case["expected"]
    idx = trick_winner(inp["game"], inp["trick"])
    assert idx == exp["winner_index"]
    assert inp["trick"][idx] == exp["winning_card"]
    assert card_points(inp["trick"]) == exp["trick_points"]


@pytest.mark.parametrize("case", vectors("legal_moves", STANDARD), ids=lambda c: c["id"])
def test_legal_moves(case):
    inp = case["input"]
    legal = legal_cards(inp["game"], inp["hand"], inp["trick_so_far"])
    assert sorted(c.name for c in legal) == sorted(case["expected"]["legal"])


@pytest.mark.parametrize("case", vectors("bidding", STANDARD), ids=lambda c: c["id"])
def test_bidding(case):
    inp, exp = case["input"], case["expected"]
    q = inp["query"]
    if q == "is_valid_bid":
        assert is_valid_bid(inp["value"]) == exp["valid"]
    elif q == "all_valid_bid_values":
        assert list(BID_VALUES) == exp["values"]
    elif q == "lowest_legal_bid_above":
        assert next_bid(inp["value"]) == exp["value"]
    else:  # pragma: no cover - a new query kind in the vectors must be handled here
        pytest.fail(f"unhandled bidding query {q}")


@pytest.mark.parametrize("case", vectors("declaration", ("isko2018",)), ids=lambda c: c["id"])
def test_declaration(case):
    from skat.deal.game import Game
    from skat.errors import IllegalActionError
    from skat.rules.actions import PASS, Declare, PickUp
    from skat.rules.contract import Contract, DeclarationError

    inp = case["input"]
    if "skat_taken" in inp:
        game = Game(seed=1)
        game.apply("18")  # middlehand bids
        game.apply(PASS)  # forehand passes
        game.apply(PASS)  # rearhand passes: middlehand declares at 18
        if inp["skat_taken"]:
            game.apply(PickUp())
            hand = list(game.hand(1))
            game.apply(f"discard {hand[0].name} {hand[1].name}")
        legal = True
        try:
            action = Declare(Contract(GameType.parse(inp["game"]), hand=inp["hand"]))
            if action not in game.legal_actions():
                legal = False
            else:
                game.apply(action)
        except (DeclarationError, IllegalActionError):
            legal = False
        assert legal == case["expected"]["legal"]
    else:  # pragma: no cover
        pytest.fail(f"unhandled declaration case {case['id']}")


def test_cards_have_points():
    assert sum(c.points for c in Card) == 120
