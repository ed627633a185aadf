"""The compiled solver kernels (skat.solver.kernels built by Cython) search exactly like the same module run
as plain Python: the same answers, the same node counts and the same transposition table afterwards.

The plain module is ``kernels.py`` loaded a second time under another name, so both run side by side in
this process; the positions are endgames of 3 to 6 tricks (often in the middle of a trick), which plain
Python searches in a fraction of a second. With ``SKAT_PURE_PYTHON=1`` both are plain Python and the comparison is
trivial; tests/test_solver.py checks the answers against brute-force minimax either way.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from skat.cards import iter_mask, mask_points
from skat.deal.game import deal
from skat.solver import Position
from skat.solver import search as S

K = S.K  # what the solver runs: the compiled build (or, with SKAT_PURE_PYTHON=1, the source)


def _plain_kernels() -> ModuleType:
    spec = importlib.util.spec_from_file_location("skat_solver_kernels_plain", Path(S.__file__).with_name("kernels.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PLAIN = _plain_kernels()


def _endgame(rng: random.Random, game_type: int) -> Position:
    """A position reached by random legal play from a seeded deal, with 3..6 tricks left."""
    while True:
        hands, skat = deal(rng.randrange(1 << 30))
        declarer = rng.randrange(3)
        pos = Position(game_type, declarer, (hands[0], hands[1], hands[2]), (), 0, mask_points(skat), 0, 0, 0)
        in_hands = 3 * rng.randint(3, 6) - rng.randrange(3)  # the cards still to play; 0..2 more in the trick
        try:
            while sum(h.bit_count() for h in pos.hands) > in_hands:
                pos = pos.play(rng.choice(list(iter_mask(pos.legal_cards().mask))))
        except ValueError:  # the null declarer took a trick on the way: deal again
            continue
        return pos


ENDGAMES = [_endgame(random.Random(1000 + i), (0, 1, 2, 3, 4, 5, 4)[i % 7]) for i in range(21)]


def _next(module: ModuleType, ctx: tuple[np.ndarray, ...], node_limit: int | None = None) -> tuple[np.ndarray, ...]:
    """What search.py's context does before a call: a new table generation, the counters reset."""
    P = ctx[0]
    P[module.P_GEN] += 1
    P[module.P_NODES] = 0
    P[module.P_ABORT] = 0
    P[module.P_LIMIT] = module.NO_LIMIT if node_limit is None else node_limit
    P[module.P_DEADLINE] = 0
    return ctx


def _session(module: ModuleType, pos: Position, seed: int) -> list:
    """Every entry point on one position, in one context (so the table carries over between calls):
    what each returns, the nodes it visited, and at the end the whole context."""
    rng = random.Random(seed)
    ctx = module.new_context(14)
    gt = int(pos.game_type)
    n = len(pos.trick)
    c0, c1 = ([int(c) for c in pos.trick] + [-1, -1])[:2]
    h0, h1, h2 = pos.hands
    left = (h0.bit_count() + h1.bit_count() + h2.bit_count() + n) // 3
    seen: list = []

    def note(value: object) -> None:
        seen.append((value.tolist() if isinstance(value, np.ndarray) else int(value), int(ctx[0][module.P_NODES]),
                     int(ctx[0][module.P_ABORT])))

    out = np.empty(32, np.int64)
    if gt == 5:  # null: does the declarer take no trick
        note(module.rest_test(gt, pos.declarer, module.MODE_NULL, h0, h1, h2, pos.leader, n, c0, c1, left,
                              *_next(module, ctx)))
        module.move_values(gt, pos.declarer, module.MODE_NULL, h0, h1, h2, pos.leader, n, c0, c1, left, out,
                           *_next(module, ctx))
        note(out)
    else:
        note(module.solve_rest(gt, pos.declarer, module.MODE_POINTS, h0, h1, h2, pos.leader, n, c0, c1, -1,
                               *_next(module, ctx)))
        exact = seen[-1][0]
        for target in (exact, exact + 1, 61 - pos.declarer_points):
            note(module.rest_test(gt, pos.declarer, module.MODE_POINTS, h0, h1, h2, pos.leader, n, c0, c1, target,
                                  *_next(module, ctx)))
        for target in (-1, exact):
            module.move_values(gt, pos.declarer, module.MODE_POINTS, h0, h1, h2, pos.leader, n, c0, c1, target, out,
                               *_next(module, ctx))
            note(out)
        module.move_values(gt, pos.declarer, module.MODE_TRICKS, h0, h1, h2, pos.leader, n, c0, c1, left, out,
                           *_next(module, ctx))
        note(out)
        if gt == 4:  # the same cards as a Ramsch, for the seat to move
            mover = (pos.leader + n) % 3
            module.move_values(6, mover, module.MODE_RAMSCH, h0, h1, h2, pos.leader, n, c0, c1, -1, out,
                               *_next(module, ctx))
            note(out)
            ctx[0][module.P_SKAT] = 11  # the skat's points, which go with the last trick
            module.move_values(6, mover, module.MODE_RAMSCH, h0, h1, h2, pos.leader, n, c0, c1, -1, out,
                               *_next(module, ctx))
            note(out)
        note(module.solve_rest(gt, pos.declarer, module.MODE_POINTS, h0, h1, h2, pos.leader, n, c0, c1, exact // 2,
                               *_next(module, ctx)))
        # a search stopped by its node limit stops at the same node
        note(module.solve_rest(gt, pos.declarer, module.MODE_POINTS, h0, h1, h2, pos.leader, n, c0, c1, -1,
                               *_next(module, ctx, node_limit=max(1, seen[0][1] // 3))))
        # the search itself, under many windows
        module._setup(gt, pos.declarer, module.MODE_POINTS, ctx[0])
        layout = [int(module.to_layout(gt, h)) for h in pos.hands]
        trick = [int(module.C2L[gt, c]) for c in pos.trick] + [-1, -1]
        for _ in range(6):
            alpha = rng.randint(-1, 60)
            note(module.search(*layout, pos.leader, n, trick[0], trick[1], alpha, alpha + rng.randint(1, 60),
                               *_next(module, ctx)))
    points, tricks = np.empty(300, np.int64), np.empty(300, np.int64)
    note(module.random_playouts(gt, pos.declarer, h0, h1, h2, pos.leader, n, c0, c1, 300, seed, points, tricks))
    note(points)
    note(tricks)
    seen.append([hash(a.tobytes()) for a in ctx])  # the table, the move buffers, the stack
    return seen


def test_the_kernels_are_compiled_unless_pure_python_was_asked_for():
    import os

    from skat.deal.game import COMPILED

    assert K.COMPILED == COMPILED or os.environ.get("SKAT_PURE_PYTHON")
    assert not PLAIN.COMPILED


def test_the_compiled_constants_are_the_plain_ones():
    """kernels.pxd gives the compiled module its constants; kernels.py repeats them for plain Python."""
    c_only = {"HASH_MUL", "LCG_MUL", "LCG_ADD", "MASK64", "COMPILED"}  # C macros, used inside the kernels only
    names = [name for name in dir(PLAIN) if name.isupper() and isinstance(getattr(PLAIN, name), int)
             and name not in c_only]
    assert {"P_GEN", "F_SIZE", "MODE_NULL", "TT_BITS", "MB_SIZE", "NO_LIMIT"} <= set(names)
    assert {name: getattr(K, name) for name in names} == {name: getattr(PLAIN, name) for name in names}
    assert K._CLOCK_EVERY == PLAIN._CLOCK_EVERY and K._N_GAMES == PLAIN._N_GAMES
    for table in ("L2C", "C2L", "GRP", "GRANK", "GMASK", "LPTS", "TRUMP_GROUP", "POINT_MASKS", "JACK_MASKS"):
        assert np.array_equal(getattr(K, table), getattr(PLAIN, table)), table


@pytest.mark.parametrize("index", range(len(ENDGAMES)))
def test_compiled_and_plain_python_search_alike(index: int):
    pos = ENDGAMES[index]
    compiled = _session(K, pos, index)
    assert compiled == _session(PLAIN, pos, index), pos.to_json()
    assert sum(nodes for _, nodes, _ in compiled[:-1]) > 0


def test_the_small_kernels_agree_on_random_masks():
    rng = random.Random(3)
    for _ in range(300):
        gt = rng.randrange(7)
        mask = rng.getrandbits(32)
        for module in (K, PLAIN):
            assert module.from_layout(gt, module.to_layout(gt, mask)) == mask
        assert K.to_layout(gt, mask) == PLAIN.to_layout(gt, mask)
        hand, lead, w = rng.getrandbits(32) or 1, rng.randrange(32), rng.randrange(32)
        assert K.best_beater(gt, hand, lead, w) == PLAIN.best_beater(gt, hand, lead, w)
        n = rng.randrange(3)
        assert K.legal_layout(gt, hand, n, lead) == PLAIN.legal_layout(gt, hand, n, lead)
        hands = [rng.getrandbits(32) for _ in range(3)]
        hands = [hands[0], hands[1] & ~hands[0], hands[2] & ~hands[0] & ~hands[1]]
        rem = hands[0] | hands[1] | hands[2]
        for mode in (K.MODE_POINTS, K.MODE_TRICKS):
            decl = rng.randrange(3)
            assert K._rest_bounds(gt, mode, decl, *hands, rem) == PLAIN._rest_bounds(gt, mode, decl, *hands, rem)
        skat = rng.randrange(23)
        assert K._rest_bounds(6, K.MODE_RAMSCH, 0, *hands, rem, skat) == PLAIN._rest_bounds(
            6, K.MODE_RAMSCH, 0, *hands, rem, skat) == (0, PLAIN.layout_points(6, rem) + skat)
