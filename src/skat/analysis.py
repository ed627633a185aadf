"""Double-dummy analysis of a played game: where was it won or lost, and which card was the mistake?

The card play of a finished suit, grand or null game is replayed card by card with all hands known
(double dummy; the skat counts for the declarer as he knows it: his discard, or the untouched skat
of a hand game).  Before every card the solver values each legal card (one
:func:`skat.solver.move_values_array` call per position), which gives

* the value of the position: the declarer's final card points with best play by both sides
  (suit and grand) and whether the declarer still wins his contract (all games);
* the value of the card actually played, and the best card(s);
* the card's **cost**: the card points it gave away against the best card (suit and grand), and
  whether it is a **turning point**: a declarer's card that turns a won game into a lost one, or a
  defender's card that turns a game the defenders would beat into one the declarer wins.

What "wins the contract" means is worked out from the contract, the declarer's twelve cards and
the bid (:func:`contract_goal`): 61 card points, or Schneider (90) when it was announced or when the
bid is only reached with Schneider, or every trick when Schwarz was announced (ouvert) or is needed.

Usage::

    from skat.analysis import analyse_game
    a = analyse_game(game)                   # a finished Game, a JSON record, an ISS record or line
    a.start_wins, a.actual.won               # double-dummy outcome at the first card vs. the real one
    for row in a.turning_points: print(row.trick, row.seat, row.card, row.best)
    a.points_lost                            # card points each seat gave away with its cards
    a.to_json()

A position the solver cannot finish within ``time_limit`` seconds is reported as not analysed
(``row.analysed`` is False), never as a mistake of the player.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from skat.cards import Card, mask_points
from skat.deal.game import Game
from skat.errors import SkatError
from skat.records.iss import ComputedResult, IssRecord, parse_iss, replay
from skat.rules.actions import Play
from skat.rules.contract import Contract
from skat.rules.ranking import GameType, display_order, winner_index
from skat.rules.rulesets import RuleSet
from skat.rules.value import Outcome, evaluate
from skat.solver.position import Position
from skat.solver.search import SearchLimitExceeded, move_values_array
from skat.variants.registry import from_record, variant_of_game

__all__ = [
    "AnalysisError",
    "Goal",
    "MoveOutcome",
    "CardRow",
    "Ending",
    "ActualResult",
    "GameAnalysis",
    "contract_goal",
    "start_position",
    "analyse_card_play",
    "analyse_game",
    "describe_turning_point",
]

_NULL = GameType.NULL


class AnalysisError(SkatError, ValueError):
    """A game that cannot be analysed as given (not finished, a card that does not fit, a wrong argument)."""


# ------------------------------------------------------------------------------------------ goal
@dataclass(frozen=True)
class Goal:
    """What the declarer needs in the card play to win his contract.

    ``kind`` is ``points`` (at least ``points`` card points, the skat included), ``all_tricks``
    (every trick), ``no_trick`` (null) or ``none`` (the contract is lost whatever the card play,
    e.g. overbid beyond what even Schwarz brings).  ``reason`` says why, in words.
    """

    kind: str
    points: int | None = None
    reason: str = ""

    def reached(self, points: int) -> bool:
        """Whether ``points`` final card points meet a ``points`` goal."""
        return self.kind == "points" and self.points is not None and points >= self.points

    def describe(self) -> str:
        """A short phrase: ``61 card points``, ``90 card points (Schneider announced)``, ``no trick``."""
        what = {"points": f"{self.points} card points", "all_tricks": "every trick", "no_trick": "no trick",
                "none": "nothing wins"}[self.kind]
        return f"{what} ({self.reason})" if self.reason else what

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "points": self.points, "reason": self.reason}


def contract_goal(contract: Contract, declarer_cards: int, bid: int, ruleset: RuleSet, *,
                  outcome: Callable[[int | None, int], Outcome] | None = None) -> Goal:
    """The declarer's goal in the card play, from the rules' own scoring (:func:`skat.rules.value.evaluate`).

    ``declarer_cards`` is the mask of the twelve cards that count the matadors (his hand as dealt
    plus the skat).  An overbid declarer may need Schneider or Schwarz to reach the bid.
    ``outcome(declarer_points, declarer_tricks)`` replaces the standard scoring (Tournee Skat).
    """
    if outcome is None:
        def outcome(points: int | None, tricks: int) -> Outcome:
            return evaluate(contract, declarer_cards, points, tricks, bid, ruleset)

    if contract.is_null:
        if outcome(None, 0).won:
            return Goal("no_trick")
        return Goal("none", reason=f"overbid: {contract} is worth less than the bid {bid}")
    for points in range(61, 121):
        if outcome(points, 5).won:
            if points == 61:
                return Goal("points", 61)
            if contract.schneider:
                return Goal("points", points, "Schneider announced")
            return Goal("points", points, f"the bid {bid} is only reached with Schneider")
    if outcome(120, 10).won:
        if contract.ouvert:
            return Goal("all_tricks", reason="ouvert: Schwarz announced")
        if contract.schwarz:
            return Goal("all_tricks", reason="Schwarz announced")
        return Goal("all_tricks", reason=f"the bid {bid} is only reached with Schwarz")
    return Goal("none", reason=f"overbid: {contract} does not reach the bid {bid} even with Schwarz")


# ------------------------------------------------------------------------------------------ rows
@dataclass(frozen=True)
class MoveOutcome:
    """The double-dummy outcome after one legal card: the declarer's final card points (suit and
    grand; None for null or when over the time limit) and whether he wins his contract."""

    card: Card
    points: int | None
    wins: bool | None

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card.name, "declarer_points": self.points, "declarer_wins": self.wins}


@dataclass(frozen=True)
class CardRow:
    """One card of the card play and what the double-dummy solver says of it.

    ``points_before`` / ``wins_before`` value the position before the card (best play by both sides
    from there), ``points_after`` / ``wins_after`` the card actually played.  ``cost`` is the card
    points it gave away against the best card (suit and grand; 0 for a best card), ``turning_point``
    whether it changed the outcome of the contract.  ``best`` are the cards that keep the best
    outcome for the player to move (the contract first, then card points).  Values the solver did
    not finish within the time limit are None, and ``note`` says so.
    """

    number: int
    """1 to 30: the card's place in the card play."""
    trick: int
    """1 to 10."""
    seat: int
    declarer: bool
    """Whether the declarer played it."""
    card: Card
    legal: tuple[Card, ...]
    moves: tuple[MoveOutcome, ...]
    best: tuple[Card, ...]
    points_before: int | None
    points_after: int | None
    wins_before: bool | None
    wins_after: bool | None
    cost: int | None
    turning_point: bool
    note: str = ""
    position: Position | None = field(default=None, repr=False, compare=False)
    """The position before the card (all hands), for programs that want to show or re-solve it."""

    @property
    def analysed(self) -> bool:
        """Whether the contract's outcome before and after the card is known."""
        return self.wins_before is not None and self.wins_after is not None

    @property
    def forced(self) -> bool:
        """Whether the card was the only legal one."""
        return len(self.legal) == 1

    @property
    def role(self) -> str:
        return "declarer" if self.declarer else "defender"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat,
            "role": self.role,
            "card": self.card.name,
            "legal": [c.name for c in self.legal],
            "best": [c.name for c in self.best],
            "points_before": self.points_before,
            "points_after": self.points_after,
            "wins_before": self.wins_before,
            "wins_after": self.wins_after,
            "cost": self.cost,
            "turning_point": self.turning_point,
            "analysed": self.analysed,
            "note": self.note,
            "moves": [m.to_json() for m in self.moves],
        }


@dataclass(frozen=True)
class ActualResult:
    """How the game really ended: won or lost (None: no game was scored), the declarer's card points
    (suit and grand) and tricks, how it ended (``played``, ``claimed``, ``conceded``, ``resigned``,
    ``revoke``, ``timeout``, ``left``, ``passed_in``, ``ramsch``) and the scoring in words."""

    won: bool | None
    declarer_points: int | None
    declarer_tricks: int | None
    ended_by: str
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {"won": self.won, "declarer_points": self.declarer_points, "declarer_tricks": self.declarer_tricks,
                "ended_by": self.ended_by, "explanation": self.explanation}


@dataclass(frozen=True)
class Ending:
    """A card play that stopped before its last card: a claim, a concession, the declarer giving up,
    a revoke (real-table rules), a player who timed out or left (ISS).

    ``points`` / ``wins`` are the double-dummy value of the position where it stopped; when
    ``wins`` differs from the real outcome the ending is a turning point, charged to ``seat``
    (None: both defenders, who accepted a claim or conceded together).
    """

    kind: str
    after_cards: int
    seat: int | None
    description: str
    points: int | None
    wins: bool | None
    actual_won: bool | None
    note: str = ""

    @property
    def turning_point(self) -> bool:
        return self.wins is not None and self.actual_won is not None and self.wins != self.actual_won

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "after_cards": self.after_cards, "seat": self.seat,
                "description": self.description, "points": self.points, "wins": self.wins,
                "actual_won": self.actual_won, "turning_point": self.turning_point, "note": self.note}


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of one game: the goal, the double-dummy value at the first card, a row per card,
    how the play ended and the real result.

    ``skipped`` is set (and there are no rows) when there is no declarer's card play to analyse:
    a passed-in deal, a Ramsch, a game that ended before it was announced.
    """

    label: str
    players: tuple[str, str, str] | None
    declarer: int | None
    contract: Contract | None
    bid: int
    goal: Goal | None
    actual: ActualResult
    rows: tuple[CardRow, ...] = ()
    start_points: int | None = None
    """The declarer's final card points with best play from the first card on (suit and grand)."""
    start_wins: bool | None = None
    """Whether the declarer wins his contract with best play from the first card on."""
    ending: Ending | None = None
    skipped: str | None = None
    time_limit: float | None = None

    @property
    def turning_points(self) -> list[CardRow]:
        """The cards that changed the double-dummy outcome of the contract, in play order."""
        return [r for r in self.rows if r.turning_point]

    @property
    def points_lost(self) -> tuple[int, int, int]:
        """Card points each seat gave away with its cards against best play (suit and grand)."""
        lost = [0, 0, 0]
        for r in self.rows:
            if r.cost:
                lost[r.seat] += r.cost
        return (lost[0], lost[1], lost[2])

    @property
    def turning_points_by_seat(self) -> tuple[int, int, int]:
        """How many turning points each seat's cards made."""
        count = [0, 0, 0]
        for r in self.turning_points:
            count[r.seat] += 1
        return (count[0], count[1], count[2])

    @property
    def not_analysed(self) -> list[CardRow]:
        """The cards whose position the solver did not (fully) solve within the time limit; ``note`` says
        what is missing (the card points only, or everything)."""
        return [r for r in self.rows if r.note]

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "players": None if self.players is None else list(self.players),
            "declarer": self.declarer,
            "contract": None if self.contract is None else str(self.contract),
            "bid": self.bid,
            "goal": None if self.goal is None else self.goal.to_json(),
            "skipped": self.skipped,
            "start": {"declarer_points": self.start_points, "declarer_wins": self.start_wins},
            "actual": self.actual.to_json(),
            "cards": [r.to_json() for r in self.rows],
            "ending": None if self.ending is None else self.ending.to_json(),
            "turning_points": [r.number for r in self.turning_points],
            "points_lost": list(self.points_lost),
            "turning_points_by_seat": list(self.turning_points_by_seat),
            "not_analysed": [r.number for r in self.not_analysed],
            "time_limit": self.time_limit,
        }


# ------------------------------------------------------------------------------ the card play
def start_position(game: Game) -> Position:
    """The position at the first card of a game's card play, all hands known; the discard (or, in a
    hand game, the skat) counts for the declarer."""
    if game.declarer is None or game.contract is None:
        raise AnalysisError("the game has no declared contract, so it has no declarer's card play")
    decl = game.declarer
    hands = list(game.initial_hands)
    if game.skat_taken:
        if game.discard is None:
            raise AnalysisError("the declarer took up the skat but has not discarded")
        hands[decl] = (hands[decl] | game.initial_skat) & ~game.discard
        skat = game.discard
    else:
        skat = game.initial_skat
    return Position(game.contract.game_type, decl, (hands[0], hands[1], hands[2]), (), 0, mask_points(skat))


def _advance(pos: Position, card: int, schwarz_announced: bool) -> Position | None:
    """The position after ``card`` (legal), or None when the card ends the card play: the last card,
    a trick taken by a null declarer, or by a defender against announced Schwarz."""
    if len(pos.trick) == 2:
        if pos.tricks_left == 1:
            return None
        if pos.game_type == _NULL or schwarz_announced:
            trick = (*pos.trick, card)
            to_declarer = (pos.leader + winner_index(pos.game_type, trick)) % 3 == pos.declarer
            if to_declarer == (pos.game_type == _NULL):
                return None
    return pos.play(card)


def _outcomes(pos: Position, goal: Goal, legal: Sequence[Card], time_limit: float | None) -> tuple[
        list[MoveOutcome], str]:
    """Each legal card's double-dummy outcome, and a note when the solver hit the time limit."""
    args = (int(pos.game_type), pos.hands, pos.trick, pos.leader, pos.declarer)
    note = ""
    points: list[int | None] = [None] * len(legal)
    wins: list[bool | None] = [None] * len(legal)
    try:
        if pos.game_type == _NULL:
            if goal.kind == "none":
                wins = [False] * len(legal)
            else:
                arr = move_values_array(*args, question="null", time_limit=time_limit)
                wins = [bool(arr[c]) for c in legal]
        else:
            try:
                arr = move_values_array(*args, question="points", declarer_points=pos.declarer_points,
                                        time_limit=time_limit)
                points = [int(arr[c]) for c in legal]
            except SearchLimitExceeded:
                note = f"card points not solved within {time_limit} s"
            if goal.kind == "points":
                if points[0] is not None:
                    wins = [goal.reached(p) for p in points]  # type: ignore[arg-type]
                else:
                    arr = move_values_array(*args, question="points", target=goal.points,
                                            declarer_points=pos.declarer_points, time_limit=time_limit)
                    wins = [bool(arr[c]) for c in legal]
            elif goal.kind == "all_tricks":
                if pos.defender_tricks:
                    wins = [False] * len(legal)
                else:
                    arr = move_values_array(*args, question="all_tricks", time_limit=time_limit)
                    wins = [bool(arr[c]) for c in legal]
            else:
                wins = [False] * len(legal)
    except SearchLimitExceeded:
        note = f"not solved within {time_limit} s: not analysed"
    return [MoveOutcome(c, p, w) for c, p, w in zip(legal, points, wins)], note


def _row(number: int, pos: Position, card: Card, legal: tuple[Card, ...], moves: list[MoveOutcome],
         note: str) -> CardRow:
    mover = pos.to_move
    is_decl = mover == pos.declarer
    pick = max if is_decl else min
    played = next(m for m in moves if m.card == card)
    known_points = all(m.points is not None for m in moves)
    known_wins = all(m.wins is not None for m in moves)
    points_before = pick(m.points for m in moves) if known_points else None  # type: ignore[type-var]
    wins_before = pick(m.wins for m in moves) if known_wins else None  # type: ignore[type-var]
    best: tuple[Card, ...] = ()
    if known_wins:
        keys = {m.card: (m.wins, m.points if known_points else 0) for m in moves}
        top = pick(keys.values())
        best = tuple(c for c in legal if keys[c] == top)
    cost = None
    if points_before is not None and played.points is not None:
        cost = points_before - played.points if is_decl else played.points - points_before
    turning = wins_before is not None and played.wins is not None and played.wins != wins_before
    return CardRow(number=number, trick=(number - 1) // 3 + 1, seat=mover, declarer=is_decl, card=card,
                   legal=legal, moves=tuple(moves), best=best, points_before=points_before,
                   points_after=played.points, wins_before=wins_before, wins_after=played.wins, cost=cost,
                   turning_point=turning, note=note, position=pos)


def _walk(position: Position, cards: Sequence[tuple[int | None, Card | int | str]], goal: Goal,
          time_limit: float | None, schwarz_announced: bool) -> tuple[list[CardRow], Position | None]:
    rows: list[CardRow] = []
    pos: Position | None = position
    prev: MoveOutcome | None = None
    for seat, raw in cards:
        card = Card.parse(raw) if isinstance(raw, str) else Card(raw)
        if pos is None:
            raise AnalysisError(f"{card.name} comes after the last card of the card play")
        number = 31 - sum(h.bit_count() for h in pos.hands)
        if seat is not None and seat != pos.to_move:
            raise AnalysisError(f"card {number} ({card.name}) is played by seat {seat}, but seat {pos.to_move} "
                                "is to move")
        legal = tuple(display_order(pos.legal_cards(), pos.game_type))
        if card not in legal:
            held = "holds" if pos.hands[pos.to_move] >> card & 1 else "does not hold"
            raise AnalysisError(f"card {number} ({card.name}) is not a legal card for seat {pos.to_move}, who "
                                f"{held} it; the legal cards are {' '.join(c.name for c in legal)}")
        if len(legal) == 1 and prev is not None and prev.wins is not None and (
                prev.points is not None or pos.game_type == _NULL):
            moves, note = [MoveOutcome(card, prev.points, prev.wins)], ""  # the only card keeps the value
        else:
            moves, note = _outcomes(pos, goal, legal, time_limit)
        row = _row(number, pos, card, legal, moves, note)
        rows.append(row)
        prev = MoveOutcome(card, row.points_after, row.wins_after)
        pos = _advance(pos, int(card), schwarz_announced)
    return rows, pos


def analyse_card_play(position: Position, cards: Sequence[Card | int | str], goal: Goal | None = None, *,
                      time_limit: float | None = None, schwarz_announced: bool = False) -> list[CardRow]:
    """Analyse a sequence of cards played from ``position`` on (one :class:`CardRow` per card).

    ``goal`` defaults to 61 card points for suit and grand and no trick for null.  The card play
    ends with the last card, a trick the null declarer takes, or (``schwarz_announced``) a trick the
    defenders take.  Raises :class:`AnalysisError` for a card that is not legal or comes after the
    end of the card play.
    """
    if goal is None:
        goal = Goal("no_trick") if position.game_type == _NULL else Goal("points", 61)
    rows, _ = _walk(position, [(None, c) for c in cards], goal, time_limit, schwarz_announced)
    return rows


# --------------------------------------------------------------------------------- whole games
def _actual_from_game(game: Game) -> ActualResult:
    result = game.result
    assert result is not None
    return ActualResult(won=result.won, declarer_points=result.declarer_points,
                        declarer_tricks=result.declarer_tricks if result.declarer is not None else None,
                        ended_by=result.kind, explanation=result.explanation)


def _actual_from_iss(computed: ComputedResult) -> ActualResult:
    f = computed.fields
    null = computed.contract is not None and computed.contract.is_null
    declared = f.get("d", -1) != -1 and not computed.passed
    return ActualResult(
        won=computed.won if declared else None,
        declarer_points=int(f["p"]) if declared and not null and "p" in f else None,
        declarer_tricks=int(f["t"]) if declared and "t" in f else None,
        ended_by=computed.ended_by,
        explanation=computed.explanation,
    )


_ENDINGS = {
    "claimed": "the declarer claimed the rest and the defenders accepted",
    "conceded": "the defenders conceded the rest",
    "resigned": "the declarer gave up",
}


def _ending(kind: str, game: Game, fault_seat: int | None, pos: Position, after: int, goal: Goal,
            actual: ActualResult, time_limit: float | None) -> Ending:
    decl = game.declarer
    if kind in ("claimed", "conceded"):
        seat, text = None, _ENDINGS[kind]
    elif kind == "resigned":
        seat, text = decl, _ENDINGS[kind]
    elif kind == "revoke":
        seat = game.revoke_by
        text = f"seat {seat} did not follow suit (revoke)"
    elif kind == "timeout":
        seat, text = fault_seat, f"seat {fault_seat} timed out"
    elif kind == "left":
        seat, text = fault_seat, f"seat {fault_seat} left the table"
    else:
        seat, text = None, f"the card play stopped ({kind})"
    legal = tuple(display_order(pos.legal_cards(), pos.game_type))
    moves, note = _outcomes(pos, goal, legal, time_limit)
    is_decl = pos.to_move == pos.declarer
    pick = max if is_decl else min
    known_points = [m.points for m in moves if m.points is not None]
    known_wins = [m.wins for m in moves if m.wins is not None]
    points = pick(known_points) if len(known_points) == len(moves) else None
    wins = pick(known_wins) if len(known_wins) == len(moves) else None
    return Ending(kind=kind, after_cards=after, seat=seat, description=text, points=points, wins=wins,
                  actual_won=actual.won, note=note)


def _three_player_game(game: Any) -> Game:
    """The game itself if the analysis knows its variant's card play (three players), else AnalysisError."""
    variant = variant_of_game(game)
    if variant is None or variant.seats != 3:
        raise AnalysisError(f"a game of {variant.title if variant else type(game).__name__} is not analysed: "
                            "the analysis knows the card play of three players")
    return game


def _skip_reason(game: Game, ended_by: str) -> str | None:
    if ended_by == "passed_in":
        return "passed in: all three players passed, no game was played, so there is no card play to analyse"
    if ended_by == "ramsch" or game.is_ramsch:
        return "Ramsch: there is no declarer and no contract, so the card play is not analysed"
    if game.declarer is None:
        return f"no game was declared (the deal ended: {ended_by}), so there is no card play to analyse"
    if game.contract is None:
        return (f"the declarer (seat {game.declarer}) had not announced his game when the deal ended "
                f"({ended_by}), so there is no card play to analyse")
    return None


def _analyse(game: Game, actual: ActualResult, label: str, players: tuple[str, str, str] | None,
             fault_seat: int | None, time_limit: float | None) -> GameAnalysis:
    skipped = _skip_reason(game, actual.ended_by)
    if skipped is not None:
        return GameAnalysis(label=label, players=players, declarer=game.declarer, contract=game.contract,
                            bid=game.bid, goal=None, actual=actual, skipped=skipped, time_limit=time_limit)
    assert game.declarer is not None and game.contract is not None
    decl = game.declarer
    goal = contract_goal(game.contract, game.initial_hands[decl] | game.initial_skat, game.bid, game.ruleset,
                         outcome=game.outcome_of)
    cards = [(seat, action.card) for seat, action in game.history if isinstance(action, Play)]
    if actual.ended_by == "revoke":
        cards = cards[:-1]  # the revoke ended the game; it is reported as the ending
    start = start_position(game)
    rows, last = _walk(start, cards, goal, time_limit, game.contract.schwarz and not game.contract.is_null)
    if rows:
        start_points, start_wins = rows[0].points_before, rows[0].wins_before
    else:
        start_points = start_wins = None
    ending = None
    if last is not None and actual.ended_by != "played":
        ending = _ending(actual.ended_by, game, fault_seat, last, len(cards), goal, actual, time_limit)
        if not rows:
            start_points, start_wins = ending.points, ending.wins
    return GameAnalysis(label=label, players=players, declarer=decl, contract=game.contract, bid=game.bid,
                        goal=goal, actual=actual, rows=tuple(rows), start_points=start_points,
                        start_wins=start_wins, ending=ending, time_limit=time_limit)


def analyse_game(game_or_record: Game | dict | IssRecord | str, *, time_limit: float | None = None,
                 label: str | None = None) -> GameAnalysis:
    """Analyse the card play of a finished game double dummy.

    Takes a finished :class:`skat.deal.game.Game`, one of our JSON game records (``Game.to_record()``),
    a parsed ISS record (:func:`skat.records.iss.parse_iss`) or an ISS record line.  ``time_limit``
    bounds each solver call (seconds per position); a position over it is reported as not analysed.
    Raises :class:`AnalysisError` for a game that is not finished and
    :class:`skat.errors.RecordError` for a record that does not replay.
    """
    players = None
    fault_seat = None
    if isinstance(game_or_record, str):
        game_or_record = parse_iss(game_or_record)
    if isinstance(game_or_record, IssRecord):
        record = game_or_record
        game, computed = replay(record)
        actual = _actual_from_iss(computed)
        players = record.players
        if computed.ended_by == "timeout":
            fault_seat = int(computed.fields.get("to", -1))
        elif computed.ended_by == "left":
            fault_seat = int(computed.fields.get("l", -1))
        label = label or record.label
    elif isinstance(game_or_record, dict):
        game = _three_player_game(from_record(game_or_record))
        if not game.is_over:
            raise AnalysisError("the game record is of a game that is not finished; only a finished game "
                                "is analysed")
        actual = _actual_from_game(game)
        label = label or "game record"
    elif variant_of_game(game_or_record) is not None:
        game = _three_player_game(game_or_record)
        if not game.is_over:
            raise AnalysisError("the game is not finished; only a finished game is analysed (the analysis "
                                "shows every hand)")
        actual = _actual_from_game(game)
        label = label or "game"
    else:
        raise TypeError("analyse_game() takes a finished Game, a JSON game record (dict), an IssRecord or an "
                        f"ISS record line, not {type(game_or_record).__name__}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit < math.inf):
        raise AnalysisError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    return _analyse(game, actual, label, players, fault_seat, time_limit)


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.name for c in cards)


def describe_turning_point(row: CardRow, goal: Goal) -> str:
    """One sentence on a turning point: who played what, and what the best card kept."""
    who = "declarer" if row.declarer else "defender"
    better = _cards_text(row.best) or "?"
    if row.declarer:
        return (f"trick {row.trick}: the {who} (seat {row.seat}) played {row.card.name} and loses the game; "
                f"with {better} he still {'makes' if goal.kind == 'points' else 'takes'} {goal.describe()}")
    return (f"trick {row.trick}: the {who} (seat {row.seat}) played {row.card.name} and lets the declarer win; "
            f"with {better} the defenders still beat the contract")

