"""The alpha-mu search (Cazenave and Ventos, 2019) for the declarer's card play near the end of a suit or grand game.

Perfect-information Monte Carlo solves every sampled world on its own, as if the declarer would know the
defenders' cards from the next card on: it fuses strategies that differ from world to world into one that
no player without that knowledge could follow (*strategy fusion*). Alpha-mu looks ``depth`` of the
declarer's own moves ahead and makes him play the same card in every world he cannot tell apart (the
worlds where the defenders played the same cards so far), while the defenders, who may be taken to know
more, answer world by world. An outcome is a bit set over the worlds (bit ``i``: the declarer wins world
``i``); a node keeps the Pareto front of the outcomes of the declarer's strategies below it. Past
``depth`` moves the worlds are solved double dummy (:func:`skat.solver.search.declarer_reaches`). With
``depth`` 1 alpha-mu is PIMC.

It is exact for the win or loss of the declarer (61 card points, 90 when Schneider is announced) and is
used only where it is cheap: few tricks left, a bounded front, and a :class:`~skat.players.budget.Budget`
whose hard deadline stops any search.
"""

from __future__ import annotations

from dataclasses import dataclass

from skat.cards import iter_mask, mask_points
from skat.rules.ranking import FOLLOW_MASK, winner_index

__all__ = ["Position", "best_card", "pareto"]

_MAX_FRONT = 24
"""The largest front kept at a node (the outcomes winning the most worlds)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One world's state of play: the hands now, the trick in progress, its leader, the declarer's card
    points so far (with the skat) and the defenders' tricks."""

    hands: tuple[int, int, int]
    trick: tuple[int, ...]
    leader: int
    points: int

    def mover(self) -> int:
        """The seat to play."""
        return (self.leader + len(self.trick)) % 3

    def legal(self, gt: int) -> int:
        """The cards the mover may play (a bit set)."""
        hand = self.hands[self.mover()]
        if not self.trick:
            return hand
        return hand & FOLLOW_MASK[gt][self.trick[0]] or hand

    def play(self, gt: int, declarer: int, card: int) -> Position:
        """The position after the mover plays ``card`` (a full trick is taken at once)."""
        mover = self.mover()
        hands = list(self.hands)
        hands[mover] &= ~(1 << card)
        trick = (*self.trick, card)
        if len(trick) < 3:
            return Position((hands[0], hands[1], hands[2]), trick, self.leader, self.points)
        winner = (self.leader + winner_index(gt, trick)) % 3
        points = self.points + (mask_points((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]))
                                if winner == declarer else 0)
        return Position((hands[0], hands[1], hands[2]), (), winner, points)


def pareto(outcomes: list[int], limit: int = _MAX_FRONT) -> list[int]:
    """The outcomes no other outcome contains (bit sets of won worlds), the ones winning most first, at most
    ``limit``."""
    front: list[int] = []
    for outcome in sorted(set(outcomes), key=lambda o: -o.bit_count()):
        if not any(outcome | kept == kept for kept in front):
            front.append(outcome)
            if len(front) == limit:
                break
    return front


class _Search:
    def __init__(self, gt: int, declarer: int, target: int, time_limit) -> None:
        from skat.solver.search import declarer_reaches

        self.gt, self.declarer, self.target = gt, declarer, target
        self.time_limit = time_limit
        self.reaches = declarer_reaches
        self.leaves = 0

    def leaf(self, worlds: dict[int, Position]) -> int:
        won = 0
        for i, pos in worlds.items():
            if pos.points >= self.target or (
                    (pos.hands[0] | pos.hands[1] | pos.hands[2]) and pos.points + _left(pos) >= self.target
                    and self.reaches(self.gt, pos.hands, pos.trick, pos.leader, self.declarer, self.target,
                                     pos.points, time_limit=self.time_limit())):
                won |= 1 << i
            self.leaves += 1
        return won

    def front(self, worlds: dict[int, Position], depth: int) -> list[int]:
        """The Pareto front of the declarer's strategies over ``worlds`` (all in the same state of knowledge)."""
        some = next(iter(worlds.values()))
        if not (some.hands[0] | some.hands[1] | some.hands[2]):
            return [sum(1 << i for i, pos in worlds.items() if pos.points >= self.target)]
        mover = some.mover()
        if mover == self.declarer:
            if depth == 0:
                return [self.leaf(worlds)]
            outcomes: list[int] = []
            for card in iter_mask(some.legal(self.gt)):  # the declarer's own cards: the same in every world
                after = {i: pos.play(self.gt, self.declarer, card) for i, pos in worlds.items()}
                outcomes.extend(self.front(after, depth - 1))
            return pareto(outcomes)
        everywhere = sum(1 << i for i in worlds)
        combined: list[int] | None = None
        cards = 0
        for pos in worlds.values():
            cards |= pos.legal(self.gt)
        for card in iter_mask(cards):
            after = {i: pos.play(self.gt, self.declarer, card) for i, pos in worlds.items()
                     if pos.legal(self.gt) >> card & 1}
            elsewhere = everywhere & ~sum(1 << i for i in after)
            sub = [outcome | elsewhere for outcome in self.front(after, depth)]
            combined = sub if combined is None else pareto([a & b for a in combined for b in sub])
        assert combined is not None
        return combined


def _left(pos: Position) -> int:
    return mask_points(pos.hands[0] | pos.hands[1] | pos.hands[2]) + mask_points(
        sum(1 << c for c in pos.trick))


def best_card(gt: int, declarer: int, target: int, worlds: list[Position], depth: int = 2,
              time_limit=lambda: None) -> tuple[int, dict[int, int], int]:
    """The declarer's card by alpha-mu over ``worlds`` (all with the declarer to move), each card's number of
    worlds won by its best strategy, and the number of double-dummy searches made. Raises
    :class:`skat.solver.search.SearchLimitExceeded` past the ``time_limit`` of a budget."""
    search = _Search(gt, declarer, target, time_limit)
    indexed = dict(enumerate(worlds))
    first = worlds[0]
    if first.mover() != declarer:
        raise ValueError("alpha-mu chooses the declarer's card: the declarer must be to move")
    won: dict[int, int] = {}
    for card in iter_mask(first.legal(gt)):
        after = {i: pos.play(gt, declarer, card) for i, pos in indexed.items()}
        won[card] = max((o.bit_count() for o in search.front(after, depth - 1)), default=0)
    best = max(won, key=lambda c: (won[c], -mask_points(1 << c)))
    return best, won, search.leaves
