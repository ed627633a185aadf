"""Python entry points over the compiled kernels: raw-mask fast paths and :func:`solve`.

The fast paths take plain integers (Card numbers, 32-bit hand masks by seat) and are meant to be
called many times, e.g. once per sampled world by a Monte Carlo player.  Each call solves one
deal with a fresh transposition-table generation; the table and the move buffers are allocated
once per thread.

**Work limit.**  Every public search function takes ``node_limit`` (search nodes, all null-window
tests of the call together) and ``time_limit`` (wall-clock seconds, CLOCK_MONOTONIC), both
``None`` by default (no limit).  A search that passes a limit stops soon after (the limits are
looked at on trick starts: at most about a thousand nodes, well under a millisecond, late) and raises
:class:`SearchLimitExceeded`; it never returns a partial or guessed answer.  The solver visits
roughly 10 million nodes per second on one core, so ``node_limit=1_000_000`` is about 0.1 s.
"""

from __future__ import annotations

import numbers
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from skat._compiled import compiled_module
from skat.cards import Card, mask_points
from skat.rules.ranking import GameType
from skat.solver.position import Position, PositionError

if TYPE_CHECKING:  # the source, typed by its Cython annotations (typings/cython.pyi)
    import skat.solver.kernels as K
else:
    K = compiled_module("skat.solver.kernels")  # compiled ahead of time by setup.py (Cython)

__all__ = [
    "SearchLimitExceeded",
    "SolveResult",
    "MoveValue",
    "solve",
    "solve_points",
    "declarer_reaches",
    "declarer_takes_all",
    "null_declarer_wins",
    "move_values",
    "move_values_array",
    "random_playouts",
    "last_node_count",
]

_GEN_LIMIT = 1 << 28


class SearchLimitExceeded(RuntimeError):
    """A search passed its ``node_limit`` or ``time_limit`` and stopped without an answer.

    ``nodes`` is the number of search nodes visited, ``seconds`` the wall-clock time spent, and
    ``node_limit`` / ``time_limit`` the limits the call was given.
    """

    def __init__(self, nodes: int, seconds: float, node_limit: int | None, time_limit: float | None) -> None:
        limits = []
        if node_limit is not None:
            limits.append(f"node_limit={node_limit}")
        if time_limit is not None:
            limits.append(f"time_limit={time_limit}s")
        super().__init__(f"search stopped after {nodes} nodes and {seconds:.3f} s ({', '.join(limits)}); "
                         "raise the limit or ask an easier question (a target instead of exact points)")
        self.nodes = nodes
        self.seconds = seconds
        self.node_limit = node_limit
        self.time_limit = time_limit


def _check_limits(node_limit: int | None, time_limit: float | None) -> None:
    if node_limit is not None and (not isinstance(node_limit, numbers.Integral) or isinstance(node_limit, bool)
                                   or node_limit < 1):
        raise ValueError(f"node_limit must be a positive whole number of search nodes or None, got {node_limit!r}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real)
                                   or not time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")


class _Context(threading.local):
    """Per-thread search state: parameters, transposition table, move buffers, the current limits."""

    def __init__(self) -> None:
        self.arrays: tuple[np.ndarray, ...] | None = None
        self.node_limit: int | None = None
        self.time_limit: float | None = None
        self.started = 0

    def next(self, node_limit: int | None = None, time_limit: float | None = None) -> tuple[np.ndarray, ...]:
        """The arrays for one solver call: a new table generation, counters reset, limits set."""
        if node_limit is not None or time_limit is not None:
            _check_limits(node_limit, time_limit)
        if self.arrays is None:
            self.arrays = K.new_context()
        P, TK = self.arrays[0], self.arrays[1]
        P[K.P_GEN] += 1
        if P[K.P_GEN] >= _GEN_LIMIT:
            TK.fill(-1)
            P[K.P_GEN] = 1
        P[K.P_NODES] = 0
        P[K.P_ABORT] = 0
        self.node_limit = node_limit
        self.time_limit = time_limit
        P[K.P_LIMIT] = K.NO_LIMIT if node_limit is None else int(node_limit)
        self.started = time.monotonic_ns()
        P[K.P_DEADLINE] = 0 if time_limit is None else self.started + max(1, int(float(time_limit) * 1e9))
        return self.arrays

    def done(self) -> None:
        """Raise :class:`SearchLimitExceeded` if the last kernel call stopped at a limit."""
        assert self.arrays is not None, "done() follows next()"
        P = self.arrays[0]
        if P[K.P_ABORT]:
            seconds = (time.monotonic_ns() - self.started) / 1e9
            raise SearchLimitExceeded(int(P[K.P_NODES]), seconds, self.node_limit, self.time_limit)


_ctx = _Context()


def warm_up() -> float:
    """Make this thread's search context (a transposition table of 32 MB) and run each entry point once
    with a tiny search; returns the seconds it took (milliseconds: the kernels are compiled ahead of time,
    by setup.py).

    Callers with a tight time limit on their first search (a server, a timed benchmark) call it first,
    so that making the table is not spent from that limit.
    """
    start = time.perf_counter()
    hands = (1 << Card.CJ | 1 << Card.SJ, 1 << Card.HA | 1 << Card.HT, 1 << Card.DA | 1 << Card.DT)
    move_values_array(GameType.GRAND, hands, (), 0, 0, question="points")
    # and every other entry point once
    solve_points(GameType.GRAND, hands)
    declarer_reaches(GameType.GRAND, hands, (), 0, 0, 61)
    random_playouts(GameType.GRAND, hands, (), 0, 0, 1)
    return time.perf_counter() - start


def last_node_count() -> int:
    """Search nodes visited by the last solver call in this thread (for benchmarks)."""
    if _ctx.arrays is None:
        return 0
    return int(_ctx.arrays[0][K.P_NODES])


def _trick_args(trick: Sequence[int]) -> tuple[int, int, int]:
    n = len(trick)
    if n > 2:
        raise PositionError("a trick on the table holds at most two cards; resolve a complete trick first")
    return n, (int(trick[0]) if n >= 1 else -1), (int(trick[1]) if n >= 2 else -1)


def _gt(game_type: GameType | int | str) -> int:
    if isinstance(game_type, int) and not isinstance(game_type, bool):
        return int(game_type)
    return int(GameType.parse(game_type))


# --------------------------------------------------------------------------- fast paths
def solve_points(
    game_type: GameType | int | str,
    hands: Sequence[int],
    trick: Sequence[int] = (),
    leader: int = 0,
    declarer: int = 0,
    declarer_points: int = 0,
    guess: int = -1,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> int:
    """The declarer's final card points under optimal play by both sides (suit and grand games).

    ``hands`` are three card masks by seat, ``trick`` the Card numbers on the table in order,
    ``leader`` the seat that led it (or leads next).  ``guess`` is an optional estimate of the
    final points that can save a few null-window searches.  ``node_limit`` / ``time_limit``: see
    the module docstring (:class:`SearchLimitExceeded`).
    """
    gt = _gt(game_type)
    n, c0, c1 = _trick_args(trick)
    g = guess - declarer_points if guess >= 0 else -1
    rest = K.solve_rest(gt, declarer, K.MODE_POINTS, int(hands[0]), int(hands[1]), int(hands[2]), leader, n, c0, c1,
                        g, *_ctx.next(node_limit, time_limit))
    _ctx.done()
    return declarer_points + int(rest)


def declarer_reaches(
    game_type: GameType | int | str,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    declarer: int,
    target: int,
    declarer_points: int = 0,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> bool:
    """Whether the declarer ends with at least ``target`` card points (61 wins, 90 Schneider).

    ``node_limit`` / ``time_limit``: see the module docstring (:class:`SearchLimitExceeded`).
    """
    gt = _gt(game_type)
    n, c0, c1 = _trick_args(trick)
    ok = K.rest_test(gt, declarer, K.MODE_POINTS, int(hands[0]), int(hands[1]), int(hands[2]), leader, n,
                     c0, c1, target - declarer_points, *_ctx.next(node_limit, time_limit))
    _ctx.done()
    return bool(ok)


def _tricks_left(hands: Sequence[int], trick: Sequence[int]) -> int:
    return (int(hands[0]).bit_count() + int(hands[1]).bit_count() + int(hands[2]).bit_count() + len(trick)) // 3


def declarer_takes_all(
    game_type: GameType | int | str,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    declarer: int,
    defender_tricks: int = 0,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> bool:
    """Whether the declarer takes every trick (Schwarz; what a suit or grand ouvert needs).

    ``node_limit`` / ``time_limit``: see the module docstring (:class:`SearchLimitExceeded`).
    """
    if defender_tricks:
        return False
    gt = _gt(game_type)
    n, c0, c1 = _trick_args(trick)
    ok = K.rest_test(gt, declarer, K.MODE_TRICKS, int(hands[0]), int(hands[1]), int(hands[2]), leader, n,
                     c0, c1, _tricks_left(hands, trick), *_ctx.next(node_limit, time_limit))
    _ctx.done()
    return bool(ok)


def null_declarer_wins(
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    declarer: int,
    declarer_tricks: int = 0,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> bool:
    """Whether a null declarer can avoid taking any trick.

    ``node_limit`` / ``time_limit``: see the module docstring (:class:`SearchLimitExceeded`).
    """
    if declarer_tricks:
        return False
    n, c0, c1 = _trick_args(trick)
    ok = K.rest_test(int(GameType.NULL), declarer, K.MODE_NULL, int(hands[0]), int(hands[1]), int(hands[2]),
                     leader, n, c0, c1, _tricks_left(hands, trick), *_ctx.next(node_limit, time_limit))
    _ctx.done()
    return bool(ok)


def _check_skat_points(skat_points: int, question: str, in_play: int) -> None:
    """A specific error for skat points that no Ramsch can have beside the cards in play."""
    if question != "ramsch":
        raise ValueError("skat_points go with the last trick of a Ramsch only: use question='ramsch'")
    if not 0 < skat_points <= 120 - mask_points(in_play):
        raise ValueError(f"skat_points {skat_points}: the skat holds 0 to {120 - mask_points(in_play)} card points "
                         "beside the cards in play")


def move_values_array(
    game_type: GameType | int | str,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    declarer: int,
    *,
    question: str = "points",
    target: int | None = None,
    declarer_points: int = 0,
    skat_points: int = 0,
    out: np.ndarray | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> np.ndarray:
    """Values of every legal card of the player to move, as an int64 array indexed by Card (-1: not legal).

    ``question`` is ``"points"`` (the default: final declarer card points after that card, or with
    ``target`` 1/0 for reaching ``target`` card points), ``"all_tricks"`` (1 if the declarer still
    takes every trick), ``"null"`` (1 if the null declarer still takes no trick) or ``"ramsch"`` (the card
    points the two seats other than ``declarer``, the seat to move, take from the trick on the table to the end
    of a Ramsch when they play together to give him the most: the more, the better for him; ``game_type`` is
    ignored; ``skat_points``, the skat's card points, go with the last trick as in a Ramsch, 0 leaves them out).
    ``node_limit`` / ``time_limit`` bound the whole call (all cards together); see the module
    docstring (:class:`SearchLimitExceeded`).
    """
    gt = _gt(game_type)
    n, c0, c1 = _trick_args(trick)
    if out is None:
        out = np.empty(32, np.int64)
    h0, h1, h2 = int(hands[0]), int(hands[1]), int(hands[2])
    if skat_points:
        _check_skat_points(skat_points, question, h0 | h1 | h2 | sum(1 << int(c) for c in trick))
    if question == "points":
        t = -1 if target is None else max(target - declarer_points, 0)
        K.move_values(gt, declarer, K.MODE_POINTS, h0, h1, h2, leader, n, c0, c1, t, out,
                      *_ctx.next(node_limit, time_limit))
        _ctx.done()
        if target is None:
            out[out >= 0] += declarer_points
    elif question in ("all_tricks", "null"):
        mode = K.MODE_TRICKS if question == "all_tricks" else K.MODE_NULL
        if question == "null":
            gt = int(GameType.NULL)
        K.move_values(gt, declarer, mode, h0, h1, h2, leader, n, c0, c1, _tricks_left(hands, trick), out,
                      *_ctx.next(node_limit, time_limit))
        _ctx.done()
    elif question == "ramsch":
        if (leader + n) % 3 != declarer:
            raise PositionError("a Ramsch is searched for the seat to move: declarer must be the seat to move")
        arrays = _ctx.next(node_limit, time_limit)
        arrays[0][K.P_SKAT] = skat_points
        K.move_values(int(GameType.RAMSCH), declarer, K.MODE_RAMSCH, h0, h1, h2, leader, n, c0, c1, -1, out,
                      *arrays)
        _ctx.done()
    else:
        raise ValueError(f"unknown question {question!r}: use 'points', 'all_tricks', 'null' or 'ramsch'")
    return out


def move_values(
    game_type: GameType | int | str,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    declarer: int,
    *,
    question: str = "points",
    target: int | None = None,
    declarer_points: int = 0,
    skat_points: int = 0,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> dict[Card, int]:
    """Like :func:`move_values_array`, as a dict from each legal card to its value."""
    arr = move_values_array(game_type, hands, trick, leader, declarer, question=question, target=target,
                            declarer_points=declarer_points, skat_points=skat_points, node_limit=node_limit,
                            time_limit=time_limit)
    return {Card(c): int(arr[c]) for c in range(32) if arr[c] >= 0}


def random_playouts(
    game_type: GameType | int | str,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    declarer: int,
    count: int,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Play the rest of the deal ``count`` times with random legal cards.

    Returns (card points, tricks) the declarer takes from the current trick on, one entry per
    playout (null games are played to the last trick too).
    """
    gt = _gt(game_type)
    n, c0, c1 = _trick_args(trick)
    pts = np.empty(count, np.int64)
    tricks = np.empty(count, np.int64)
    K.random_playouts(gt, declarer, int(hands[0]), int(hands[1]), int(hands[2]), leader, n, c0, c1, count, seed,
                      pts, tricks)
    return pts, tricks


# --------------------------------------------------------------------------- solve(position)
@dataclass(frozen=True)
class MoveValue:
    """The outcome under optimal play after one legal card of the player to move."""

    card: Card
    declarer_points: int | None = None
    declarer_wins: bool | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": self.card.name}
        if self.declarer_points is not None:
            out["declarer_points"] = self.declarer_points
        else:
            out["declarer_wins"] = self.declarer_wins
        return out


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` finds: the value of the position and of each legal card.

    For suit and grand games without a target, ``declarer_points`` is the declarer's final card
    points under optimal play; with a target (or for null, or the all-tricks question) it is
    ``None`` and ``declarer_wins`` says whether the declarer reaches the goal.
    """

    to_move: int
    declarer_points: int | None
    declarer_wins: bool | None
    moves: list[MoveValue] = field(default_factory=list)
    target: int | None = None
    question: str = "points"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"to_move": self.to_move}
        if self.declarer_points is not None:
            out["declarer_points"] = self.declarer_points
        else:
            out["declarer_wins"] = self.declarer_wins
        if self.target is not None:
            out["target"] = self.target
        if self.question == "all_tricks":
            out["question"] = "all_tricks"
        out["moves"] = [m.to_json() for m in self.moves]
        return out


class _Limits(TypedDict):
    """The limits of one :func:`solve` call, passed on to each :func:`move_values_array`."""

    node_limit: int | None
    time_limit: float | None


def solve(
    position: Position,
    target: int | None = None,
    *,
    all_tricks: bool = False,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> SolveResult:
    """Solve a position double dummy.

    Suit and grand: the declarer's final card points and those after each legal card; with
    ``target`` only whether he reaches ``target`` card points (61 wins, 90 Schneider, 120 all
    points); with ``all_tricks`` whether he takes every trick.  Null: whether the declarer takes
    no trick.  ``node_limit`` / ``time_limit`` bound the whole call and make it raise
    :class:`SearchLimitExceeded` when passed (see the module docstring).
    """
    if not isinstance(position, Position):
        raise TypeError("solve() takes a skat.solver.Position; build one with Position(...) or Position.from_json()")
    pos = position
    gt = int(pos.game_type)
    args = (gt, pos.hands, pos.trick, pos.leader, pos.declarer)
    lim: _Limits = {"node_limit": node_limit, "time_limit": time_limit}
    if pos.game_type == GameType.NULL:
        if target is not None or all_tricks:
            raise PositionError("a null declarer wins by taking no trick: target and all_tricks are for suit and grand")
        arr = move_values_array(*args, question="null", **lim)
        moves = _moves(arr, wins=True)
        return SolveResult(pos.to_move, None, any(m.declarer_wins for m in moves) if pos.to_move == pos.declarer
                           else all(m.declarer_wins for m in moves), moves, None, "null")
    if all_tricks:
        if target is not None:
            raise PositionError("ask either for a target or for all tricks, not both")
        if pos.defender_tricks:
            arr = move_values_array(*args, question="points", **lim)
            moves = [MoveValue(Card(c), declarer_wins=False) for c in range(32) if arr[c] >= 0]
            return SolveResult(pos.to_move, None, False, moves, None, "all_tricks")
        arr = move_values_array(*args, question="all_tricks", **lim)
        moves = _moves(arr, wins=True)
        return SolveResult(pos.to_move, None, _combine(pos, moves), moves, None, "all_tricks")
    if target is not None:
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target <= 120:
            raise PositionError(f"target must be a number of card points from 0 to 120, got {target!r}")
        arr = move_values_array(*args, question="points", target=target, declarer_points=pos.declarer_points,
                                **lim)
        moves = _moves(arr, wins=True)
        return SolveResult(pos.to_move, None, _combine(pos, moves), moves, target, "points")
    arr = move_values_array(*args, question="points", declarer_points=pos.declarer_points, **lim)
    moves = _moves(arr, wins=False)
    vals = [m.declarer_points for m in moves if m.declarer_points is not None]  # all of them: wins=False
    best = max(vals) if pos.to_move == pos.declarer else min(vals)
    return SolveResult(pos.to_move, best, None, moves, None, "points")


def _moves(arr: np.ndarray, wins: bool) -> list[MoveValue]:
    out = []
    for c in range(32):
        if arr[c] >= 0:
            if wins:
                out.append(MoveValue(Card(c), declarer_wins=bool(arr[c])))
            else:
                out.append(MoveValue(Card(c), declarer_points=int(arr[c])))
    return out


def _combine(pos: Position, moves: list[MoveValue]) -> bool:
    if pos.to_move == pos.declarer:
        return any(m.declarer_wins for m in moves)
    return all(m.declarer_wins for m in moves)
