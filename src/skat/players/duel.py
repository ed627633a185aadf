"""Duplicate duels of bidders on the self-play corpus: bidding and contract choice measured in seconds.

The arena (:mod:`skat.players.arena`) plays every card, so a match that separates two bidders by a few
points needs hours. The corpus (:mod:`skat.players.corpus`) already holds, for every deal and seat, the
played outcome of every candidate contract. A duel plays only the auction, with the real engine and
rules: each seat's :class:`CorpusBidder` bids, holds or passes, the winner chooses a contract (a hand game
or a pickup, with its game type), and the outcome is the corpus's play of that contract, scored at the
bid the auction reached (an overbid game is lost). The deal is dealt from the corpus record's seed.

Duplicate as in the arena: each bidder sits alone in each seat against two copies of the other, and the
paired difference of a deal is the mean over the seats of the solo bidder's Seeger-Fabian points, A
minus B. Card play is the corpus's (``medium`` in every seat), so a duel measures bidding and contract
choice only; the discard is the heuristic's best pair for the contract. A contract the corpus did not
play (a game type too weak to be a candidate) is counted as ``missing`` and its deal left out of the
difference; deals used to fit a model must not be the deals a duel of that model is judged on.
"""

from __future__ import annotations

import gzip
import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from skat.deal.game import Phase, SeatView
from skat.players.arena import SEATINGS, new_game, seeger_fabian
from skat.players.heuristic import HeuristicPlayer
from skat.rules.actions import Action, Declare, PickUp
from skat.rules.contract import Contract
from skat.rules.ranking import GameType
from skat.rules.rulesets import get_ruleset
from skat.rules.value import evaluate

__all__ = ["ABLATION", "HELD_OUT", "held_out", "CorpusDeal", "CorpusBidder", "HeuristicCorpusBidder", "LearnedCorpusBidder", "bidder_factory", "read_corpus", "auction", "duel",
           "format_duel"]

_NULL = int(GameType.NULL)

ABLATION = (
    ("learned bidding (whole) vs the heuristic's", "learned", "heuristic"),
    ("bids heard as features", "learned", "learned:use_heard=0"),
    ("discard and game by the after-pickup model", "learned", "learned:after_pickup=0"),
    ("margin 0 against a margin of 10 points", "learned", "learned:margin=10"),
    ("the chance model against the score model", "learned", "learned:use_scores=1"),
)
"""(what the row measures, bidder A, bidder B) of the ablation table (``tools/bidding_duel.py --ablation``, ``bench/players.py --duel``)."""


@dataclass(frozen=True)
class CorpusDeal:
    """One deal of the corpus: its number, its seed and the played contracts by (seat, game type, hand)."""

    deal: int
    seed: int
    contracts: dict[tuple[int, int, bool], dict[str, Any]]

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> CorpusDeal:
        played = {(c["seat"], c["gt"], c["hand_game"]): c for c in record["contracts"]}
        return cls(record["deal"], record["seed"], played)


HELD_OUT = 0.2
"""The share of a corpus's deals, the last ones, that a duel judges (``tools/train_bidding.py`` fits on the rest)."""


def held_out(deals: list[CorpusDeal], share: float = HELD_OUT) -> list[CorpusDeal]:
    """The last ``share`` of the deals in deal order (the ones the model was not fitted on)."""
    if not 0 < share <= 1:
        raise ValueError(f"the held-out share must be above 0 and at most 1, not {share}")
    ordered = sorted(deals, key=lambda d: d.deal)
    return ordered[int(len(ordered) * (1 - share)):]


def read_corpus(path: str | Path) -> list[CorpusDeal]:
    """The deals of a corpus file (JSON lines, or gzipped; the checkpoint header skipped)."""
    path = Path(path)
    opener: Callable[..., Any] = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        records = [json.loads(line) for line in f if line.strip()]
    return [CorpusDeal.from_record(r) for r in records if "deal" in r]


class CorpusBidder(Protocol):
    """A bidder a duel can seat: its bids and passes, and the contract it plays when it gets the game."""

    name: str

    def bid(self, view: SeatView) -> Action:
        """Bid, hold or pass (``view`` is a seat's view during the auction)."""

    def contract(self, view: SeatView) -> tuple[int, bool] | None:
        """(game type, hand game) to play, from the declarer's view before the skat is taken; None: pick up
        and leave the discard and the declaration to :meth:`after_pickup` with the skat found."""

    def after_pickup(self, view: SeatView) -> Action:
        """The discard, then the declaration, after a pickup (``view`` is the declarer's)."""


class HeuristicCorpusBidder:
    """:class:`skat.players.heuristic.HeuristicPlayer`'s bidding; after a pickup, the game type it
    declares with the skat it finds (and its own discard)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.player = HeuristicPlayer(seed)

    def bid(self, view: SeatView) -> Action:
        return self.player.choose(view)

    def contract(self, view: SeatView) -> tuple[int, bool] | None:
        action = self.player.choose(view)
        return (int(action.contract.game_type), True) if isinstance(action, Declare) else None

    def after_pickup(self, view: SeatView) -> Action:
        return self.player.choose(view)


class LearnedCorpusBidder:
    """:class:`skat.players.learned.LearnedBidder`'s bidding, hand game or pickup, and after the pickup its
    discard and declaration with the skat it finds (options as its own). A model without after-pickup
    weights plays the pickup contract it planned before seeing the skat."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        from skat.players.learned import LearnedBidder

        self.bidder = LearnedBidder(random.Random(seed), **options)
        self.heuristic = HeuristicPlayer(seed)
        self.name = "learned" + "".join(f" {k}={v}" for k, v in sorted(options.items()) if k != "model")

    def bid(self, view: SeatView) -> Action:
        return self.bidder.bid(view)

    def contract(self, view: SeatView) -> tuple[int, bool] | None:
        if self.bidder.after_pickup:
            action = self.bidder.skat_decision(view)
            return (int(action.contract.game_type), True) if isinstance(action, Declare) else None
        return self.bidder.planned_contract(view)

    def after_pickup(self, view: SeatView) -> Action:
        return self.bidder.decide(view, self.heuristic) or self.heuristic.choose(view)


def bidder_factory(spec: str) -> Callable[[int], CorpusBidder]:
    """A maker of duel bidders from ``heuristic``, ``learned`` or ``learned:margin=10,use_heard=0`` (the
    options of :class:`skat.players.learned.LearnedBidder`: numbers, flags as 1 or 0, and ``model=PATH`` for a
    model file)."""
    name, _, rest = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"bidder option {item!r} is not KEY=VALUE (in {spec!r})")
        if key == "model":
            from skat.players.learned import WinModel

            options[key] = WinModel.load(value)
        elif key in ("use_scores", "use_heard", "after_pickup"):
            options[key] = value not in ("0", "false", "no")
        else:
            try:
                options[key] = float(value)
            except ValueError:
                raise ValueError(f"bidder option {key}={value!r} is not a number (in {spec!r})") from None
    if name == "heuristic":
        if options:
            raise ValueError(f"the heuristic bidder takes no options (got {spec!r})")
        return HeuristicCorpusBidder
    if name == "learned":
        return lambda seed: LearnedCorpusBidder(seed, **options)
    raise ValueError(f"unknown duel bidder {name!r}: heuristic or learned")


@dataclass(frozen=True)
class Auction:
    """What the auction of one seating made: the declarer (None: passed in), the contract and the bid."""

    declarer: int | None
    gt: int = -1
    hand_game: bool = False
    bid: int = 0


def auction(deal: CorpusDeal, bidders: list[CorpusBidder], ruleset: str = "isko2018") -> Auction:
    """Play the auction of ``deal`` with ``bidders[seat]`` in each seat and the winner's contract choice."""
    game = new_game(deal.seed, get_ruleset(ruleset))
    while game.phase is Phase.BIDDING:
        seat = game.to_move
        game.apply(bidders[seat].bid(game.view(seat)), seat)
    declarer = game.declarer
    if declarer is None:
        return Auction(None)
    view = game.view(declarer)
    choice = bidders[declarer].contract(view)
    if choice is not None:
        return Auction(declarer, choice[0], choice[1], game.bid)
    gt = -1  # decided after the pickup: the bidder's discard and declaration with the real skat
    game.apply(PickUp(), declarer)
    while game.phase in (Phase.DISCARD, Phase.DECLARE):
        action = bidders[declarer].after_pickup(game.view(declarer))
        game.apply(action, declarer)
        if isinstance(action, Declare):
            gt = int(action.contract.game_type)
    return Auction(declarer, gt, False, game.bid)


def _scores(deal: CorpusDeal, result: Auction, ruleset: str) -> list[int] | None:
    """Seeger-Fabian points of the three seats, or None when the corpus did not play the contract."""
    if result.declarer is None:
        return [0, 0, 0]
    played = deal.contracts.get((result.declarer, result.gt, result.hand_game))
    if played is None:
        return None
    rules = get_ruleset(ruleset)
    contract = Contract(GameType(result.gt), hand=result.hand_game)
    outcome = evaluate(contract, played["hand"] | played["skat"], played["declarer_points"],
                       played["tricks"], result.bid, rules)
    scores = [0, 0, 0]
    scores[result.declarer] = outcome.score
    return seeger_fabian(result.declarer, outcome.won, scores)


def duel(deals: Iterable[CorpusDeal], make_a: Callable[[int], CorpusBidder], make_b: Callable[[int], CorpusBidder],
         ruleset: str = "isko2018") -> dict[str, Any]:
    """A duplicate duel of two bidders over corpus deals (see the module); ``make_x(seed)`` makes a bidder.

    Returns the mean paired difference with its 95 % interval, each bidder's points per game, declare rate
    and win rate over its solo seats, the deals left out for a missing contract, and the difference by
    role as in the arena's ``by_role``."""
    diffs: list[float] = []
    missing = 0
    solo_sf: list[list[float]] = [[], []]
    declared, won = [0, 0], [0, 0]
    roles: dict[tuple[str, str], list[float]] = {}
    for deal in deals:
        rng = random.Random(deal.seed)
        seeds = [rng.getrandbits(32) for _ in range(3)]
        per: dict[tuple[int, int], tuple[str, float, bool]] = {}
        complete = True
        for seating in SEATINGS:
            bidders = [(make_a if who == 0 else make_b)(seeds[seat]) for seat, who in enumerate(seating)]
            result = auction(deal, bidders, ruleset)
            sf = _scores(deal, result, ruleset)
            if sf is None:
                complete = False
                break
            solo = next(s for s in range(3) if seating.count(seating[s]) == 1)
            role = ("no declarer" if result.declarer is None else
                    "declares" if result.declarer == solo else "defends")
            per[(seating[solo], solo)] = (role, sf[solo], role == "declares" and sf[solo] > 0)
        if not complete:
            missing += 1
            continue
        for who in (0, 1):
            for seat in range(3):
                role, sf_solo, win = per[(who, seat)]
                solo_sf[who].append(sf_solo)
                declared[who] += role == "declares"
                won[who] += win
        diffs.append(sum(per[(0, s)][1] - per[(1, s)][1] for s in range(3)) / 3)
        for seat in range(3):
            (ra, sa, _), (rb, sb, _) = per[(0, seat)], per[(1, seat)]
            roles.setdefault((ra, rb), []).append(sa - sb)
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    cases = sum(len(v) for v in roles.values()) or 1
    players = []
    for who in (0, 1):
        games = len(solo_sf[who])
        players.append({"sf_per_game": sum(solo_sf[who]) / games if games else 0.0,
                        "declare_rate": declared[who] / games if games else 0.0,
                        "declarer_win_rate": won[who] / declared[who] if declared[who] else None})
    by_role: list[dict[str, Any]] = sorted(({"a": a, "b": b, "cases": len(v), "mean_difference": sum(v) / len(v),
                       "share": sum(v) / cases} for (a, b), v in roles.items()), key=lambda r: -abs(r["share"]))
    return {"deals": n, "missing": missing, "difference": {"mean": mean, "ci95": [mean - half, mean + half]},
            "players": players, "by_role": by_role}


def format_duel(summary: dict[str, Any], names: tuple[str, str]) -> str:
    """The duel's summary as a few lines of text."""
    d = summary["difference"]
    lines = [f"{names[0]} - {names[1]}: {d['mean']:+.2f} SF points per game [{d['ci95'][0]:+.2f}, "
             f"{d['ci95'][1]:+.2f}] over {summary['deals']} deals ({summary['missing']} left out: contract not "
             f"in the corpus)"]
    for name, p in zip(names, summary["players"]):
        rate = "-" if p["declarer_win_rate"] is None else f"{p['declarer_win_rate']:.1%}"
        lines.append(f"  {name:<28s} {p['sf_per_game']:+7.2f} per game, declares {p['declare_rate']:.1%}, "
                     f"wins {rate}")
    for r in summary["by_role"][:5]:
        lines.append(f"    {r['a']:<12s} {r['b']:<12s} {r['cases']:6d} cases {r['mean_difference']:+8.1f} "
                     f"share {r['share']:+6.2f}")
    return "\n".join(lines)
