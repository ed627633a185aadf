"""The hot loop of :func:`skat.players.worlds.sample_worlds`: deal one world's hidden cards place by place (the
three hands and the skat), never into a dead end (Hall's condition on the four places).

This is plain Python that Cython compiles (pure-Python mode) when the package is installed, see ``setup.py``;
uncompiled it deals the same worlds, only slower. A choice among several places draws one ``rng.random()`` and
picks as :meth:`random.Random.choices` does with those weights, so a seed deals the same worlds either way and as
the dealing did before it was compiled (``tests/test_players_worlds.py`` compares them).
"""

from __future__ import annotations

import random

try:
    import cython
except ImportError:  # running uncompiled without Cython installed
    import skat._cython_shim as cython

__all__ = ["deal_hidden", "COMPILED"]

COMPILED: bool = cython.compiled
"""Whether this module runs compiled (else as plain Python: the same worlds, about eight times slower)."""

i64 = cython.typedef(cython.longlong)


def deal_hidden(known: tuple[int, int, int, int], order: list[int], allowed: list[int], free: list[int],
                one_pattern: bool, rng: random.Random) -> tuple[int, int, int, int]:
    """The four places' cards (hands 0-2, the skat) after dealing the cards of ``order`` one by one into
    ``known``: card ``c`` may go to the places of the bit set ``allowed[c]`` (bit 0-3), place ``p`` takes
    ``free[p]`` more cards. A card goes to a place that leaves every set of places room for the cards that may
    only go there (unless ``one_pattern``: all cards may go to the same places), chosen with a chance in proportion
    to the room the place has left. ValueError when no place is left (the knowledge contradicts itself)."""
    places = cython.declare(i64[4])
    left = cython.declare(cython.int[4])
    need = cython.declare(cython.int[16])
    options = cython.declare(cython.int[4])
    cum = cython.declare(cython.int[4])
    p: cython.int
    s: cython.int
    q: cython.int
    b: cython.int
    c: cython.int
    m: cython.int
    j: cython.int
    room: cython.int
    fits: cython.bint
    r: cython.double
    draw = rng.random
    for p in range(4):
        places[p] = known[p]
        left[p] = free[p]
    for s in range(16):
        need[s] = 0
    for c in order:  # need[s]: the undealt cards that may only go into the places of s
        b = allowed[c]
        for s in range(1, 16):
            if b & ~s == 0:
                need[s] += 1
    for c in order:
        b = allowed[c]
        for s in range(1, 16):
            if b & ~s == 0:
                need[s] -= 1
        m = 0
        for p in range(4):
            if not (b >> p & 1) or left[p] <= 0:
                continue
            left[p] -= 1
            fits = True
            if not one_pattern:
                for s in range(1, 16):
                    room = 0
                    for q in range(4):
                        if s >> q & 1:
                            room += left[q]
                    if need[s] > room:
                        fits = False
                        break
            if fits:
                options[m] = p
                cum[m] = left[p] + 1 + (cum[m - 1] if m else 0)
                m += 1
            left[p] += 1
        if m == 0:
            raise ValueError("no consistent world: the seat's knowledge contradicts itself")
        p = options[0]
        if m > 1:  # as random.Random.choices: bisect_right of random() * total in the running sums
            r = draw() * cum[m - 1]
            j = 0
            while j < m - 1 and cum[j] <= r:
                j += 1
            p = options[j]
        left[p] -= 1
        places[p] |= cython.cast(i64, 1) << c
    return (places[0], places[1], places[2], places[3])
