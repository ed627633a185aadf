"""The double-dummy solver against brute-force minimax and the pure-Python reference.

Endgames come from seeded deals played at random down to 1..4 tricks (often stopping in the middle
of a trick); the compiled solver must give exactly what full minimax gives, for the declarer's
card points, the value of each legal card, the 61/90 questions, all tricks and null.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from skat.cards import Card, iter_mask, mask_points
from skat.deal.game import deal
from skat.rules.ranking import legal_mask, winner_index
from skat.solver import (
    Position,
    declarer_reaches,
    declarer_takes_all,
    move_values,
    null_declarer_wins,
    random_playouts,
    solve,
    solve_points,
)
from skat.solver import reference as ref


def random_endgame(rng: random.Random, game_type: int, max_tricks: int = 4) -> Position:
    """A position reached by random legal play from a seeded deal, with 1..max_tricks tricks left."""
    while True:
        hands, skat = deal(rng.randrange(1 << 30))
        declarer = rng.randrange(3)
        pos = Position(game_type, declarer, (hands[0], hands[1], hands[2]), (), 0, mask_points(skat), 0, 0, 0)
        cards_left = 3 * rng.randint(1, max_tricks) - rng.randrange(3)
        try:
            while sum(h.bit_count() for h in pos.hands) + len(pos.trick) > cards_left:
                pos = pos.play(rng.choice(list(iter_mask(pos.legal_cards().mask))))
        except ValueError:  # the null declarer took a trick on the way: deal again
            continue
        return pos


def _endgames(game_types: tuple[int, ...], count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    return [random_endgame(rng, game_types[i % len(game_types)]) for i in range(count)]


SUIT_AND_GRAND = _endgames((0, 1, 2, 3, 4), 200, seed=2026)
NULL_ENDGAMES = _endgames((5,), 60, seed=5)


def _args(pos: Position) -> tuple:
    return (int(pos.game_type), pos.hands, pos.trick, pos.leader, pos.declarer)


@pytest.mark.parametrize("chunk", range(10))
def test_card_points_equal_brute_force_minimax(chunk: int) -> None:
    for pos in SUIT_AND_GRAND[chunk::10]:
        expected_moves = ref.brute_force_move_points(pos)
        mover_is_declarer = pos.to_move == pos.declarer
        expected = max(expected_moves.values()) if mover_is_declarer else min(expected_moves.values())
        assert solve_points(*_args(pos), pos.declarer_points) == expected, pos.to_json()
        got_moves = move_values(*_args(pos), declarer_points=pos.declarer_points)
        assert {int(c): v for c, v in got_moves.items()} == expected_moves, pos.to_json()
        for target in sorted({61, 90, 120, expected, expected + 1, pos.declarer_points + 1}):
            assert declarer_reaches(*_args(pos), target, pos.declarer_points) == (expected >= target), (
                pos.to_json(), target)


@pytest.mark.parametrize("chunk", range(4))
def test_all_tricks_equal_brute_force_minimax(chunk: int) -> None:
    for pos in SUIT_AND_GRAND[chunk::4]:
        expected = ref.brute_force_all_tricks(pos)
        assert declarer_takes_all(*_args(pos), pos.defender_tricks) == expected, pos.to_json()


RAMSCH_ENDGAMES = _endgames((4,), 40, seed=6)  # grand's tricks, as a Ramsch's


def test_ramsch_card_values_equal_brute_force_minimax() -> None:
    """The "ramsch" question: the points the other two take after each card, the mover giving them the most."""
    for pos in RAMSCH_ENDGAMES:
        expected = ref.brute_force_ramsch_moves(pos)
        got = move_values(6, pos.hands, pos.trick, pos.leader, pos.to_move, question="ramsch")
        assert {int(c): v for c, v in got.items()} == expected, pos.to_json()
    other = RAMSCH_ENDGAMES[0]
    with pytest.raises(ValueError, match="seat to move"):
        move_values(6, other.hands, other.trick, other.leader, (other.to_move + 1) % 3, question="ramsch")


def test_the_ramsch_skat_goes_with_the_last_trick() -> None:
    """With ``skat_points`` the skat's points count for whoever takes the last trick, as in a Ramsch."""
    changed = 0
    other = RAMSCH_ENDGAMES[0]
    for i, pos in enumerate(RAMSCH_ENDGAMES):
        in_play = pos.hands[0] | pos.hands[1] | pos.hands[2] | sum(1 << c for c in pos.trick)
        skat = (3, 10, 21)[i % 3]
        if skat > 120 - mask_points(in_play):
            continue
        expected = ref.brute_force_ramsch_moves(pos, skat)
        got = move_values(6, pos.hands, pos.trick, pos.leader, pos.to_move, question="ramsch", skat_points=skat)
        assert {int(c): v for c, v in got.items()} == expected, (pos.to_json(), skat)
        changed += expected != ref.brute_force_ramsch_moves(pos)
    assert changed >= len(RAMSCH_ENDGAMES) // 2  # the skat decides which card is best or what it is worth
    with pytest.raises(ValueError, match="Ramsch only"):
        move_values(6, other.hands, other.trick, other.leader, other.to_move, skat_points=10)
    with pytest.raises(ValueError, match="skat holds 0 to"):
        move_values(6, other.hands, other.trick, other.leader, other.to_move, question="ramsch", skat_points=121)


def test_null_equals_brute_force_minimax() -> None:
    for pos in NULL_ENDGAMES:
        expected_moves = ref.brute_force_null_moves(pos)
        expected = ref.brute_force_null(pos)
        assert null_declarer_wins(pos.hands, pos.trick, pos.leader, pos.declarer) == expected, pos.to_json()
        result = solve(pos)
        assert result.declarer_wins == expected
        assert {int(m.card): m.declarer_wins for m in result.moves} == expected_moves, pos.to_json()


def test_null_winning_last_trick_counts() -> None:
    # the declarer's last card must lose the trick: the deal ends there, so solve it directly
    pos = Position("null", 0, (1 << Card.D7, 1 << Card.D8, 1 << Card.H7), (), 0, 0, 0, 0, 9)
    assert null_declarer_wins(pos.hands, pos.trick, pos.leader, pos.declarer)
    pos = Position("null", 0, (1 << Card.DA, 1 << Card.D8, 1 << Card.H7), (), 0, 0, 0, 0, 9)
    assert not null_declarer_wins(pos.hands, pos.trick, pos.leader, pos.declarer)


def test_full_deals_equal_the_reference() -> None:
    """Whole deals (ten tricks) and deals after three tricks: compiled == pure-Python reference."""
    for seed, gt, declarer in ((11, 4, 0), (23, 3, 1)):
        hands, skat = deal(seed)
        pos = Position(gt, declarer, (hands[0], hands[1], hands[2]), (), 0, mask_points(skat), 0, 0, 0)
        assert declarer_reaches(*_args(pos), 61, pos.declarer_points) == ref.reference_reaches(pos, 61)
    rng = random.Random(77)
    for i in range(4):
        pos = random_endgame(rng, (3, 4, 0, 2)[i], max_tricks=7)
        while pos.tricks_left < 6:
            pos = random_endgame(rng, (3, 4, 0, 2)[i], max_tricks=7)
        assert solve_points(*_args(pos), pos.declarer_points) == ref.reference_points(pos), pos.to_json()


def test_solve_gives_a_value_for_every_legal_card() -> None:
    pos = SUIT_AND_GRAND[3]
    result = solve(pos)
    legal = pos.legal_cards()
    assert [m.card for m in result.moves] == list(legal)
    values = [m.declarer_points for m in result.moves]
    assert result.declarer_points == (max(values) if pos.to_move == pos.declarer else min(values))
    won = solve(pos, target=61)
    assert won.declarer_wins == (result.declarer_points >= 61)
    assert [m.declarer_wins for m in won.moves] == [v >= 61 for v in values]


def test_equivalent_cards_share_their_value() -> None:
    # the declarer holds CJ and SJ (adjacent trumps, same points): both leads are worth the same
    hands = (Card.CJ.bit | Card.SJ.bit | Card.HA.bit, Card.HJ.bit | Card.H7.bit | Card.C7.bit,
             Card.DJ.bit | Card.H8.bit | Card.C8.bit)
    pts = 120 - mask_points(hands[0] | hands[1] | hands[2])
    pos = Position("clubs", 0, hands, (), 0, pts, 0, 7, 0)
    values = move_values(*_args(pos), declarer_points=pos.declarer_points)
    assert values[Card.CJ] == values[Card.SJ] == ref.brute_force_move_points(pos)[Card.CJ]


def _all_line_values(pos: Position) -> set[tuple[int, int]]:
    """(declarer points, declarer tricks) from the current trick on, for every line of play."""
    out: set[tuple[int, int]] = set()

    def walk(hands, trick, leader, pts, tricks):
        seat = (leader + len(trick)) % 3
        if not trick and not any(hands):
            out.add((pts, tricks))
            return
        lead = trick[0] if trick else -1
        for c in iter_mask(legal_mask(pos.game_type, hands[seat], lead)):
            h = list(hands)
            h[seat] &= ~(1 << c)
            t = trick + (c,)
            if len(t) == 3:
                w = (leader + winner_index(pos.game_type, t)) % 3
                won = w == pos.declarer
                walk(h, (), w, pts + (mask_points((1 << t[0]) | (1 << t[1]) | (1 << t[2])) if won else 0),
                     tricks + won)
            else:
                walk(h, t, leader, pts, tricks)

    walk(list(pos.hands), pos.trick, pos.leader, 0, 0)
    return out


def test_random_playouts_follow_the_rules() -> None:
    rng = random.Random(9)
    for gt in (0, 4, 5):
        pos = random_endgame(rng, gt, max_tricks=2)
        pts, tricks = random_playouts(*_args(pos), 3000, seed=gt)
        assert set(zip(pts.tolist(), tricks.tolist(), strict=True)) == _all_line_values(pos)
    hands, skat = deal(1)
    pts, tricks = random_playouts(4, hands, (), 0, 0, 5000, seed=1)
    assert pts.min() >= 0 and pts.max() <= 120 - mask_points(skat)
    assert np.all((tricks >= 0) & (tricks <= 10))
    assert len(set(pts.tolist())) > 20  # the playouts differ from each other
    again, _ = random_playouts(4, hands, (), 0, 0, 5000, seed=1)
    assert np.array_equal(pts, again)


def test_search_bounds_hold_for_any_window() -> None:
    """Fail-soft alpha-beta with a shared transposition table: r <= alpha bounds the value from above,
    r >= beta from below, anything between is exact; many windows on one deal, one table."""
    from skat.solver import kernels as K
    from skat.solver import search as S

    rng = random.Random(7)
    for _ in range(120):
        pos = random_endgame(rng, rng.randrange(5))
        true = ref.brute_force_points(pos) - pos.declarer_points
        gt = int(pos.game_type)
        ctx = S._ctx.next()
        K._setup(gt, pos.declarer, K.MODE_POINTS, ctx[0])
        hands = [K.to_layout(gt, h) for h in pos.hands]
        trick = [int(K.C2L[gt, c]) for c in pos.trick] + [-1, -1]
        for _ in range(10):
            alpha = rng.randint(-1, 60)
            beta = alpha + rng.randint(1, 60)
            r = K.search(*hands, pos.leader, len(pos.trick), trick[0], trick[1], alpha, beta, *ctx)
            assert (r <= alpha and true <= r) or (r >= beta and true >= r) or (alpha < r < beta and r == true), (
                pos.to_json(), alpha, beta, r, true)


# --------------------------------------------------------------------------- work limits
def _hard_full_deal() -> Position:
    """A full grand deal whose exact card points take the solver hundreds of thousands of nodes."""
    hands, skat = deal(11)
    return Position(4, 0, (hands[0], hands[1], hands[2]), (), 0, mask_points(skat), 0, 0, 0)


def test_node_limit_stops_a_hard_search_and_no_limit_keeps_the_answer() -> None:
    from skat.solver import SearchLimitExceeded, last_node_count

    pos = _hard_full_deal()
    exact = solve_points(*_args(pos), pos.declarer_points)
    needed = last_node_count()
    assert needed > 5000
    calls = [
        lambda **kw: solve_points(*_args(pos), pos.declarer_points, **kw),
        lambda **kw: move_values(*_args(pos), declarer_points=pos.declarer_points, **kw),
        lambda **kw: declarer_reaches(*_args(pos), exact + 1, pos.declarer_points, **kw),
        lambda **kw: solve(pos, **kw),
    ]
    for call in calls:
        with pytest.raises(SearchLimitExceeded) as info:
            call(node_limit=20)
        assert 20 < info.value.nodes <= 20 + 1000 and info.value.node_limit == 20  # looked at on trick starts
        assert "node_limit=20" in str(info.value)
    # a limit the search stays under changes nothing, and the next call without a limit works as before
    assert solve_points(*_args(pos), pos.declarer_points, node_limit=needed) == exact
    assert last_node_count() == needed
    assert solve_points(*_args(pos), pos.declarer_points) == exact
    assert move_values(*_args(pos), declarer_points=pos.declarer_points, node_limit=10 * needed + 10**6) == \
        move_values(*_args(pos), declarer_points=pos.declarer_points)


def test_all_tricks_search_stops_at_the_node_limit() -> None:
    from skat.solver import SearchLimitExceeded, last_node_count

    hands, _ = deal(224)  # a grand for forehand whose all-tricks question takes a few thousand nodes
    args = (4, (hands[0], hands[1], hands[2]), (), 0, 0)
    expected = declarer_takes_all(*args)
    assert last_node_count() > 2000
    with pytest.raises(SearchLimitExceeded):
        declarer_takes_all(*args, node_limit=20)
    assert declarer_takes_all(*args, node_limit=10**6) == expected


def test_null_search_stops_at_the_node_limit() -> None:
    from skat.solver import SearchLimitExceeded

    hands, _ = deal(3)
    pos = Position("null", 1, (hands[0], hands[1], hands[2]), (), 0, 0, 0, 0, 0)
    expected = null_declarer_wins(pos.hands, (), 0, 1)
    with pytest.raises(SearchLimitExceeded):
        null_declarer_wins(pos.hands, (), 0, 1, node_limit=3)
    assert null_declarer_wins(pos.hands, (), 0, 1, node_limit=np.int64(10**9), time_limit=np.float64(60)) == expected


def test_time_limit_stops_a_hard_search() -> None:
    """A search past its time limit raises, never before the limit and within a few thousand nodes of it: the
    clock is looked at every ``_CLOCK_EVERY`` nodes (on trick starts). Counted in nodes, so a busy machine
    cannot fail it; how late in milliseconds is a figure of bench/solver.py."""
    from skat.solver import SearchLimitExceeded, last_node_count
    from skat.solver import kernels as K

    pos = _hard_full_deal()
    searches = [lambda **kw: move_values(*_args(pos), declarer_points=pos.declarer_points, **kw),
                lambda **kw: solve_points(*_args(pos), pos.declarer_points, **kw)]
    for search in searches:
        exact = search()  # the thread's table made here, not in a timed call; and the nodes the whole search takes
        needed = last_node_count()
        assert needed > 20 * K._CLOCK_EVERY
        with pytest.raises(SearchLimitExceeded) as info:
            search(time_limit=0.002)
        assert info.value.time_limit == 0.002 and info.value.seconds >= 0.002  # not stopped before its limit
        assert "time_limit=0.002s" in str(info.value) and info.value.nodes < needed
        # a limit already past at the first look at the clock: the search stops there, not at its end
        with pytest.raises(SearchLimitExceeded) as info:
            search(time_limit=1e-9)
        assert 0 < info.value.nodes <= 3 * K._CLOCK_EVERY <= 20_000, info.value.nodes
        assert search(time_limit=60.0) == exact  # a limit the search stays under changes nothing


def test_every_kernel_a_search_calls_releases_the_gil() -> None:
    """The mechanism behind :func:`test_a_search_lets_other_threads_run`: each kernel that ``search.py``
    calls with the context's arrays runs its search in a ``with cython.nogil:`` block, on C functions
    declared ``nogil`` (Cython refuses to compile a nogil block that calls anything else)."""
    import ast
    import re
    from pathlib import Path

    import skat.solver.search as search

    source = Path(search.__file__).with_name("kernels.py")
    tree = ast.parse(source.read_text())
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    called = sorted(set(re.findall(r"\bK\.([a-z_]+)\(", Path(search.__file__).read_text())))
    assert {"solve_rest", "rest_test", "move_values", "random_playouts"} <= set(called)

    def releases(node: ast.FunctionDef) -> bool:
        return any(isinstance(w, ast.With) and any(ast.unparse(item.context_expr) == "cython.nogil" for item in w.items)
                   for w in ast.walk(node))

    def nogil(name: str) -> bool:
        return any(ast.unparse(d) == "cython.nogil" for d in functions[name].decorator_list)

    kernels = [name for name in called if "P" in [a.arg for a in functions[name].args.args]]  # the searches
    assert [name for name in kernels if not releases(functions[name])] == []
    assert [name for name in ("_search", "_solve_rest", "_rest_test", "_move_values", "_random_playouts")
            if not nogil(name)] == []


def test_a_search_lets_other_threads_run() -> None:
    """The kernels release the GIL: a thread keeps going while another searches (a server judging a claim).

    No durations: this thread looks at the worker's search stack while a search is under way there. Holding
    the GIL, a search would let it look only before or after the compiled search, where the stack is as the
    last search left it or as this one leaves it; a stack in between shows that this thread ran meanwhile."""
    import threading
    import time

    import skat.solver.search as search

    hands, _ = deal(13)
    args = (4, (hands[0], hands[1], hands[2]), (), 1, 1)  # a grand for middlehand: tens of ms a search
    searches = 200
    ready, enough = threading.Event(), threading.Event()
    under_way = [0]  # the number of the search under way in the worker, 0 between searches
    stack: list = []  # the worker's search stack (the last array of kernels.new_context)
    left: dict[int, bytes] = {}  # the stack as search n left it (0: the warm-up)

    def worker() -> None:
        try:
            solve_points(*args, 0)  # this thread's search context made
            stack.append(search._ctx.arrays[-1])
            left[0] = stack[0].tobytes()
        finally:
            ready.set()
        for n in range(1, searches + 1):
            if enough.is_set():
                break
            under_way[0] = n
            solve_points(*args, 0)
            left[n] = stack[0].tobytes()
            under_way[0] = 0

    seen: list[tuple[int, bytes]] = []  # (n, the stack as this thread saw it during search n)
    between: list[int] = []  # the searches in which this thread saw a stack in between
    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert ready.wait(300) and stack, "the worker could not search"
        while thread.is_alive() and not between:
            n = under_way[0]
            if n:
                look = stack[0].tobytes()
                if under_way[0] == n:  # all the while in search n
                    seen.append((n, look))
            between += [n for n, look in seen if n in left and look not in (left[n - 1], left[n])]
            seen = [(n, look) for n, look in seen if n not in left]
            time.sleep(0.0005)
    finally:
        enough.set()
        thread.join()
    between += [n for n, look in seen if n in left and look not in (left[n - 1], left[n])]
    assert between, f"in {len(left) - 1} searches this thread saw the stack only before or after one"


@pytest.mark.parametrize("limits", [{"node_limit": 0}, {"node_limit": 2.5}, {"node_limit": True},
                                    {"time_limit": 0}, {"time_limit": -1.0}, {"time_limit": "1"}])
def test_bad_limits_get_a_clear_error(limits: dict) -> None:
    pos = SUIT_AND_GRAND[0]
    with pytest.raises(ValueError, match="must be a positive"):
        solve_points(*_args(pos), pos.declarer_points, **limits)


def test_top_trump_bounds_hold_at_trick_starts() -> None:
    """The cheap bounds of a trick start (top trumps of a side) enclose the exact value, points and tricks."""
    from skat.solver import kernels as K

    rng = random.Random(31)
    checked = tight = 0
    while checked < 150:
        pos = random_endgame(rng, rng.randrange(5))
        if pos.trick:
            continue
        gt = int(pos.game_type)
        hands = [int(K.to_layout(gt, h)) for h in pos.hands]
        rem = hands[0] | hands[1] | hands[2]
        points = ref.brute_force_points(pos) - pos.declarer_points
        lo, hi = K._rest_bounds(gt, K.MODE_POINTS, pos.declarer, *hands, rem)
        assert lo <= points <= hi, (pos.to_json(), lo, hi, points)
        tight += lo > 0 or hi < mask_points(sum(pos.hands))
        tricks = ref._minimax(gt, pos.declarer, ref.DECLARER_TRICKS, pos.hands, (), pos.leader)
        lo, hi = K._rest_bounds(gt, K.MODE_TRICKS, pos.declarer, *hands, rem)
        assert lo <= tricks <= hi, (pos.to_json(), lo, hi, tricks)
        checked += 1
    assert tight > 30  # the bounds say something in many positions



def test_the_solver_compiles_nothing_at_run_time() -> None:
    """Issue 32: the kernels are compiled ahead of time (setup.py, Cython), so a fresh process answers its
    first question without compiling anything: no JIT compiler is loaded, and the kernels are the compiled
    build wherever the engine's core is (both come from the same build)."""
    import subprocess
    import sys

    code = ("import sys\nfrom skat.solver import warm_up\nimport skat.solver.search as S\nimport skat.deal.game as G\n"
            "warm_up()\nprint(S.K.COMPILED, G.COMPILED, sorted(m for m in ('numba', 'llvmlite') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    kernels, core, jit = out.stdout.split(maxsplit=2)
    assert jit.strip() == "[]"
    assert kernels == core  # compiled together (or, with SKAT_PURE_PYTHON=1, both plain Python)
