"""Double-dummy solver and random playouts for the card play of suit, grand and null games.

All hands are visible to the solver; it finds what perfect play by both sides gives.

High level::

    from skat.solver import Position, solve
    pos = Position.from_json({...})          # the JSON of `skat solve`
    result = solve(pos)                      # declarer_points and a value per legal card
    solve(pos, target=61).declarer_wins      # does the declarer reach 61 card points?
    solve(pos, all_tricks=True)              # does he take every trick (ouvert, Schwarz)?

Fast paths for players that solve many sampled worlds (Card numbers, hand masks by seat;
``trick`` the Card numbers on the table, ``leader`` the seat that led it or leads next):

* ``solve_points(game_type, hands, trick, leader, declarer, declarer_points)`` -> final points;
* ``declarer_reaches(game_type, hands, trick, leader, declarer, target, declarer_points)`` -> bool;
* ``declarer_takes_all(...)``, ``null_declarer_wins(hands, trick, leader, declarer)`` -> bool;
* ``move_values_array(game_type, hands, trick, leader, declarer, question=..., target=...,
  declarer_points=...)`` -> int64[32] value per legal card (-1 for the others), and
  ``move_values`` returning a dict;
* ``random_playouts(game_type, hands, trick, leader, declarer, count, seed)`` -> arrays of the
  declarer's points and tricks from the current trick on.

Every search function takes ``node_limit`` and ``time_limit`` keywords (default ``None``: no
limit); a search that passes one raises :class:`SearchLimitExceeded` instead of answering.

The kernels (``kernels.py``) are compiled by Cython when the package is installed (``setup.py``),
so nothing compiles at run time; without a C compiler they run as plain Python, with the same
answers, some hundred times slower.  ``warm_up()`` makes this thread's transposition table ahead of
a time-limited search.  Not thread-safe across threads sharing a context: every thread gets its own
transposition table.
"""

from skat.solver.position import Position, PositionError
from skat.solver.search import (
    MoveValue,
    SearchLimitExceeded,
    SolveResult,
    declarer_reaches,
    declarer_takes_all,
    last_node_count,
    move_values,
    move_values_array,
    null_declarer_wins,
    random_playouts,
    solve,
    solve_points,
    warm_up,
)

__all__ = [
    "Position",
    "PositionError",
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
    "warm_up",
]
