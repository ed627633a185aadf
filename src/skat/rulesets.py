"""Named rule sets: declarative, documented bundles of rule options.

``ISKO`` (the International Skat Order 2018) is the default. The other presets are
the house rules of the seeds: ``PUB`` (Ramsch when all pass, Kontra/Re, Bock rounds),
``PIRATE`` (the "pirate/robber skat" of seed 001, RULES.md section 7) and ``TOURNEE``
(the historical American Tournee Skat of RULES.md section 10). Any preset can be
varied option by option: ``PUB.replace(ramsch_scoring="fixed")``. Every record and
score sheet carries the whole rule set (:meth:`RuleSet.to_json`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from skat.rules.bidding import BID_VALUES

__all__ = [
    "RuleSet", "ISKO", "OLD_PRE1999", "PUB", "PIRATE", "TOURNEE", "PRESETS", "get_ruleset",
    "BOCK_TRIGGERS", "TOURNEE_BID_VALUES", "RuleSetError",
]


class RuleSetError(ValueError):
    """An unknown option or an option value the engine does not know."""


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
"""The Bock triggers the engine knows, by name (RULES.md section 7; D13)."""


def _tournee_ladder() -> tuple[int, ...]:
    """Historical bids: every value from 10 in steps of 2, and every game value a table can reach."""
    units = (5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 24)
    values = set(range(10, 100, 2))
    for unit in units:
        values |= {unit * m for m in range(2, 20) if unit * m >= 10}
    values |= {20, 40}
    return tuple(sorted(values))


TOURNEE_BID_VALUES: tuple[int, ...] = _tournee_ladder()
"""Bids of the historical rules (RULES.md 10.1): from 10, raises by 2 or to any game value."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "variant": ("standard", "tournee"),
    "all_pass": ("passed_in", "ramsch", "redeal"),
    "ramsch_scoring": ("augen", "fixed", "hoyle"),
    "ramsch_skat": ("last_trick", "loser"),
    "ramsch_tie": ("all_lose", "share", "last_trick"),
    "kontra_who": ("any_defender", "bidders"),
    "kontra_until": ("own_first_card", "first_lead"),
}


@dataclass(frozen=True)
class RuleSet:
    """Options of a Skat table. Every field is documented; defaults are the ISkO's.

    The RULES.md section or disagreement number (D1...) that an option settles is
    named in its documentation.
    """

    name: str = "isko2018"
    description: str = "International Skat Order 2018 (tournament rules)"
    variant: str = "standard"
    """``standard`` Skat, or ``tournee``: the historical Tournee Skat of RULES.md section 10."""
    bid_values: tuple[int, ...] = BID_VALUES
    """The bid ladder."""
    lost_game_factor: int = 2
    """A lost game costs this many times its value (ISkO: every lost game counts double)."""
    lost_hand_game_factor: int = 2
    """The same for lost hand games (1 before the rule change of 1999, RULES.md D1)."""
    grand_ouvert_base36: bool = False
    """Old rule of seeds 000/001: grand ouvert has base 36 and no ouvert level (RULES.md D4)."""
    schneider_points: int = 90
    """Card points the declarer needs to make the defenders Schneider (historical: 91, D2)."""
    all_pass: str = "passed_in"
    """When all three pass (D5): ``passed_in`` (ISkO: counts as a game, nobody scores, the next
    dealer deals), ``ramsch`` (Ramsch with the same cards, section 6) or ``redeal`` (seeds 000 A
    and 001: the same dealer deals again, and the deal does not count as a game)."""

    # --- Ramsch (RULES.md section 6) ---------------------------------------------------------
    ramsch_grand_hand: bool = False
    """Before a Ramsch starts, each player from forehand on may announce Grand Hand instead; it
    is played and scored as normal Skat, and the same dealer deals again [PAGAT-SR]."""
    ramsch_scoring: str = "augen"
    """``augen`` (the most card points lose them, D8), ``fixed`` (loser -10, -15 with one
    Jungfrau, -20 with two or a Durchmarsch), or ``hoyle`` (+10 to the lowest, +20 if he took no
    trick, -30 for taking every trick; RULES.md 10.3)."""
    ramsch_fixed_stakes: tuple[int, int, int] = (10, 15, 20)
    """The stakes of ``fixed`` Ramsch: no Jungfrau, one Jungfrau, two Jungfrauen (Durchmarsch)."""
    ramsch_skat: str = "last_trick"
    """Who gets the skat's card points (D9): ``last_trick`` (the winner of the last trick) or
    ``loser`` (the player with most card points; when tied, each of them)."""
    ramsch_tie: str = "all_lose"
    """Two tied for most card points in Augenramsch (D10): ``all_lose`` (both lose the full
    amount), ``share`` (they split it, rounded up) or ``last_trick`` (of the tied players, the
    one who took the last trick loses; if neither did, both lose). 40:40:40 scores nothing."""
    ramsch_jungfrau: bool = True
    """In Augenramsch each Jungfrau (a player who took no trick) doubles the loser's minus."""
    ramsch_durchmarsch: bool = True
    """In Augenramsch a player who takes every trick (Durchmarsch) scores +120 instead of losing."""
    schieberamsch: bool = False
    """Every Ramsch is a Schieberamsch: before the play each player from forehand on takes the skat
    and pushes two cards, or pushes it on unseen (RULES.md section 6, D11)."""
    schieberamsch_jacks: bool = False
    """Jacks may be pushed in the skat (most tables forbid it)."""
    schieberamsch_unseen_push: bool = True
    """A player may push the skat on without looking at it; each such push doubles the loser's
    minus (1 push x2, 2 pushes x4, 3 pushes x8). Without it everybody must take the skat."""

    # --- Kontra / Re (RULES.md 5.3, D12) -----------------------------------------------------
    kontra: bool = False
    """A defender may say Kontra and the declarer answer Re; each call doubles the score of the
    game, won or lost, and not its value (overbidding is judged without it)."""
    kontra_who: str = "any_defender"
    """Who may say Kontra: ``any_defender``, or ``bidders`` (only a defender who bid or held in
    the auction, that is at least 18) [kneipenskat; XSKAT -kontra18]."""
    kontra_until: str = "own_first_card"
    """Until when: ``own_first_card`` (a defender before he plays to the first trick; the declarer
    may answer Re until the first trick is complete) or ``first_lead`` (both only before the first
    card is led). Kontra and Re are side actions: they are said out of turn, as at a real table."""
    kontra_re: bool = True
    """The declarer may answer Kontra with Re."""

    # --- Bock rounds and the pirate sequence (RULES.md section 7, D13) -----------------------
    bock_triggers: tuple[str, ...] = ()
    """Events that queue a Bock round, named in :data:`BOCK_TRIGGERS`; each event queues one
    round (as many games as players) in which every score is doubled. Empty: no Bock rounds."""
    bock_value_threshold: int = 120
    """Game value at or above which the ``value`` trigger fires (Q6: a house number)."""
    bock_includes_trigger: bool = False
    """The game that triggers a Bock round counts double itself [SKATSP]."""
    bock_ramsch_round: bool = False
    """Each Bock round is followed by a Ramsch round: every deal is played as Ramsch [XSKAT]."""
    pirate: bool = False
    """Seed 001's sequence: once a player's running total reaches ``pirate_threshold``, one Bock
    round follows, then one Schieber round (every deal a Schieberamsch)."""
    pirate_threshold: int = 100
    """The running total that starts the pirate sequence (Q7: any player, at or above it)."""
    pirate_repeat: bool = False
    """After the pirate sequence the threshold rises by ``pirate_threshold`` (200, 300...) and the
    sequence can come again; without it the sequence is played once per series (Q7)."""
    pirate_bock_lost_hand_factor: int = 2
    """Q7: what a lost hand game costs in the pirate Bock round, in times its value. 2 reads the
    seed literally (only skat-pickup losses count four times); 4 treats it like any lost game."""

    # --- Real table (RULES.md section 8) ------------------------------------------------------
    real_table: bool = False
    """Score-keeping for games played with physical cards: a card that does not follow suit is
    recorded as a revoke and ends the game against the guilty side (ISkO 4.1.3-4.1.5) instead of
    being refused."""

    # --- Score sheet (RULES.md 5.2, D14) -------------------------------------------------------
    seeger_won: int = 50
    """Seeger-Fabian: added to the declarer's entry for a won game."""
    seeger_lost: int = 50
    """Seeger-Fabian: taken from the declarer's entry for a lost game."""
    fabian_bonus: tuple[int, int, int] = (40, 30, 30)
    """Seeger-Fabian: what each other player at a 3-, 4- or 5-table gets when a declarer loses
    (the sitting-out players included). 5-tables are not in the source; 30 carries the 4-table
    rule over."""

    def __post_init__(self) -> None:
        for option, allowed in _CHOICES.items():
            value = getattr(self, option)
            if value not in allowed:
                raise RuleSetError(f"rule option {option}={value!r} is unknown; choose one of: {', '.join(allowed)}")
        unknown = [t for t in self.bock_triggers if t not in BOCK_TRIGGERS]
        if unknown:
            raise RuleSetError(
                f"unknown Bock trigger(s) {', '.join(unknown)}; known: {', '.join(BOCK_TRIGGERS)}"
            )
        if self.lost_game_factor < 1 or self.lost_hand_game_factor < 1:
            raise RuleSetError("a lost game costs at least once its value (lost_game_factor >= 1)")
        if not 61 <= self.schneider_points <= 120:
            raise RuleSetError(f"schneider_points must lie between 61 and 120, got {self.schneider_points}")
        if self.pirate_threshold <= 0:
            raise RuleSetError("pirate_threshold must be positive")
        if len(self.fabian_bonus) != 3 or len(self.ramsch_fixed_stakes) != 3:
            raise RuleSetError("fabian_bonus and ramsch_fixed_stakes need three numbers each")
        if list(self.bid_values) != sorted(set(self.bid_values)) or not self.bid_values:
            raise RuleSetError("bid_values must be a non-empty, strictly increasing list")

    @property
    def ramsch_possible(self) -> bool:
        """Whether this table plays Ramsch at all (all pass, Ramsch rounds, the pirate Schieber round)."""
        return self.all_pass == "ramsch" or self.bock_ramsch_round or self.pirate

    def replace(self, **changes) -> RuleSet:
        """A copy with some options changed; unknown options raise a clear error."""
        fields = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - fields)
        if unknown:
            raise RuleSetError(f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(fields))}")
        for key in ("bid_values", "bock_triggers", "fabian_bonus", "ramsch_fixed_stakes"):
            if key in changes and not isinstance(changes[key], tuple):
                changes[key] = tuple(changes[key])
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict:
        """Every option, JSON-ready (lists for tuples)."""
        d = dataclasses.asdict(self)
        for key, value in d.items():
            if isinstance(value, tuple):
                d[key] = list(value)
        return d

    @classmethod
    def from_json(cls, data: dict) -> RuleSet:
        """Read :meth:`to_json` output; options missing there keep the named preset's values."""
        data = dict(data)
        name = str(data.get("name", "isko2018")).lower()
        base = PRESETS.get(name, cls())
        return base.replace(**data)

    def describe(self) -> list[tuple[str, object, str]]:
        """(option, value, documentation) for every option: the printable rule sheet."""
        docs = _option_docs()
        return [(f.name, getattr(self, f.name), docs.get(f.name, "")) for f in dataclasses.fields(self)]


def _option_docs() -> dict[str, str]:
    """The attribute docstrings of :class:`RuleSet`, read from the source."""
    import ast
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(RuleSet)))
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node, nxt in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if isinstance(nxt, ast.Expr) and isinstance(getattr(nxt, "value", None), ast.Constant):
                docs[node.target.id] = " ".join(str(nxt.value.value).split())
    return docs


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
"""Seed 001 as RULES.md section 7 reads it: the seed's old rules (lost hand games single, grand
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
"""RULES.md section 10: bids from 10; Tournee (with "passt mir nicht"), Grand Tournee, Solo,
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
