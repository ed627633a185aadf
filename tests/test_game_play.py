"""Declaration and play of one deal by the ISkO (docs/rules.md sections 1, 3, 4, 8)."""

from __future__ import annotations

import pytest

from skat import Card, Contract, Declare, Game, GameType, Phase, Play, cards
from skat.errors import IllegalActionError, OutOfTurnError, WrongPhaseError
from skat.rules.actions import CLAIM, CONCEDE, HOLD, PASS, PICKUP, RESIGN, Bid, Discard

# forehand holds all four jacks and the clubs; middlehand spades and diamonds; rearhand hearts.
HANDS = [
    "CJ SJ HJ DJ CA CT CK CQ C9 C8",
    "SA ST SK SQ S9 S8 S7 DA DT DK",
    "HA HT HK HQ H9 H8 H7 DQ D9 D8",
]
SKAT = "C7 D7"


def fresh(hands=HANDS, skat=SKAT) -> Game:
    return Game(hands=hands, skat=skat)


def forehand_declares(game: Game, bid: int = 18) -> None:
    """Middlehand and rearhand pass, forehand plays at 18 (or holds ``bid``)."""
    if bid == 18:
        game.apply(PASS)
        game.apply(PASS)
        game.apply(Bid(18))
    else:
        game.apply(Bid(bid))
        game.apply(HOLD)
        game.apply(PASS)
        game.apply(PASS)
    assert game.declarer == 0 and game.phase is Phase.SKAT


def snapshot(game: Game):
    return (game.phase, game.to_move, list(game._hands), list(game.history), list(game.trick), game.contract,
            game.discard, game.skat_taken, list(game.trick_points), game.result)


def test_forehand_leads_and_follow_rules_in_a_suit_game():
    g = fresh()
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.HEARTS, hand=True)))
    assert g.to_move == 0
    g.apply(Play(Card.CA))
    # middlehand has no clubs: any card; a jack is a trump, not a club
    assert {a.card for a in g.legal_actions()} == set(cards(HANDS[1]))
    g.apply(Play(Card.S7))
    g.apply(Play(Card.H7))  # rearhand trumps
    assert g.tricks[-1][2] == 2 and g.to_move == 2


def test_a_jack_does_not_follow_its_printed_suit():
    hands = ["SJ S7 HA HT HK HQ H9 H8 H7 DA", "S8 S9 SA ST SK SQ DT DK DQ D9", "CJ HJ DJ CA CT CK CQ C9 C8 C7"]
    g = Game(hands=hands, skat="D8 D7")
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.HEARTS, hand=True)))
    g.apply(Play(Card.DA))
    g.apply(Play(Card.DT))
    g.apply(Play(Card.CJ))
    assert g.to_move == 2  # rearhand trumped with the club jack
    g.apply(Play(Card.C7))
    # forehand has no club: SJ is a trump, not a spade or club, so every card may be played
    assert {a.card for a in g.legal_actions()} == set(g.hand(0))
    g.apply(Play(Card.H7))
    g.apply(Play(Card.S8))
    assert g.to_move == 0  # forehand's trump wins; now he leads spades
    g.apply(Play(Card.S7))
    g.apply(Play(Card.S9))
    g.apply(Play(Card.C8))
    assert g.to_move == 1  # middlehand's S9 wins: rearhand had no spade
    g.apply(Play(Card.SA))
    assert {a.card for a in g.legal_actions()} == set(g.hand(2))  # rearhand: no spade, jacks are trumps
    g.apply(Play(Card.HJ))
    # forehand holds SJ but no spade: the spade jack is a trump and need not (may not) follow spades
    assert {a.card for a in g.legal_actions()} == set(g.hand(0))


def test_holding_a_spade_the_spade_jack_may_not_follow_spades():
    hands = ["S7 HA HT HK HQ H9 H8 H7 DA D8", "SJ S8 SA ST SK SQ DT DK DQ D9", "CJ HJ DJ CA CT CK CQ C9 C8 C7"]
    g = Game(hands=hands, skat="S9 D7")
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.HEARTS, hand=True)))
    g.apply(Play(Card.S7))
    assert {a.card for a in g.legal_actions()} == set(cards("S8 SA ST SK SQ"))
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="does not follow suit"):
        g.apply(Play(Card.SJ))
    assert snapshot(g) == before


def test_revoke_is_refused_and_changes_nothing():
    g = fresh()
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.GRAND, hand=True)))
    g.apply(Play(Card.CA))
    g.apply(Play(Card.S7))
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="not in seat 2's hand"):
        g.apply(Play(Card.SA))
    g.apply(Play(Card.H7))
    g.apply(Play(Card.CJ))  # forehand leads a jack in grand: trumps must be followed by trumps only
    before = snapshot(g)
    with pytest.raises(OutOfTurnError):
        g.apply(Play(Card.SA), seat=2)
    assert snapshot(g) == before


def test_null_order_and_jacks_follow_their_suit():
    hands = ["CJ C7 H7 H8 D7 D8 S7 S8 S9 HT", "CA CK CQ CT C9 C8 HA HK HQ H9", "SJ HJ DJ SA ST SK SQ DA DT DK"]
    g = Game(hands=hands, skat="DQ D9")
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.NULL, hand=True)))
    g.apply(Play(Card.C7))
    assert {a.card for a in g.legal_actions()} == set(cards("CA CK CQ CT C9 C8"))
    g.apply(Play(Card.C8))
    assert {a.card for a in g.legal_actions()} == set(cards(hands[2]))  # no clubs: CJ is not rearhand's
    g.apply(Play(Card.SJ))
    assert g.to_move == 1  # C8 wins: the declarer is off the hook
    g.apply(Play(Card.HA))
    g.apply(Play(Card.HJ))  # rearhand follows hearts with the heart jack
    g.apply(Play(Card.HT))  # forehand: T ranks below J in null, HA wins
    assert g.to_move == 1 and not g.is_over


def test_null_ends_when_the_declarer_takes_a_trick():
    hands = ["CA C7 H7 H8 D7 D8 S7 S8 S9 HT", "CJ CK CQ CT C9 C8 HA HK HQ H9", "SJ HJ DJ SA ST SK SQ DA DT DK"]
    g = Game(hands=hands, skat="DQ D9")
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.NULL, hand=True)))
    for card in (Card.CA, Card.C8, Card.SA):
        g.apply(Play(card))
    assert g.is_over and g.result.won is False and g.result.scores[0] == -70
    assert "lost" in g.result.explanation


def test_skat_points_count_for_the_declarer_in_a_hand_game():
    g = fresh(skat="C7 DA", hands=[HANDS[0], "SA ST SK SQ S9 S8 S7 D7 DT DK", HANDS[2]])
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.GRAND, hand=True)))
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    r = g.result
    assert r.declarer_points + r.defender_points == 120
    assert r.declarer_points >= 11  # the skat's ace is his


def test_pickup_discard_and_declare():
    g = fresh()
    forehand_declares(g)
    g.apply(PICKUP)
    assert g.phase is Phase.DISCARD and len(g.hand(0)) == 12
    assert len(g.legal_actions()) == 66
    with pytest.raises(IllegalActionError, match="exactly two"):
        g.apply(Discard(cards("C8")))
    with pytest.raises(IllegalActionError, match="not in the declarer's hand"):
        g.apply(Discard(cards("C8 SA")))
    g.apply(Discard(cards("C8 D7")))
    assert g.phase is Phase.DECLARE
    with pytest.raises(IllegalActionError, match="after picking up"):
        g.apply(Declare(Contract(GameType.CLUBS, hand=True)))
    with pytest.raises(IllegalActionError):
        g.apply(Declare(Contract(GameType.CLUBS, hand=True, schneider=True)))
    names = [str(a) for a in g.legal_actions()]
    assert names == ["declare diamonds", "declare hearts", "declare spades", "declare clubs", "declare grand",
                     "declare null", "declare null ouvert"]
    g.apply(Declare(Contract(GameType.CLUBS)))
    assert g.phase is Phase.PLAY and g.to_move == 0


def test_schneider_and_schwarz_only_in_hand_games():
    with pytest.raises(IllegalActionError, match="hand game"):
        Contract(GameType.CLUBS, schneider=True)
    c = Contract(GameType.GRAND, ouvert=True)
    assert c.hand and c.schneider and c.schwarz


def test_a_declaration_that_cannot_reach_the_bid_is_refused():
    """PREISSKAT: held 45 as "diamonds without 4", found CJ in the skat: diamonds is out; grand and
    null ouvert may still be declared (docs/rules.md section 3)."""
    hands = ["DA DT DK DQ D9 D8 HA HT SA ST", "SJ HJ DJ CA CT CK CQ C9 C8 C7", "HK HQ H9 H8 H7 SK SQ S9 S8 S7"]
    g = Game(hands=hands, skat="CJ D7")
    forehand_declares(g, bid=45)
    g.apply(PICKUP)
    g.apply(Discard(cards("D7 S7") if False else cards("D7 HT")))
    legal = [a.contract for a in g.legal_actions()]
    assert Contract(GameType.DIAMONDS) not in legal
    assert Contract(GameType.GRAND) in legal and Contract(GameType.NULL, ouvert=True) in legal
    assert Contract(GameType.NULL) not in legal
    with pytest.raises(IllegalActionError, match="cannot reach the bid of 45"):
        g.apply(Declare(Contract(GameType.DIAMONDS)))


def test_ouvert_hand_is_visible_to_everybody_from_the_first_lead():
    g = fresh()
    forehand_declares(g)
    assert g.view(1).open_hands == {}
    g.apply(Declare(Contract(GameType.GRAND, ouvert=True)))
    for seat in (1, 2):
        assert g.view(seat).open_hands == {0: g.hand(0)}


def test_announced_schwarz_lost_at_the_first_defender_trick():
    g = fresh()
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.CLUBS, hand=True, schwarz=True)))
    g.apply(Play(Card.C8))
    g.apply(Play(Card.SA))
    g.apply(Play(Card.HA))
    assert not g.is_over  # forehand's C8 is a trump: he wins
    # clubs with 4 jacks... the declarer cannot lose a trick here; play it out
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert g.result.won and g.result.outcome.schwarz


def test_claim_concede_and_resign():
    g = fresh()
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.CLUBS, hand=True)))
    assert g.side_actions(0) == [CLAIM, RESIGN] and g.side_actions(1) == [CONCEDE]
    g.apply(CLAIM, seat=0)
    assert g.view(2).open_hands == {0: g.hand(0)}
    g.apply(CONCEDE, seat=2)
    assert not g.is_over
    with pytest.raises(IllegalActionError):
        g.apply(CONCEDE, seat=2)
    g.apply(CONCEDE, seat=1)
    r = g.result
    assert g.is_over and r.won and r.kind == "claimed" and r.declarer_points == 120 and r.declarer_tricks == 10

    g = fresh()
    forehand_declares(g)
    g.apply(Declare(Contract(GameType.SPADES, hand=True)))
    g.apply(RESIGN, seat=0)
    assert g.is_over and not g.result.won and g.result.kind == "resigned" and g.result.declarer_points == 0
    with pytest.raises(WrongPhaseError, match="over"):
        g.apply(RESIGN, seat=0)


def test_early_end_actions_only_during_play():
    g = fresh()
    with pytest.raises(WrongPhaseError):
        g.apply(CLAIM, seat=0)


def test_overbid_is_lost_at_the_smallest_multiple_of_the_base_value():
    """S003: diamonds with 1 after a bid of 24: worth 18, loses 2 x 27 = 54 whatever the card points."""
    hands = ["CJ DA DT DK DQ D9 SA HA CA C7", "SJ HJ DJ ST SK SQ S9 S8 S7 D8", "HT HK HQ H9 H8 H7 CT CK CQ C9"]
    g = Game(hands=hands, skat="C8 D7")
    forehand_declares(g, bid=24)
    g.apply(PICKUP)
    g.apply(Discard(cards("C8 C7")))
    g.apply(Declare(Contract(GameType.DIAMONDS)))
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    r = g.result
    if r.outcome.game_value < 24:
        assert not r.won and r.outcome.overbid and r.scores[0] == -54
        assert r.explanation.startswith("lost, overbid: diamonds with 1 is worth 18 but the bid was 24")
    else:  # Schneider lifted the value to 27
        assert r.outcome.schneider and r.outcome.game_value == 27
