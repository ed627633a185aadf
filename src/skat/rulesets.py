"""Named rule sets: declarative, documented bundles of rule options.

``ISKO`` (the International Skat Order 2018) is the default. A preset can be
varied option by option: ``ISKO.replace(lost_hand_game_factor=1)``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from skat.rules.bidding import BID_VALUES

__all__ = ["RuleSet", "ISKO", "OLD_PRE1999", "PRESETS", "get_ruleset"]


@dataclass(frozen=True)
class RuleSet:
    """Options of a Skat table. Every field is documented; defaults are the ISkO's."""

    name: str = "isko2018"
    description: str = "International Skat Order 2018 (tournament rules)"
    bid_values: tuple[int, ...] = BID_VALUES
    """The bid ladder."""
    lost_game_factor: int = 2
    """A lost game costs this many times its value (ISkO: every lost game counts double)."""
    lost_hand_game_factor: int = 2
    """The same for lost hand games (1 before the rule change of 1999, RULES.md D1)."""
    grand_ouvert_base36: bool = False
    """Old rule of seeds 000/001: grand ouvert has base 36 and no ouvert level (RULES.md D4)."""
    schneider_points: int = 90
    """Card points the declarer needs to make the defenders Schneider (historical: 91)."""
    all_pass: str = "passed_in"
    """What happens when all three pass: ``passed_in`` (ISkO; nobody scores) or ``ramsch``."""

    def replace(self, **changes) -> RuleSet:
        """A copy with some options changed; unknown options raise a clear error."""
        fields = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - fields)
        if unknown:
            raise ValueError(f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(fields))}")
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["bid_values"] = list(self.bid_values)
        return d

    @classmethod
    def from_json(cls, data: dict) -> RuleSet:
        data = dict(data)
        if "bid_values" in data:
            data["bid_values"] = tuple(data["bid_values"])
        base = get_ruleset(data.get("name", "isko2018")) if data.get("name") in PRESETS else cls()
        return base.replace(**data)


ISKO = RuleSet()
"""Tournament rules of the International Skat Order (2018, with the 2022 amendment)."""

OLD_PRE1999 = ISKO.replace(
    name="old_pre1999", description="ISkO before 1999: lost hand games are not doubled", lost_hand_game_factor=1
)

PRESETS: dict[str, RuleSet] = {"isko": ISKO, "isko2018": ISKO, "old_pre1999": OLD_PRE1999}


def get_ruleset(name: str) -> RuleSet:
    """A preset by name (case-insensitive)."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown rule set {name!r}; choose one of: {', '.join(sorted(PRESETS))}") from None
