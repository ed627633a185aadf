"""Pure-Python reference solvers: small and plain, to check the compiled solver against.

They use the engine's own rules (:func:`skat.rules.ranking.legal_mask`, :func:`winner_index`,
:func:`skat.cards.mask_points`) on Card numbers, not the compiled kernels' layout tables, so a
shared mistake is unlikely.

* ``brute_force_*``: full minimax over every legal card, no pruning.  Only for endgames of a few
  tricks (four tricks: at most 13,824 lines of play).
* ``reference_*``: a boolean search "does the declarer's rest value reach t?" with cut-offs and a
  memo of answers at trick starts; exact values by bisection over t.  Slow, but it finishes full
  deals.
"""

from __future__ import annotations

from skat.cards import iter_mask, mask_points
from skat.rules.ranking import GameType, legal_mask, winner_index
from skat.solver.position import Position

__all__ = [
    "brute_force_points",
    "brute_force_move_points",
    "brute_force_all_tricks",
    "brute_force_null",
    "brute_force_null_moves",
    "reference_points",
    "reference_reaches",
    "reference_all_tricks",
    "reference_null",
    "reference_move_points",
    "brute_force_ramsch_moves",
]

POINTS, DECLARER_TRICKS, DEFENDER_TRICKS = "points", "declarer_tricks", "defender_tricks"
OTHERS_POINTS = "others_points"


def _trick_value(kind: str, declarer: int, winner: int, trick: tuple[int, ...]) -> int:
    if kind == POINTS:
        return mask_points((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2])) if winner == declarer else 0
    if kind == OTHERS_POINTS:
        return mask_points((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2])) if winner != declarer else 0
    if kind == DECLARER_TRICKS:
        return 1 if winner == declarer else 0
    return 1 if winner != declarer else 0


def _children(gt: int, hands: tuple[int, int, int], trick: tuple[int, ...], leader: int):
    """(card, hands after it, trick after it, completed-trick winner or None) for each legal card."""
    seat = (leader + len(trick)) % 3
    lead = trick[0] if trick else -1
    for c in iter_mask(legal_mask(gt, hands[seat], lead)):
        new_hands = list(hands)
        new_hands[seat] &= ~(1 << c)
        t = trick + (c,)
        winner = (leader + winner_index(gt, t)) % 3 if len(t) == 3 else None
        yield c, (new_hands[0], new_hands[1], new_hands[2]), t, winner


# --------------------------------------------------------------------------- brute force
def _minimax(gt: int, declarer: int, kind: str, hands, trick, leader, skat_points: int = 0) -> int:
    if not trick and not (hands[0] | hands[1] | hands[2]):  # the last trick's winner leads: the skat is his
        return skat_points if kind == OTHERS_POINTS and leader != declarer else 0
    seat = (leader + len(trick)) % 3
    values = []
    for _, h, t, winner in _children(gt, hands, trick, leader):
        if winner is None:
            values.append(_minimax(gt, declarer, kind, h, t, leader, skat_points))
        else:
            tv = _trick_value(kind, declarer, winner, t)
            values.append(tv + _minimax(gt, declarer, kind, h, (), winner, skat_points))
    return max(values) if seat == declarer else min(values)


def _after(pos: Position, card: int, kind: str) -> tuple[int, tuple, tuple, int]:
    """(trick value gained, hands, trick, leader) after the player to move plays ``card``."""
    for c, h, t, winner in _children(pos.game_type, pos.hands, pos.trick, pos.leader):
        if c == card:
            if winner is None:
                return 0, h, t, pos.leader
            return _trick_value(kind, pos.declarer, winner, t), h, (), winner
    raise ValueError(f"card {card} is not legal here")


def brute_force_points(pos: Position) -> int:
    """The declarer's final card points under optimal play, by full minimax."""
    return pos.declarer_points + _minimax(pos.game_type, pos.declarer, POINTS, pos.hands, pos.trick, pos.leader)


def brute_force_move_points(pos: Position) -> dict[int, int]:
    """Final declarer card points after each legal card of the player to move, by full minimax."""
    out = {}
    for c in iter_mask(pos.legal_cards().mask):
        tv, h, t, leader = _after(pos, c, POINTS)
        out[c] = pos.declarer_points + tv + _minimax(pos.game_type, pos.declarer, POINTS, h, t, leader)
    return out


def brute_force_ramsch_moves(pos: Position, skat_points: int = 0) -> dict[int, int]:
    """For a Ramsch (grand's tricks; ``pos.game_type`` grand): the card points the two seats other than the one to
    move take from the current trick on after each of its legal cards, when it plays to give them the most and they
    play together to give it the most, by full minimax; ``skat_points`` go to whoever takes the last trick."""
    seat = pos.to_move
    out = {}
    for c in iter_mask(pos.legal_cards().mask):
        for card, h, t, winner in _children(pos.game_type, pos.hands, pos.trick, pos.leader):
            if card != c:
                continue
            if winner is None:
                out[c] = _minimax(pos.game_type, seat, OTHERS_POINTS, h, t, pos.leader, skat_points)
            else:
                out[c] = (_trick_value(OTHERS_POINTS, seat, winner, t)
                          + _minimax(pos.game_type, seat, OTHERS_POINTS, h, (), winner, skat_points))
    return out


def brute_force_all_tricks(pos: Position) -> bool:
    """Whether the declarer can take every trick (the ones already taken included), by full minimax."""
    rest = _minimax(pos.game_type, pos.declarer, DECLARER_TRICKS, pos.hands, pos.trick, pos.leader)
    return pos.defender_tricks == 0 and rest == pos.tricks_left


def brute_force_null(pos: Position) -> bool:
    """Whether a null declarer can avoid taking any trick, by full minimax."""
    rest = _minimax(pos.game_type, pos.declarer, DEFENDER_TRICKS, pos.hands, pos.trick, pos.leader)
    return pos.declarer_tricks == 0 and rest == pos.tricks_left


def brute_force_null_moves(pos: Position) -> dict[int, bool]:
    """Whether the null declarer still takes no trick after each legal card, by full minimax."""
    out = {}
    for c in iter_mask(pos.legal_cards().mask):
        tv, h, t, leader = _after(pos, c, DEFENDER_TRICKS)
        rest = tv + _minimax(pos.game_type, pos.declarer, DEFENDER_TRICKS, h, t, leader)
        out[c] = pos.declarer_tricks == 0 and rest == pos.tricks_left
    return out


# --------------------------------------------------------------------------- reference search
class _Reference:
    """Boolean search over one deal with a memo of answers at trick starts."""

    def __init__(self, pos: Position, kind: str) -> None:
        self.gt = int(pos.game_type)
        self.declarer = pos.declarer
        self.kind = kind
        self.memo: dict[tuple[int, int, int, int, int], bool] = {}
        self.nodes = 0

    def most(self, hands, trick) -> int:
        """An upper bound of the rest value: everything still in play."""
        if self.kind == POINTS:
            m = hands[0] | hands[1] | hands[2]
            for c in trick:
                m |= 1 << c
            return mask_points(m)
        return (hands[0].bit_count() + hands[1].bit_count() + hands[2].bit_count() + len(trick)) // 3

    def reaches(self, hands, trick, leader, target: int) -> bool:
        """Can the declarer make the rest value at least ``target``?"""
        self.nodes += 1
        if target <= 0:
            return True
        if target > self.most(hands, trick):
            return False
        key = None
        if not trick:
            key = (hands[0], hands[1], hands[2], leader, target)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        maximizing = (leader + len(trick)) % 3 == self.declarer
        result = not maximizing
        for _, h, t, winner in _children(self.gt, hands, trick, leader):
            if winner is None:
                ok = self.reaches(h, t, leader, target)
            else:
                ok = self.reaches(h, (), winner, target - _trick_value(self.kind, self.declarer, winner, t))
            if ok == maximizing:
                result = ok
                break
        if key is not None:
            self.memo[key] = result
        return result

    def value(self, hands, trick, leader) -> int:
        """The exact rest value by bisection over boolean searches."""
        lo, hi = 0, self.most(hands, trick)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.reaches(hands, trick, leader, mid):
                lo = mid
            else:
                hi = mid - 1
        return lo


def reference_points(pos: Position) -> int:
    """The declarer's final card points under optimal play."""
    ref = _Reference(pos, POINTS)
    return pos.declarer_points + ref.value(pos.hands, pos.trick, pos.leader)


def reference_reaches(pos: Position, target: int) -> bool:
    """Whether the declarer ends with at least ``target`` card points under optimal play."""
    ref = _Reference(pos, POINTS)
    return ref.reaches(pos.hands, pos.trick, pos.leader, target - pos.declarer_points)


def reference_all_tricks(pos: Position) -> bool:
    """Whether the declarer takes every trick of the deal."""
    if pos.defender_tricks:
        return False
    ref = _Reference(pos, DECLARER_TRICKS)
    return ref.reaches(pos.hands, pos.trick, pos.leader, pos.tricks_left)


def reference_null(pos: Position) -> bool:
    """Whether a null declarer avoids every trick."""
    if pos.game_type != GameType.NULL:
        raise ValueError("reference_null answers null games only")
    ref = _Reference(pos, DEFENDER_TRICKS)
    return ref.reaches(pos.hands, pos.trick, pos.leader, pos.tricks_left)


def reference_move_points(pos: Position) -> dict[int, int]:
    """Final declarer card points after each legal card of the player to move."""
    ref = _Reference(pos, POINTS)
    out = {}
    for c in iter_mask(pos.legal_cards().mask):
        tv, h, t, leader = _after(pos, c, POINTS)
        out[c] = pos.declarer_points + tv + ref.value(h, t, leader)
    return out
