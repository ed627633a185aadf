"""A series of Officers' Skat games between two players, with a score sheet.

The players take turns as forehand (the chooser in the layout variants). Each game's
deck comes from the series seed, so a series replays exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from skat.rules.actions import Action
from skat.variants.officers.game import OfficersGame, OfficersResult, OfficersView

__all__ = ["OfficersSeries", "SheetRow", "SeatPlayer"]


class SeatPlayer(Protocol):
    """Anything that answers an Officers' Skat view with one of its legal actions."""

    def choose(self, view: OfficersView) -> Action: ...


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet."""

    number: int
    forehand: int
    """Which player (0 or 1) was forehand."""
    game: str | None
    chooser: int | None
    """Which player chose the game (None: nobody)."""
    points: tuple[int, int]
    """Card points of player 0 and player 1."""
    scores: tuple[int, int]
    totals: tuple[int, int]
    explanation: str


class OfficersSeries:
    """Games between player 0 and player 1; player ``game_number % 2`` is forehand."""

    def __init__(self, variant: str = "classic", seed: int | None = None, names: tuple[str, str] = ("A", "B"),
                 **options: Any) -> None:
        self.variant = OfficersGame(variant, seed=0, **options).variant  # checks the variant and options now
        self.options = options
        self.seed = seed
        self.names = names
        self._rng = random.Random(seed)
        self.rows: list[SheetRow] = []
        self.records: list[dict[str, Any]] = []

    @property
    def totals(self) -> tuple[int, int]:
        """Running totals of player 0 and player 1."""
        return self.rows[-1].totals if self.rows else (0, 0)

    def forehand_player(self, number: int | None = None) -> int:
        """The player who is forehand in game ``number`` (default: the next game)."""
        n = len(self.rows) if number is None else number
        return n % 2

    def new_game(self) -> OfficersGame:
        """The next game of the series, dealt from the series seed."""
        return OfficersGame(self.variant, seed=self._rng.randrange(2**31), **self.options)

    def record(self, game: OfficersGame) -> SheetRow:
        """Enter a finished game on the score sheet (seat 0 of the game is :meth:`forehand_player`)."""
        if game.result is None:
            raise ValueError("only a finished game can go on the score sheet")
        r: OfficersResult = game.result
        fh = self.forehand_player()
        by_player = (lambda pair: (pair[0], pair[1])) if fh == 0 else (lambda pair: (pair[1], pair[0]))
        scores = by_player(r.scores)
        before = self.totals
        totals = (before[0] + scores[0], before[1] + scores[1])
        chooser = None if r.chooser is None else (r.chooser if fh == 0 else 1 - r.chooser)
        row = SheetRow(len(self.rows) + 1, fh, r.game, chooser, by_player(r.points), scores, totals, r.explanation)
        self.rows.append(row)
        self.records.append(game.to_record())
        return row

    def play(self, players: tuple[SeatPlayer, SeatPlayer], games: int) -> tuple[int, int]:
        """Play ``games`` games between two players (player 0 first forehand); the final totals."""
        for _ in range(games):
            game = self.new_game()
            fh = self.forehand_player()
            seats = (players[fh], players[1 - fh])
            while not game.is_over:
                s = game.to_move
                assert s is not None
                game.apply(seats[s].choose(game.view(s)), s)
            self.record(game)
        return self.totals

    def sheet(self) -> str:
        """The score sheet as text: one line per game and the running totals."""
        a, b = self.names
        lines = [f"{'#':>3}  {'forehand':<8}  {'game':<9}  {'chosen by':<9}  {'points':>7}  "
                 f"{a:>6}  {b:>6}  {'total ' + a:>9}  {'total ' + b:>9}"]
        for r in self.rows:
            chooser = "-" if r.chooser is None else self.names[r.chooser]
            lines.append(
                f"{r.number:>3}  {self.names[r.forehand]:<8}  {r.game or 'passed':<9}  {chooser:<9}  "
                f"{r.points[0]:>3}:{r.points[1]:<3}  {r.scores[0]:>6}  {r.scores[1]:>6}  "
                f"{r.totals[0]:>9}  {r.totals[1]:>9}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "officers-skat-series", "variant": self.variant, "options": self.options, "seed": self.seed,
            "names": list(self.names), "totals": list(self.totals),
            "rows": [{"number": r.number, "forehand": r.forehand, "game": r.game, "chooser": r.chooser,
                      "points": list(r.points), "scores": list(r.scores), "totals": list(r.totals),
                      "explanation": r.explanation} for r in self.rows],
            "games": self.records,
        }
