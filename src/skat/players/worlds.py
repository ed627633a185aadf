"""Sampling the hidden cards from one seat's knowledge (for Monte Carlo players).

A seat knows its own hand, every card played so far, the suits another player
showed void in (he did not follow), open hands (ouvert, a claim), for a
declarer who picked it up, the skat and his own discard, and in a Schieberamsch
where the cards it pushed went (on round the table: rearhand's push is the skat).
Everything else is hidden.  :class:`Knowledge` collects these facts from a :class:`~skat.deal.game.SeatView`;
:func:`sample_worlds` deals the hidden cards to the places where they may be
(the other hands and the skat) so that every sampled :class:`World` agrees with
all hard facts.  Bids are soft facts: a player who bid or held a value usually
holds a hand that can reach it, and the declarer's announced game usually
reaches the bid; sampled worlds respect them when they can (rejection with a
retry limit), never at the price of a hard fact.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skat._compiled import compiled_module
from skat.cards import ALL_CARDS, JACKS, Card, CardSet, iter_mask, suit_mask
from skat.deal.game import Phase, SeatView
from skat.rules.actions import Play
from skat.rules.contract import null_value
from skat.rules.ranking import FOLLOW_MASK, TRUMP_MASK, GameType
from skat.rules.value import BASE_VALUES, matador_count, multiplier

__all__ = ["Knowledge", "World", "sample_worlds", "bid_capacity", "SKAT", "SCHNEIDER_STEP", "exact_value", "next_leader",
           "tricks_left", "legal_cards"]

SCHNEIDER_STEP = 0.25
"""What a Schneider is worth in a world's value of a card, a game won or lost being 1 (:func:`exact_value`; the
searches of :mod:`skat.players.pimc` and :mod:`skat.players.playout`)."""


def exact_value(points: int, target: int) -> float:
    """A world's value of a card for the declarer from his final card points: won (``target`` reached), the
    Schneider steps either way, and a small term a card point."""
    return (points >= target) + SCHNEIDER_STEP * ((points >= 90) - (points <= 30)) + 0.002 * points


def next_leader(view: SeatView) -> int:
    """The seat that leads the next trick: the last trick's winner (forehand leads the first)."""
    if view.tricks:
        return view.tricks[-1][2]
    return 0


def tricks_left(view: SeatView) -> int:
    """The tricks still to finish at a table of three: the cards in the hands and in the current trick, three a
    trick (the skat is not played)."""
    return -(-(sum(view.hand_sizes) + len(view.trick)) // 3)


def legal_cards(view: SeatView) -> list[int]:
    """The cards the seat may play now, as ints (none when its turn is not a card play)."""
    return [int(a.card) for a in view.legal_actions if isinstance(a, Play)]

_dealing = compiled_module("skat.players.dealing")  # compiled ahead of time by setup.py (Cython)

SKAT = 3
"""Index of the skat among the places a hidden card can be (seats are 0, 1, 2)."""


@dataclass(frozen=True, slots=True)
class World:
    """One complete, consistent guess of where every card is now.

    ``hands`` are the current hands of the three seats; ``skat`` the two cards
    out of play (the discard after a pickup, else the original skat).
    """

    hands: tuple[int, int, int]
    skat: int


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows for certain about the location of every card."""

    seat: int
    game_type: int | None
    known: tuple[int, int, int, int]
    """Cards known to be in seat 0, 1, 2 and in the skat (index :data:`SKAT`) now."""
    capacity: tuple[int, int, int, int]
    """How many cards each place holds now."""
    excluded: tuple[int, int, int, int]
    """Cards known NOT to be in a place (voids shown, and cards seen elsewhere)."""
    played: tuple[int, int, int]
    """Cards each seat has played so far (tricks and the current trick)."""
    hidden: int
    """Cards whose place the seat does not know."""
    min_bid: tuple[int, int, int]
    """The highest value each seat bid or held in the auction (0 if none)."""
    declarer: int | None
    bid: int
    hand_game: bool
    picked_up: bool

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        """Collect the hard and soft facts of a seat view."""
        assert view.seat is not None, "a seat's view, not a spectator's"
        seat = view.seat
        contract = view.contract
        gt = None if contract is None else int(contract.game_type)
        if gt is None and view.phase is Phase.PLAY:
            gt = int(GameType.RAMSCH)  # a Ramsch: grand trick rules, nobody declares
        played = [0, 0, 0]
        voids = [0, 0, 0]
        cards: tuple[Card, ...] | CardSet  # a trick's cards, then a shown hand
        tricks: list[tuple[int, tuple[Card, ...]]] = [(ld, cards) for ld, cards, _w in view.tricks]
        if view.trick:
            tricks.append((view.trick[0][0], tuple(c for _s, c in view.trick)))
        for leader, cards in tricks:
            lead = int(cards[0])
            for i, card in enumerate(cards):
                s = (leader + i) % 3
                played[s] |= 1 << card
                if i and gt is not None:
                    follow = FOLLOW_MASK[gt][lead]
                    if not follow >> card & 1:
                        voids[s] |= follow
        known = [0, 0, 0, 0]
        known[seat] = view.hand.mask
        for s, cards in view.open_hands.items():
            known[s] |= cards.mask
        is_declarer = view.declarer == seat
        picked_up = view.skat is not None or view.phase in (Phase.DISCARD, Phase.DECLARE)
        if view.declarer is not None and view.contract is not None and not view.contract.hand:
            picked_up = True
        if is_declarer and view.discard is not None:
            known[SKAT] = view.discard.mask
        elif is_declarer and view.skat is not None and view.phase is Phase.DISCARD:
            known[SKAT] = 0  # the skat is in the declarer's hand now
        pushed = _pushed_in_schieberamsch(view)
        pushed_the_skat = bool(pushed) and seat == LAST_PUSHER
        if pushed_the_skat:
            known[SKAT] = pushed  # nobody took the skat up after rearhand: its two cards are the skat
        sizes = list(view.hand_sizes)
        skat_size = 0 if view.phase is Phase.DISCARD else 2
        capacity = (sizes[0], sizes[1], sizes[2], skat_size)
        all_played = played[0] | played[1] | played[2]
        seen = known[0] | known[1] | known[2] | known[3] | all_played
        hidden = ALL_CARDS & ~seen
        excluded = [0, 0, 0, 0]
        for place in range(4):
            if place < 3 and (place == seat or place in view.open_hands):
                excluded[place] = ALL_CARDS & ~known[place]
            elif place == SKAT and (is_declarer and view.discard is not None or pushed_the_skat):
                excluded[place] = ALL_CARDS & ~known[place]
            else:
                excluded[place] = seen & ~known[place]
            if place < 3:
                excluded[place] |= voids[place] & ~known[place]
            if place < seat and pushed:  # a Schieberamsch's pushes go round from forehand: never back
                excluded[place] |= pushed & ~known[place]
        min_bid = [0, 0, 0]
        last_bid = 0
        for s, token in view.auction:
            if token.isdigit():
                last_bid = int(token)
                min_bid[s] = max(min_bid[s], last_bid)
            elif token == "hold":
                min_bid[s] = max(min_bid[s], last_bid)
        return cls(
            seat=seat, game_type=gt, known=(known[0], known[1], known[2], known[3]),
            capacity=capacity, excluded=(excluded[0], excluded[1], excluded[2], excluded[3]),
            played=(played[0], played[1], played[2]), hidden=hidden,
            min_bid=(min_bid[0], min_bid[1], min_bid[2]), declarer=view.declarer, bid=view.bid,
            hand_game=bool(contract is not None and contract.hand), picked_up=picked_up,
        )

    def allowed(self, card: int) -> int:
        """Bit set of the places (bit 0..3) where a hidden card may lie."""
        bits = 0
        for place in range(4):
            if self.capacity[place] > self.known[place].bit_count() and not self.excluded[place] >> card & 1:
                bits |= 1 << place
        return bits

    def consistent(self, world: World) -> bool:
        """Whether a world agrees with every hard fact this seat knows."""
        places = (*world.hands, world.skat)
        union = 0
        for place, mask in enumerate(places):
            if mask.bit_count() != self.capacity[place]:
                return False
            if mask & self.known[place] != self.known[place] or mask & self.excluded[place]:
                return False
            if union & mask:
                return False
            union |= mask
        all_played = self.played[0] | self.played[1] | self.played[2]
        return union | all_played == ALL_CARDS and not union & all_played


LAST_PUSHER = 2
"""In a Schieberamsch the skat goes round from forehand (seat 0) to rearhand (seat 2), each taking it up and pushing
two cards on (or pushing it on unseen): what rearhand pushes is the skat of the play."""


def _pushed_in_schieberamsch(view: SeatView) -> int:
    """The two cards this seat pushed on in a Schieberamsch being played (0 otherwise). They went on round the
    table, never back to a seat that pushed before; rearhand's are the skat."""
    if view.phase is not Phase.PLAY or view.declarer is not None or view.contract is not None or not view.discard:
        return 0
    return view.discard.mask


def sample_worlds(
    view: SeatView | Knowledge,
    n: int,
    rng: random.Random,
    *,
    use_bids: bool = True,
    tries: int = 20,
) -> list[World]:
    """``n`` worlds consistent with the seat's knowledge (see the module docstring).

    With ``use_bids`` each world is redrawn up to ``tries`` times until the
    auction looks plausible for it; the last draw is kept otherwise.
    """
    know = view if isinstance(view, Knowledge) else Knowledge.from_view(view)
    cards = list(iter_mask(know.hidden))
    allowed = {c: know.allowed(c) for c in cards}
    free = [know.capacity[p] - know.known[p].bit_count() for p in range(4)]
    if sum(free) != len(cards):
        raise ValueError(
            f"inconsistent seat view: {len(cards)} hidden cards for {sum(free)} free places "
            f"(hand sizes {know.capacity[:3]}, skat {know.capacity[3]})"
        )
    # cards with fewer possible places are dealt first
    cards.sort(key=lambda c: allowed[c].bit_count())
    worlds = []
    for _ in range(n):
        world = _deal(know, cards, allowed, free, rng)
        if use_bids:
            for _attempt in range(tries):
                if plausible(know, world):
                    break
                world = _deal(know, cards, allowed, free, rng)
        worlds.append(world)
    return worlds


def _deal(know: Knowledge, cards: list[int], allowed: dict[int, int], free: list[int], rng: random.Random) -> World:
    """Deal the hidden cards place by place, never into a dead end (Hall's condition on 4 places; the loop is
    :func:`skat.players.dealing.deal_hidden`, compiled)."""
    order = list(cards)
    # shuffle within groups of equal constraint so the draw is not biased by card number
    rng.shuffle(order)
    order.sort(key=lambda c: allowed[c].bit_count())
    by_card = [0] * 32
    for c in cards:
        by_card[c] = allowed[c]
    one_pattern = len({allowed[c] for c in cards}) == 1
    places = _dealing.deal_hidden(know.known, order, by_card, free, one_pattern, rng)
    return World(hands=(places[0], places[1], places[2]), skat=places[3])


# ---------------------------------------------------------------- soft facts
_GAME_AND_HAND = multiplier(0, True)
"""The levels of a hand game beyond its matadors, game and hand (:func:`multiplier` adds each matador as one)."""
_GAME_SCHNEIDER = (multiplier(0, False, True), multiplier(0, True, True))
"""The levels beyond the matadors of a game with Schneider by play, declared with the skat or hand."""


def bid_capacity(hand: int) -> int:
    """A generous upper estimate of the bid a 10-card hand can back.

    Suit games with at least four trumps count (matadors + 2) x base (game and hand),
    grand with two jacks (matadors + 2) x 24, and Null 23 for a hand with three low cards.
    """
    best = 0
    for gt in range(4):
        trumps = hand & TRUMP_MASK[gt]
        if trumps.bit_count() >= 4:
            best = max(best, (matador_count(gt, hand)[1] + _GAME_AND_HAND) * BASE_VALUES[gt])
    if (hand & JACKS).bit_count() >= 2:
        best = max(best, (matador_count(4, hand)[1] + _GAME_AND_HAND) * BASE_VALUES[4])
    low = sum(((hand & suit_mask(s)) & 0x07 << (8 * s)).bit_count() > 0 for s in range(4))
    if low >= 3:
        best = max(best, null_value(True, False))
    return best


def plausible(know: Knowledge, world: World) -> bool:
    """Whether the auction and the announced game look plausible in a world."""
    for s in range(3):
        if s == know.seat or not know.min_bid[s]:
            continue
        if s == know.declarer and know.game_type is not None:
            if not _declarer_reaches_bid(know, world, s):
                return False
            continue
        original = world.hands[s] | know.played[s]
        if original.bit_count() == 10 and bid_capacity(original) < know.min_bid[s]:
            return False
    return True


def _declarer_reaches_bid(know: Knowledge, world: World, s: int) -> bool:
    gt = know.game_type
    assert gt is not None
    if gt == GameType.NULL:
        return True
    twelve = world.hands[s] | know.played[s] | world.skat
    if twelve.bit_count() != 12:
        return True
    # game, possibly Schneider by play, and the hand level when declared
    return (matador_count(gt, twelve)[1] + _GAME_SCHNEIDER[know.hand_game]) * BASE_VALUES[gt] >= know.bid
