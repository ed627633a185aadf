"""The bid ladder and the auction (Reizen) as a small state machine."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from skat.errors import IllegalActionError, OutOfTurnError

__all__ = ["BID_VALUES", "is_valid_bid", "next_bid", "legal_moves", "bid_allowed", "Auction", "AuctionError"]


def _ladder() -> tuple[int, ...]:
    values = {base * m for base in (9, 10, 11, 12) for m in range(2, 19)}
    values |= {24 * m for m in range(2, 12)}
    values |= {23, 35, 46, 59}
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


def legal_moves(value: int, answering: bool, alone: bool, ladder: Sequence[int] = BID_VALUES) -> list[str | int]:
    """The bid-legality rule (docs/rules.md 2.2): the moves of the seat to move in an auction standing at
    ``value``. ``answering``: a bid was named to this seat, which holds or passes; ``alone``: nobody bid
    and forehand may still play at the lowest value or pass; otherwise every bid above ``value`` or
    pass. The one place of the rule: :class:`Auction`, Admiral's Skat and Tournee call it (the compiled
    core keeps a copy, which ``tests/test_rules_consistency.py`` checks against it)."""
    if answering:
        return ["hold", "pass"]
    if alone:
        return [ladder[0], "pass"]
    return [*ladder[bisect_right(ladder, value):], "pass"]


def bid_allowed(value: int, bid: int, alone: bool, ladder: Sequence[int] = BID_VALUES) -> bool:
    """Whether ``bid`` is one of :func:`legal_moves` of a seat that is not answering a bid."""
    if alone:
        return bid == ladder[0]
    return bid > value and bid in ladder


class AuctionError(IllegalActionError):
    """An auction action that the rules do not allow now."""


FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2


@dataclass
class Auction:
    """The auction of one deal between forehand (0), middlehand (1) and rearhand (2).

    Middlehand bids to forehand; then rearhand bids to the survivor. The bidder
    names a value or passes; the listener holds ("yes") or passes. Passing is
    final. If nobody bids, forehand may still play at the lowest value.
    """

    ladder: Sequence[int] = BID_VALUES
    value: int = 0
    bidder: int = MIDDLEHAND
    listener: int = FOREHAND
    stage: int = 1  # 1: M to F, 2: R to survivor, 3: forehand alone, 0: finished
    passed: list[bool] = field(default_factory=lambda: [False, False, False])
    waiting_for_answer: bool = False
    highest_bidder: int | None = None  # the seat that last named or held the value
    history: list[tuple[int, str | int]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.stage == 0

    @property
    def to_move(self) -> int:
        if self.stage == 0:
            raise AuctionError("the auction is over")
        if self.stage == 3:
            return FOREHAND
        return self.listener if self.waiting_for_answer else self.bidder

    @property
    def declarer(self) -> int | None:
        """The winner of the auction, or None when all passed (only valid when finished)."""
        if self.stage != 0:
            return None
        return self.highest_bidder

    def legal(self) -> list[str | int]:
        """Legal moves for the seat to move: bid values, ``"hold"``, ``"pass"``."""
        if self.stage == 0:
            return []
        return legal_moves(self.value, self.waiting_for_answer, self.stage == 3, self.ladder)

    def apply(self, seat: int, move: str | int) -> None:
        """Apply a move; raises :class:`AuctionError` (state unchanged) if not allowed."""
        if self.stage == 0:
            raise AuctionError("the auction is over")
        if seat != self.to_move:
            raise OutOfTurnError(f"it is seat {self.to_move}'s turn in the auction, not seat {seat}'s")
        if self.waiting_for_answer:
            if move == "hold":
                self.highest_bidder = self.listener
                self.waiting_for_answer = False
            elif move == "pass":
                self._pass(self.listener)
            else:
                raise AuctionError(f"seat {seat} must answer the bid of {self.value}: hold or pass")
        elif move == "pass":
            self._pass(seat)
        elif isinstance(move, int) and not isinstance(move, bool):
            if not bid_allowed(self.value, move, self.stage == 3, self.ladder):
                if move not in self.ladder:
                    raise AuctionError(f"{move} is not a possible bid value")
                if self.stage == 3:
                    raise AuctionError(f"forehand may only play at {self.ladder[0]} when nobody bid")
                raise AuctionError(f"a bid must be higher than {self.value}, got {move}")
            if self.stage == 3:
                self.value = move
                self.highest_bidder = FOREHAND
                self.stage = 0
            else:
                self.value = move
                self.highest_bidder = seat
                self.waiting_for_answer = True
        else:
            raise AuctionError(f"unknown auction move {move!r}: bid a value, hold or pass")
        self.history.append((seat, move))

    def _pass(self, seat: int) -> None:
        self.passed[seat] = True
        self.waiting_for_answer = False
        if self.stage == 1:
            survivor = self.listener if seat == self.bidder else self.bidder
            self.stage = 2
            self.bidder, self.listener = REARHAND, survivor
        elif self.stage == 2:
            survivor = self.listener if seat == self.bidder else self.bidder
            if self.value == 0:
                if survivor == FOREHAND and not self.passed[FOREHAND]:
                    self.stage = 3
                    return
                self.stage = 0
                self.highest_bidder = None
                return
            self.highest_bidder = survivor
            self.stage = 0
        elif self.stage == 3:
            self.stage = 0
            self.highest_bidder = None
