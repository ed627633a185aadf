"""The move clock of a table with people (docs/clock.md), without any I/O: its settings and their checks, whose
decision it is waiting for, how much of the decision time and the deal's reserve is left, and who is away (a
computer stand-in of the table's level decides for them until they are back).

The clock's readings come in as arguments (wall-clock seconds, ``time.time()``, so that every server process and
browser reads the same deadlines); :mod:`skat.server.clock_runner` arms the timers and acts when one runs out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from skat.errors import SkatError
from skat.server.errors import ErrorCode
from skat.server.games import TableGame

__all__ = ["CLOCK_DEFAULTS", "CLOCK_RANGES", "MoveClock", "plan_clock", "clock_default_on", "ClockError"]

CLOCK_DEFAULTS: dict[str, int] = {"decision": 30, "reserve": 60, "grace": 20, "ready": 60}
"""Seconds per decision, the reserve a person has per deal once a decision's time is over, how long a person who
lost the connection has before the stand-in takes the seat, and how long a finished deal waits for a person to be
ready for the next one (when somebody else is)."""
CLOCK_RANGES: dict[str, tuple[int, int]] = {"decision": (5, 600), "reserve": (0, 1800), "grace": (5, 600),
                                            "ready": (10, 600)}
"""The allowed range of each clock setting, in whole seconds."""


class ClockError(SkatError):
    """A clock setting that cannot be (``bad_clock``; the table's creation answers it as a 400)."""

    code = ErrorCode.BAD_CLOCK


class ClockSeat(Protocol):
    position: int
    kind: str
    token_hash: str | None

    @property
    def taken(self) -> bool: ...


class ClockGame(Protocol):
    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def history(self) -> Sequence[Any]: ...


class ClockTable(Protocol):
    """The facts of a table the clock reads (:class:`skat.server.core.TableCore`)."""

    stopped: str | None
    closed: bool
    deal_no: int
    positions: tuple[int, ...]
    ready: set[int]

    @property
    def seats(self) -> Sequence[ClockSeat]: ...

    @property
    def game(self) -> ClockGame | None: ...

    @property
    def series(self) -> Any: ...


def clock_default_on(seats: list[str]) -> bool:
    """Whether a table whose request says nothing of the clock gets one: when two or more people sit at it (one
    person against computer players keeps nobody waiting, and a computer-only table has nobody to time)."""
    return sum(1 for kind in seats if kind == "human") >= 2


def plan_clock(value: Any, seats: list[str], game: TableGame) -> dict[str, Any] | None:
    """The stored clock setting of a new table from a request's ``clock``: ``None`` (left out: the default, on at a
    table of two or more people, :func:`clock_default_on`), ``false`` (off), ``true`` (on, the defaults) or an
    object of the settings to change (``decision``, ``reserve``, ``grace``, ``ready`` in whole seconds, each in
    :data:`CLOCK_RANGES`; ``stand_in``: the computer level that decides for a person, by default the table's
    computer players' level, the game's default level at a table of people or of ``random`` players: a random
    player is an opponent to test against, not somebody to play for a person). A computer-only table has no clock. Raises ``bad_clock`` saying what is wrong."""
    if value is None:
        value = clock_default_on(seats)
    if value is False:
        return None
    if value is True:
        value = {}
    if not isinstance(value, dict):
        raise ClockError("clock is true (on, 30 seconds a decision), false (off) or an object "
                         "such as {\"decision\": 30, \"reserve\": 60}")
    if not any(kind == "human" for kind in seats):
        raise ClockError("a table of computer players only has no clock (nobody to time)")
    unknown = sorted(set(value) - set(CLOCK_DEFAULTS) - {"stand_in"})
    if unknown:
        raise ClockError(f"the clock has no setting {unknown[0][:40]!r}; its settings are "
                         f"{', '.join([*CLOCK_DEFAULTS, 'stand_in'])}")
    clock: dict[str, Any] = dict(CLOCK_DEFAULTS)
    for key, (low, high) in CLOCK_RANGES.items():
        if key not in value:
            continue
        seconds = value[key]
        if type(seconds) is not int or not low <= seconds <= high:
            raise ClockError(f"clock {key} is whole seconds from {low} to {high}, not "
                             f"{str(seconds)[:40]!r}")
        clock[key] = seconds
    level = value.get("stand_in")
    if level is None:  # the table's computer level; a table of random players gets the game's own level
        level = next((kind for kind in seats if kind not in ("human", "random")),
                     next((kind for kind in game.default_seats() if kind != "human"), None))
    if not isinstance(level, str):
        raise ClockError("clock stand_in is a computer level such as 'strong'")
    try:
        game.computer_row(0, level)
    except SkatError as exc:
        raise ClockError(f"clock stand_in: {exc}") from None
    clock["stand_in"] = level
    return clock


@dataclass
class MoveClock:
    """One table's clock: the decision it waits for, since when, each person's reserve in this deal, who is away.

    A *point* is what the clock waits for: ``("decision", deal, action count, position)`` while a person (not away)
    is to move, ``("ready", deal)`` while a finished deal waits for people to be ready for the next, or None."""

    settings: dict[str, Any] | None
    scale: float = 1.0
    """Real seconds per clock second (1; tests make the clock run faster)."""
    point: tuple[Any, ...] | None = None
    since: float = 0.0
    """When (wall-clock seconds) the clock began to wait for :attr:`point`."""
    reserve_left: dict[int, float] = field(default_factory=dict)
    """Seconds of the deal's reserve each person has left (positions not in it have the whole reserve)."""
    reserve_deal: int = 0
    """The deal the reserves are of (a new deal gives everybody the whole reserve again)."""
    away: set[int] = field(default_factory=set)
    """Positions of people whose decisions the computer stand-in makes: their time ran out, or they lost the
    connection for longer than the grace; until they are back (they act, send ``back`` or connect again)."""

    @property
    def on(self) -> bool:
        return self.settings is not None

    def seconds(self, key: str) -> float:
        """A setting in real seconds."""
        assert self.settings is not None
        return float(self.settings[key]) * self.scale

    def reserve_of(self, position: int) -> float:
        """The reserve a person has left in this deal."""
        return self.reserve_left.get(position, self.seconds("reserve"))

    def waiting_for(self, core: ClockTable) -> tuple[Any, ...] | None:
        """What the clock waits for at the table now (see :class:`MoveClock`)."""
        if not self.on or core.stopped is not None or core.closed:
            return None
        game = core.game
        if game is None or not all(s.taken for s in core.seats):
            return None
        if not game.is_over:
            seat = game.to_move
            if seat is None:
                return None
            position = core.positions[seat]
            if core.seats[position].kind != "human" or position in self.away:
                return None
            return ("decision", core.deal_no, len(game.history), position)
        humans = {s.position for s in core.seats if s.kind == "human"}
        if core.series.next is None or humans <= core.ready or not core.ready & humans - self.away:
            return None  # the series is over, everybody is ready, or nobody waits (nobody present is ready)
        return ("ready", core.deal_no)

    def update(self, core: ClockTable, now: float) -> bool:
        """Follow the table to what it waits for now: a decision that ended takes its overrun from its person's
        reserve, a new point starts its time. Returns whether the point changed."""
        point = self.waiting_for(core)
        if point == self.point:
            return False
        if self.reserve_deal != core.deal_no:
            self.reserve_left.clear()
            self.reserve_deal = core.deal_no
        old = self.point
        if old is not None and old[0] == "decision" and old[1] == core.deal_no:
            over = now - self.since - self.seconds("decision")
            if over > 0:
                position = old[3]
                self.reserve_left[position] = max(0.0, self.reserve_of(position) - over)
        self.point, self.since = point, now
        return True

    def deadline(self) -> float | None:
        """When (wall-clock seconds) the time for the current point runs out, or None."""
        point = self.point
        if point is None:
            return None
        if point[0] == "decision":
            return self.since + self.seconds("decision") + self.reserve_of(point[3])
        return self.since + self.seconds("ready")

    def info(self) -> dict[str, Any] | None:
        """The clock as every state shows it (``table.clock``, docs/protocol.md), or None at a table without one:
        the settings, the decision it runs for (``turn``: position, when its own time ends and when the reserve
        ends too), the reserves left and who is away (the state's ``now`` lets a browser correct its clock)."""
        if self.settings is None:
            return None
        point = self.point
        turn = None
        if point is not None and point[0] == "decision":
            turn = {"position": point[3], "started": round(self.since, 3),
                    "decision_ends": round(self.since + self.seconds("decision"), 3),
                    "ends": round(self.deadline() or 0.0, 3)}
        ready_ends = round(self.since + self.seconds("ready"), 3) if point is not None and point[0] == "ready" \
            else None
        return {"decision": int(self.settings["decision"]), "reserve": int(self.settings["reserve"]),
                "grace": int(self.settings["grace"]), "ready": int(self.settings["ready"]),
                "stand_in": str(self.settings["stand_in"]), "turn": turn, "ready_ends": ready_ends,
                "reserve_left": {str(p): round(s, 1) for p, s in sorted(self.reserve_left.items())},
                "away": sorted(self.away)}
