"""Options whose effect shows at the table or in the auction: bid ladder, score-sheet bonuses,
Schieberamsch jacks, Ramsch rules inside a played deal."""

from __future__ import annotations

import pytest

from skat.deal.game import Game, ramsch_game
from skat.errors import IllegalActionError
from skat.players import RandomPlayer
from skat.rules.rulesets import ISKO, TOURNEE
from skat.table.series import Table


def test_bid_values_option():
    with pytest.raises(IllegalActionError):
        Game(seed=1).apply("10")  # ISkO bids start at 18
    game = Game(seed=1, ruleset=ISKO.replace(bid_values=TOURNEE.bid_values))
    game.apply("10")
    assert game.view(0).bid == 10


def test_score_sheet_bonuses_come_from_the_rule_set():
    rules = ISKO.replace(seeger_won=10, seeger_lost=20, fabian_bonus=(5, 5, 5))
    table = Table(3, ruleset=rules, seed=4, games=6)
    table.play([RandomPlayer(i) for i in range(3)])
    sheet = table.sheet
    expected = list(sheet.totals)
    for e in sheet.entries:
        if e.declarer is not None and e.won is not None:
            expected[e.declarer] += 10 if e.won else -20
            if not e.won:
                for i in range(3):
                    if i != e.declarer:
                        expected[i] += 5
    assert sheet.seeger_fabian == expected
    assert any(e.won is False for e in sheet.entries)


def test_schieberamsch_jacks_option_in_the_game():
    rules = ISKO.replace(schieberamsch_jacks=True)
    game = ramsch_game(5, ruleset=rules, schieberamsch=True)
    game.apply("pickup")
    hand = game.hand(0)
    jacks = [c.name for c in hand if c.name.endswith("J")]
    assert jacks, "this deal gives forehand a jack"
    pushable = [str(a) for a in game.legal_actions()]
    assert any(jacks[0] in t for t in pushable)
    strict = ramsch_game(5, ruleset=ISKO, schieberamsch=True)
    strict.apply("pickup")
    assert not any(jacks[0] in str(a) for a in strict.legal_actions())
    with pytest.raises(IllegalActionError, match="no jacks"):
        other = next(c.name for c in hand if not c.name.endswith("J"))
        strict.apply(f"discard {jacks[0]} {other}")


def test_ramsch_skat_option_in_a_played_deal():
    scores = {}
    for skat_rule in ("last_trick", "loser"):
        game = ramsch_game(4, ruleset=ISKO.replace(ramsch_skat=skat_rule))
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        r = game.result.ramsch
        skat_points = sum(c.points for c in game.result.skat)
        with_skat = [s for s in range(3) if r.card_points[s] != game.trick_points[s]]
        assert skat_points and all(r.card_points[s] == game.trick_points[s] + skat_points for s in with_skat)
        if skat_rule == "last_trick":
            assert with_skat == [game.trick_leader]
        else:
            assert with_skat == [s for s in range(3) if game.trick_points[s] == max(game.trick_points)]
        scores[skat_rule] = game.result.scores
    assert scores["last_trick"] != scores["loser"]


def test_schneider_points_option():
    """D2: the historical 91: 90 points no longer make the defenders schneider; 30 still
    makes the declarer schneider."""
    from skat.rules.contract import Contract
    from skat.rules.value import evaluate

    cards = "CJ SJ CA CT CK CQ C9 C8 HA HT SA D7"
    old = ISKO.replace(schneider_points=91)
    assert evaluate(Contract("clubs"), cards, 90, 8, 18).schneider
    assert not evaluate(Contract("clubs"), cards, 90, 8, 18, old).schneider
    assert evaluate(Contract("clubs"), cards, 91, 8, 18, old).schneider
    assert evaluate(Contract("clubs"), cards, 30, 2, 18, old).schneider
    assert not evaluate(Contract("clubs"), cards, 31, 2, 18, old).schneider
