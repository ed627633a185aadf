"""Ramsch and Schieberamsch (docs/rules.md section 6): who gets the skat, who loses, and by how much.

Ramsch is played with grand's trick rules and no declarer; every player plays for himself.
The play itself runs in :class:`skat.deal.game.Game` (a deal that all passed turns into a Ramsch
when the rule set says so, and :func:`skat.deal.game.ramsch_game` starts one directly for Ramsch and
Schieber rounds); this module holds the pure rules: the pushes of Schieberamsch and the scorings
``augen``, ``fixed`` and ``hoyle``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from skat.cards import JACKS
from skat.rules.rulesets import ISKO, RuleSet

__all__ = ["RamschOutcome", "score_ramsch", "skat_receivers", "push_discards"]

SEATS = ("F", "M", "R")


@dataclass(frozen=True)
class RamschOutcome:
    """The result of a Ramsch: card points with the skat, the losers and every seat's entry."""

    scores: tuple[int, int, int]
    """Score-sheet entries per seat (forehand, middlehand, rearhand)."""
    card_points: tuple[int, int, int]
    """Card points per seat, the skat counted to whom it belongs."""
    tricks: tuple[int, int, int]
    losers: tuple[int, ...]
    """Seats that lose (Augen and fixed Ramsch); for ``hoyle`` the seat that scores."""
    jungfrauen: tuple[int, ...]
    """Seats that took no trick."""
    durchmarsch: int | None
    """The seat that took every trick, if any."""
    pushes: int
    """How often the skat was pushed on unseen (Schieberamsch)."""
    multiplier: int
    """What the base amount was multiplied by (Jungfrau and push doublings)."""
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores), "card_points": list(self.card_points), "tricks": list(self.tricks),
            "losers": list(self.losers), "jungfrauen": list(self.jungfrauen), "durchmarsch": self.durchmarsch,
            "pushes": self.pushes, "multiplier": self.multiplier, "explanation": self.explanation,
        }


def skat_receivers(trick_points: Sequence[int], last_trick: int, rules: RuleSet) -> tuple[int, ...]:
    """Seats whose card points the skat joins (D9): the last-trick winner, or the player(s) with most."""
    if rules.ramsch_skat == "last_trick":
        return (last_trick,)
    most = max(trick_points)
    return tuple(s for s in range(3) if trick_points[s] == most)


def score_ramsch(
    trick_points: Sequence[int],
    tricks: Sequence[int],
    skat_points: int,
    last_trick: int,
    rules: RuleSet | None = None,
    pushes: int = 0,
) -> RamschOutcome:
    """Score a finished Ramsch.

    ``trick_points`` and ``tricks`` are per seat (forehand, middlehand, rearhand) without the
    skat, ``skat_points`` the card points of the final skat, ``last_trick`` the seat that won
    the tenth trick and ``pushes`` how often the skat went on unseen in a Schieberamsch.
    """
    rules = rules or ISKO
    if len(trick_points) != 3 or len(tricks) != 3:
        raise ValueError("give trick points and tricks for the three seats")
    if sum(tricks) != 10:
        raise ValueError(f"a Ramsch has 10 tricks, got {sum(tricks)}")
    if sum(trick_points) + skat_points != 120:
        raise ValueError(f"trick points and skat must add up to 120, got {sum(trick_points) + skat_points}")
    if not 0 <= last_trick <= 2 or tricks[last_trick] == 0:
        raise ValueError(f"seat {last_trick} cannot have taken the last trick")
    points = list(trick_points)
    for seat in skat_receivers(trick_points, last_trick, rules):
        points[seat] += skat_points
    jungfrauen = tuple(s for s in range(3) if tricks[s] == 0)
    durchmarsch = next((s for s in range(3) if tricks[s] == 10), None)
    push_factor = 2**pushes
    scoring = rules.ramsch_scoring
    scores = [0, 0, 0]
    multiplier = push_factor
    if scoring == "hoyle":
        losers, why = _hoyle(points, tricks, last_trick, durchmarsch, scores)
        multiplier = 1
    else:
        most = max(points)
        losers = tuple(s for s in range(3) if points[s] == most)
        if scoring == "augen" and durchmarsch is not None and rules.ramsch_durchmarsch:
            scores[durchmarsch] = 120
            losers = ()
            multiplier = 1
            why = f"Durchmarsch: {SEATS[durchmarsch]} took every trick and scores +120"
        elif len(losers) == 3:
            losers = ()
            why = "40:40:40, nobody loses"
        else:
            if len(losers) == 2 and rules.ramsch_tie == "last_trick" and last_trick in losers:
                losers = (last_trick,)
            if scoring == "augen":
                amount = most
                if len(losers) == 2 and rules.ramsch_tie == "share":
                    amount = -(-most // 2)
                if rules.ramsch_jungfrau:
                    multiplier *= 2 ** len(jungfrauen)
                base_text = f"{most} card points"
            else:
                amount = rules.ramsch_fixed_stakes[min(len(jungfrauen), 2)]
                if len(losers) == 2 and rules.ramsch_tie == "share":
                    amount = -(-amount // 2)
                base_text = f"fixed stake {amount}"
            for s in losers:
                scores[s] = -amount * multiplier
            who = " and ".join(SEATS[s] for s in losers)
            why = f"{who} took most ({base_text})"
            if multiplier > 1:
                parts = []
                if pushes:
                    parts.append(f"{pushes} push{'es' if pushes > 1 else ''}")
                if scoring == "augen" and rules.ramsch_jungfrau and jungfrauen:
                    parts.append(f"{len(jungfrauen)} Jungfrau")
                why += f", x{multiplier} for {' and '.join(parts)}"
            why += f": {', '.join(str(scores[s]) for s in losers)}"
    return RamschOutcome(
        scores=(scores[0], scores[1], scores[2]), card_points=(points[0], points[1], points[2]),
        tricks=(tricks[0], tricks[1], tricks[2]), losers=tuple(losers), jungfrauen=jungfrauen,
        durchmarsch=durchmarsch, pushes=pushes, multiplier=multiplier, explanation="Ramsch: " + why,
    )


def _hoyle(
    points: list[int], tricks: Sequence[int], last_trick: int, durchmarsch: int | None, scores: list[int]
) -> tuple[tuple[int, ...], str]:
    """Historical Ramsch (docs/rules.md 10.3): the lowest scores +10, or +20 without a trick; all tricks -30."""
    if durchmarsch is not None:
        scores[durchmarsch] = -30
        return (durchmarsch,), f"{SEATS[durchmarsch]} took every trick: -30"
    low = min(points)
    lowest = [s for s in range(3) if points[s] == low]
    if len(lowest) == 3:
        scores[0] = 10
        return (0,), "all three equal: forehand +10"
    if len(lowest) == 2:
        # the one who did not take the last trick wins; if neither took it, the elder hand
        winner = next(s for s in lowest if s != last_trick)
        why_tie = f"tie for lowest, {SEATS[winner]} did not take the last trick"
    else:
        winner = lowest[0]
        why_tie = f"{SEATS[winner]} has the fewest card points ({low})"
    amount = 20 if tricks[winner] == 0 else 10
    scores[winner] = amount
    return (winner,), f"{why_tie}{' and no trick' if amount == 20 else ''}: +{amount}"


def push_discards(hand: int, rules: RuleSet) -> list[int]:
    """The two-card masks a Schieberamsch player may push from ``hand`` (jacks only if allowed)."""
    allowed = hand if rules.schieberamsch_jacks else hand & ~JACKS
    cards = [1 << c for c in range(32) if allowed >> c & 1]
    return [a | b for a, b in itertools.combinations(cards, 2)]
