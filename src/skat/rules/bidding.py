"""The bid ladder and the auction (Reizen) as a small state machine (docs/rules.md 2).

Who bids to whom, which bids are legal and what follows each move exist once, in the rules
kernel (:mod:`skat.rules.kernel`, compiled), on a packed auction state; this module re-exports
those functions, and :class:`Auction` is a view of that state that says why a move is refused.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from skat._compiled import compiled_module
from skat.errors import IllegalActionError, OutOfTurnError

__all__ = ["BID_VALUES", "is_valid_bid", "next_bid", "legal_moves", "bid_allowed", "rung", "Auction", "AuctionError",
           "FOREHAND", "MIDDLEHAND", "REARHAND", "AUCTION_START", "auction_state", "auction_stage", "auction_bidder",
           "auction_listener", "auction_passed", "auction_answering", "auction_highest", "auction_rung",
           "auction_to_move", "auction_first_bid", "auction_last_bid", "auction_hold", "auction_pass", "auction_bid"]

if TYPE_CHECKING:  # the source, typed by its Cython annotations (typings/cython.pyi)
    from skat.rules import kernel as _kernel
else:
    _kernel = compiled_module("skat.rules.kernel")  # the one place of the auction's rules (compiled)
AUCTION_START: int = _kernel.AUCTION_START
auction_state = _kernel.auction_state
auction_stage = _kernel.auction_stage
auction_bidder = _kernel.auction_bidder
auction_listener = _kernel.auction_listener
auction_passed = _kernel.auction_passed
auction_answering = _kernel.auction_answering
auction_highest = _kernel.auction_highest
auction_rung = _kernel.auction_rung
auction_to_move = _kernel.auction_to_move
auction_first_bid = _kernel.auction_first_bid
auction_last_bid = _kernel.auction_last_bid
auction_hold = _kernel.auction_hold
auction_pass = _kernel.auction_pass
auction_bid = _kernel.auction_bid

FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2


def _ladder() -> tuple[int, ...]:
    values = {base * m for base in (9, 10, 11, 12) for m in range(2, 19)}
    values |= {24 * m for m in range(2, 12)}
    values |= set(_kernel.NULL_VALUES.values())
    return tuple(sorted(values))


BID_VALUES: tuple[int, ...] = _ladder()
"""The 63 possible bids of standard Skat, 18 to 264."""


def is_valid_bid(value: int, ladder: Sequence[int] = BID_VALUES) -> bool:
    """Whether ``value`` is on the bid ladder."""
    return value in ladder


def next_bid(value: int, ladder: Sequence[int] = BID_VALUES) -> int | None:
    """The lowest bid strictly above ``value`` (0 gives the first bid), or None above the top."""
    i = bisect_right(ladder, value)
    return ladder[i] if i < len(ladder) else None


def rung(value: int, ladder: Sequence[int] = BID_VALUES) -> int:
    """The place of a bid value on the ladder, as the auction kernel counts it: 1 for the lowest
    value, 0 for a value that is not on the ladder."""
    i = bisect_left(ladder, value)
    return i + 1 if i < len(ladder) and ladder[i] == value else 0


def _moves(state: int, ladder: Sequence[int]) -> list[str | int]:
    """The moves of the seat to move in a packed auction state: hold or pass a bid named to him, else
    the values from :func:`auction_first_bid` to :func:`auction_last_bid` or pass."""
    if auction_stage(state) == 0:
        return []
    if auction_answering(state):
        return ["hold", "pass"]
    first = auction_first_bid(state)
    return [*ladder[first - 1:auction_last_bid(state, len(ladder))], "pass"] if first else ["pass"]


def legal_moves(value: int, answering: bool, alone: bool, ladder: Sequence[int] = BID_VALUES) -> list[str | int]:
    """The bid-legality rule (docs/rules.md 2.2): the moves of the seat to move in an auction standing at
    ``value``. ``answering``: a bid was named to this seat, which holds or passes; ``alone``: nobody bid
    and forehand may still play at the lowest value or pass; otherwise every bid above ``value`` or
    pass. The rules kernel's (:func:`skat.rules.kernel.auction_first_bid`, the one place of the rule,
    which :class:`Auction`, Admiral's Skat, Tournee and the compiled core apply)."""
    state = auction_state(3 if alone else 2, REARHAND, FOREHAND, 0, answering, -1, bisect_right(ladder, value))
    return _moves(state, ladder)


def bid_allowed(value: int, bid: int, alone: bool, ladder: Sequence[int] = BID_VALUES) -> bool:
    """Whether ``bid`` is one of :func:`legal_moves` of a seat that is not answering a bid
    (:func:`skat.rules.kernel.auction_bid`)."""
    state = auction_state(3 if alone else 2, REARHAND, FOREHAND, 0, False, -1, bisect_right(ladder, value))
    return auction_bid(state, rung(bid, ladder)) >= 0


class AuctionError(IllegalActionError):
    """An auction action that the rules do not allow now."""


class Auction:
    """The auction of one deal between forehand (0), middlehand (1) and rearhand (2) (docs/rules.md 2.2).

    Middlehand bids to forehand; then rearhand bids to the survivor. The bidder
    names a value or passes; the listener holds ("yes") or passes. Passing is
    final. If nobody bid, forehand may still play at the lowest value.

    A view of the rules kernel's packed auction state (:attr:`state`, see :mod:`skat.rules.kernel`):
    the kernel says who moves, which moves are legal and what follows, this class says why a move
    is refused and keeps the history.
    """

    __slots__ = ("ladder", "state", "history")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, ladder: Sequence[int] = BID_VALUES, value: int = 0, bidder: int = MIDDLEHAND,
                 listener: int = FOREHAND, stage: int = 1, passed: Sequence[bool] | None = None,
                 waiting_for_answer: bool = False, highest_bidder: int | None = None,
                 history: list[tuple[int, str | int]] | None = None) -> None:
        self.ladder: Sequence[int] = ladder
        """The bid values, lowest first."""
        self.state: int = auction_state(
            stage, bidder, listener, sum(1 << s for s in range(3) if passed[s]) if passed else 0,
            waiting_for_answer, -1 if highest_bidder is None else highest_bidder, self._rung_of_value(value))
        """The packed state of the rules kernel (:func:`skat.rules.kernel.auction_state`)."""
        self.history: list[tuple[int, str | int]] = [] if history is None else history
        """(seat, move) of every move so far."""

    def _rung_of_value(self, value: int) -> int:
        if value == 0:
            return 0
        place = rung(value, self.ladder)
        if not place:
            raise ValueError(f"the auction's value {value} is not on its bid ladder")
        return place

    def _set(self, **parts: int) -> None:
        """Change parts of the packed state (the arguments of :func:`auction_state`)."""
        state = self.state
        now: dict[str, Any] = {  # ints, and answering a bool (auction_state's arguments by name)
            "stage": auction_stage(state), "bidder": auction_bidder(state), "listener": auction_listener(state),
            "passed": auction_passed(state), "answering": auction_answering(state),
            "highest": auction_highest(state), "rung": auction_rung(state)}
        now.update(parts)
        self.state = auction_state(**now)

    @property
    def value(self) -> int:
        """The value last named (0 before any bid)."""
        place = auction_rung(self.state)
        return self.ladder[place - 1] if place else 0

    @value.setter
    def value(self, value: int) -> None:
        self._set(rung=self._rung_of_value(value))

    @property
    def bidder(self) -> int:
        """The seat that names values now."""
        return auction_bidder(self.state)

    @bidder.setter
    def bidder(self, seat: int) -> None:
        self._set(bidder=seat)

    @property
    def listener(self) -> int:
        """The seat that holds or passes them."""
        return auction_listener(self.state)

    @listener.setter
    def listener(self, seat: int) -> None:
        self._set(listener=seat)

    @property
    def stage(self) -> int:
        """1: M to F, 2: R to survivor, 3: forehand alone, 0: finished."""
        return auction_stage(self.state)

    @stage.setter
    def stage(self, stage: int) -> None:
        self._set(stage=stage)

    @property
    def passed(self) -> list[bool]:
        """Per seat, whether it has passed (a copy)."""
        bits = auction_passed(self.state)
        return [bool(bits >> s & 1) for s in range(3)]

    @passed.setter
    def passed(self, passed: Sequence[bool]) -> None:
        self._set(passed=sum(1 << s for s in range(3) if passed[s]))

    @property
    def waiting_for_answer(self) -> bool:
        """Whether the listener must answer a bid named to him."""
        return auction_answering(self.state)

    @waiting_for_answer.setter
    def waiting_for_answer(self, waiting: bool) -> None:
        self._set(answering=waiting)

    @property
    def highest_bidder(self) -> int | None:
        """The seat that last named or held the value."""
        seat = auction_highest(self.state)
        return None if seat < 0 else seat

    @highest_bidder.setter
    def highest_bidder(self, seat: int | None) -> None:
        self._set(highest=-1 if seat is None else seat)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Auction):
            return NotImplemented
        return (tuple(self.ladder), self.state, self.history) == (tuple(other.ladder), other.state, other.history)

    def __repr__(self) -> str:
        return (f"Auction(ladder={self.ladder!r}, value={self.value!r}, bidder={self.bidder!r}, "
                f"listener={self.listener!r}, stage={self.stage!r}, passed={self.passed!r}, "
                f"waiting_for_answer={self.waiting_for_answer!r}, highest_bidder={self.highest_bidder!r}, "
                f"history={self.history!r})")

    @property
    def finished(self) -> bool:
        return auction_stage(self.state) == 0

    @property
    def to_move(self) -> int:
        seat = auction_to_move(self.state)
        if seat < 0:
            raise AuctionError("the auction is over")
        return seat

    @property
    def declarer(self) -> int | None:
        """The winner of the auction, or None when all passed (only valid when finished)."""
        if auction_stage(self.state) != 0:
            return None
        return self.highest_bidder

    def legal(self) -> list[str | int]:
        """Legal moves for the seat to move: bid values, ``"hold"``, ``"pass"``."""
        return _moves(self.state, self.ladder)

    def apply(self, seat: int, move: str | int) -> None:
        """Apply a move; raises :class:`AuctionError` (state unchanged) if not allowed."""
        state = self.state
        mover = self.to_move  # raises when the auction is over
        if seat != mover:
            raise OutOfTurnError(f"it is seat {mover}'s turn in the auction, not seat {seat}'s")
        if move == "hold":
            after = auction_hold(state)
        elif move == "pass":
            after = auction_pass(state)
        elif isinstance(move, int) and not isinstance(move, bool):
            after = auction_bid(state, rung(move, self.ladder))
        else:
            after = -1
        if after < 0:
            raise self._refusal(seat, move)
        self.state = after
        self.history.append((seat, move))

    def _refusal(self, seat: int, move: object) -> AuctionError:
        """Why the rules refuse ``move`` of the seat to move."""
        if auction_answering(self.state):
            return AuctionError(f"seat {seat} must answer the bid of {self.value}: hold or pass")
        if isinstance(move, int) and not isinstance(move, bool):
            if move not in self.ladder:
                return AuctionError(f"{move} is not a possible bid value")
            if auction_stage(self.state) == 3:
                return AuctionError(f"forehand may only play at {self.ladder[0]} when nobody bid")
            return AuctionError(f"a bid must be higher than {self.value}, got {move}")
        return AuctionError(f"unknown auction move {move!r}: bid a value, hold or pass")
