"""The rules the engines apply in their hot paths, on card masks and small integers, compiled by
Cython like the engine's core: the deal (:func:`deal_masks`, :func:`deck_order`), following suit
(:func:`legal_mask`), the trick winner (:func:`winner_of`), the auction (:func:`auction_bid`,
:func:`auction_hold`, :func:`auction_pass` on a packed auction state), matadors
(:func:`matador_count`), levels (:func:`multiplier`) and whether a declaration can still reach the bid
(:func:`reaches`, :func:`declarable_mask`), with the tables they read.

Each rule exists once, here. The rules layer re-exports them for everybody (:mod:`skat.rules.deal`,
:mod:`skat.rules.ranking`, :mod:`skat.rules.bidding`, :mod:`skat.rules.value`: engines, players,
solver, analysis); the compiled core (:mod:`skat.deal._core`) calls them through C (``kernel.pxd``), so
its hot path costs no Python call. Like ``_core.py`` this is plain Python that ``setup.py`` compiles
when a C compiler is there; uncompiled it behaves alike (``tests/test_engine_speed_equivalence.py``,
``tests/test_rules_consistency.py``, ``tests/test_kernel.py``).
"""

from __future__ import annotations

import random

try:
    import cython
except ImportError:  # running uncompiled without Cython installed
    from skat import _cython_shim as cython

from skat.cards import JACKS, Card, suit_mask
from skat.enums import GameType

__all__ = [
    "NULL_VALUES",
    "POWER", "FOLLOW_MASK", "TRUMP_MASK", "legal_mask", "winner_of", "COMPILED",
    "DEAL_PACKETS", "deal_number", "deck_order", "deal_deck", "deal_masks",
    "AUCTION_START", "auction_state", "auction_stage", "auction_bidder", "auction_listener", "auction_passed",
    "auction_answering", "auction_highest", "auction_rung", "auction_to_move", "auction_first_bid",
    "auction_last_bid", "auction_hold", "auction_pass", "auction_bid",
    "SUIT_RUN_RANKS", "matador_count", "best_hand_matadors", "multiplier", "base_value", "ouvert_level",
    "HAND_DECLARATIONS", "SKAT_DECLARATIONS", "reaches", "known_matadors", "reach_mask", "declarable_mask",
]

COMPILED: bool = cython.compiled
"""Whether this module runs compiled by Cython."""

_MASK64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
_ONE = cython.declare(cython.ulonglong, 1)


# ---------------------------------------------------------------- the deal
_GAMMA = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_LOW32 = cython.declare(cython.ulonglong, 0xFFFFFFFF)
_FACT32: int = 263130836933693530167218012160000000
"""32!, the number of deals (orders of the deck)."""
# 32! = (_FACT32_HI << 64) | _FACT32_LO
_FACT32_HI = cython.declare(cython.ulonglong, 263130836933693530167218012160000000 >> 64)
_FACT32_LO = cython.declare(cython.ulonglong, 263130836933693530167218012160000000 & 0xFFFFFFFFFFFFFFFF)


@cython.cfunc
@cython.inline
def _splitmix64(state: cython.ulonglong) -> cython.ulonglong:
    """The output of SplitMix64 for a state already advanced by the golden gamma."""
    z: cython.ulonglong = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


@cython.cfunc
def _seed_number(seed: cython.ulonglong, number: cython.p_ulonglong) -> cython.void:
    """The deal number (0 <= n < 32!) of a seed's low 64 bits, as ``number[0] << 64 | number[1]``:
    SplitMix64 draws 118 uniform bits, the top 54 of two outputs, until they lie below 32!
    (rejection sampling keeps every one of the 32! orders equally likely)."""
    state: cython.ulonglong = seed
    a: cython.ulonglong
    b: cython.ulonglong
    hi: cython.ulonglong
    lo: cython.ulonglong
    while True:
        state = (state + _GAMMA) & _MASK64
        a = _splitmix64(state)
        state = (state + _GAMMA) & _MASK64
        b = _splitmix64(state)
        hi = a >> 10
        lo = ((a & 1023) << 54) | (b >> 10)
        if hi < _FACT32_HI or (hi == _FACT32_HI and lo < _FACT32_LO):
            break
    number[0] = hi
    number[1] = lo


@cython.cfunc
def _deck_of(hi: cython.ulonglong, lo: cython.ulonglong, order: cython.p_int) -> cython.void:
    """The card order of the deal number ``hi << 64 | lo`` into ``order`` (32 cards): its digits in
    the factorial number system, taken in 64-bit pieces, pick the cards one by one."""
    deck: cython.int[32] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                            24, 25, 26, 27, 28, 29, 30, 31]  # the cards not dealt yet, in order
    t: cython.ulonglong
    q: cython.ulonglong
    r: cython.int
    i: cython.int
    for i in range(32, 0, -1):
        # the next digit r (base i) of the number, and the number divided by i
        if hi:
            t = hi % i
            hi = hi // i
            t = (t << 32) | (lo >> 32)
            q = t // i
            t = ((t % i) << 32) | (lo & _LOW32)
            lo = (q << 32) | (t // i)
            r = t % i
        else:
            r = lo % i
            lo = lo // i
        order[32 - i] = deck[r]
        while r < i - 1:
            deck[r] = deck[r + 1]
            r += 1


@cython.cfunc
@cython.inline
def _packet(k: cython.int) -> cython.int:
    """The dealing rule (docs/rules.md 1.4): where the k-th card of the deck goes, packets of 3 to
    forehand (0), middlehand (1) and rearhand (2), 2 to the skat (3), then 4 each, then 3 each."""
    if k < 9:
        return k // 3
    if k < 11:
        return 3
    if k < 23:
        return (k - 11) // 4
    return (k - 23) // 3


DEAL_PACKETS: tuple[int, ...] = tuple([_packet(k) for k in range(32)])
"""Where the cards of a shuffled deck go, in order: 0, 1, 2 the seats, 3 the skat (docs/rules.md 1.4)."""


def deal_number(seed: int | None) -> int:
    """The deal number (0 <= n < 32!) that an integer seed stands for; random if seed is None
    (Python's :mod:`random`). SplitMix64 turns the seed's low 64 bits into 118 uniform bits, so a seed
    gives the same deal on any machine."""
    if seed is None:
        return random.randrange(_FACT32)
    number: cython.ulonglong[2] = [0, 0]
    _seed_number(seed & 0xFFFFFFFFFFFFFFFF, number)
    hi: object = number[0]
    lo: object = number[1]
    return (hi << 64) | lo


def deck_order(number: int) -> list[int]:
    """The card order of a deal number: its digits in the factorial number system pick the cards."""
    if not 0 <= number < _FACT32:
        raise ValueError("a deal number lies between 0 and 32! - 1")
    order: cython.int[32] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                             0, 0, 0, 0, 0, 0, 0, 0]
    _deck_of(number >> 64, number & 0xFFFFFFFFFFFFFFFF, order)
    return [order[k] for k in range(32)]


def deal_deck(seed: int | None) -> list[Card]:
    """A shuffled deck, reproducible from an integer seed (:func:`deck_order` of :func:`deal_number`)."""
    return [Card(c) for c in deck_order(deal_number(seed))]


def deal_masks(seed: int | None) -> tuple[int, int, int, int]:
    """The deal of a seed as ``(forehand, middlehand, rearhand, skat)`` masks: the deck of
    :func:`deal_deck` dealt by :data:`DEAL_PACKETS` (docs/rules.md 1.4); random if seed is None."""
    number: cython.ulonglong[2] = [0, 0]
    if seed is None:
        drawn = random.randrange(_FACT32)
        number[0] = drawn >> 64
        number[1] = drawn & 0xFFFFFFFFFFFFFFFF
    else:
        _seed_number(seed & 0xFFFFFFFFFFFFFFFF, number)
    order: cython.int[32] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                             0, 0, 0, 0, 0, 0, 0, 0]
    _deck_of(number[0], number[1], order)
    hands: cython.ulonglong[4] = [0, 0, 0, 0]
    k: cython.int
    for k in range(32):
        hands[_packet(k)] |= _ONE << order[k]
    return hands[0], hands[1], hands[2], hands[3]


# ------------------------------------------------------ following suit, tricks
# Plain-suit order for suit, grand and ramsch games: 7 8 9 Q K T A (jacks are trumps).
_PLAIN_ORDER = {0: 0, 1: 1, 2: 2, 5: 3, 6: 4, 3: 5, 7: 6}


def _build_tables() -> tuple[list[list[int]], list[list[int]], list[int]]:
    """The ranking of every game type (docs/rules.md 1.2): trick strength, what follows a lead, trumps."""
    power: list[list[int]] = []
    follow: list[list[int]] = []
    trumps: list[int] = []
    for gt in GameType:
        pw = [0] * 32
        fm = [0] * 32
        if gt == GameType.NULL:
            trump_mask = 0
        elif gt.is_suit:
            trump_mask = JACKS | (suit_mask(gt) & ~JACKS)
        else:
            trump_mask = JACKS
        for card in range(32):
            suit, rank = card >> 3, card & 7
            if trump_mask >> card & 1:
                pw[card] = 40 + suit if rank == 4 else 20 + _PLAIN_ORDER[rank]
                fm[card] = trump_mask
            else:
                pw[card] = rank if gt == GameType.NULL else _PLAIN_ORDER[rank]
                fm[card] = suit_mask(suit) & ~trump_mask
        power.append(pw)
        follow.append(fm)
        trumps.append(trump_mask)
    return power, follow, trumps


POWER, FOLLOW_MASK, TRUMP_MASK = _build_tables()
"""POWER[game][card]: trick strength (trumps >= 20); FOLLOW_MASK[game][card]: the cards that
follow a lead of that card; TRUMP_MASK[game]: the trumps of a game type."""

# The tables as C arrays (lists when the module runs as Python): FOLLOW_MASK and POWER flattened,
# ``_FOLLOW[32 * game_type + led card]``, and TRUMP_MASK.
_FOLLOW = cython.declare(cython.ulonglong[224])
_POWER = cython.declare(cython.int[224])
_TRUMPS = cython.declare(cython.ulonglong[7])
for _gt in range(7):
    _TRUMPS[_gt] = TRUMP_MASK[_gt]
    for _card in range(32):
        _FOLLOW[32 * _gt + _card] = FOLLOW_MASK[_gt][_card]
        _POWER[32 * _gt + _card] = POWER[_gt][_card]


@cython.ccall
def legal_mask(gt: cython.int, hand: cython.ulonglong, lead: cython.int) -> cython.ulonglong:
    """The follow-suit rule (docs/rules.md 1.3): the cards of ``hand`` that may be played to a trick
    led with card ``lead`` (-1 for an empty trick) in game type ``gt``: those that follow the led
    suit (a trump lead: the trumps), and any card when none does."""
    if lead < 0:
        return hand
    legal: cython.ulonglong = hand & _FOLLOW[32 * gt + lead]
    return legal if legal else hand


@cython.ccall
def winner_of(gt: cython.int, a: cython.int, b: cython.int, c: cython.int) -> cython.int:
    """The trick-winner rule (docs/rules.md 1.3): the index (0, 1 or 2, in play order) of the card
    that wins a trick led with ``a`` in game type ``gt``: the highest trump, else the highest card of
    the led suit. ``c`` is -1 in a trick of two cards (Officers' Skat), ``b`` and ``c`` are -1 in a
    trick of one card."""
    row: cython.int = 32 * gt
    follow: cython.ulonglong = _FOLLOW[row + a]
    follow |= _TRUMPS[gt]
    best: cython.int = 0
    best_power: cython.int = _POWER[row + a]
    if b >= 0 and (follow >> b) & 1 and _POWER[row + b] > best_power:
        best = 1
        best_power = _POWER[row + b]
    if c >= 0 and (follow >> c) & 1 and _POWER[row + c] > best_power:
        best = 2
    return best


# ------------------------------------------------------------- the auction
# The auction (docs/rules.md 2.2) as a packed state, one int: bits 0-1 the stage (1: middlehand
# bids to forehand, 2: rearhand bids to the survivor, 3: forehand alone may play at the lowest
# value, 0: over), bits 2-3 the bidder, 4-5 the listener, 6-8 the seats that passed (bit s: seat s),
# bit 9 whether the listener must answer a bid, 10-11 the seat that last named or held the value
# (3: none), and from bit 12 the rung: the place of the value on the ladder (1 its lowest value,
# 0 before any bid). The functions below say who moves, which moves are legal and what follows;
# they know the ladder only by the rungs, so the callers turn values into rungs.
_WAITING = cython.declare(cython.int, 1 << 9)
_NO_SEAT = cython.declare(cython.int, 3)


@cython.ccall
def auction_state(stage: cython.int, bidder: cython.int, listener: cython.int, passed: cython.int,
                  answering: cython.bint, highest: cython.int, rung: cython.int) -> cython.int:
    """The packed auction state of its parts: ``passed`` has bit s set when seat s passed,
    ``answering`` says that the listener must answer a bid, ``highest`` is the seat that last named
    or held the value (-1 for none) and ``rung`` the value's place on the ladder (0: no bid yet)."""
    if highest < 0:
        highest = _NO_SEAT
    return stage | bidder << 2 | listener << 4 | (passed & 7) << 6 | answering << 9 | highest << 10 | rung << 12


AUCTION_START: int = auction_state(1, 1, 0, 0, False, -1, 0)
"""The auction as it starts: middlehand bids to forehand, nobody has bid or passed."""


@cython.ccall
def auction_stage(state: cython.int) -> cython.int:
    """1: middlehand bids to forehand, 2: rearhand bids to the survivor, 3: forehand alone, 0: over."""
    return state & 3


@cython.ccall
def auction_bidder(state: cython.int) -> cython.int:
    """The seat that names values now."""
    return (state >> 2) & 3


@cython.ccall
def auction_listener(state: cython.int) -> cython.int:
    """The seat that holds or passes the values named."""
    return (state >> 4) & 3


@cython.ccall
def auction_passed(state: cython.int) -> cython.int:
    """The seats that passed, bit s for seat s."""
    return (state >> 6) & 7


@cython.ccall
def auction_answering(state: cython.int) -> cython.bint:
    """Whether the seat to move answers a bid (hold or pass) rather than bids."""
    return (state & 3) != 0 and (state >> 9) & 1 == 1


@cython.ccall
def auction_highest(state: cython.int) -> cython.int:
    """The seat that last named or held the value (the declarer once the auction is over), -1 for none."""
    seat: cython.int = (state >> 10) & 3
    return -1 if seat == _NO_SEAT else seat


@cython.ccall
def auction_rung(state: cython.int) -> cython.int:
    """The place of the auction's value on the ladder: 1 for its lowest value, 0 before any bid."""
    return state >> 12


@cython.ccall
def auction_to_move(state: cython.int) -> cython.int:
    """Who bids to whom (docs/rules.md 2.2): the seat to move, -1 when the auction is over. The
    listener answers a bid named to him, else the bidder bids; forehand alone may still play."""
    stage: cython.int = state & 3
    if stage == 0:
        return -1
    if stage == 3:
        return 0
    if (state >> 9) & 1:
        return (state >> 4) & 3
    return (state >> 2) & 3


@cython.ccall
def auction_first_bid(state: cython.int) -> cython.int:
    """The bid-legality rule (docs/rules.md 2.2): the rung of the lowest value the seat to move may
    name (0: he names none, he answers a bid or the auction is over). A bid must be higher than the
    value; forehand alone may only play at the lowest value. See :func:`auction_last_bid`."""
    stage: cython.int = state & 3
    if stage == 0 or (state >> 9) & 1:
        return 0
    if stage == 3:
        return 1
    return (state >> 12) + 1


@cython.ccall
def auction_last_bid(state: cython.int, rungs: cython.int) -> cython.int:
    """The rung of the highest value the seat to move may name on a ladder of ``rungs`` values
    (0: none; below :func:`auction_first_bid` when the value is the ladder's top)."""
    stage: cython.int = state & 3
    if stage == 0 or (state >> 9) & 1:
        return 0
    if stage == 3:
        return 1
    return rungs


@cython.ccall
def auction_hold(state: cython.int) -> cython.int:
    """The state after the listener holds the value named to him (docs/rules.md 2.2); -1 when
    there is no bid to answer."""
    if not auction_answering(state):
        return -1
    return (state & ~(_WAITING | _NO_SEAT << 10)) | ((state >> 4) & 3) << 10


@cython.ccall
def auction_pass(state: cython.int) -> cython.int:
    """The state after the seat to move passes, for good (docs/rules.md 2.2, 2.3): the survivor of
    middlehand and forehand hears rearhand's bids; the survivor of the last pair is the declarer at
    the value, and when nobody bid, forehand may still play at the lowest value; -1 when the auction
    is over."""
    stage: cython.int = state & 3
    if stage == 0:
        return -1
    seat: cython.int = auction_to_move(state)
    bidder: cython.int = (state >> 2) & 3
    listener: cython.int = (state >> 4) & 3
    passed: cython.int = ((state >> 6) & 7) | 1 << seat
    highest: cython.int = auction_highest(state)
    rung: cython.int = state >> 12
    survivor: cython.int = listener if seat == bidder else bidder
    if stage == 1:  # rearhand now bids to the survivor
        return auction_state(2, 2, survivor, passed, False, highest, rung)
    if stage == 2:
        if rung == 0:  # nobody bid: forehand may still play, unless he has passed
            if survivor == 0 and not passed & 1:
                return auction_state(3, bidder, listener, passed, False, highest, rung)
            return auction_state(0, bidder, listener, passed, False, -1, rung)
        return auction_state(0, bidder, listener, passed, False, survivor, rung)
    return auction_state(0, bidder, listener, passed, False, -1, rung)  # forehand passes too: all passed


@cython.ccall
def auction_bid(state: cython.int, rung: cython.int) -> cython.int:
    """The state after the seat to move names the value at ``rung`` of the ladder (docs/rules.md
    2.2): any value higher than the auction's, which the listener must answer; forehand alone may only
    play at the lowest value, and is the declarer. -1 when that bid is not allowed now (a value off
    the ladder has rung 0)."""
    stage: cython.int = state & 3
    if stage == 0 or (state >> 9) & 1 or rung < 1:
        return -1
    if stage == 3:
        if rung != 1:
            return -1
        return auction_state(0, (state >> 2) & 3, (state >> 4) & 3, (state >> 6) & 7, False, 0, 1)
    if rung <= state >> 12:
        return -1
    return (state & 0x1FF) | _WAITING | ((state >> 2) & 3) << 10 | rung << 12


# ---------------------------------------------------- matadors, levels, reach
SUIT_RUN_RANKS: tuple[int, ...] = (7, 3, 6, 5, 2, 1, 0)
"""The ranks of the trump suit in a suit game's run of matadors, below the four jacks: A T K Q 9 8 7."""


def _run_count(pattern: int, length: int) -> int:
    """Matadors of a pattern whose bit i says whether the i-th trump of the run is held."""
    holding = pattern & 1
    count = 0
    while count < length and (pattern >> count & 1) == holding:
        count += 1
    return count


def _best_hand_count(pattern: int, length: int) -> int:
    """The most matadors an unseen two-card skat can give a hand holding ``pattern``: it fills
    the two highest gaps of the run ("with"), or holds no trump of it ("without")."""
    gaps = [i for i in range(length) if not pattern >> i & 1]
    best_with = gaps[2] if len(gaps) > 2 else length
    if pattern & 1:
        return best_with
    return max(best_with, _run_count(pattern, length))


# a suit's run (jacks CJ SJ HJ DJ as bits 0-3, then the suit's A T K Q 9 8 7) -> matadors, and the most
# matadors of a ten-card hand once an unseen skat counts; grand's run is the four jacks
_RUN11 = cython.declare(tuple, tuple([_run_count(p, 11) for p in range(1 << 11)]))
_RUN4 = cython.declare(tuple, tuple([_run_count(p, 4) for p in range(1 << 4)]))
_BEST11 = cython.declare(tuple, tuple([_best_hand_count(p, 11) for p in range(1 << 11)]))
_BEST4 = cython.declare(tuple, tuple([_best_hand_count(p, 4) for p in range(1 << 4)]))
# a suit's byte (ranks 7..A as bits 0..7) -> its non-jack cards in run order A T K Q 9 8 7
_SUIT_RUN = cython.declare(tuple, tuple([sum(1 << i for i, r in enumerate(SUIT_RUN_RANKS) if b >> r & 1)
                                         for b in range(256)]))


@cython.cfunc
@cython.inline
def _jacks(mask: cython.ulonglong) -> cython.int:
    """The jacks of a mask as bits 0-3: clubs, spades, hearts, diamonds (the top of every matador run)."""
    return ((mask >> 28) & 1) | ((mask >> 19) & 2) | ((mask >> 10) & 4) | ((mask >> 1) & 8)


@cython.cfunc
@cython.inline
def _run_of(gt: cython.int, mask: cython.ulonglong) -> cython.int:
    """The run of matadors of game type ``gt`` as bits, bit i: its i-th trump is held (4 jacks, then
    in a suit game its A T K Q 9 8 7)."""
    run: cython.int = _jacks(mask)
    suit: cython.int
    if gt <= 3:
        suit = _SUIT_RUN[(mask >> (8 * gt)) & 255]
        run |= suit << 4
    return run


@cython.ccall
def matador_count(gt: cython.int, mask: cython.ulonglong) -> tuple:
    """The matador rule (docs/rules.md 4.1) on a game type number (suit, grand, Ramsch) and a mask:
    (with, count) of the unbroken run from the club jack held (with) or missing (without), over the
    jacks and in a suit game the trump suit's A T K Q 9 8 7. The one place of the rule:
    :func:`skat.rules.value.matadors`, the engines, the players and the scoring call it."""
    run: cython.int = _run_of(gt, mask)
    count: cython.int = _RUN11[run] if gt <= 3 else _RUN4[run]
    return (run & 1) == 1, count


@cython.ccall
def best_hand_matadors(gt: cython.int, hand: cython.ulonglong) -> cython.int:
    """The most matadors (docs/rules.md 3.3) a hand game of game type ``gt`` can have once the unseen
    skat is counted (``hand``: the ten known cards): the skat fills the two highest gaps of a run
    "with", or holds none of the trumps missing "without"."""
    run: cython.int = _run_of(gt, hand)
    return _BEST11[run] if gt <= 3 else _BEST4[run]


@cython.ccall
def multiplier(matadors: cython.int, hand: cython.bint = False, schneider: cython.bint = False,
               schneider_announced: cython.bint = False, schwarz: cython.bint = False,
               schwarz_announced: cython.bint = False, ouvert: cython.bint = False,
               announced_counts_made: cython.bint = True) -> cython.int:
    """The levels of a suit or grand game (docs/rules.md 4.2): the matadors, 1 for the game, and one
    each for hand, Schneider, Schneider announced, Schwarz, Schwarz announced and ouvert.

    In Skat a level announced counts as reached (a missed announcement loses the game at its full
    value); Tournee counts only the Schneider and Schwarz made (``announced_counts_made=False``,
    docs/rules.md 10.3) and passes no hand or ouvert level. The one place of the level arithmetic:
    :func:`skat.rules.value.evaluate`, :func:`reaches`, Tournee's and Officers' scoring and the
    players' value estimates call it."""
    if announced_counts_made:
        schneider = schneider or schneider_announced
        schwarz = schwarz or schwarz_announced
    return matadors + 1 + hand + schneider + schneider_announced + schwarz + schwarz_announced + ouvert


_BASES = cython.declare(cython.ulonglong, sum(GameType(gt).base_value << (8 * gt) for gt in range(5)))
"""The base values of diamonds ... grand (docs/rules.md 4.2), a byte each: ``_BASES >> 8 * gt & 255``."""
_OLD_GRAND_OUVERT = cython.declare(cython.int, 36)
_GRAND = cython.declare(cython.int, int(GameType.GRAND))


@cython.ccall
def base_value(gt: cython.int, ouvert: cython.bint, grand_ouvert_base36: cython.bint = False) -> cython.int:
    """The base value of a suit or grand game (docs/rules.md 4.2): 9, 10, 11, 12 and 24; the old
    Grand ouvert (rule option ``grand_ouvert_base36``, D4) has 36."""
    if grand_ouvert_base36 and ouvert and gt == _GRAND:
        return _OLD_GRAND_OUVERT
    return (_BASES >> (8 * gt)) & 255


@cython.ccall
def ouvert_level(gt: cython.int, ouvert: cython.bint, grand_ouvert_base36: cython.bint = False) -> cython.bint:
    """Whether an ouvert game counts a level for ouvert: every one but the old Grand ouvert of base 36."""
    return ouvert and not (grand_ouvert_base36 and gt == _GRAND)


# The declarations, in the order of the masks below (and of skat.deal._core's HAND_CONTRACTS and SKAT_CONTRACTS):
# a hand game's contract 4 * gt + k for suit or grand gt (k: 0 hand, 1 Schneider announced,
# 2 Schwarz announced, 3 ouvert), 20 Null hand, 21 Null ouvert hand; after picking up the skat gt
# for suit or grand, 5 Null, 6 Null ouvert.
HAND_DECLARATIONS: int = (1 << 22) - 1
"""The mask of every hand game's contract."""
SKAT_DECLARATIONS: int = (1 << 7) - 1
"""The mask of every contract after picking up the skat."""
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
"""Null's fixed values (docs/rules.md 4.2) by (hand, ouvert); :mod:`skat.rules.contract` re-exports them."""
# the same, a byte each by hand + 2 * ouvert
_NULL_VALUES = cython.declare(cython.ulonglong, sum(
    NULL_VALUES[(bool(i & 1), bool(i & 2))] << (8 * i) for i in range(4)))


@cython.ccall
def reaches(hand_game: cython.bint, index: cython.int, matadors: cython.int, bid: cython.int,
            grand_ouvert_base36: cython.bint = False) -> cython.bint:
    """Whether a declaration can still reach the bid (docs/rules.md 3.3): the contract at ``index``
    (see above) of a hand game or a game after picking up the skat, with ``matadors`` the most the
    declarer can count. A Null game by its fixed value; a suit or grand game by its base value times
    the most levels it can reach: game, Schneider and Schwarz by play, plus hand and each announcement."""
    gt: cython.int
    k: cython.int
    base: cython.int
    null: cython.int
    if hand_game:
        if index >= 20:
            null = (_NULL_VALUES >> (8 * (2 * index - 39))) & 255  # 35 hand, 59 ouvert hand
            return null >= bid
        gt = index >> 2
        k = index & 3
        base = base_value(gt, k == 3, grand_ouvert_base36)
        return multiplier(matadors, True, True, k >= 1, True, k >= 2, ouvert_level(gt, k == 3, grand_ouvert_base36),
                          True) * base >= bid
    if index >= 5:
        null = (_NULL_VALUES >> (8 * (2 * index - 10))) & 255  # 23, 46 ouvert
        return null >= bid
    base = (_BASES >> (8 * index)) & 255
    return multiplier(matadors, False, True, False, True, False, False, True) * base >= bid


@cython.ccall
def known_matadors(hand_game: cython.bint, known: cython.ulonglong) -> cython.int:
    """The most matadors the declarer can count in each suit and grand, 4 bits each (diamonds in
    bits 0-3 ... grand in 16-19): over his twelve cards (``known``: his hand and the two he put away),
    or in a hand game (``known``: his ten cards) the most any unseen skat can give (docs/rules.md 3.3)."""
    packed: cython.int = 0
    gt: cython.int
    for gt in range(5):
        if hand_game:
            packed |= best_hand_matadors(gt, known) << (4 * gt)
        else:
            packed |= (_RUN11[_run_of(gt, known)] if gt <= 3 else _RUN4[_run_of(gt, known)]) << (4 * gt)
    return packed


@cython.ccall
def reach_mask(hand_game: cython.bint, bid: cython.int, matadors: cython.int, grand_ouvert_base36: cython.bint,
               among: cython.int) -> cython.int:
    """The contracts of ``among`` (a mask, see above) that can reach the bid with ``matadors`` (4 bits
    a suit or grand, as :func:`known_matadors` packs them), as a mask. When after picking up the skat
    none can any more, each of them may be declared, and is lost overbid (docs/rules.md 3.3, 4.4);
    a hand game is then not offered (the declarer picks up the skat)."""
    found: cython.int = 0
    i: cython.int
    gt: cython.int
    m: cython.int
    n: cython.int = 22 if hand_game else 7
    for i in range(n):
        if (among >> i) & 1:
            gt = i >> 2 if hand_game else i
            m = (matadors >> (4 * gt)) & 15 if gt < 5 else 0
            if reaches(hand_game, i, m, bid, grand_ouvert_base36):
                found |= 1 << i
    if not found and not hand_game:
        return among
    return found


@cython.ccall
def declarable_mask(hand_game: cython.bint, bid: cython.int, known: cython.ulonglong,
                    grand_ouvert_base36: cython.bint) -> cython.int:
    """Standard Skat's declarable contracts (docs/rules.md 3.3) as a mask (see above): those that can
    reach the bid with the matadors of :func:`known_matadors`, or after picking up the skat, when
    none can, every one. The one place of the rule: the compiled core and
    :func:`skat.rules.value.declarable` call it."""
    return reach_mask(hand_game, bid, known_matadors(hand_game, known), grand_ouvert_base36,
                      HAND_DECLARATIONS if hand_game else SKAT_DECLARATIONS)
