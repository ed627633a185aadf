"""The rules of the card play on card masks, compiled by Cython like the engine's core: following
suit (:func:`legal_mask`) and the trick winner (:func:`winner_of`), with the ranking tables they
read.

Each rule exists once, here. :mod:`skat.rules.ranking` re-exports them for everybody (engines,
players, solver, analysis); the compiled core (:mod:`skat.deal._core`) calls them through C
(``kernel.pxd``), so its hot path costs no Python call. Like ``_core.py`` this is plain Python that
``setup.py`` compiles when a C compiler is there; uncompiled it behaves alike
(``tests/test_engine_speed_equivalence.py``, ``tests/test_rules_consistency.py``).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # running uncompiled without Cython installed
    from skat import _cython_shim as cython

from skat.cards import JACKS, suit_mask
from skat.enums import GameType

__all__ = ["POWER", "FOLLOW_MASK", "TRUMP_MASK", "legal_mask", "winner_of", "COMPILED"]

COMPILED: bool = cython.compiled
"""Whether this module runs compiled by Cython."""

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

_FOLLOW = cython.declare(tuple, tuple(m for row in FOLLOW_MASK for m in row))
"""FOLLOW_MASK flattened: ``_FOLLOW[32 * game_type + led card]``."""
_POWER = cython.declare(tuple, tuple(p for row in POWER for p in row))
_TRUMPS = cython.declare(tuple, tuple(TRUMP_MASK))


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
