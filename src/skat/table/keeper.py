"""The score keeper of a real table: one person enters each game played with physical cards, the
keeper values it, refuses an impossible entry with the reason, and keeps the list as players keep it.

* :class:`GameEntry` is one game as the keeper enters it: a declarer game (the declarer, the game and
  its announcements, the matadors as "with N" / "without N" or the declarer's 12 cards, the card points
  or won/lost with Schneider/Schwarz made, the bid, Kontra/Re, a revoke), a deal that all passed, or a
  Ramsch (card points per player, Jungfrau, Durchmarsch, Schieberamsch pushes).
* :class:`ScoreKeeper` is the list: 3, 4 or 5 players (docs/rules.md 1.5: at 4 the dealer sits out, at
  5 the dealer and the third player after him), a rule set, the entries in order with their history
  (added, edited, struck, each with a time and an author), and what follows from them: the dealer of
  each game, Bock, Ramsch and pirate rounds (docs/rules.md 7), every entry's score, the classic and
  Seeger-Fabian totals and the settlement (:class:`skat.table.scoresheet.ScoreSheet`).

Every rule comes from where it lives: the game value from :func:`skat.table.valuing.value_game`
(:func:`skat.rules.value.evaluate`), Ramsch from :func:`skat.deal.ramsch.score_ramsch`, the seats from
:func:`skat.table.series.seats_for`, Bock triggers and round doublings from
:func:`skat.table.series.bock_events` and :func:`skat.table.series.round_score`. The file format is
docs/keeper.md.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from skat.deal.ramsch import RamschOutcome, score_ramsch
from skat.errors import SkatError
from skat.rules.contract import Contract, DeclarationError
from skat.rules.ranking import GameType
from skat.rules.rulesets import ISKO, RuleSet, RuleSetError, get_ruleset
from skat.rules.value import Outcome
from skat.table.scoresheet import ScoreSheet, SheetEntry, csv_cell
from skat.table.series import Rounds, bock_events, round_score, seats_for
from skat.table.valuing import (
    GameInputError,
    cards_mask,
    check_bid,
    check_matadors,
    explain,
    game_words,
    reckoning,
    value_game,
)

__all__ = ["KeeperError", "GameEntry", "ScoreKeeper", "Change", "ENTRY_FIELDS", "KEEPER_FIELDS", "SETTLE", "price_text", "levels_text", "entry_words"]


class KeeperError(SkatError, ValueError):
    """An entry or a list that cannot be: the message names the entry and says why.

    The refusals a keeper meets at the table also carry a ``code`` and its ``params`` (the game's number as
    ``game``), so that a page can say them in its own language (docs/keeper-server.md); the others have
    ``code`` ``""``."""

    def __init__(self, message: str, code: str = "", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def in_game(self, number: int) -> KeeperError:
        """The same refusal, named as game ``number``'s."""
        return KeeperError(f"game {number}: {self}", self.code, **{**self.params, "game": number})


ENTRY_FIELDS: dict[str, str] = {
    "dealer": "the dealer's name (optional: the deal passes to the left after every game)",
    "declarer": "the declarer's name or number (0 for the first player), or 'passed', or 'ramsch'",
    "game": "clubs, spades, hearts, diamonds, grand or null",
    "hand": "true for a hand game",
    "schneider_announced": "true when Schneider was announced (hand games only)",
    "schwarz_announced": "true when Schwarz was announced (hand games only)",
    "ouvert": "true for an ouvert game (a suit or grand ouvert is a hand game with Schwarz announced)",
    "with": "matadors held: with N",
    "without": "matadors missing: without N",
    "cards": "instead of with/without: the declarer's 12 cards (hand plus skat or the two put away)",
    "points": "the declarer's card points, skat included (0 to 120)",
    "result": "'won' or 'lost' (when the card points were not counted)",
    "schneider": "true when Schneider was made in play (by either side)",
    "schwarz": "true when one side took every trick",
    "bid": "the bid (an overbid game is lost, docs/rules.md 4.4)",
    "kontra": "true when Kontra was said",
    "re": "true when Re was said (after Kontra)",
    "revoke": "'declarer' or 'defenders': who revoked, ending the game (docs/rules.md 8.3)",
    "instead_of_ramsch": "true for a Grand Hand announced instead of the Ramsch (ramsch_grand_hand, docs/rules.md "
                         "6.4): no bid, the same dealer deals again",
    "ramsch": "a Ramsch: each active player's card points, the skat counted to whom it belongs",
    "skat": "a Ramsch: the skat's card points, when 'ramsch' gives the trick points without it",
    "jungfrau": "a Ramsch: the players who took no trick",
    "durchmarsch": "a Ramsch: the player who took every trick",
    "pushes": "a Schieberamsch: how often the skat was pushed on unseen",
    "last_trick": "a Ramsch: who took the last trick (needed only where it decides a tie or the skat)",
    "note": "any remark",
}
"""The fields of one game in a keeper's file (docs/keeper.md)."""

KEEPER_FIELDS = ("players", "ruleset", "options", "first_dealer", "price", "settle", "limit", "games")
"""The fields of a keeper's file."""
SETTLE = ("average", "pairwise")
"""How a list is settled (docs/rules.md 10.4): against the average, or everybody with everybody (n times it)."""
MAX_ENTRIES = 1000
"""The entries a list kept on the server may hold, struck ones included (a real evening has a hundred at most;
the cap keeps one list from making every change to it slow): also the most games a list may be set to hold
(``limit``, a tournament's ``games``)."""

_GAME_NAMES = ("diamonds", "hearts", "spades", "clubs", "grand", "null")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _kind(value: Any, kinds: tuple[type, ...], name: str, what: str) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise KeeperError(f"'{name}' must be {what}, not {value!r}")
    return value


@dataclass(frozen=True)
class GameEntry:
    """One game as the keeper enters it; :meth:`from_json` reads the fields of :data:`ENTRY_FIELDS`.

    ``declarer`` is a player's name or number, ``"passed"`` or ``"ramsch"``. Whether the entry is possible
    at its place in the list (the declarer plays, the rule set allows it) the :class:`ScoreKeeper` judges.
    """

    declarer: str | int
    dealer: str | None = None
    game: str | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    with_: int | None = None
    without: int | None = None
    cards: tuple[str, ...] | None = None
    points: int | None = None
    result: str | None = None
    schneider: bool = False
    schwarz: bool = False
    bid: int | None = None
    kontra: bool = False
    re: bool = False
    instead_of_ramsch: bool = False
    revoke: str | None = None
    ramsch: Mapping[str, int] | None = None
    skat: int | None = None
    jungfrau: tuple[str, ...] = ()
    durchmarsch: str | None = None
    pushes: int = 0
    last_trick: str | None = None
    note: str = ""

    @property
    def kind(self) -> str:
        """``game``, ``passed`` or ``ramsch``."""
        return self.declarer if self.declarer in ("passed", "ramsch") else "game"

    @classmethod
    def from_json(cls, data: Any) -> GameEntry:
        """Read one game; a field of the wrong kind or an unknown one raises :class:`KeeperError`."""
        if isinstance(data, GameEntry):
            return data
        if not isinstance(data, Mapping):
            raise KeeperError(f"a game is an object of fields such as declarer, game, with, points; not {data!r}")
        unknown = [k for k in data if k not in ENTRY_FIELDS]
        if unknown:
            raise KeeperError(f"unknown field {unknown[0]!r}; a game has the fields {', '.join(ENTRY_FIELDS)}")
        d = dict(data)
        if "declarer" not in d:
            raise KeeperError("say who declared: 'declarer' is a player's name, 'passed' or 'ramsch'")
        declarer = _kind(d["declarer"], (str, int), "declarer", "a player's name or number, 'passed' or 'ramsch'")
        boolean = {k: _kind(d.get(k), (bool,), k, "true or false") or False
                   for k in ("hand", "schneider_announced", "schwarz_announced", "ouvert", "schneider", "schwarz",
                             "kontra", "re", "instead_of_ramsch")}
        whole = {k: _kind(d.get(k), (int,), k, "a whole number")
                 for k in ("with", "without", "points", "bid", "skat", "pushes")}
        words = {k: _kind(d.get(k), (str,), k, "a word or a name")
                 for k in ("dealer", "game", "result", "revoke", "durchmarsch", "last_trick")}
        note = _kind(d.get("note"), (str,), "note", "text") or ""
        cards = d.get("cards")
        if cards is not None:
            if isinstance(cards, str):
                cards = cards.split()
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise KeeperError("'cards' must be a list of card names such as [\"CJ\", \"SA\", ...]")
            cards = tuple(cards)
        ramsch = d.get("ramsch")
        if ramsch is not None:
            if not isinstance(ramsch, Mapping) or not all(
                    isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in ramsch.items()):
                raise KeeperError("'ramsch' must map each active player's name to his card points")
            ramsch = dict(ramsch)
        jungfrau = d.get("jungfrau") or []
        if isinstance(jungfrau, str):
            jungfrau = [jungfrau]
        if not isinstance(jungfrau, list) or not all(isinstance(j, str) for j in jungfrau):
            raise KeeperError("'jungfrau' must list the names of the players who took no trick")
        if words["result"] not in (None, "won", "lost"):
            raise KeeperError(f"'result' is 'won' or 'lost', not {words['result']!r}")
        if words["revoke"] not in (None, "declarer", "defenders"):
            raise KeeperError(f"'revoke' says who revoked: 'declarer' or 'defenders', not {words['revoke']!r}")
        return cls(declarer=declarer, dealer=words["dealer"], game=words["game"], hand=boolean["hand"],
                   schneider_announced=boolean["schneider_announced"],
                   schwarz_announced=boolean["schwarz_announced"], ouvert=boolean["ouvert"],
                   with_=whole["with"], without=whole["without"], cards=cards, points=whole["points"],
                   result=words["result"], schneider=boolean["schneider"], schwarz=boolean["schwarz"],
                   bid=whole["bid"], kontra=boolean["kontra"], re=boolean["re"], revoke=words["revoke"],
                   instead_of_ramsch=boolean["instead_of_ramsch"],
                   ramsch=ramsch, skat=whole["skat"], jungfrau=tuple(jungfrau), durchmarsch=words["durchmarsch"],
                   pushes=whole["pushes"] or 0, last_trick=words["last_trick"], note=note)

    def to_json(self) -> dict[str, Any]:
        """The fields that are set, as in a keeper's file."""
        out: dict[str, Any] = {}
        for name in ENTRY_FIELDS:
            value = getattr(self, "with_" if name == "with" else name)
            if value is None or value is False or value == () or value == "" or (name == "pushes" and value == 0):
                continue
            out[name] = list(value) if isinstance(value, tuple) else dict(value) if isinstance(value, Mapping) \
                else value
        return out


@dataclass(frozen=True)
class Change:
    """One change of the list: ``add``, ``edit``, ``strike`` or ``restore``, when and by whom."""

    action: str
    at: str
    author: str = ""
    entry: dict[str, Any] | None = None
    """The entry as it became (``add``, ``edit``)."""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action, "at": self.at, "author": self.author}
        if self.entry is not None:
            out["entry"] = self.entry
        if self.reason:
            out["reason"] = self.reason
        return out

    @classmethod
    def from_json(cls, data: Any) -> Change:
        if not isinstance(data, Mapping) or data.get("action") not in ("add", "edit", "strike", "restore"):
            raise KeeperError(f"a history item has action add, edit, strike or restore: {data!r}")
        return cls(action=data["action"], at=str(data.get("at", "")), author=str(data.get("author", "")),
                   entry=data.get("entry"), reason=str(data.get("reason", "")))


@dataclass
class _Item:
    entry: GameEntry
    struck: bool = False
    history: list[Change] = field(default_factory=list)


@dataclass(frozen=True)
class KeptGame:
    """What the keeper made of one entry: its place in the list, its score, and why."""

    number: int
    """The entry's number in the list (1-based, struck entries keep theirs)."""
    entry: GameEntry
    struck: bool
    sheet: SheetEntry | None
    """The score-sheet line (None for a struck entry)."""
    outcome: Outcome | None = None
    explanation: str = ""
    events: tuple[str, ...] = ()
    """The Bock triggers the game fired."""
    reckoning: dict[str, Any] | None = None
    """The explanation as data, for a page that words it in its own language (docs/keeper-server.md)."""


class ScoreKeeper:
    """The list of a real table: players, rule set, entries with history, and what follows from them.

    >>> keeper = ScoreKeeper(["Ann", "Bob", "Cid"])
    >>> keeper.add({"declarer": "Bob", "game": "grand", "hand": True, "with": 2, "points": 78})
    1
    >>> keeper.totals
    [0, 120, 0]
    """

    def __init__(self, players: Sequence[str], ruleset: RuleSet | str = ISKO, *, first_dealer: int | str = 0,
                 price: Fraction | str | int | None = None, settle: str = "average",
                 limit: int | None = None) -> None:
        names = [str(p) for p in players]
        if not 3 <= len(names) <= 5:
            raise KeeperError(f"a Skat table has 3, 4 or 5 players, got {len(names)}")
        if len(set(names)) != len(names):
            raise KeeperError(f"player names must differ: {names}")
        if any(n in ("passed", "ramsch") or not n.strip() for n in names):
            raise KeeperError("a player cannot be called 'passed' or 'ramsch', or have no name")
        self.players = names
        try:
            self.rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        except RuleSetError as exc:
            raise KeeperError(str(exc)) from None
        if self.rules.variant != "standard":
            raise KeeperError(f"the {self.rules.name} rules have games of their own (Tournee, Solo, Gucki); "
                              "the score keeper knows standard Skat")
        self.first_dealer = self._player(first_dealer, "first_dealer")
        self.price = None if price is None else _price(price)
        if settle not in SETTLE:
            raise KeeperError(f"'settle' is 'average' (each against the average) or 'pairwise' (everybody with "
                              f"everybody), not {settle!r}")
        self.settle = settle
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or not 1 <= limit <= MAX_ENTRIES):
            raise KeeperError(f"'limit' is the number of games the list holds (1 to {MAX_ENTRIES}), not {limit!r}")
        self.limit = limit
        """The games the list holds (a tournament table's series: 48 at a 4-table, 36 at a 3-table), or None."""
        self._items: list[_Item] = []
        self._games: list[KeptGame] = []
        self._sheet = self._new_sheet()
        self._next_dealer = self.first_dealer
        self._peek_round = "normal"
        self._rounds = Rounds(len(names), self.rules)
        self._commit([])

    # ------------------------------------------------------------------ changes
    def add(self, entry: GameEntry | Mapping[str, Any], *, author: str = "", at: str | None = None) -> int:
        """Append a game; returns its number. An impossible entry raises :class:`KeeperError` and changes nothing."""
        game = self._read(entry, len(self._items) + 1)
        self._check_room()
        item = _Item(game, history=[Change("add", at or _now(), author, game.to_json())])
        self._append(item)
        return len(self._items)

    def edit(self, number: int, entry: GameEntry | Mapping[str, Any], *, author: str = "",
             at: str | None = None) -> None:
        """Replace entry ``number``; the old one stays in its history and the totals follow."""
        old = self._item(number)
        game = self._read(entry, number)
        item = replace(old, entry=game, history=old.history + [Change("edit", at or _now(), author, game.to_json())])
        self._commit(self._items[:number - 1] + [item] + self._items[number:])

    def strike(self, number: int, *, author: str = "", at: str | None = None, reason: str = "") -> None:
        """Strike entry ``number`` from the list (it keeps its number and history; the totals follow)."""
        old = self._item(number)
        if old.struck:
            raise KeeperError(f"game {number} is struck already")
        item = replace(old, struck=True, history=old.history + [Change("strike", at or _now(), author, reason=reason)])
        self._commit(self._items[:number - 1] + [item] + self._items[number:])

    def restore(self, number: int, *, author: str = "", at: str | None = None) -> None:
        """Undo the strike of entry ``number``."""
        old = self._item(number)
        if not old.struck:
            raise KeeperError(f"game {number} is not struck")
        self._check_room()
        item = replace(old, struck=False, history=old.history + [Change("restore", at or _now(), author)])
        self._commit(self._items[:number - 1] + [item] + self._items[number:])

    def history(self, number: int) -> list[Change]:
        """The changes of entry ``number``, oldest first."""
        return list(self._item(number).history)

    # ------------------------------------------------------------------ results
    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def games(self) -> list[KeptGame]:
        """Every entry with what the keeper made of it, struck ones included."""
        return list(self._games)

    @property
    def sheet(self) -> ScoreSheet:
        """The score sheet of the entries not struck: totals, Seeger-Fabian, settlement."""
        return self._sheet

    @property
    def totals(self) -> list[int]:
        return self._sheet.totals

    @property
    def seeger_fabian(self) -> list[int]:
        return self._sheet.seeger_fabian

    @property
    def settlement(self) -> list[Fraction]:
        """Points each player receives (+) or pays (-): his total minus the average (docs/rules.md 10.4)."""
        return self._sheet.settlement

    @property
    def balance(self) -> list[Fraction]:
        """Points each player receives (+) or pays (-) as the list settles (:attr:`settle`): against the
        average, or pairwise (everybody with everybody: n times the difference from the average)."""
        n = 1 if self.settle == "average" else self.size
        return [n * s for s in self.settlement]

    @property
    def money(self) -> list[Fraction] | None:
        """The :attr:`balance` at :attr:`price` per point (None without a price)."""
        return None if self.price is None else [b * self.price for b in self.balance]

    def next_dealer(self) -> str:
        """Who deals the next game."""
        return self.players[self._dealer_after()]

    @property
    def played(self) -> int:
        """The games on the list that count (struck ones do not)."""
        return sum(1 for item in self._items if not item.struck)

    @property
    def complete(self) -> bool:
        """Whether a list with a :attr:`limit` holds all its games."""
        return self.limit is not None and self.played >= self.limit

    def rounds_due(self) -> dict[str, Any]:
        """The special rounds: the one under way (``kind`` and the deals ``left`` in it) and those ``queued``
        after it (Bock, Ramsch, pirate), as the list shows them."""
        r = self._rounds
        current = r.kind if r.left else "normal"
        return {"current": current, "left": r.left if current != "normal" else 0, "queued": list(r.queue)}

    def upcoming_round(self) -> str:
        """The kind of round the next game belongs to (``normal``, ``bock``, ``ramsch``, ...)."""
        return self._peek_round

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """The list as stored (the format of a keeper's file, docs/keeper.md), history included."""
        out: dict[str, Any] = {"players": list(self.players), "ruleset": self.rules.name}
        preset = _preset(self.rules.name)
        changed = self.rules.changed(preset) if preset is not None else self.rules.to_json()
        changed.pop("name", None)
        changed.pop("description", None)
        if changed:
            out["options"] = changed
        out["first_dealer"] = self.players[self.first_dealer]
        if self.price is not None:
            out["price"] = price_text(self.price)
        if self.settle != "average":
            out["settle"] = self.settle
        if self.limit is not None:
            out["limit"] = self.limit
        games = []
        for item in self._items:
            g = item.entry.to_json()
            if item.struck:
                g = {"struck": True, **g}
            g = {**g, "history": [c.to_json() for c in item.history]} if item.history else g
            games.append(g)
        out["games"] = games
        return out

    @classmethod
    def from_json(cls, data: Any, *, author: str = "", at: str | None = None) -> ScoreKeeper:
        """Read a keeper's file (or :meth:`to_json`); an invalid entry raises :class:`KeeperError`
        naming its number. Games without a history are added now, by ``author`` at ``at``."""
        if not isinstance(data, Mapping):
            raise KeeperError("a keeper's file is an object with players, ruleset and games")
        unknown = [k for k in data if k not in KEEPER_FIELDS]
        if unknown:
            raise KeeperError(f"unknown field {unknown[0]!r}; a keeper's file has {', '.join(KEEPER_FIELDS)}")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise KeeperError("'players' must list the names of the 3, 4 or 5 players in seating order")
        name = data.get("ruleset", "isko2018")
        options = data.get("options") or {}
        if not isinstance(name, str) or not isinstance(options, Mapping):
            raise KeeperError("'ruleset' is a rule set's name and 'options' an object of rule options")
        try:
            rules = get_ruleset(name)
            if options:
                rules = rules.replace(**dict(options, bid_values=tuple(options["bid_values"]))
                                      if "bid_values" in options else dict(options))
        except (RuleSetError, TypeError) as exc:
            raise KeeperError(str(exc)) from None
        keeper = cls(players, rules, first_dealer=data.get("first_dealer", 0), price=data.get("price"),
                     settle=data.get("settle", "average"), limit=data.get("limit"))
        games = data.get("games", [])
        if not isinstance(games, list):
            raise KeeperError("'games' must be a list of games")
        items = []
        stamp = at or _now()
        for number, raw in enumerate(games, 1):
            if not isinstance(raw, Mapping):
                raise KeeperError(f"game {number}: a game is an object of fields, not {raw!r}")
            raw = dict(raw)
            struck = raw.pop("struck", False)
            history = raw.pop("history", None)
            if not isinstance(struck, bool):
                raise KeeperError(f"game {number}: 'struck' must be true or false")
            entry = keeper._read(raw, number)
            if history is None:
                changes = [Change("add", stamp, author, entry.to_json())]
                if struck:
                    changes.append(Change("strike", stamp, author))
            else:
                if not isinstance(history, list):
                    raise KeeperError(f"game {number}: 'history' must be a list of changes")
                try:
                    changes = [Change.from_json(c) for c in history]
                except KeeperError as exc:
                    raise KeeperError(f"game {number}: {exc}") from None
            items.append(_Item(entry, struck, changes))
        keeper._commit(items)
        if keeper.limit is not None and keeper.played > keeper.limit:
            raise KeeperError(f"the list holds {keeper.limit} games, and {keeper.played} are entered")
        return keeper

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json_text(cls, text: str) -> ScoreKeeper:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise KeeperError(f"not valid JSON ({exc})") from None
        return cls.from_json(data)

    def sheet_json(self) -> dict[str, Any]:
        """The computed list: every game with its dealer, declarer, value, scores and explanation, the
        running totals, the classic and Seeger-Fabian totals and the settlement."""
        sheet = self._sheet.to_json()
        lines = []
        running = [0] * self.size
        sf_running = [0] * self.size
        for kept in self._games:
            line: dict[str, Any] = {"number": kept.number, "struck": kept.struck, "entry": kept.entry.to_json()}
            if kept.sheet is not None:
                e = kept.sheet
                for i, s in enumerate(e.scores):
                    running[i] += s
                for i, s in enumerate(self._sheet.seeger_fabian_entries(e)):
                    sf_running[i] += s
                line.update({
                    "dealer": self.players[e.dealer], "seats": [self.players[p] for p in e.seats],
                    "declarer": None if e.declarer is None else self.players[e.declarer], "game": e.game,
                    "round": e.round, "bock": e.bock, "won": e.won, "value": e.value, "bid": e.bid,
                    "kontra": e.kontra, "scores": list(e.scores), "totals": list(running),
                    "seeger_fabian": list(sf_running), "events": list(kept.events),
                    "explanation": kept.explanation, "reckoning": kept.reckoning,
                })
            lines.append(line)
        out = {"players": list(self.players), "ruleset": self.rules.name, "rules": self.rules.to_json(),
               "games": lines, "totals": sheet["totals"], "games_won": sheet["games_won"],
               "games_lost": sheet["games_lost"], "seeger_fabian": sheet["seeger_fabian"],
               "settlement": sheet["settlement"], "next_dealer": self.next_dealer(),
               "upcoming_round": self.upcoming_round(), "rounds_due": self.rounds_due(), "played": self.played,
               "limit": self.limit,
               "settle": self.settle, "balance": [_decimal(b) for b in self.balance]}
        if self.price is not None:
            out["price"] = price_text(self.price)
            out["money"] = [_decimal(m) for m in self.money or []]
        return out

    def to_csv(self) -> str:
        """The list for a spreadsheet, one row per game: number, dealer, declarer, game, round, matadors, bid,
        value, won, then each player's score and running total, and the explanation; struck games are marked
        and score nothing. Names that would read as a formula are quoted (:func:`csv_cell`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        names = [csv_cell(n) for n in self.players]
        writer.writerow(["#", "struck", "dealer", "declarer", "game", "round", "matadors", "bid", "value", "won"]
                        + [f"{n} score" for n in names] + [f"{n} total" for n in names] + ["explanation"])
        sheet = self.sheet_json()
        for line in sheet["games"]:
            if line["struck"]:
                writer.writerow([line["number"], "yes"] + [""] * (8 + 2 * len(names)) + [""])
                continue
            entry = line["entry"]
            mat = f"with {entry['with']}" if "with" in entry else f"without {entry['without']}" if "without" in entry \
                else ""
            won = "" if line["won"] is None else "yes" if line["won"] else "no"
            writer.writerow([line["number"], "", csv_cell(line["dealer"]), csv_cell(line["declarer"] or entry["declarer"]),
                             line["game"], line["round"], mat, line["bid"] or "", line["value"] or "", won]
                            + line["scores"] + line["totals"] + [line["explanation"]])
        writer.writerow(["total", "", "", "", "", "", "", "", "", ""] + [""] * len(names) + sheet["totals"] + [""])
        writer.writerow(["Seeger-Fabian", "", "", "", "", "", "", "", "", ""] + [""] * len(names)
                        + sheet["seeger_fabian"] + [""])
        return out.getvalue()

    # ------------------------------------------------------------------ text
    def format_text(self) -> str:
        """The list as players keep it: one line per game with running totals, then the summaries."""
        names = self.players
        width = max(6, *(len(n) for n in names))
        cols = [("#", 3, ">"), ("dealer", width, "<"), ("declarer", width, "<"), ("game", 8, "<"),
                ("matadors", 10, "<"), ("levels", 20, "<"), ("bid", 3, ">"), ("value", 5, ">"), ("entry", 6, ">")]
        head = " ".join(f"{t:{a}{w}}" for t, w, a in cols) + " " + " ".join(f"{n:>{width}}" for n in names)
        lines = [f"rule set {self.rules.name}, {self.size} players", head, "-" * len(head)]
        running = [0] * self.size
        for kept in self._games:
            e, s = kept.entry, kept.sheet
            if s is None:
                lines.append(f"{kept.number:>3} struck: {entry_words(e)}")
                continue
            for i, v in enumerate(s.scores):
                running[i] += v
            if e.kind == "game":
                o = kept.outcome
                mat = "" if o is None or o.matadors is None else f"{'with' if o.matadors_with else 'without'} " \
                    f"{o.matadors}"
                levels = levels_text(e, o)
                decl = names[s.declarer] if s.declarer is not None else ""
                entry = f"{s.scores[s.declarer]:+d}" if s.declarer is not None else ""
                value = str(s.value or "")
                bid = str(s.bid or "")
            else:
                mat, levels, bid, value = "", "", "", ""
                decl = "passed" if e.kind == "passed" else "Ramsch"
                entry = " ".join(f"{v:+d}" for v in s.scores if v) if e.kind == "ramsch" else ""
                if e.kind == "ramsch" and e.pushes:
                    levels = f"{e.pushes} push{'es' if e.pushes > 1 else ''}"
            game = s.game if e.kind == "game" else ""
            marks = [m for m, on in (("Bock", s.bock), ("Kontra" if s.kontra == 1 else "Re", s.kontra > 0)) if on]
            if marks:
                levels = (levels + " " if levels else "") + " ".join(marks)
            cells = [f"{kept.number:>3}", f"{names[s.dealer]:<{width}}", f"{decl:<{width}}", f"{game:<8}",
                     f"{mat:<10}", f"{levels:<20}", f"{bid:>3}", f"{value:>5}", f"{entry:>6}"]
            lines.append(" ".join(cells) + " " + " ".join(
                f"{running[i]:>{width}}" if v else f"{'.':>{width}}" for i, v in enumerate(s.scores)))
        lines.append("-" * len(head))
        pad = len(head) - (width + 1) * self.size
        sheet = self._sheet
        rows: list[tuple[str, list[Any]]] = [
            ("total", sheet.totals),
            ("won/lost", [f"{w}/{lo}" for w, lo in zip(sheet.games_won(), sheet.games_lost())]),
            ("Seeger-Fabian", sheet.seeger_fabian),
            ("settlement", [_decimal(x) for x in sheet.settlement]),
        ]
        if self.settle == "pairwise":
            rows.append(("pairwise", [_decimal(b) for b in self.balance]))
        if self.money is not None and self.price is not None:  # money is there exactly when a price is
            rows.append((f"money at {_decimal(self.price)} a point", [_decimal(m) for m in self.money]))
        for label, row in rows:
            lines.append(f"{label:<{pad}}" + " ".join(f"{v!s:>{width}}" for v in row))
        due = self._peek_round
        lines.append(f"next: {self.next_dealer()} deals" + ("" if due == "normal" else f", a {due} round"))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format_text()

    # ------------------------------------------------------------------ internals
    def _new_sheet(self) -> ScoreSheet:
        r = self.rules
        return ScoreSheet(self.players, won_bonus=r.seeger_won, lost_malus=r.seeger_lost,
                          fabian_bonus=r.fabian_bonus, ruleset=r.name)

    def _item(self, number: int) -> _Item:
        if not isinstance(number, int) or not 1 <= number <= len(self._items):
            raise KeeperError(f"there is no game {number}: the list has {len(self._items)}")
        return self._items[number - 1]

    def _read(self, entry: GameEntry | Mapping[str, Any], number: int) -> GameEntry:
        try:
            return GameEntry.from_json(entry)
        except KeeperError as exc:
            raise KeeperError(f"game {number}: {exc}") from None

    def _player(self, who: int | str | None, what: str) -> int:
        if isinstance(who, bool) or not isinstance(who, (int, str)):
            raise KeeperError(f"{what} must be a player's name or number, not {who!r}")
        if isinstance(who, int):
            if not 0 <= who < self.size:
                raise KeeperError(f"{what} {who} is out of range: the players are numbered 0 to {self.size - 1}")
            return who
        if who not in self.players:
            raise KeeperError(f"{what} {who!r} is not at the table: the players are {', '.join(self.players)}")
        return self.players.index(who)

    def _check_room(self) -> None:
        if self.complete:
            raise KeeperError(f"the list holds {self.limit} games and has them all; strike one to enter another",
                              "list_full", limit=self.limit)

    def _dealer_after(self) -> int:
        return self._next_dealer

    def _commit(self, items: list[_Item]) -> None:
        """Recompute the whole list from ``items``; on an impossible entry raise and keep the old list."""
        games, sheet, dealer, rounds = self._compute(items)
        self._items, self._games, self._sheet, self._next_dealer = items, games, sheet, dealer
        self._rounds, self._peek_round = rounds, rounds.peek()

    def _append(self, item: _Item) -> None:
        """Add one entry at the end: only it is scored, from where the list stands (as :meth:`_compute`
        would score it after all the others); on an impossible entry raise and keep the old list."""
        if self._rounds.rules is not self.rules:  # the rules were changed since the list was computed
            self._commit(self._items + [item])
            return
        sheet, rounds = self._sheet.copy(), self._rounds.copy()
        number = len(self._items) + 1
        kept, dealer = self._scored(number, item, self._next_dealer, rounds, sheet)
        self._items, self._games = self._items + [item], self._games + [kept]
        self._sheet, self._next_dealer, self._rounds, self._peek_round = sheet, dealer, rounds, rounds.peek()

    def _scored(self, number: int, item: _Item, dealer: int, rounds: Rounds,
                sheet: ScoreSheet) -> tuple[KeptGame, int]:
        try:
            return self._score(number, item.entry, dealer, rounds, sheet)
        except KeeperError as exc:
            raise exc.in_game(number) from None
        except (GameInputError, DeclarationError) as exc:
            code, params = getattr(exc, "code", ""), getattr(exc, "params", {})
            raise KeeperError(str(exc), code, **params).in_game(number) from None

    def _compute(self, items: list[_Item]) -> tuple[list[KeptGame], ScoreSheet, int, Rounds]:
        sheet = self._new_sheet()
        rounds = Rounds(self.size, self.rules)
        dealer = self.first_dealer
        games: list[KeptGame] = []
        for number, item in enumerate(items, 1):
            if item.struck:
                games.append(KeptGame(number, item.entry, True, None))
                continue
            kept, dealer = self._scored(number, item, dealer, rounds, sheet)
            games.append(kept)
        return games, sheet, dealer, rounds

    def _score(self, number: int, e: GameEntry, dealer: int, rounds: Rounds,
               sheet: ScoreSheet) -> tuple[KeptGame, int]:
        """One entry at its place: (what it scores, the next dealer)."""
        rules = self.rules
        if e.dealer is not None:
            dealer = self._player(e.dealer, "dealer")
        seats = seats_for(dealer, self.size)
        kind = rounds.next()
        in_bock = kind in ("bock", "pirate_bock")
        scores = [0] * self.size
        outcome: Outcome | None = None
        declarer: int | None = None
        result: Any = None
        kontra = 2 if e.re else 1 if e.kontra else 0
        if e.kind != "game":
            _refuse_game_fields(e)
        if e.kind == "passed":
            if kind in ("ramsch", "schieber"):
                raise KeeperError(f"game {number} is in a {kind} round: every deal is a Ramsch, enter it as one")
            if rules.all_pass == "ramsch":
                raise KeeperError(f"under {rules.name} a deal that all pass is played as Ramsch: enter the Ramsch "
                                  "(declarer 'ramsch' with each player's card points)")
            _refuse_ramsch_fields(e)
            redeal = rules.all_pass == "redeal"
            explanation = "all passed: the same dealer deals again (no game)" if redeal else "all passed: no score"
            if redeal:
                rounds.give_back()
            entry = SheetEntry(number=number, dealer=dealer, seats=seats, declarer=None, game="passed", won=None,
                               scores=tuple(scores), bid=0, bock=in_bock, round=_round_name(kind),
                               details={"explanation": explanation, "redeal": redeal})
            sheet.add(entry)
            reck = {"kind": "passed", "redeal": redeal}
            return (KeptGame(number, e, False, entry, None, explanation, reckoning=reck),
                    dealer if redeal else (dealer + 1) % self.size)
        if e.kind == "ramsch":
            if not (kind in ("ramsch", "schieber") or rules.all_pass == "ramsch"):
                raise KeeperError(f"{rules.name} has no Ramsch here: it is played when all pass under "
                                  "all_pass=ramsch, or in a Ramsch round")
            seat_scores, explanation, ramsch = self._ramsch(e, seats, kind)
            for seat, s in enumerate(seat_scores):
                scores[seats[seat]] += round_score(s, won=None, hand=False, round_kind=kind, rules=rules)
            names = [self.players[p] for p in seats]
            reck = {"kind": "ramsch", "scoring": rules.ramsch_scoring,
                    "card_points": dict(zip(names, ramsch.card_points, strict=True)),
                    "losers": [names[p] for p in ramsch.losers], "jungfrauen": [names[p] for p in ramsch.jungfrauen],
                    "durchmarsch": None if ramsch.durchmarsch is None else names[ramsch.durchmarsch],
                    "pushes": ramsch.pushes, "multiplier": ramsch.multiplier,
                    "entry": {names[p]: ramsch.scores[p] for p in range(3) if ramsch.scores[p]},
                    "round_doubled": any(scores[seats[p]] != ramsch.scores[p] for p in range(3))}
            if reck["round_doubled"]:
                explanation += "; " + ", ".join(f"{self.players[p]} {scores[p]:+d}" for p in seats if scores[p]) \
                    + " in a Bock round"
            game_name = "ramsch"
            won = None
            value = None
            bid = 0
            instead = False
        else:
            if e.ramsch is not None or e.jungfrau or e.durchmarsch or e.pushes or e.skat is not None:
                raise KeeperError("'ramsch', 'skat', 'jungfrau', 'durchmarsch' and 'pushes' belong to a Ramsch "
                                  "(declarer 'ramsch')")
            declarer = self._player(e.declarer, "declarer")
            if declarer not in seats:
                role = "deals" if declarer == dealer else "sits out"
                raise KeeperError(f"{self.players[declarer]} {role} in this game ({self.players[dealer]} deals, "
                                  f"{', '.join(self.players[p] for p in seats)} play): he cannot be the declarer")
            contract = self._contract(e)
            grand_hand = contract.game_type == GameType.GRAND and contract.hand
            if kind in ("ramsch", "schieber") and not (rules.ramsch_grand_hand and grand_hand):
                raise KeeperError(f"game {number} is in a {kind} round: every deal is a Ramsch"
                                  + (" (or a Grand Hand)" if rules.ramsch_grand_hand else ""))
            instead = e.instead_of_ramsch or kind in ("ramsch", "schieber")
            if e.instead_of_ramsch:
                if not rules.ramsch_grand_hand:
                    raise KeeperError(f"{rules.name} plays no Grand Hand instead of the Ramsch (ramsch_grand_hand)")
                if not grand_hand:
                    raise KeeperError("only a Grand Hand may be announced instead of the Ramsch")
                if not (kind in ("ramsch", "schieber") or rules.all_pass == "ramsch"):
                    raise KeeperError(f"{rules.name} has no Ramsch here to play a Grand Hand instead of")
            if instead and e.bid is not None:
                raise KeeperError("a Grand Hand instead of the Ramsch has no bid: leave out 'bid'")
            outcome, explanation, reck = self._value(e, contract, instead)
            reck["instead_of_ramsch"] = instead
            reck["revoke"] = e.revoke
            if instead:
                explanation += "; instead of the Ramsch: the same dealer deals again"
            score = round_score(outcome.score, won=outcome.won, hand=contract.hand, round_kind=kind, rules=rules)
            reck["round_doubled"] = score != outcome.score
            if score != outcome.score:
                explanation += f"; {score:+d} in a Bock round"
            scores[declarer] = score
            game_name = contract.game_type.label
            won, value, bid = outcome.won, outcome.game_value, e.bid or 0
            result = SimpleNamespace(contract=contract, won=outcome.won, declarer_points=outcome.declarer_points,
                                     outcome=outcome)
        before = sheet.totals
        after = [b + s for b, s in zip(before, scores)]
        events = bock_events(result, kontra, before, after, rules)
        reck["trigger_doubled"] = bool(events and rules.bock_includes_trigger and not in_bock)
        if reck["trigger_doubled"]:
            scores = [2 * s for s in scores]
            explanation += "; doubled: it starts a Bock round"
        if events:
            explanation += f"; Bock round due ({', '.join(events)})"
        reck["events"] = list(events)
        entry = SheetEntry(number=number, dealer=dealer, seats=seats, declarer=declarer, game=game_name, won=won,
                           scores=tuple(scores), value=value, bid=bid, kontra=kontra, bock=in_bock,
                           round=_round_name(kind), details={"explanation": explanation, "events": events})
        sheet.add(entry)
        rounds.after(events, sheet.totals)
        same_dealer = e.kind == "game" and instead
        return (KeptGame(number, e, False, entry, outcome, explanation, tuple(events), reck),
                dealer if same_dealer else (dealer + 1) % self.size)

    def _contract(self, e: GameEntry) -> Contract:
        if e.game is None:
            raise KeeperError(f"name the game: {', '.join(_GAME_NAMES)}")
        if e.game.lower() not in _GAME_NAMES:
            raise KeeperError(f"unknown game {e.game!r}: name {', '.join(_GAME_NAMES)}")
        gt = GameType.parse(e.game.lower())
        if gt == GameType.NULL and (e.schneider_announced or e.schwarz_announced):
            raise KeeperError("Schneider and Schwarz cannot be announced in a Null game")
        if (e.schneider_announced or e.schwarz_announced) and not (e.hand or e.ouvert):
            which = "Schwarz" if e.schwarz_announced else "Schneider"
            raise KeeperError(f"{which} can only be announced in a hand game: after picking up the skat no "
                              "announcement is allowed (set hand)", "announce_needs_hand", level=which.lower())
        return Contract(gt, hand=e.hand, schneider=e.schneider_announced, schwarz=e.schwarz_announced,
                        ouvert=e.ouvert)

    def _value(self, e: GameEntry, contract: Contract,
               instead_of_ramsch: bool = False) -> tuple[Outcome, str, dict[str, Any]]:
        rules = self.rules
        gt = contract.game_type
        if e.bid is None and not instead_of_ramsch:
            raise KeeperError("give the bid (18 when forehand played after two passes)")
        if e.bid is not None:
            check_bid(e.bid, rules)
        if e.re and not e.kontra:
            raise KeeperError("Re answers Kontra: set kontra too")
        cards = None
        matadors = None
        if e.cards is not None:
            if e.with_ is not None or e.without is not None:
                raise KeeperError("give the matadors (with/without) or the declarer's cards, not both")
            if gt == GameType.NULL:
                raise KeeperError("a Null game has no matadors: leave out the cards")
            cards = cards_mask(list(e.cards))
        else:
            matadors = check_matadors(gt, e.with_, e.without, opt="")
        won = None if e.result is None else e.result == "won"
        points, schneider, schwarz = e.points, e.schneider, e.schwarz
        revoke_note = ""
        if e.revoke is not None:
            if e.points is not None or e.result is not None or schneider or schwarz:
                raise KeeperError("a revoke decides the game (docs/rules.md 8.3): leave out points, result, "
                                  "schneider and schwarz; a game already decided before the revoke is entered as played")
            if e.revoke == "declarer":
                won, points = (False, None) if gt == GameType.NULL else (None, 60)
                revoke_note = "the declarer revoked: lost in the plain level"
            else:
                won = True
                if gt != GameType.NULL and not contract.schwarz:
                    points = rules.schneider_points if contract.schneider else 61
                revoke_note = "the defenders revoked: the declarer is credited with the game he announced"
        outcome = value_game(contract, rules, matadors=matadors, cards=cards, points=points, won=won,
                             schneider=schneider, schwarz=schwarz, bid=e.bid, kontra=2 if e.re else 1 if e.kontra else 0,
                             opt="")
        text = explain(outcome, rules, points, outcome_kontra(e), won)
        if revoke_note:
            text = f"{revoke_note}; {text}"
        return outcome, text, reckoning(outcome, rules, points, outcome_kontra(e), won)

    @staticmethod
    def _loser_only(e: GameEntry, active: list[str]) -> dict[str, int]:
        """A Ramsch entered by its loser alone (his card points, the skat counted to whom it belongs): the
        others' points as any split of the rest that leaves him the only one with most (they do not change
        the score: the loser pays his own points)."""
        assert e.ramsch is not None, "_ramsch() checked it"
        (loser, points), = e.ramsch.items()
        if e.skat is not None:
            raise KeeperError("with 'skat' give every player's trick points")
        if e.durchmarsch is not None:
            raise KeeperError(f"a Durchmarsch is entered with every player's card points ({e.durchmarsch} 120)")
        if not 0 < points <= 120:
            raise KeeperError(f"{loser}'s {points} card points are impossible for the loser of a Ramsch: 1 to 120",
                              "ramsch_points", name=loser, points=points)
        if loser in e.jungfrau:
            raise KeeperError(f"{loser} took no trick (Jungfrau) and cannot be the loser")
        others = [n for n in active if n != loser]
        free = [n for n in others if n not in e.jungfrau]
        rest = 120 - points
        split = {n: 0 for n in others}
        if not free:
            raise KeeperError(f"the other two took no trick: {loser} made a Durchmarsch; enter it as one")
        if len(free) == 1:
            split[free[0]] = rest
        else:
            split[free[0]], split[free[1]] = rest - rest // 2, rest // 2
        if max(split.values()) >= points:
            raise KeeperError(f"with {points} card points {loser} need not be the only one with most: enter every "
                              "player's card points", "ramsch_tie_possible", name=loser, points=points)
        return {loser: points, **split}

    def _ramsch(self, e: GameEntry, seats: tuple[int, int, int],
                kind: str) -> tuple[tuple[int, int, int], str, RamschOutcome]:
        rules = self.rules
        if e.ramsch is None:
            raise KeeperError("a Ramsch needs each active player's card points: 'ramsch': {name: points, ...}")
        active = [self.players[p] for p in seats]
        ramsch = dict(e.ramsch)
        if len(ramsch) == 1 and set(ramsch) <= set(active) and rules.ramsch_scoring != "hoyle":
            ramsch = self._loser_only(e, active)
        named = set(ramsch)
        if named != set(active):
            missing = [n for n in active if n not in named]
            extra = [n for n in ramsch if n not in active]
            reasons = []
            if missing:
                reasons.append(f"{', '.join(missing)} played and needs card points")
            if extra:
                reasons.append(f"{', '.join(extra)} did not play this deal" if all(x in self.players for x in extra)
                               else f"{', '.join(extra)} is not at the table")
            raise KeeperError(f"the Ramsch is played by {', '.join(active)}: " + "; ".join(reasons))
        pts = [ramsch[n] for n in active]
        bad = next((n for n in active if not 0 <= ramsch[n] <= 120), None)
        if bad is not None:
            raise KeeperError(f"{bad}'s {ramsch[bad]} card points are impossible: 0 to 120", "ramsch_points",
                              name=bad, points=ramsch[bad])
        skat = e.skat
        if skat is not None and not 0 <= skat <= 22:
            raise KeeperError(f"a skat of {skat} card points is impossible: two cards hold 0 to 22")
        total = sum(pts) + (skat or 0)
        if total != 120:
            with_skat = " with the skat" if skat is not None else " (the skat counted to whom it belongs)"
            raise KeeperError(f"the card points{with_skat} add up to {total}, not 120", "ramsch_sum", total=total)
        for name in e.jungfrau:
            if name not in active:
                raise KeeperError(f"Jungfrau {name!r} did not play this deal")
            if ramsch[name] != 0:
                raise KeeperError(f"{name} took no trick (Jungfrau) but has {ramsch[name]} card points",
                                  "jungfrau_points", name=name, points=ramsch[name])
        jungfrau = {active.index(n) for n in e.jungfrau}
        durch = None
        if e.durchmarsch is not None:
            if e.durchmarsch not in active:
                raise KeeperError(f"Durchmarsch {e.durchmarsch!r} did not play this deal")
            durch = active.index(e.durchmarsch)
            if pts[durch] + (skat or 0) != 120:
                raise KeeperError(f"{e.durchmarsch} took every trick (Durchmarsch) and so has all 120 card points",
                                  "durchmarsch_points", name=e.durchmarsch)
            if durch in jungfrau:
                raise KeeperError(f"{e.durchmarsch} cannot take every trick and none")
            jungfrau = {s for s in range(3) if s != durch}
        elif len(jungfrau) == 2:
            durch = next(s for s in range(3) if s not in jungfrau)
        elif len(jungfrau) == 3:
            raise KeeperError("somebody took the tricks: three Jungfrauen are impossible")
        pushes = e.pushes
        schieber = kind == "schieber" or rules.schieberamsch
        if pushes:
            if not schieber:
                raise KeeperError("pushes belong to a Schieberamsch (option schieberamsch, or a Schieber round)")
            if not rules.schieberamsch_unseen_push or kind == "schieber" and rules.pirate:
                raise KeeperError(f"under {rules.name} every player takes up the skat: no unseen pushes")
            if not 0 <= pushes <= 3:
                raise KeeperError(f"{pushes} pushes are impossible: each of the three players pushes at most once")
        players_with_tricks = [s for s in range(3) if s not in jungfrau]
        tricks = [0, 0, 0]
        if durch is not None:
            tricks[durch] = 10
        else:
            for s in players_with_tricks:
                tricks[s] = 1
            tricks[players_with_tricks[0]] += 10 - len(players_with_tricks)
        if e.last_trick is not None:
            if e.last_trick not in active or active.index(e.last_trick) in jungfrau:
                raise KeeperError(f"{e.last_trick} cannot have taken the last trick")
            candidates = [active.index(e.last_trick)]
        else:
            candidates = players_with_tricks
        results = {}
        for last in candidates:
            results[last] = score_ramsch(pts, tricks, skat or 0, last, rules, pushes)
        if len({r.scores for r in results.values()}) > 1:
            raise KeeperError("say who took the last trick ('last_trick'): it decides "
                              + ("who gets the skat" if skat is not None else "the tie"))
        out = results[candidates[0]]
        why = re.sub(r"\b([FMR])\b", lambda m: active["FMR".index(m.group(1))], out.explanation)
        return out.scores, why, out


def outcome_kontra(e: GameEntry) -> int:
    return 2 if e.re else 1 if e.kontra else 0


def _refuse_game_fields(e: GameEntry) -> None:
    given = [name for name in ("game", "with", "without", "cards", "points", "result", "bid", "revoke")
             if getattr(e, "with_" if name == "with" else name) is not None]
    given += [name for name in ("hand", "schneider_announced", "schwarz_announced", "ouvert", "schneider", "schwarz",
                                "kontra", "re", "instead_of_ramsch") if getattr(e, name)]
    if given:
        what = "a deal that all passed" if e.kind == "passed" else "a Ramsch (it has no declarer)"
        raise KeeperError(f"{', '.join(given)} belong to a declarer's game, not to {what}")


def _refuse_ramsch_fields(e: GameEntry) -> None:
    if e.ramsch is not None or e.jungfrau or e.durchmarsch or e.pushes or e.skat is not None or e.last_trick:
        raise KeeperError("Ramsch fields belong to a Ramsch (declarer 'ramsch'), not to a deal that all passed")


def _round_name(kind: str) -> str:
    return "bock" if kind in ("bock", "pirate_bock") else kind


def levels_text(e: GameEntry, o: Outcome | None) -> str:
    """The levels column of a list as players keep it (hand, Schneider, Bock, Kontra, ...).

    A suit or grand ouvert is always hand (``hand ouvert``); a Null Ouvert is hand only when declared so: Null
    ``""`` (23), Null ``hand`` (35), Null ``ouvert`` (46), Null ``hand ouvert`` (59)."""
    words = []
    if e.hand or (e.ouvert and not _is_null(e, o)):
        words.append("hand")
    if e.ouvert:
        words.append("ouvert")
    elif e.schwarz_announced:
        words.append("schwarz ann.")
    elif e.schneider_announced:
        words.append("schneider ann.")
    if o is not None and not o.contract.is_null:
        if o.schwarz and not e.schwarz_announced and not e.ouvert:
            words.append("schwarz")
        elif o.schneider and not e.schneider_announced and not e.schwarz_announced and not e.ouvert:
            words.append("schneider")
    if o is not None and o.overbid:
        words.append("overbid")
    return " ".join(words)


def _is_null(e: GameEntry, o: Outcome | None) -> bool:
    if o is not None:
        return o.contract.is_null
    try:
        return GameType.parse(e.game or "") is GameType.NULL
    except ValueError:
        return False


def entry_words(e: GameEntry) -> str:
    """A struck entry in words, as the list shows it."""
    if e.kind == "passed":
        return "passed"
    if e.kind == "ramsch":
        return "Ramsch " + ", ".join(f"{k} {v}" for k, v in (e.ramsch or {}).items())
    try:
        contract = Contract(GameType.parse(e.game or ""), hand=e.hand, schneider=e.schneider_announced,
                            schwarz=e.schwarz_announced, ouvert=e.ouvert)
        return f"{e.declarer} {game_words(contract)}"
    except (ValueError, DeclarationError):
        return f"{e.declarer} {e.game}"


def _price(value: Fraction | str | int) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (Fraction, str, int)):
        raise KeeperError(f"'price' is the money per point as a number in quotes, such as \"0.01\", not {value!r}")
    try:
        price = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise KeeperError(f"'price' {value!r} is not a number such as \"0.01\"") from None
    if price < 0:
        raise KeeperError("'price' cannot be negative")
    return price


def price_text(price: Fraction) -> str:
    """A price as people write it: ``"0.05"`` (a decimal when it has one, else the fraction ``"1/3"``)."""
    d = price.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return str(price)
    places = 0
    while (price * 10**places).denominator != 1:
        places += 1
    return f"{float(price):.{places}f}" if places <= 12 else str(price)


def _decimal(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


def _preset(name: str) -> RuleSet | None:
    try:
        return get_ruleset(name)
    except RuleSetError:
        return None
