"""Computer players at a server table: level choice, fallbacks and thinking off the event loop.

Every computer seat has the small interface :class:`ComputerSeat`; :class:`BotSeat` is Skat's (the players of
:mod:`skat.players.registry` by level), and a game with computer players of its own makes its seats in its table
part (:meth:`skat.server.games.TableGame.computer`).

Cheap players (``random``, ``heuristic``, ``learned``) think in a thread pool. Search players (``expert``,
``strong``, ``medium``, ``easy``) think in a process pool: their search holds the interpreter for
seconds (``expert`` about 2 s a card), and in a thread it would stall the event loop and with it every other
table.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from skat.deal.game import SeatView
from skat.players.registry import make_player
from skat.rules.actions import Action, parse_action
from skat.server.hints import played_mask

__all__ = ["ComputerSeat", "BotSeat", "available_bot", "default_level", "FALLBACKS",
           "SEARCH_LEVELS", "bot_process_pool", "claim_is_sound"]

log = logging.getLogger("skat.server.bots")

FALLBACKS = ("strong", "heuristic", "random")
"""The order in which a failing or missing computer player is replaced."""


SEARCH_LEVELS = frozenset({"expert", "strong", "medium", "easy"})
"""Players whose thinking goes to the process pool."""



def bot_process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """Worker processes for search players (forkserver: never a fork of the threaded server)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["skat.server.bots"])
    return ProcessPoolExecutor(max_workers=workers or max(1, os.cpu_count() or 1), mp_context=ctx,
                               initializer=_warm_worker)


def worker_ready() -> bool:
    """A task that answers once a worker runs (:func:`start_workers`)."""
    return True


def start_workers(pool: ProcessPoolExecutor, timeout: float = 120.0) -> None:
    """Start the pool's worker processes and wait until one answers; call it off the event loop. The first
    start of the forkserver loads the players before it forks (about a second), and a pool starts its
    processes in the thread that submits to it: were that the event loop, every table would wait."""
    try:
        pool.submit(worker_ready).result(timeout)
    except Exception:  # noqa: BLE001 - shut down meanwhile, or broken: the first real task says so
        log.debug("starting the worker processes did not finish", exc_info=True)


def _warm_worker() -> None:
    """Load the solver's kernels in a new worker before its first task, so that the first computer move or
    hint gets its whole time budget for the search (not for loading)."""
    from skat.solver.search import warm_up

    warm_up()


def claim_is_sound(view: SeatView, max_worlds: int = 200, time_budget: float = 2.0) -> bool:
    """Whether a defender should concede the declarer's claim, judged from his own view only.

    The claim opens the declarer's hand. The cards this defender cannot see (his partner's hand
    and the skat) are split in every way that fits the hand sizes; the claim is sound when in
    every such world the declarer takes all the remaining tricks double-dummy (for a null game:
    takes none), whatever the defenders do (:mod:`skat.solver`). Too many worlds, or more than
    ``time_budget`` seconds of search: play on.
    """
    import itertools
    import time
    from math import comb

    from skat.rules.ranking import GameType
    from skat.solver.search import SearchLimitExceeded, declarer_takes_all, null_declarer_wins

    declarer, contract = view.declarer, view.contract
    if declarer is None or contract is None or view.seat is None or view.seat == declarer or view.phase.value != "play":
        return False
    open_hand = view.open_hands.get(declarer)
    if open_hand is None or int(contract.game_type) > int(GameType.NULL):
        return False  # not a claim of a suit, grand or null game with the declarer's cards shown
    partner = 3 - view.seat - declarer
    own, shown = view.hand.mask, open_hand.mask
    played = played_mask(view)
    unseen = [c for c in range(32) if not (own | shown | played) >> c & 1]
    need = view.hand_sizes[partner]
    if need > len(unseen) or comb(len(unseen), need) > max_worlds:
        return False
    if view.trick:
        leader = view.trick[0][0]
    elif view.tricks:
        leader = view.tricks[-1][2]
    else:
        leader = 0
    trick = [int(c) for _, c in view.trick]
    null = contract.game_type == GameType.NULL
    declarer_tricks = sum(1 for t in view.tricks if t[2] == declarer)
    deadline = time.monotonic() + time_budget
    for combo in itertools.combinations(unseen, need):
        hands = [0, 0, 0]
        hands[view.seat], hands[declarer] = own, shown
        for c in combo:
            hands[partner] |= 1 << c
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            if null:
                ok = null_declarer_wins(hands, trick, leader, declarer, declarer_tricks, time_limit=left)
            else:  # the rest of the tricks
                ok = declarer_takes_all(contract.game_type, hands, trick, leader, declarer, time_limit=left)
        except SearchLimitExceeded:
            return False
        if not ok:
            return False
    return True


_WORKER_BOTS: dict[str, BotSeat] = {}


def choose_in_worker(key: str, name: str, seed: int | None, view: SeatView) -> tuple[str, str, list[str]]:
    """In a worker process: the action token of the computer player ``key`` (kept between calls)."""
    bot = _WORKER_BOTS.get(key)
    if bot is None or bot.requested != name:
        bot = _WORKER_BOTS[key] = BotSeat(name, seed)
        if len(_WORKER_BOTS) > 4096:  # forget the oldest players of long-gone tables
            _WORKER_BOTS.pop(next(iter(_WORKER_BOTS)))
    action = bot.choose(view)
    return str(action), bot.name, list(bot.failures)


def available_bot(name: str) -> str:
    """``name`` if that player is registered, else the first registered fallback after it."""
    names = [name, *[f for f in FALLBACKS if f != name]]
    if name in FALLBACKS:
        names = list(FALLBACKS[FALLBACKS.index(name):])
    for candidate in names:
        try:
            make_player(candidate, 0)
        except ValueError:
            continue
        return candidate
    return "random"


def default_level() -> str:
    """Level ``strong`` when it is registered, else ``heuristic``, else ``random``."""
    return available_bot("strong")


class ComputerSeat(Protocol):
    """What a table and its runner (:mod:`skat.server.runner`) ask of the computer player in a seat: its ``name``
    (shown, and whether it thinks in the worker processes: :data:`SEARCH_LEVELS`), the kind ``requested``, the
    ``failures`` that replaced it, and :meth:`think`. A seat may also have ``at(deal_no, actions)`` (its decisions
    drawn from the point of the deal) and ``call(view)`` (Kontra or Re out of turn), which the runner uses when
    present."""

    name: str
    requested: str
    failures: list[str]

    async def think(self, loop: Any, threads: Executor | None, view: Any,
                    processes: ProcessPoolExecutor | None = None) -> Action:
        """Choose an action for ``view`` off the event loop."""
        ...


class BotSeat:
    """A computer player in one table position; replaced by a fallback when it fails."""

    def __init__(self, name: str, seed: int | None = None, key: str = "") -> None:
        self.requested = name
        self.seed = seed
        self.key = key
        self.name = available_bot(name)
        self.player: Any = make_player(self.name, seed)
        self.failures: list[str] = []

    def _fallback(self, why: str) -> None:
        self.failures.append(f"{self.name}: {why}")
        chain = list(FALLBACKS[FALLBACKS.index(self.name) + 1:]) if self.name in FALLBACKS else ["heuristic", "random"]
        for candidate in chain:
            try:
                self.player = make_player(candidate, self.seed)
            except Exception:  # a broken factory is skipped like a missing one
                continue
            log.warning("computer player %r failed (%s); replaced by %r", self.name, why, candidate)
            self.name = candidate
            return
        log.warning("computer player %r failed (%s); replaced by a fresh 'random' player", self.name, why)
        self.player = make_player("random", self.seed)
        self.name = "random"

    def choose(self, view: SeatView) -> Action:
        """A legal action for ``view``; a player that raises or answers illegally is replaced."""
        legal = view.legal_actions
        for _ in range(len(FALLBACKS) + 1):
            try:
                action = self.player.choose(view)
            except Exception as exc:  # any bot failure must not stop the table
                log.exception("computer player %r raised", self.name)
                self._fallback(f"raised {type(exc).__name__}: {exc}")
                continue
            if action in legal:
                return action
            self._fallback(f"chose the illegal action {action!r}")
        return legal[0]

    def call(self, view: SeatView) -> Action | None:
        """Kontra or Re, when the player has an opinion (its optional ``side_action``); never raises."""
        decide = getattr(self.player, "side_action", None)
        if decide is None or not any(str(a) in ("kontra", "re") for a in view.side_actions):
            return None
        try:
            action = decide(view)
        except Exception:  # a failing call is simply not made
            log.exception("computer player %r failed deciding Kontra/Re", self.name)
            return None
        return action if action in view.side_actions else None

    async def think(self, loop: Any, threads: Executor | None, view: SeatView,
                    processes: ProcessPoolExecutor | None = None) -> Action:
        """Choose off the event loop: search players in ``processes``, the others in ``threads``."""
        if processes is not None and self.name in SEARCH_LEVELS:
            try:
                token, name, failures = await loop.run_in_executor(
                    processes, choose_in_worker, self.key, self.name, self.seed, view)
            except BrokenProcessPool:
                log.exception("the process pool of the computer players broke; thinking in a thread instead")
            else:
                for why in failures[len(self.failures):]:
                    log.warning("computer player %s failed in its worker (%s); replaced", self.key, why)
                self.failures = failures
                if name != self.name:
                    self.name = name
                    self.player = make_player(name, self.seed)
                return parse_action(token)
        return await loop.run_in_executor(threads, self.choose, view)

