"""A series ("list") at a table of 3, 4 or 5 players: dealer rotation, sitting-out seats,
reproducible deals, Bock and Ramsch rounds, the pirate sequence, and the score sheet.

>>> from skat import Table
>>> table = Table(["Ann", "Bob", "Cid", "Dan"], seed=7, games=8)
>>> game = table.next_game()          # a skat.Game; Bob, Cid and Dan play, Ann deals
>>> [table.players[p] for p in table.seats]
['Bob', 'Cid', 'Dan']

Seats in a game are numbered 0 forehand, 1 middlehand, 2 rearhand (docs/rules.md section 1).
At 3 players the dealer is rearhand; at 4 the dealer sits out; at 5 the dealer and the
third player to his left sit out. The deal passes to the left after every game, passed-in
games included. Deal ``k`` of a series is shuffled from ``(seed, k)`` alone, so another
table with the same seed plays exactly the same cards.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skat.deal.game import Game, ramsch_game
from skat.errors import SkatError
from skat.rules.rulesets import ISKO, RuleSet, get_ruleset
from skat.table.scoresheet import ScoreSheet, SheetEntry

__all__ = ["Table", "Rounds", "TableError", "seats_for", "sitting_out", "pirate_rounds_due", "bock_events", "deal_seed",
           "round_score", "TABLE_SEED_BITS"]

TABLE_SEED_BITS = 128
"""Bits of a table seed drawn when none is given (from the operating system, :func:`secrets.randbits`): too
many to search, so the cards of one deal do not reveal the seed and with it the later deals."""

MAX_REDEALS = 50
"""Under ``all_pass="redeal"`` a deal that is passed this many times in a row is written as passed in
(it stops a table of players who always pass from dealing for ever)."""


class TableError(SkatError, ValueError):
    """A table that cannot be set up, or a series driven out of order."""


def seats_for(dealer: int, players: int) -> tuple[int, int, int]:
    """Players (indices) in the seats forehand, middlehand, rearhand for a dealer (docs/rules.md 1)."""
    d = dealer
    if players == 3:
        return ((d + 1) % 3, (d + 2) % 3, d)
    if players == 4:
        return ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4)
    if players == 5:
        return ((d + 1) % 5, (d + 2) % 5, (d + 4) % 5)
    raise TableError(f"a Skat table has 3, 4 or 5 players, not {players}")


def sitting_out(dealer: int, players: int) -> tuple[int, ...]:
    """Players who receive no cards in this deal: the dealer at 4, the dealer and D+3 at 5."""
    active = set(seats_for(dealer, players))
    return tuple(p for p in range(players) if p not in active)


def deal_seed(seed: int, number: int, attempt: int = 0) -> int:
    """The shuffle seed of deal ``number`` (1-based) of a series; ``attempt`` counts redeals."""
    digest = hashlib.sha256(f"skat-series:{seed}:{number}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def pirate_rounds_due(totals: Sequence[int], threshold: int = 100) -> list[str]:
    """Seed 001: once any running total reaches ``threshold``, a Bock round and then a Schieber round."""
    return ["bock_round", "schieber_round"] if any(t >= threshold for t in totals) else []


def round_score(score: int, *, won: bool | None, hand: bool, round_kind: str, rules: RuleSet) -> int:
    """A game's entry as written in a round of ``round_kind``: doubled in a Bock round.

    In the pirate Bock round a lost hand game costs ``rules.pirate_bock_lost_hand_factor`` times
    its value instead (Q7); a lost skat game there costs 2 x 2 = 4 times (``bock-02``).
    """
    if round_kind == "pirate_bock" and won is False and hand:
        return score // rules.lost_hand_game_factor * rules.pirate_bock_lost_hand_factor
    if round_kind in ("bock", "pirate_bock"):
        return 2 * score
    return score


def _is_repdigit(n: int) -> bool:
    n = abs(n)
    return 100 < n < 1000 and len(set(str(n))) == 1


def bock_events(result: Any, kontra_level: int, before: Sequence[int], after: Sequence[int],
                rules: RuleSet) -> list[str]:
    """The Bock triggers of ``rules.bock_triggers`` that a finished game fires (docs/rules.md 7)."""
    wanted = rules.bock_triggers
    if not wanted:
        return []
    events = []
    contract = getattr(result, "contract", None)
    won = getattr(result, "won", None)
    outcome = getattr(result, "outcome", None)
    if contract is not None and won is not None:
        gt = contract.game_type.label
        if "lost_60" in wanted and not won and gt != "null" and result.declarer_points == 60:
            events.append("lost_60")
        if "grand_hand_won" in wanted and won and gt == "grand" and contract.hand:
            events.append("grand_hand_won")
        if "null_ouvert_hand" in wanted and gt == "null" and contract.hand and contract.ouvert:
            events.append("null_ouvert_hand")
        if "kontra_lost" in wanted and kontra_level >= 1 and not won:
            events.append("kontra_lost")
        if "value" in wanted and outcome is not None and outcome.game_value >= rules.bock_value_threshold:
            events.append("value")
    if "re" in wanted and kontra_level >= 2:
        events.append("re")
    changed = [i for i in range(len(after)) if after[i] != before[i]]
    if "hundred" in wanted and any(after[i] != 0 and after[i] % 100 == 0 for i in changed):
        events.append("hundred")
    if "repdigit" in wanted and any(_is_repdigit(after[i]) for i in changed):
        events.append("repdigit")
    return events


@dataclass
class _Deal:
    game: Game
    number: int
    dealer: int
    seats: tuple[int, int, int]
    round: str
    attempt: int


class Rounds:
    """The special rounds of a series (docs/rules.md 7): Bock rounds (and a Ramsch round after each under
    ``bock_ramsch_round``) queued by the games that trigger them, and the pirate sequence (a Bock round, then
    a Schieber round) when a total reaches the threshold. A round lasts one deal per player. Both
    :class:`Table` and the score keeper (:class:`skat.table.keeper.ScoreKeeper`) run their rounds here."""

    def __init__(self, size: int, rules: RuleSet) -> None:
        self.size, self.rules = size, rules
        self.queue: deque[str] = deque()
        """Rounds waiting to start after the current one."""
        self.kind = "normal"
        """The kind of the current round: ``normal``, ``bock``, ``pirate_bock``, ``ramsch`` or ``schieber``."""
        self.left = 0
        """Deals left in the current special round."""
        self.pirate_next: float = rules.pirate_threshold if rules.pirate else float("inf")
        self.pirate_active = False

    def next(self) -> str:
        """The round kind of the next deal (it takes its place in the round)."""
        if self.left == 0:
            if self.kind == "schieber":
                self.pirate_active = False  # the pirate sequence is over
            if self.queue:
                self.kind, self.left = self.queue.popleft(), self.size
            else:
                self.kind = "normal"
        if self.kind != "normal":
            self.left -= 1
        return self.kind

    def give_back(self) -> None:
        """A deal that does not count (a redeal) gives back its place in the round."""
        if self.kind != "normal":
            self.left += 1

    def copy(self) -> Rounds:
        """The same rounds, to go on with without changing these."""
        other = Rounds(self.size, self.rules)
        other.queue, other.kind, other.left = deque(self.queue), self.kind, self.left
        other.pirate_next, other.pirate_active = self.pirate_next, self.pirate_active
        return other

    def peek(self) -> str:
        """The round kind the next deal will have, without taking its place."""
        return self.copy().next()

    def after(self, events: Sequence[str], totals: Sequence[int]) -> None:
        """Queue the rounds a finished game starts: its Bock ``events``, and the pirate sequence at ``totals``."""
        rules = self.rules
        for _ in events:
            self.queue.append("bock")
            if rules.bock_ramsch_round:
                self.queue.append("ramsch")
        if rules.pirate and not self.pirate_active and max(totals) >= self.pirate_next:
            self.queue.extend(("pirate_bock", "schieber"))
            self.pirate_active = True
            self.pirate_next = self.pirate_next + rules.pirate_threshold if rules.pirate_repeat else float("inf")

    @property
    def next_pirate_threshold(self) -> int | None:
        """The running total that starts the next pirate sequence (None: no further one)."""
        return None if self.pirate_next == float("inf") else int(self.pirate_next)


class Table:
    """A series at a table of 3, 4 or 5 players under one rule set.

    Iterate over the table (or call :meth:`next_game`) to get the games in order; play each
    one to the end through its ``legal_actions()`` / ``apply()`` / ``view()`` interface before
    asking for the next. :attr:`seats` says which player sits in forehand, middlehand and
    rearhand of the current game; :attr:`sheet` is the score sheet so far. :meth:`play`
    drives a whole series with computer players.
    """

    def __init__(
        self,
        players: Sequence[str] | int = 3,
        ruleset: RuleSet | str = ISKO,
        seed: int | None = None,
        games: int | None = None,
        first_dealer: int = 0,
    ) -> None:
        if isinstance(players, int):
            players = [f"P{i + 1}" for i in range(players)]
        names = [str(p) for p in players]
        if not 3 <= len(names) <= 5:
            raise TableError(f"a Skat table has 3, 4 or 5 players, got {len(names)}")
        if len(set(names)) != len(names):
            raise TableError(f"player names must differ: {names}")
        self.players: list[str] = names
        self.ruleset: RuleSet = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.seed: int = seed if seed is not None else secrets.randbits(TABLE_SEED_BITS)
        if games is None:
            games = 12 * len(names)
        if games < 1:
            raise TableError(f"a series has at least one game, not {games}")
        self.games: int = games
        if not 0 <= first_dealer < len(names):
            raise TableError(f"first_dealer must be a player index 0..{len(names) - 1}")
        rules = self.ruleset
        self.sheet = ScoreSheet(names, won_bonus=rules.seeger_won, lost_malus=rules.seeger_lost,
                                fabian_bonus=rules.fabian_bonus, ruleset=rules.name)
        self.records: list[dict[str, Any]] = []
        """Every finished game's record (:meth:`skat.Game.to_record`), in order, redeals included."""
        self.dealer: int = first_dealer
        self._number = 0
        self._attempt = 0
        self._deal: _Deal | None = None
        self._redeal = False
        self._rounds = Rounds(len(names), rules)

    # ------------------------------------------------------------------ state
    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def number(self) -> int:
        """Number of the current game (1-based), or of the last one once the series is over."""
        return self._deal.number if self._deal is not None else self._number

    @property
    def seats(self) -> tuple[int, int, int]:
        """Players (indices) in forehand, middlehand and rearhand of the current game."""
        if self._deal is None:
            return seats_for(self.dealer, self.size)
        return self._deal.seats

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """Players who sit out the current game (no cards)."""
        return sitting_out(self._deal.dealer if self._deal else self.dealer, self.size)

    @property
    def round(self) -> str:
        """Kind of the current round: ``normal``, ``bock``, ``pirate_bock``, ``ramsch`` or ``schieber``."""
        return self._deal.round if self._deal is not None else self._rounds.kind

    @property
    def game(self) -> Game | None:
        """The game being played now."""
        return self._deal.game if self._deal is not None else None

    @property
    def queued_rounds(self) -> list[str]:
        """Special rounds waiting to start after the current one."""
        return list(self._rounds.queue)

    @property
    def next_pirate_threshold(self) -> int | None:
        """The running total that starts the next pirate sequence (None: no further one)."""
        return self._rounds.next_pirate_threshold

    @property
    def is_over(self) -> bool:
        return self._number >= self.games and self._deal is None and not self._redeal

    def seat_of(self, player: int | str) -> int | None:
        """The seat (0-2) of a player in the current game, or None when he sits out."""
        idx = self.players.index(player) if isinstance(player, str) else player
        return self.seats.index(idx) if idx in self.seats else None

    # ------------------------------------------------------------------ series
    def __iter__(self) -> Iterator[Game]:
        while (game := self.next_game()) is not None:
            yield game

    def next_game(self, stored: Mapping[str, Any] | None = None) -> Game | None:
        """Write the finished game on the sheet and deal the next one (None when the series is over).

        ``stored`` rebuilds a series that was kept (a server restart): the stored start of
        this deal (a game record, its actions and result ignored).  Deals are shuffled from
        ``(seed, number, attempt)``, so the shuffle normally equals it; when it does not (a
        record kept under another seed) the stored cards are dealt instead, so that no table
        is lost.  The round (Bock, Ramsch, Schieber) still comes from the table's own rules.
        """
        if self._deal is not None:
            self.close_game()
        if self._redeal:
            self._redeal = False
            self._attempt += 1
            self._deal = self._start(self._number + 1, self._attempt, self._rounds.kind, stored)
            return self._deal.game
        if self._number >= self.games:
            return None
        self._attempt = 0
        kind = self._rounds.next()
        self._deal = self._start(self._number + 1, 0, kind, stored)
        return self._deal.game

    def close_game(self) -> SheetEntry | None:
        """Write the finished current game on the sheet now, without dealing the next one.

        :meth:`next_game` does this by itself; call it to show the sheet between games.
        Returns the new entry, or None when the same deal number is dealt again (all
        passed under ``all_pass="redeal"``).
        """
        if self._deal is None:
            raise TableError("there is no game to close: deal one with next_game()")
        if not self._deal.game.is_over:
            raise TableError(f"game {self._deal.number} is not finished yet: play it to the end first")
        deal, self._deal = self._deal, None
        self._redeal = self._close(deal)
        return None if self._redeal else self.sheet.entries[-1]

    def play(self, players: Sequence[Any]) -> ScoreSheet:
        """Play the rest of the series with one player object per table player (``choose(view)``).

        Each player only ever sees its own seat's view; players who sit out get nothing.
        """
        if len(players) != self.size:
            raise TableError(f"give {self.size} players, one for each name at the table, not {len(players)}")
        for game in self:
            seats = self.seats
            while not game.is_over:
                seat = game.to_move
                assert seat is not None
                action = players[seats[seat]].choose(game.view(seat))
                game.apply(action, seat)
        return self.sheet

    # ------------------------------------------------------------------ internals
    def _start(self, number: int, attempt: int, kind: str, stored: Mapping[str, Any] | None = None) -> _Deal:
        # the registry loads every variant's game (Officers' Skat too): imported where a deal starts, so
        # that `import skat` and the commands that need no table stay quick
        from skat.variants.registry import from_record, variant_for_rules

        seed = deal_seed(self.seed, number, attempt)
        rules = self.ruleset
        if kind in ("ramsch", "schieber"):
            game = ramsch_game(seed, ruleset=rules, schieberamsch=True if kind == "schieber" else None)
        else:
            game = variant_for_rules(rules).new_game(seed, rules)
        if stored is not None and _start_of(game.to_record()) != _start_of(stored):
            game = from_record(dict(_start_of(stored), actions=[], result=None))
        return _Deal(game, number, self.dealer, seats_for(self.dealer, self.size), kind, attempt)

    def _close(self, deal: _Deal) -> bool:
        """Write a finished game; True when the same deal number must be dealt again (redeal)."""
        game = deal.game
        result = game.result
        assert result is not None
        self.records.append(game.to_record())
        rules = self.ruleset
        if result.kind == "passed_in" and rules.all_pass == "redeal" and deal.attempt + 1 < MAX_REDEALS:
            return True
        n = self.size
        scores = [0] * n
        declarer = None if result.declarer is None else deal.seats[result.declarer]
        kontra = game.kontra_level
        in_bock = deal.round in ("bock", "pirate_bock")
        hand = result.contract is not None and result.contract.hand
        for seat, s in enumerate(result.scores):
            scores[deal.seats[seat]] += round_score(s, won=result.won, hand=hand, round_kind=deal.round, rules=rules)
        game_name = _game_name(result)
        before = self.sheet.totals
        after = [b + s for b, s in zip(before, scores)]
        events = bock_events(result, kontra, before, after, rules)
        if events and rules.bock_includes_trigger and not in_bock:
            scores = [2 * s for s in scores]
        outcome = result.outcome
        same_dealer = game.ramsch_grand_hand
        entry = SheetEntry(
            number=deal.number, dealer=deal.dealer, seats=deal.seats, declarer=declarer, game=game_name,
            won=result.won if declarer is not None else None, scores=tuple(scores),
            value=getattr(outcome, "game_value", None) if declarer is not None else None,
            bid=result.bid, kontra=kontra, bock=in_bock, round="bock" if in_bock else deal.round,
            details={"kind": result.kind, "explanation": result.explanation, "events": events,
                     "redeals": deal.attempt, "same_dealer": same_dealer},
        )
        self.sheet.add(entry)
        self._number = deal.number
        self._rounds.after(events, self.sheet.totals)
        if not same_dealer:
            self.dealer = (self.dealer + 1) % n  # after a Grand Hand instead of Ramsch the same dealer deals again
        return False


def _start_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """A game record before its first action: rule set, seed, hands and skat."""
    return {k: v for k, v in record.items() if k not in ("actions", "result")}


def _game_name(result: Any) -> str:
    """The sheet's game column: clubs...null, ramsch, passed, or a Tournee game name."""
    name = getattr(result, "game_name", None)
    if name:
        return str(name)
    if result.kind == "passed_in":
        return "passed"
    if result.kind == "ramsch":
        return "ramsch"
    if result.contract is None:
        return result.kind
    return result.contract.game_type.label
