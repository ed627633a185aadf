"""Role screens: one role's card play measured alone, on the same contracts, in a third of an arena's games.

A duplicate match (:mod:`skat.players.arena`) plays each deal six times, and a change to one role's card play
(the declarer's, or the defenders') shows in only some of those games; the rest add their noise to the
difference. A screen deals each deal once, lets the reference player bid, take or leave the skat and declare in
every seat, and then plays the card play twice from that same position: once with the candidate in the role
screened (the declarer's seat, or both defenders' seats) and once with the reference there, the other seats the
reference both times. Each seat's player gets the same random seed in both games (common random numbers), so a
deal whose two games go the same way counts 0, and the difference of a deal is the declarer's Seeger-Fabian points
of the two games, signed for the candidate (higher is better for a candidate declarer, lower for candidate
defenders).

The discard screen (role ``discard``) measures the declarer's decisions after the pickup instead: the reference
bids and picks up as before, then the candidate, in the declarer's seat, lays away two cards and declares, and the
reference plays every seat's cards in both games. A deal whose discard and declaration come out the same as the
reference's is the same game twice and counts 0 without being played (a case all the same: the mean is a pickup
game's); only the others are played (``played``). Hand games are no case.

A screen is for choosing which change earns an arena match: it measures one role's decisions only, against the
reference alone, and says nothing of the bidding. Deals that are passed in (or a Ramsch) have no card play to screen and
count as no case. Checkpoints, workers and Ray as in the arena (:func:`skat.players.arena.run_deals`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from skat.deal.game import Phase
from skat.players.arena import (
    arena_player,
    checked_choice,
    derive_seed,
    game_family,
    mean_of,
    new_game,
    play_game,
    players_fingerprint,
    sample_sd,
)
from skat.rules.actions import Action, Discard
from skat.rules.rulesets import get_ruleset

__all__ = ["ROLES", "ScreenConfig", "screen_deal", "screen_deals", "summarize_screen", "format_screen"]

ROLES = ("declarer", "defenders", "discard")
"""The roles a screen measures: the declarer's card play, the defenders', or the declarer's discard and declaration
after the pickup."""


@dataclass(frozen=True)
class ScreenConfig:
    """What a screen plays: the candidate and the reference player, the role screened, deals, seed and rule set."""

    players: tuple[str, str]
    """(candidate, reference): player names as the arena takes them."""
    role: str
    deals: int
    seed: int = 0
    ruleset: str = "isko2018"

    def __post_init__(self) -> None:
        if len(self.players) != 2:
            raise ValueError(f"a screen compares a candidate with a reference, two players, not {len(self.players)}")
        if self.role not in ROLES:
            raise ValueError(f"a screen measures one of the roles {', '.join(ROLES)}, not {self.role!r}")
        if self.deals < 1:
            raise ValueError(f"screen at least one deal, got {self.deals}")
        get_ruleset(self.ruleset)

    def fingerprint(self) -> str:
        """The players' code and this module's (:func:`skat.players.arena.players_fingerprint`): a checkpoint resumes
        only on them."""
        return f"{players_fingerprint(self.players)}:{players_fingerprint(modules=['screen'])}"


def screen_deal(config: ScreenConfig, deal: int) -> dict[str, Any]:
    """Deal number ``deal`` of a screen (0-based): the reference's auction, then the card play with the candidate and
    with the reference in the role screened (see the module docstring)."""
    candidate, reference = config.players
    ruleset = get_ruleset(config.ruleset)
    deal_seed = derive_seed("screen", config.seed, deal)
    game = new_game(deal_seed, ruleset)
    bidders = [arena_player(reference, derive_seed("bidder", config.seed, deal, seat)) for seat in range(3)]
    actions = []
    while not game.is_over and game.phase is not Phase.PLAY:
        seat = game.to_move
        assert seat is not None
        action = bidders[seat].choose(game.view(seat))
        game.apply(action, seat)
        actions.append((action, seat))
    declarer = game.declarer if not game.is_over else None
    record: dict[str, Any] = {"deal": deal, "seed": deal_seed, "declarer": declarer}
    if declarer is None or game.contract is None:
        record["kind"] = "passed in" if game.is_over else "ramsch"
        return record
    starts = [actions, actions]  # the actions before the card play, in the candidate's game and the reference's
    if config.role == "discard":
        discarded = next((i for i, (action, _seat) in enumerate(actions) if isinstance(action, Discard)), None)
        if discarded is None:
            record.update(kind="hand game", contract=str(game.contract))
            return record
        starts[0] = _candidate_discard(config, deal, deal_seed, actions[:discarded], declarer, record)
        record.update(kind=game_family(game), contract=str(game.contract))
        if starts[0] == actions:  # the same discard and declaration: the same game, a difference of 0
            record["same"] = True
            return record
    games = []
    for who in (0, 1):
        replay = new_game(deal_seed, ruleset)
        for action, seat in starts[who]:
            replay.apply(action, seat)
        # the discard screen's card play is the reference's in every seat
        in_role = [config.role != "discard" and (seat == declarer) == (config.role == "declarer") for seat in range(3)]
        a, b, c = (0 if in_role[seat] and who == 0 else 1 for seat in range(3))
        seating = (a, b, c)  # the candidate is match player 0, in its game only
        players = [arena_player(config.players[seating[seat]], derive_seed("player", config.seed, deal, seat))
                   for seat in range(3)]
        outcome = play_game(replay, players, seating)
        games.append({"won": outcome.won, "scores": list(outcome.scores), "sf": outcome.sf,
                      "time_s": outcome.time_s, "decisions": outcome.decisions, "illegal": outcome.illegal,
                      "errors": outcome.errors})
    record.update(kind=game_family(replay.result), contract=str(game.contract), games=games)
    return record


def _candidate_discard(config: ScreenConfig, deal: int, deal_seed: int, before: list[tuple[Action, int]],
                       declarer: int, record: dict[str, Any]) -> list[tuple[Action, int]]:
    """The actions up to the card play with the candidate's discard and declaration after ``before`` (the auction
    and the pickup). The candidate sits in the declarer's seat with the reference bidder's seed there; its time goes
    into ``record`` (``discard_s``), and an illegal action (or an exception) of its own into ``record`` too,
    replaced by the first legal one (:func:`skat.players.arena.checked_choice`, as the arena does)."""
    game = new_game(deal_seed, get_ruleset(config.ruleset))
    for action, seat in before:
        game.apply(action, seat)
    player = arena_player(config.players[0], derive_seed("bidder", config.seed, deal, declarer))
    actions = list(before)
    spent = 0.0
    while game.phase in (Phase.DISCARD, Phase.DECLARE) and game.to_move == declarer:
        action, took, error = checked_choice(player, game.view(declarer), time.process_time)
        spent += took
        if error is not None:
            record["illegal"] = record.get("illegal", 0) + 1
            record.setdefault("errors", []).append(error)
        game.apply(action, declarer)
        actions.append((action, declarer))
    record["discard_s"] = spent
    if len(actions) > len(before):
        record["candidate_contract"] = str(game.contract)
    return actions


def screen_deals(config: ScreenConfig, deals: list[int]) -> list[dict[str, Any]]:
    """:func:`screen_deal` of each of ``deals`` (the work of one chunk, for :func:`skat.players.arena.fill_checkpoint`)."""
    return [screen_deal(config, d) for d in deals]


def _ci(xs: list[float]) -> tuple[float, list[float]]:
    """The mean of ``xs`` and its 95 % confidence interval (the arena's statistics)."""
    mean = mean_of(xs)
    half = 1.96 * sample_sd(xs) / math.sqrt(len(xs)) if xs else 0.0
    return mean, [mean - half, mean + half]


def summarize_screen(config: ScreenConfig, deals: list[dict[str, Any]]) -> dict[str, Any]:
    """The screen's statistics: the mean difference a case (the declarer's Seeger-Fabian points signed for the
    candidate) with its 95 % confidence interval, by game kind, how many cases the role's play changed the outcome,
    the declarer's wins with each, decision times and illegal actions."""
    sign = -1.0 if config.role == "defenders" else 1.0
    diffs: list[float] = []
    by_kind: dict[str, list[float]] = {}
    wins = [0, 0]
    candidate_s = 0.0
    candidate_decisions = 0
    illegal = [0, 0]
    errors: list[str] = []
    for record in sorted(deals, key=lambda d: d["deal"]):
        if "discard_s" in record:  # the discard screen's candidate decides before the card play
            candidate_s += record["discard_s"]
            candidate_decisions += 1
            illegal[0] += record.get("illegal", 0)
            errors += record.get("errors", [])
        if record.get("same"):
            diffs.append(0.0)
            by_kind.setdefault(record["kind"], []).append(0.0)
            continue
        games = record.get("games")
        if not games:
            continue
        declarer = record["declarer"]
        d = sign * (games[0]["sf"][declarer] - games[1]["sf"][declarer])
        diffs.append(d)
        by_kind.setdefault(record["kind"], []).append(d)
        wins[0] += bool(games[0]["won"])
        wins[1] += bool(games[1]["won"])
        if "discard_s" not in record:
            candidate_s += games[0]["time_s"][0]
            candidate_decisions += games[0]["decisions"][0]
        illegal[0] += games[0]["illegal"][0]
        illegal[1] += games[0]["illegal"][1] + sum(games[1]["illegal"])
        errors += games[0]["errors"] + games[1]["errors"]
    mean, ci = _ci(diffs)
    cases = len(diffs)
    return {
        "players": list(config.players), "role": config.role, "seed": config.seed, "ruleset": config.ruleset,
        "deals": len(deals), "cases": cases, "difference": {"mean": mean, "ci95": ci},
        "changed": sum(1 for d in diffs if d), "played": sum(1 for r in deals if r.get("games")),
        "declarer_wins": wins,
        "by_kind": {k: {"cases": len(v), "mean": _ci(v)[0], "ci95": _ci(v)[1]} for k, v in sorted(by_kind.items())},
        "candidate_ms_a_decision": 1000 * candidate_s / candidate_decisions if candidate_decisions else 0.0,
        "illegal_actions": illegal, "errors": errors[:10],
    }


def format_screen(summary: dict[str, Any]) -> str:
    """A few lines for people: the difference with its interval, by game kind."""
    candidate, reference = summary["players"]
    lo, hi = summary["difference"]["ci95"]
    lines = [f"{candidate} against {reference} as the {summary['role']} ({summary['ruleset']}, seed {summary['seed']}):"
             f" {summary['difference']['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}] SF points a case over {summary['cases']}"
             f" cases of {summary['deals']} deals; the outcome changed in {summary['changed']};"
             f" the declarer won {summary['declarer_wins'][0]} with the candidate, {summary['declarer_wins'][1]}"
             f" with the reference; illegal actions {summary['illegal_actions']}"]
    for kind, row in summary["by_kind"].items():
        lines.append(f"  {kind}: {row['mean']:+.2f} [{row['ci95'][0]:+.2f}, {row['ci95'][1]:+.2f}] over {row['cases']}")
    return "\n".join(lines)
