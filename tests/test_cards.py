"""Cards: notation (ISS, symbols, German names), card sets as masks, points, display order."""

from __future__ import annotations

import pytest

from skat import Card, CardNotationError, CardSet, GameType, card_points, cards
from skat.rules.deal import deal_number, deck_order
from skat.rules.ranking import display_order


def test_thirty_two_cards_with_120_points():
    assert len(list(Card)) == 32
    assert card_points(CardSet.from_mask(0xFFFFFFFF)) == 120


@pytest.mark.parametrize("text, card", [
    ("CJ", Card.CJ), ("HT", Card.HT), ("D7", Card.D7), ("♣J", Card.CJ), ("♥10", Card.HT), ("10♥", Card.HT),
    ("♦A", Card.DA), ("Kreuz-Bube", Card.CJ), ("Herz Zehn", Card.HT), ("Eichel-Unter", Card.CJ),
    ("Schellen-Daus", Card.DA), ("jack of clubs", Card.CJ), ("Pik Dame", Card.SQ), ("Grün König", Card.SK),
])
def test_parse_notations(text, card):
    assert Card.parse(text) is card


@pytest.mark.parametrize("card", list(Card))
def test_every_notation_round_trips(card):
    assert Card.parse(card.name) is card
    assert Card.parse(card.symbol) is card
    assert Card.parse(card.german) is card


@pytest.mark.parametrize("bad", ["CX", "ZJ", "", "C", "CJJ", "Kreuz-Elf", "11♥"])
def test_unknown_notation_gets_a_clear_error(bad):
    with pytest.raises(CardNotationError, match="unknown card"):
        Card.parse(bad)


def test_symbols_and_german_names():
    assert Card.CJ.symbol == "♣J" and Card.HT.symbol == "♥10"
    assert Card.CJ.german == "Kreuz-Bube" and Card.DA.german == "Karo-Ass"


def test_card_set_is_a_mask_behind_a_friendly_type():
    s = cards("CJ SJ HA")
    assert len(s) == 3 and "CJ" in s and Card.HA in s and "D7" not in s
    assert s.mask == (1 << Card.CJ) | (1 << Card.SJ) | (1 << Card.HA)
    assert s.points == 15
    assert (s | cards("D7")) - cards("CJ") == cards("SJ HA D7")
    assert cards("CJ,SJ") == cards("♣J ♠J") == cards("CJSJ")
    with pytest.raises(CardNotationError, match="twice"):
        cards("CJ CJ")
    with pytest.raises(AttributeError):
        s.mask = 0  # type: ignore[misc]


def test_display_order_depends_on_the_game():
    hand = cards("D7 HA CJ HT SJ H8 DA")
    assert [c.name for c in display_order(hand, GameType.HEARTS)] == ["CJ", "SJ", "HA", "HT", "H8", "DA", "D7"]
    assert [c.name for c in display_order(hand, GameType.GRAND)] == ["CJ", "SJ", "HA", "HT", "H8", "DA", "D7"]
    null = cards("CJ HT HA H8 D7")
    assert [c.name for c in display_order(null, GameType.NULL)] == ["CJ", "HA", "HT", "H8", "D7"]
    assert [c.name for c in display_order(cards("HJ HA HT HK"), GameType.NULL)] == ["HA", "HK", "HJ", "HT"]


def test_deal_numbers_are_reproducible_and_cover_the_deck():
    assert deal_number(7) == deal_number(7) != deal_number(8)
    order = deck_order(deal_number(7))
    assert sorted(order) == list(range(32))
    with pytest.raises(ValueError):
        deck_order(-1)


def test_card_sets_and_seat_views_pickle():
    import pickle

    from skat import Game

    s = cards("CJ HA D7")
    assert pickle.loads(pickle.dumps(s)) == s
    view = Game(seed=3).view(1)
    assert pickle.loads(pickle.dumps(view)).hand == view.hand
