"""Variants and table options of Officers' Skat (docs/rules.md section 9, D16, Q9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skat.schema import OptionError, Schema, choice, flag, json_value, number

__all__ = ["VARIANTS", "VARIANT_ALIASES", "SCORINGS", "OfficersOptions", "OfficersOptionError", "SCHEMA",
           "normalize_variant", "option_variants"]

VARIANTS: tuple[str, ...] = ("classic", "passing", "harlequin", "half_open", "admiral")
"""``classic`` layout game; ``passing`` (forehand may pass the choice); ``harlequin`` and
``half_open`` (cards drawn, every second card facing the opponent); ``admiral`` (bidding, skat)."""

VARIANT_ALIASES: dict[str, str] = {
    "officers": "classic", "officers_skat": "classic", "offiziersskat": "classic", "layout": "classic",
    "harlekin": "harlequin", "half-open": "half_open", "halfopen": "half_open", "halboffen": "half_open",
    "admirals": "admiral", "admiralsskat": "admiral",
}
"""Other names accepted for the variants (``skat play --variant officers`` means the classic game)."""


def normalize_variant(name: str) -> str:
    """The variant's canonical name; an unknown name raises ValueError listing the choices."""
    key = str(name).strip().lower()
    key = VARIANT_ALIASES.get(key, key)
    if key not in VARIANTS:
        raise ValueError(f"unknown Officers' Skat variant {name!r}; choose one of: {', '.join(VARIANTS)}")
    return key


SCORINGS: tuple[str, ...] = ("matadors", "full_matadors", "base", "card_points", "points_234")
"""Scoring systems of docs/rules.md section 9; ``matadors`` (jack matadors + 1) x base is the default (D16)."""

# Options that only mean something in some variants (a wrong one is an error, not silently ignored).
_NOT_IN_ADMIRAL = ("scoring", "schneider_rule", "schwarz_rule", "schneider_on_loss", "allow_null", "allow_ramsch",
                   "null_value")
_ONLY_IN_ADMIRAL = ("all_pass",)


def option_variants(name: str) -> tuple[str, ...]:
    """The variants in which option ``name`` may be changed (``skat rules show officers``)."""
    if name in _NOT_IN_ADMIRAL:
        return tuple(v for v in VARIANTS if v != "admiral")
    if name in _ONLY_IN_ADMIRAL:
        return ("admiral",)
    return VARIANTS


class OfficersOptionError(OptionError):
    """An unknown Officers' Skat option, a value of the wrong type or out of range (a ValueError)."""


@dataclass(frozen=True)
class OfficersOptions:
    """Agreements of an Officers' Skat table. The defaults are the seed's reading (docs/rules.md D16, Q9).

    Declared like :class:`skat.rules.rulesets.RuleSet` (:mod:`skat.schema`): :data:`SCHEMA` checks every
    option wherever it enters (keywords of :class:`~skat.variants.officers.OfficersGame`, a server table's
    ``options``, a record).
    """

    scoring: str = choice("matadors", SCORINGS, """``matadors``: (jack matadors + 1) x base, Schneider x2,
        Schwarz x4, a loss costs twice the value; ``full_matadors``: the same with Skat's full matador run
        (jacks, then A T K Q 9 8 7 of trumps); ``base``: the winner gets the base value, doubled for
        Schneider; ``card_points``: the winner gets the card points he took; ``points_234``: the winner
        gets 2, 3 for Schneider, 4 for Schwarz, 60:60 1 each.""")
    schneider_rule: str = choice("less_than_30", ("less_than_30", "at_most_30"),
                                 "``less_than_30`` (the seed: \"less than 30\" card points) or ``at_most_30`` (Skat's rule).")
    schwarz_rule: str = choice("no_points", ("no_points", "no_tricks"), """``no_points`` (the seed: "no points
        at all") or ``no_tricks`` (Skat's rule: no trick taken).""")
    schneider_on_loss: bool = flag(False, """Whether a losing chooser who is himself Schneider/Schwarz loses the
        doubled amount (the seed: no).""")
    kontra: bool = flag(True, "Kontra and Re may be said (each doubles the score).")
    allow_null: bool = flag(False, "Null may be chosen (by agreement): the chooser must take no trick.")
    allow_ramsch: bool = flag(False, "Ramsch may be chosen (by agreement): the player with fewer card points wins.")
    null_value: int = number(23, 1, 100, "The value of a Null game (Skat's Null value).")
    all_pass: str = choice("ramsch", ("ramsch", "passed_in"), """Admiral's Skat: what happens when both pass
        the auction: ``ramsch`` or ``passed_in`` (nobody scores).""")

    def __post_init__(self) -> None:
        SCHEMA.validate(self)

    @classmethod
    def for_variant(cls, variant: str, **options: Any) -> OfficersOptions:
        """Options for a variant; unknown names or options that do not apply to it raise ValueError."""
        variant = normalize_variant(variant)
        opts = cls(**SCHEMA.check_changes(options))
        default = cls()
        if variant == "admiral":
            bad = [n for n in _NOT_IN_ADMIRAL if getattr(opts, n) != getattr(default, n)]
            why = ("Admiral's Skat is valued like Skat (the bid must be reached) and Null is always biddable")
        else:
            bad = [n for n in _ONLY_IN_ADMIRAL if getattr(opts, n) != getattr(default, n)]
            why = "it belongs to Admiral's Skat, the variant with an auction"
        if bad:
            raise OfficersOptionError(f"option(s) {', '.join(bad)} do not apply to the {variant} variant: {why}",
                                      bad[0])
        return opts

    def to_json(self) -> dict[str, Any]:
        """Every option, JSON-ready."""
        return {name: json_value(getattr(self, name)) for name in SCHEMA.options}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        default = OfficersOptions()
        return {k: v for k, v in self.to_json().items() if getattr(default, k) != v}


SCHEMA = Schema(OfficersOptions, "option", OfficersOptionError)
"""The options of :class:`OfficersOptions`: the type, range or choices and doc of each (:mod:`skat.schema`)."""
