"""Computer players: only ever legal actions, sensible Skat decisions, robust to unknown actions."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat.cards import Card, CardSet, mask_of
from skat.deal.game import Game, Phase
from skat.players import make_player
from skat.players.arena import new_game
from skat.players.heuristic import (
    HeuristicPlayer,
    best_game,
    fallback_action,
    null_risk,
    ramsch_risk,
    trump_strength,
)
from skat.rules.actions import Action, Bid, Declare, Discard, Hold, Pass, PickUp, Play
from skat.rules.ranking import GameType
from skat.rules.rulesets import PRESETS

RULESETS = sorted({r.name: r for r in PRESETS.values()}.values(), key=lambda r: r.name)


def play_out(game: Game, players: list) -> Game:
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, f"{players[seat].name} chose {action} in {view.phase}"
        game.apply(action, seat)
    return game


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(RULESETS),
       mix=st.tuples(*[st.sampled_from(["random", "heuristic"])] * 3))
def test_heuristic_and_random_only_play_legal_actions(seed: int, ruleset, mix) -> None:
    players = [make_player(name, seed + i) for i, name in enumerate(mix)]
    game = play_out(new_game(seed, ruleset), players)  # Tournee rules get their own game class
    assert game.result is not None


@dataclass(frozen=True)
class HouseAction(Action):
    """An action this player was never taught (a stand-in for new house rules)."""

    token: str  # type: ignore[misc]


def test_unknown_decisions_fall_back_to_a_cautious_legal_action() -> None:
    view = Game(seed=1).view(1)
    odd = dataclasses.replace(view, legal_actions=[HouseAction("kontra"), HouseAction("no")])
    assert HeuristicPlayer(0).choose(odd) == HouseAction("no")
    only = dataclasses.replace(view, legal_actions=[HouseAction("grandhand"), HouseAction("ramsch")])
    assert HeuristicPlayer(0).choose(only) in only.legal_actions
    assert fallback_action([Play(Card.CA), Play(Card.C7)]) == Play(Card.C7)


def test_strong_trump_hand_bids_and_weak_hand_passes() -> None:
    strong = mask_of("CJ SJ HJ CA CT CK C9 C8 HA SA")
    weak = mask_of("D7 D8 H9 HQ S7 S8 SK C7 C9 DQ")
    p = HeuristicPlayer(0)
    assert p.bid_limit(strong) >= 48  # clubs with 3: 4 x 12
    assert p.bid_limit(weak) == 0
    assert trump_strength(strong, GameType.CLUBS) > trump_strength(weak, GameType.CLUBS) + 5


def test_clean_low_hand_prefers_null() -> None:
    hand = mask_of("C7 C9 CJ S7 S8 ST H7 H9 D7 D8")
    assert null_risk(hand) <= 0.4
    assert best_game(hand, skat_bonus=0.7).contract.is_null


def _game_at_discard(hand: str, others: tuple[str, str], skat: str) -> Game:
    game = Game(hands=[hand, *others], skat=skat)
    for a in ("18", "hold", "pass", "pass", "pickup"):
        game.apply(a)
    return game


def test_discard_puts_away_a_blank_ten() -> None:
    game = _game_at_discard("CJ SJ HJ DJ CA CT CK C9 HT SA", ("C8 C7 HA HK HQ H9 H8 SK SQ S9",
                            "H7 ST S8 S7 DA DT DK DQ D9 D8"), "CQ D7")
    assert game.phase is Phase.DISCARD
    action = HeuristicPlayer(0).choose(game.view(0))
    assert isinstance(action, Discard)
    assert Card.HT in action.cards  # the blank heart ten would fall to the ace
    assert not action.cards & CardSet(mask_of("CJ SJ HJ DJ"))
    game.apply(action)
    declare = HeuristicPlayer(0).choose(game.view(0))
    assert isinstance(declare, Declare) and declare.contract.game_type in (GameType.CLUBS, GameType.GRAND)


def test_declarer_pulls_trumps_with_the_master_jacks() -> None:
    game = Game(hands=["CJ SJ HJ CA CT CK C9 C8 HA SA", "DJ C7 HK HQ H9 H8 SK SQ S9 S8",
                       "CQ H7 HT ST S7 DA DT DK DQ D9"], skat="D8 D7")
    for a in ("18", "hold", "pass", "pass", "declare clubs hand"):
        game.apply(a)
    choice = HeuristicPlayer(0).choose(game.view(0))
    assert isinstance(choice, Play) and choice.card in (Card.CJ, Card.SJ, Card.HJ)


def test_defender_smears_a_ten_on_partners_trick() -> None:
    # seat 0 declares clubs hand and leads the diamond seven; seat 1 takes it with the ace,
    # and seat 2, void in diamonds, smears a ten on his partner's trick.
    game = Game(hands=["CJ SJ HJ DJ CA CT CK CQ H7 D7", "DA DK DQ D9 D8 HA HK SK SQ C7",
                       "ST S8 S7 SA S9 HT HQ H9 H8 C8"], skat="DT C9")
    for a in ("18", "hold", "pass", "pass", "declare clubs hand", "D7", "DA"):
        game.apply(a)
    choice = HeuristicPlayer(0).choose(game.view(2))
    assert choice in (Play(Card.ST), Play(Card.HT))


def test_forehand_holds_only_up_to_the_hand_value() -> None:
    game = Game(hands=["CJ SJ CA CT CK C9 C8 HA SA S7", "HJ DJ H7 HK HQ H9 H8 SK SQ S9",
                       "CQ C7 HT ST S8 DA DT DK DQ D9"], skat="D8 D7")
    p = HeuristicPlayer(0)
    limit = p.bid_limit(game.view(0).hand.mask)
    game.apply(Bid(limit + 1) if limit + 1 in game.ruleset.bid_values else Bid(264))
    assert p.choose(game.view(0)) == Pass()
    game2 = Game(hands=["CJ SJ CA CT CK C9 C8 HA SA S7", "HJ DJ H7 HK HQ H9 H8 SK SQ S9",
                        "CQ C7 HT ST S8 DA DT DK DQ D9"], skat="D8 D7")
    game2.apply("18")
    assert p.choose(game2.view(0)) == Hold()


def test_skat_phase_picks_up_an_ordinary_hand() -> None:
    game = Game(hands=["CJ DJ CA CT C9 HK HQ SA S7 D9", "HJ SJ CK C8 H9 H8 SK SQ S9 H7",
                       "CQ HA HT ST S8 DA DT DK DQ C7"], skat="D8 D7")
    for a in ("18", "hold", "pass", "pass"):
        game.apply(a)
    assert HeuristicPlayer(0).choose(game.view(0)) == PickUp()


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_players_are_reproducible_from_their_seed(name: str) -> None:
    a = play_out(Game(seed=99), [make_player(name, s) for s in range(3)])
    b = play_out(Game(seed=99), [make_player(name, s) for s in range(3)])
    assert a.to_record() == b.to_record()


# --------------------------------------------------------------- house rules
def test_grand_hand_instead_of_ramsch_with_a_grand_hand() -> None:
    pub = PRESETS["pub"]
    game = Game(hands=["CJ SJ HJ CA CT CK HA HT SA ST", "DJ C7 C8 HK HQ H9 H8 SK SQ S9",
                       "CQ C9 H7 S8 S7 DA DT DK DQ D9"], skat="D8 D7", ruleset=pub)
    for a in ("pass", "pass", "pass"):
        game.apply(a)
    assert game.phase.value == "grand_hand"
    choice = HeuristicPlayer(0).choose(game.view(0))
    assert isinstance(choice, Declare) and choice.contract.game_type == GameType.GRAND and choice.contract.hand
    game.apply(Pass() if not isinstance(choice, Declare) else choice)


def test_weak_hand_lets_the_ramsch_happen() -> None:
    pub = PRESETS["pub"]
    game = Game(hands=["D7 D8 H9 HQ S7 S8 SK C7 C9 DQ", "CJ SJ HJ DJ CA CT CK HA SA ST",
                       "CQ C8 HT HK H7 H8 S9 SQ DA DT"], skat="DK D9", ruleset=pub)
    for a in ("pass", "pass", "pass"):
        game.apply(a)
    assert HeuristicPlayer(0).choose(game.view(0)) == Pass()


def test_ramsch_risk_counts_high_cards() -> None:
    assert ramsch_risk(mask_of("D7 D8 H7 H8 H9 S7 S8 C7 C8 C9")) < 0.5
    assert ramsch_risk(mask_of("CJ SJ CA CT HA HT SA ST DA DT")) > 5


def test_defender_says_kontra_against_a_game_he_can_beat() -> None:
    pub = PRESETS["pub"]
    # middlehand declares a thin diamonds game; forehand holds both black jacks, trumps and aces
    game = Game(hands=["CJ SJ DA DT D9 CA HA ST S9 C8", "HJ DJ DK DQ D8 D7 HK HQ SK C7",
                       "CT CK CQ C9 H9 H8 H7 SQ S8 S7"], skat="HT SA", ruleset=pub)
    for a in ("18", "hold", "20", "pass", "pass", "declare diamonds hand"):
        game.apply(a)
    view = game.view(0)
    assert str(HeuristicPlayer(0).side_action(view)) == "kontra"
    assert HeuristicPlayer(0).side_action(game.view(2)) is None  # a weak defender keeps quiet
