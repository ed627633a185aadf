"""Named rule sets: declarative, documented bundles of rule options.

``ISKO`` (the International Skat Order 2018) is the default. The other presets are
the house rules of the seeds: ``PUB`` (Ramsch when all pass, Kontra/Re, Bock rounds),
``PIRATE`` (the "pirate/robber skat" of seed 001, docs/rules.md section 7) and ``TOURNEE``
(the historical American Tournee Skat of docs/rules.md section 10). Any preset can be
varied option by option: ``PUB.replace(ramsch_scoring="fixed")``. Every record and
score sheet carries the whole rule set (:meth:`RuleSet.to_json`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skat.rules.bidding import BID_VALUES
from skat.schema import OptionError, Schema, choice, flag, json_value, names, number, numbers, text

__all__ = [
    "RuleSet", "ISKO", "OLD_PRE1999", "PUB", "PIRATE", "TOURNEE", "PRESETS", "get_ruleset",
    "BOCK_TRIGGERS", "TOURNEE_BID_VALUES", "TOURNEE_GAME_VALUES", "RuleSetError", "SCHEMA", "on_tournee_ladder",
]


class RuleSetError(OptionError):
    """An unknown rule option, or a value of the wrong type or out of range (a ValueError); the message
    names the option and what it accepts."""


BOCK_TRIGGERS: dict[str, str] = {
    "lost_60": "a suit or grand game lost with exactly 60 card points (60:60) [SKATSP, XSKAT]",
    "grand_hand_won": "a won Grand Hand [SKATSP, XSKAT]",
    "null_ouvert_hand": "a Null Ouvert Hand, won or lost [SKATSP]",
    "kontra_lost": "a game the declarer lost after Kontra was said [XSKAT]",
    "re": "a game in which Re was said [XSKAT]",
    "hundred": "a player's running total becomes a multiple of 100 (not 0) [XSKAT]",
    "repdigit": "a player's running total becomes 111, 222, ... 999 (or the negative) [XSKAT]",
    "value": "a game whose value is at least bock_value_threshold [XSKAT; the brief's 120, Q6]",
}
"""The Bock triggers the engine knows, by name (docs/rules.md section 7; D13)."""


_TOURNEE_SPANS: tuple[tuple[int, int, int], ...] = (
    *((unit, 2, 14) for unit in (5, 6, 7, 8)),  # Tournee: up to 11 matadors + game + schneider + schwarz
    *((unit, 2, 16) for unit in (9, 10, 11, 12)),  # Solo: the same + schneider and schwarz announced
    (12, 2, 7), (16, 2, 7),  # Grand Tournee, Gucki: up to 4 matadors + game + schneider + schwarz
    (20, 2, 9),  # Grand Solo: the same + both announcements
    (24, 4, 9),  # Grand Ouvert: both announcements always count
)
"""Per unit value (docs/rules.md 10.2) the lowest and highest multiplier a Tournee game can reach (10.3)."""

TOURNEE_GAME_VALUES: tuple[int, ...] = tuple(sorted(
    {unit * m for unit, low, high in _TOURNEE_SPANS for m in range(low, high + 1)} | {20, 40}))
"""Every value a game of the historical rules can have (Null 20 and Null Ouvert 40 included); the highest
is 216 (Grand Ouvert with 4: 9 x 24)."""

TOURNEE_TOP_BID: int = TOURNEE_GAME_VALUES[-1]
"""No Tournee game is worth more, so no bid of the historical ladder lies above it."""

_TOURNEE_VALUE_SET = frozenset(TOURNEE_GAME_VALUES)
_STANDARD_VALUE_SET = frozenset(BID_VALUES)


def on_tournee_ladder(value: int) -> bool:
    """Whether ``value`` is a bid of the historical rules: 10 to 216, a raise by 2 or a game value."""
    return 10 <= value <= TOURNEE_TOP_BID and (value % 2 == 0 or value in _TOURNEE_VALUE_SET)


TOURNEE_BID_VALUES: tuple[int, ...] = tuple(sorted(set(range(10, 100, 2)) | _TOURNEE_VALUE_SET))
"""Bids of the historical rules (docs/rules.md 10.1): from 10, raises by 2 or to any game value a Tournee
table can reach (:data:`TOURNEE_GAME_VALUES`, up to 216)."""


def _legacy_tournee_ladder() -> tuple[int, ...]:
    """The Tournee preset's ladder before it was cut to what a game can reach (unit x 2..19, up to 456)."""
    values = set(range(10, 100, 2)) | {20, 40}
    for unit in (5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 24):
        values |= {unit * m for m in range(2, 20) if unit * m >= 10}
    return tuple(sorted(values))


_LEGACY_TOURNEE_LADDER: list[int] = list(_legacy_tournee_ladder())
"""A record that carries it is read with :data:`TOURNEE_BID_VALUES` instead (:meth:`RuleSet.from_json`)."""

_LADDER_RULE = ("a strictly increasing list of bids: game values of standard Skat (18 to 264, docs/rules.md 2), "
                "or, with a first bid below 18, the historical ladder (10 to 216: even numbers and Tournee "
                "game values, docs/rules.md 10.1), which a tournee table must use")


def _ladder_complaint(values: tuple[int, ...]) -> str | None:
    """What is wrong with a bid ladder whose items passed as rising whole numbers, or None."""
    if values and values[0] < 18:
        bad = next((v for v in values if not on_tournee_ladder(v)), None)
        return None if bad is None else (f"{bad} is not on the historical ladder (an even number or a "
                                         f"Tournee game value up to {TOURNEE_TOP_BID})")
    bad = next((v for v in values if v not in _STANDARD_VALUE_SET), None)
    return None if bad is None else f"{bad} is not a game value"


@dataclass(frozen=True)
class RuleSet:
    """Options of a Skat table; the defaults are the ISkO's.

    Each field is declared with its type, its range or choices and its documentation, which
    names the docs/rules.md section or disagreement (D1...) it settles (:mod:`skat.schema`;
    :data:`SCHEMA` reads them). Every way in checks the options against it: the constructor,
    :meth:`replace`, :meth:`from_json` (records), ``skat series --set`` and a server table's
    ``options``.
    """

    name: str = text("isko2018", "The rule set's name (a preset's, or your own).", min_length=1, max_length=40)
    description: str = text("International Skat Order 2018 (tournament rules)", "One line about the rule set.")
    variant: str = choice("standard", ("standard", "tournee"),
                          "``standard`` Skat, or ``tournee``: the historical Tournee Skat of docs/rules.md section 10.")
    bid_values: tuple[int, ...] = numbers(
        BID_VALUES, 10, 264, "The bid ladder.", min_length=1, max_length=200, increasing=True, rule=_LADDER_RULE,
        test=_ladder_complaint)
    lost_game_factor: int = number(
        2, 1, 4, "A lost game costs this many times its value (ISkO: every lost game counts double).")
    lost_hand_game_factor: int = number(
        2, 1, 4, "The same for lost hand games (1 before the rule change of 1999, docs/rules.md D1).")
    grand_ouvert_base36: bool = flag(
        False, "Old rule of seeds 000/001: grand ouvert has base 36 and no ouvert level (docs/rules.md D4).")
    schneider_points: int = number(
        90, 61, 120, "Card points the declarer needs to make the defenders Schneider (historical: 91, D2).")
    all_pass: str = choice("passed_in", ("passed_in", "ramsch", "redeal"), """When all three pass (D5):
        ``passed_in`` (ISkO: counts as a game, nobody scores, the next dealer deals), ``ramsch`` (Ramsch
        with the same cards, section 6) or ``redeal`` (seeds 000 A and 001: the same dealer deals again,
        and the deal does not count as a game).""")

    # --- Ramsch (docs/rules.md section 6) ---------------------------------------------------------
    ramsch_grand_hand: bool = flag(False, """Before a Ramsch starts, each player from forehand on may
        announce Grand Hand instead; it is played and scored as normal Skat, and the same dealer deals
        again [PAGAT-SR].""")
    ramsch_scoring: str = choice("augen", ("augen", "fixed", "hoyle"), """``augen`` (the most card points
        lose them, D8), ``fixed`` (loser -10, -15 with one Jungfrau, -20 with two or a Durchmarsch), or
        ``hoyle`` (+10 to the lowest, +20 if he took no trick, -30 for taking every trick; docs/rules.md 10.3).""")
    ramsch_fixed_stakes: tuple[int, int, int] = numbers((10, 15, 20), 0, 1000, """The stakes of ``fixed``
        Ramsch: no Jungfrau, one Jungfrau, two Jungfrauen (Durchmarsch).""", length=3)
    ramsch_skat: str = choice("last_trick", ("last_trick", "loser"), """Who gets the skat's card points
        (D9): ``last_trick`` (the winner of the last trick) or ``loser`` (the player with most card points;
        when tied, each of them).""")
    ramsch_tie: str = choice("all_lose", ("all_lose", "share", "last_trick"), """Two tied for most card
        points in Augenramsch (D10): ``all_lose`` (both lose the full amount), ``share`` (they split it,
        rounded up) or ``last_trick`` (of the tied players, the one who took the last trick loses; if
        neither did, both lose). 40:40:40 scores nothing.""")
    ramsch_jungfrau: bool = flag(
        True, "In Augenramsch each Jungfrau (a player who took no trick) doubles the loser's minus.")
    ramsch_durchmarsch: bool = flag(
        True, "In Augenramsch a player who takes every trick (Durchmarsch) scores +120 instead of losing.")
    schieberamsch: bool = flag(False, """Every Ramsch is a Schieberamsch: before the play each player from
        forehand on takes the skat and pushes two cards, or pushes it on unseen (docs/rules.md section 6, D11).""")
    schieberamsch_jacks: bool = flag(False, "Jacks may be pushed in the skat (most tables forbid it).")
    schieberamsch_unseen_push: bool = flag(True, """A player may push the skat on without looking at it;
        each such push doubles the loser's minus (1 push x2, 2 pushes x4, 3 pushes x8). Without it
        everybody must take the skat.""")

    # --- Kontra / Re (docs/rules.md 5.3, D12) -----------------------------------------------------
    kontra: bool = flag(False, """A defender may say Kontra and the declarer answer Re; each call doubles
        the score of the game, won or lost, and not its value (overbidding is judged without it).""")
    kontra_who: str = choice("any_defender", ("any_defender", "bidders"), """Who may say Kontra:
        ``any_defender``, or ``bidders`` (only a defender who bid or held in the auction, that is at
        least 18) [kneipenskat; XSKAT -kontra18].""")
    kontra_until: str = choice("own_first_card", ("own_first_card", "first_lead"), """Until when:
        ``own_first_card`` (a defender before he plays to the first trick; the declarer may answer Re
        until the first trick is complete) or ``first_lead`` (both only before the first card is led).
        Kontra and Re are side actions: they are said out of turn, as at a real table.""")
    kontra_re: bool = flag(True, "The declarer may answer Kontra with Re.")

    # --- Bock rounds and the pirate sequence (docs/rules.md section 7, D13) -----------------------
    bock_triggers: tuple[str, ...] = names((), tuple(BOCK_TRIGGERS), """Events that queue a Bock round,
        named in :data:`BOCK_TRIGGERS`; each event queues one round (as many games as players) in which
        every score is doubled. Empty: no Bock rounds.""",
        rule=f"a list of Bock triggers, each at most once, from {', '.join(BOCK_TRIGGERS)} (empty: no Bock rounds)")
    bock_value_threshold: int = number(
        120, 0, 1000, "Game value at or above which the ``value`` trigger fires (Q6: a house number).")
    bock_includes_trigger: bool = flag(False, "The game that triggers a Bock round counts double itself [SKATSP].")
    bock_ramsch_round: bool = flag(
        False, "Each Bock round is followed by a Ramsch round: every deal is played as Ramsch [XSKAT].")
    pirate: bool = flag(False, """Seed 001's sequence: once a player's running total reaches
        ``pirate_threshold``, one Bock round follows, then one Schieber round (every deal a
        Schieberamsch).""")
    pirate_threshold: int = number(
        100, 1, 10_000, "The running total that starts the pirate sequence (Q7: any player, at or above it).")
    pirate_repeat: bool = flag(False, """After the pirate sequence the threshold rises by
        ``pirate_threshold`` (200, 300...) and the sequence can come again; without it the sequence is
        played once per series (Q7).""")
    pirate_bock_lost_hand_factor: int = number(2, 1, 8, """Q7: what a lost hand game costs in the pirate
        Bock round, in times its value. 2 reads the seed literally (only skat-pickup losses count four
        times); 4 treats it like any lost game.""")

    # --- Real table (docs/rules.md section 8) ------------------------------------------------------
    real_table: bool = flag(False, """Score-keeping for games played with physical cards: a card that does
        not follow suit is recorded as a revoke and ends the game against the guilty side (ISkO
        4.1.3-4.1.5) instead of being refused.""")

    # --- Score sheet (docs/rules.md 5.2, D14) -------------------------------------------------------
    seeger_won: int = number(50, 0, 1000, "Seeger-Fabian: added to the declarer's entry for a won game.")
    seeger_lost: int = number(50, 0, 1000, "Seeger-Fabian: taken from the declarer's entry for a lost game.")
    fabian_bonus: tuple[int, int, int] = numbers((40, 30, 30), 0, 1000, """Seeger-Fabian: what each other
        player at a 3-, 4- or 5-table gets when a declarer loses (the sitting-out players included).
        5-tables are not in the source; 30 carries the 4-table rule over.""", length=3)

    def __post_init__(self) -> None:
        SCHEMA.validate(self)
        if self.variant == "tournee":
            bad = next((v for v in self.bid_values if not on_tournee_ladder(v)), None)
            if bad is not None:
                raise SCHEMA.fail("bid_values", self.bid_values,
                                  f"a tournee table bids on the historical ladder, and {bad} is not on it")

    @property
    def ramsch_possible(self) -> bool:
        """Whether this table plays Ramsch at all (all pass, Ramsch rounds, the pirate Schieber round)."""
        return self.all_pass == "ramsch" or self.bock_ramsch_round or self.pirate

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed; an unknown option or a bad value raises :class:`RuleSetError`."""
        SCHEMA.refuse_unknown(changes)
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """Every option, JSON-ready (lists for tuples)."""
        return {name: json_value(getattr(self, name)) for name in SCHEMA.options}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleSet:
        """Read :meth:`to_json` output; options missing there keep the named preset's values.

        Every name and value is checked, strictly (``1`` is not ``true``); a bad one raises
        :class:`RuleSetError` naming it. A Tournee ladder written before the ladder was cut to
        what a game can reach (it went up to 456) is read as today's :data:`TOURNEE_BID_VALUES`.
        """
        if not isinstance(data, Mapping):
            raise RuleSetError(f"a rule set is a JSON object of rule options, not {type(data).__name__}")
        data = dict(data)
        SCHEMA.refuse_unknown(data)
        name = data.get("name", "isko2018")
        base = PRESETS.get(name.lower(), ISKO) if isinstance(name, str) else ISKO
        if data.get("variant", base.variant) == "tournee" and data.get("bid_values") == _LEGACY_TOURNEE_LADDER:
            data["bid_values"] = TOURNEE_BID_VALUES
        return base.replace(**data)

    def describe(self) -> list[tuple[str, object, str]]:
        """(option, value, documentation) for every option: the printable rule sheet."""
        return [(name, getattr(self, name), " ".join(option.doc.split())) for name, option in SCHEMA.options.items()]

    def changed(self, base: RuleSet | None = None) -> dict[str, Any]:
        """The options (JSON-ready) whose value differs from ``base``'s (default: ISkO's)."""
        base = ISKO if base is None else base
        return {k: v for k, v in self.to_json().items() if v != json_value(getattr(base, k))}


SCHEMA = Schema(RuleSet, "rule option", RuleSetError)
"""The options of :class:`RuleSet`: the type, range or choices and doc of each (:mod:`skat.schema`)."""


ISKO = RuleSet()
"""Tournament rules of the International Skat Order (2018, with the 2022 amendment)."""

OLD_PRE1999 = ISKO.replace(
    name="old_pre1999", description="ISkO before 1999: lost hand games are not doubled", lost_hand_game_factor=1
)

PUB = ISKO.replace(
    name="pub",
    description="Pub rules: Ramsch (Grand Hand allowed) when all pass, Kontra/Re, Bock rounds",
    all_pass="ramsch",
    ramsch_grand_hand=True,
    kontra=True,
    bock_triggers=("lost_60", "grand_hand_won", "null_ouvert_hand", "kontra_lost", "re"),
)
"""The common social game: Augenramsch when all pass (Grand Hand may be announced instead),
Kontra/Re by any defender before his first card, and a Bock round after a 60:60, a won Grand
Hand, a Null Ouvert Hand, a lost Kontra game or a Re [SKATSP; XSKAT; PAGAT]."""

PIRATE = ISKO.replace(
    name="pirate",
    description="Seed 001 pirate/robber skat: a Bock round at 100, then a Schieber round",
    lost_hand_game_factor=1,
    grand_ouvert_base36=True,
    all_pass="redeal",
    pirate=True,
    ramsch_skat="loser",
    ramsch_jungfrau=False,
    ramsch_durchmarsch=False,
    schieberamsch_unseen_push=False,
)
"""Seed 001 as docs/rules.md section 7 reads it: the seed's old rules (lost hand games single, grand
ouvert base 36, a redeal when all pass); once a running total reaches 100, one Bock round (lost
skat games x4) and then one Schieber round, where each player takes the skat and passes two
cards on (no jacks) and the loser adds the final skat to his card points."""

TOURNEE = ISKO.replace(
    name="tournee",
    description="Historical American Tournee Skat (Hoyle/Foster, seed 000 part B)",
    variant="tournee",
    bid_values=TOURNEE_BID_VALUES,
    lost_game_factor=1,
    lost_hand_game_factor=1,
    schneider_points=91,
    all_pass="ramsch",
    ramsch_scoring="hoyle",
)
"""docs/rules.md section 10: bids from 10; Tournee (with "passt mir nicht"), Grand Tournee, Solo,
Gucki, Grand Solo, Grand Ouvert, Null 20 and Null Ouvert 40; schneider at 91; lost games single
except Gucki and second-turn Tournee; Ramsch +10/+20/-30 when all pass; settlement against the
average."""

PRESETS: dict[str, RuleSet] = {
    "isko": ISKO, "isko2018": ISKO, "old_pre1999": OLD_PRE1999,
    "pub": PUB, "pirate": PIRATE, "tournee": TOURNEE,
}


def get_ruleset(name: str) -> RuleSet:
    """A preset by name (case-insensitive)."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise RuleSetError(f"unknown rule set {name!r}; choose one of: {', '.join(sorted(PRESETS))}") from None
