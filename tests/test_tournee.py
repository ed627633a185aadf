"""Historical Tournee Skat (docs/rules.md section 10): the historical_hoyle vectors and the game itself."""

from __future__ import annotations

import json
import random

import pytest

from conftest import vectors
from skat.deal.game import Game, Phase
from skat.errors import IllegalActionError, RecordError
from skat.variants import from_record
from skat.variants.tournee import TOURNEE_GAMES, TourneeGame, game_name, tournee_null_allowed, tournee_outcome

KIND = {"solo": "solo", "raeuber_skat_game": "solo", "tournee": "tournee", "grand_gucki": "gucki"}


@pytest.mark.parametrize("case", vectors("game_value", ("historical_hoyle",)), ids=lambda c: c["id"])
def test_historical_game_value(case):
    inp, exp = case["input"], case["expected"]
    name = game_name(KIND[inp["historical_game_kind"]], inp["game"])
    o = tournee_outcome(name, inp["declarer_cards"], inp["declarer_card_points"], inp["declarer_tricks"], inp["bid"],
                        second_turn=inp["loss_doubled"] and name != "gucki")
    got = {"matadors": {"with": o.matadors_with, "count": o.matadors}, "multiplier": o.multiplier,
           "base_value": o.base_value, "game_value": o.game_value, "won": o.won, "overbid": o.overbid,
           "score": o.score}
    assert got == exp


@pytest.mark.parametrize("case", vectors("declaration", ("historical_hoyle",)), ids=lambda c: c["id"])
def test_historical_declaration(case):
    inp = case["input"]
    assert {g: tournee_null_allowed(g, inp["bid"]) for g in inp["games"]} == case["expected"]


def test_fifteen_games():
    """4 Tournee + 4 Solo + 4 Grand + 2 Null declarer games, and Ramsch (docs/rules.md 10.2)."""
    assert len(TOURNEE_GAMES) + len(["ramsch"]) == 15
    assert sum(1 for name in TOURNEE_GAMES if name.startswith(("grand", "gucki"))) == 4


def _hands():
    """Forehand holds the four jacks; the skat's top card is C7, the second DA."""
    return ["CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK", "HQ H9 H8 H7 DT DK DQ D9 D8 D7"], ["C7", "DA"]


def _declarer_forehand(game):
    game.apply("pass")  # middlehand passes
    game.apply("pass")  # rearhand passes
    game.apply("10")  # forehand plays at the lowest bid


def test_tournee_accept_fixes_trumps_and_takes_the_skat():
    hands, skat = _hands()
    g = TourneeGame(hands=hands, skat=skat)
    _declarer_forehand(g)
    assert g.phase is Phase.SKAT
    g.apply("turn")
    assert g.phase is Phase.DECLARE and [str(a) for a in g.legal_actions()] == ["accept", "reject"]
    assert g.view(1).skat is not None and "C7" in str(g.view(1).skat)  # the turned card is shown to all
    g.apply("accept")
    assert g.contract.game_type.label == "clubs" and g.phase is Phase.DISCARD and len(g.hand(0)) == 12
    g.apply("discard C7 DA")
    assert g.game_name == "tournee_clubs"


def test_passt_mir_nicht_turns_the_second_card_and_loses_double():
    hands, skat = _hands()
    g = TourneeGame(hands=hands, skat=skat)
    _declarer_forehand(g)
    g.apply("turn")
    g.apply("reject")
    assert g.second_turn and [str(a) for a in g.legal_actions()] == ["accept"]
    g.apply("accept")
    assert g.contract.game_type.label == "diamonds"
    g.apply("discard CA CT")  # throw away 21 points
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    o = g.result.outcome
    assert g.result.game_name == "tournee_diamonds" and g.result.second_turn
    if not o.won:
        assert o.score == -2 * max(o.game_value, o.base_value * -(-g.bid // o.base_value))


def test_turned_jack_allows_grand_tournee():
    g = TourneeGame(hands=["SJ HJ DJ CA CT CK CQ C9 C8 C7", "SA ST SK SQ S9 S8 S7 HA HT HK",
                           "HQ H9 H8 H7 DT DK DQ D9 D8 D7"], skat=["CJ", "DA"])
    _declarer_forehand(g)
    g.apply("turn")
    assert "declare grand" in [str(a) for a in g.legal_actions()]
    g.apply("declare grand")
    g.apply("discard CJ DA")
    assert g.game_name == "grand_tournee"


def test_gucki_and_solo_and_null_limits():
    hands, skat = _hands()
    g = TourneeGame(hands=hands, skat=skat)
    g.apply("22")
    g.apply("hold")
    g.apply("pass")
    g.apply("pass")
    legal = [str(a) for a in g.legal_actions()]
    assert "declare null hand" not in legal and "declare null hand ouvert" in legal  # dec-06
    assert "declare hearts hand schneider" in legal and "pickup" in legal and "turn" in legal
    with pytest.raises(IllegalActionError, match="cannot be declared"):
        g.apply("declare null hand")
    g.apply("pickup")
    g.apply("discard C9 C8")
    assert g.game_name == "gucki"


def test_all_pass_plays_historical_ramsch_with_the_same_cards():
    g = TourneeGame(seed=4)
    for _ in range(3):
        g.apply("pass")
    assert g.phase is Phase.PLAY and g.declarer is None
    rng = random.Random(2)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    r = g.result
    assert r.kind == "ramsch" and r.game_name == "ramsch"
    assert sorted(r.scores) in ([0, 0, 10], [0, 0, 20], [-30, 0, 0])
    record = json.loads(json.dumps(g.to_record()))
    assert record["result"]["ramsch"]["scores"] == list(r.scores)
    assert from_record(record).result.scores == r.scores  # skat.variants.from_record reads every variant's records
    with pytest.raises(RecordError, match="skat.variants.from_record"):
        Game.from_record(record)  # the standard game's loader points there


@pytest.mark.parametrize("seed", range(12))
def test_random_games_replay_from_their_records(seed):
    g = TourneeGame(seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        view = g.view(g.to_move)
        assert len(view.hand) == len(g.hand(g.to_move))
        g.apply(rng.choice(view.legal_actions))
    again = TourneeGame.from_record(g.to_record())
    assert again.result.scores == g.result.scores and again.result.game_name == g.result.game_name
    copy = g.copy()
    assert copy.result == g.result
