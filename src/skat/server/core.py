"""The table core: what a server table is, without any I/O.

:class:`TableCore` holds the seats, the series and the current deal, whose turn it is and which computer move
or claim answer is due, who is ready and connected, the stopped state and the kept records; it checks and
applies actions and builds every message's content (:meth:`TableCore.state_for`). It never touches a socket,
the database, the clock or asyncio: the clock's readings come in as arguments, stored facts as
:class:`~skat.server.store.StoredTable` data, and it is driven synchronously in tests
(tests/test_server_core.py). Whatever differs between games (the view, hints and dealt cards of a state, what
the table info shows of the game, whether it gives hints) it asks the table's game, :attr:`TableCore.game_kind`
(:mod:`skat.server.games`), and never names a variant. Around it, each in its own module: :mod:`skat.server.tables` (the table's
lock, its storage and its connections' fan-out), :mod:`skat.server.runner` (the computer players),
:mod:`skat.server.manager` (all tables, their loading and the other server processes) and
:mod:`skat.server.limits`.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import orjson

from skat.deal.game import Game, Phase
from skat.errors import IllegalActionError, SkatError
from skat.rules.actions import CONCEDE, Action
from skat.server.bots import ComputerSeat
from skat.server.clock import MoveClock
from skat.server.games import TableGame, table_game
from skat.server.hints import hint_possible
from skat.server.series import DealStart, ServerSeries
from skat.variants.registry import Variant, variant_of_game

if TYPE_CHECKING:
    from skat.server.store import StoredTable

__all__ = ["TableCore", "Seat", "TableError", "Overtaken", "PROTOCOL_VERSION", "SEAT_LABELS", "RECENT_RECORDS", "hash_token",
           "pack", "unpack"]

log = logging.getLogger("skat.server")

PROTOCOL_VERSION = 1
SEAT_LABELS = ("forehand", "middlehand", "rearhand")
RECENT_RECORDS = 8
"""Finished deals whose records a table keeps in memory (the others come from the database)."""


class TableError(SkatError):
    """A request about a table that cannot be served: the message says why. ``code`` is for clients."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class Overtaken(Exception):
    """Another server process stored an action at this point of the deal first; nothing was stored and the
    table caught up with the database."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"another action was taken at this table first (action {seq})")
        self.seq = seq


def new_secret(nbytes: int = 18) -> str:
    """A fresh URL-safe secret (seat token, invite, key, session) of ``nbytes`` random bytes that never begins with
    "-": people paste these after command-line flags (``skat bot LINK --token TOKEN``), where a leading dash reads as
    another flag. Drawing again keeps every allowed secret equally likely."""
    while True:
        secret = secrets.token_urlsafe(nbytes)
        if not secret.startswith("-"):
            return secret


def hash_token(token: str) -> str:
    """The hash a seat token or invite secret is kept as (the secret itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def pack(data: Any) -> bytes:
    """JSON data kept for long in little memory: compressed (an ``orjson.dumps`` result itself would keep its
    whole working buffer, some 16 KB, however short the JSON)."""
    return zlib.compress(orjson.dumps(data), 1)


def unpack(packed: bytes) -> Any:
    """The data of :func:`pack`."""
    return orjson.loads(zlib.decompress(packed))


def _variant(game: Game) -> Variant:
    """The variant a deal is played in (its parser of action tokens)."""
    variant = variant_of_game(game)
    assert variant is not None, f"{type(game).__name__} is of no registered variant"
    return variant


@dataclass
class Seat:
    """One position at a table: a person's (``kind`` "human", taken once it has a token) or a computer's."""

    position: int
    kind: str  # "human" or "bot"
    name: str
    bot: str | None = None
    token_hash: str | None = None
    bot_seat: ComputerSeat | None = None
    stand_in: ComputerSeat | None = None
    """The computer player that decides for the person in this seat while they are away (the clock's stand-in,
    docs/clock.md), made when first needed."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def public(self) -> dict[str, Any]:
        return {"position": self.position, "kind": self.kind, "name": self.name,
                "bot": None if self.bot_seat is None else self.bot_seat.name, "taken": self.taken}


@dataclass(eq=False)
class TableCore:
    """One table's seats, series and current deal, and every rule of the table that needs no I/O."""

    id: str
    name: str
    settings: dict[str, Any]
    seats: list[Seat]
    series: ServerSeries
    game: Game | None = None
    deal_no: int = 0
    positions: tuple[int, ...] = (0, 1, 2)
    """The table position of each game seat in the current deal (Officers' Skat: forehand, dealer)."""
    dealer: int = 0
    current: DealStart | None = None
    ready: set[int] = field(default_factory=set)
    present: Counter[int | None] = field(default_factory=Counter)
    """Connections by table position (None: spectators), counted by :meth:`arrive` and :meth:`leave`."""
    robot_deals: int = 1_000_000
    """Deals an all-computer table starts while nobody watches before it rests (:attr:`paused`)."""
    records: dict[int, bytes] = field(default_factory=dict)
    """The records of the last :data:`RECENT_RECORDS` finished deals as JSON (older ones are rebuilt from the
    database when asked for), so that a long series does not grow the server's memory. Kept packed
    (:func:`pack`): one object each instead of a tree of them that every full garbage collection would scan,
    and a third of the JSON's size."""
    results: dict[int, bytes] = field(default_factory=dict)
    """Each finished deal's result and sheet row (packed, as :attr:`records`): :meth:`game_results`."""
    sheet_changed: bool = False
    claim_checked: set[tuple[int, int, int]] = field(default_factory=set)
    """(deal, action count, seat) at which a computer defender has judged the declarer's claim."""
    stopped: str | None = None
    """Why the table stopped (its computer players failed after every retry), or None while it runs."""
    closed: bool = False
    """Set when the table is closed or archived (here or at another process): a request that waited for its
    lock meanwhile is refused, and its computer players stop."""
    pending_action: tuple[int, int, int, Action] | None = None
    """(deal, action count, seat, action) stored but not yet applied (the engine failed after the write):
    the next try applies exactly this action and does not store it again."""
    pending_finish: tuple[int, dict[str, Any], dict[str, Any], int, bool] | None = None
    """(deal, result, sheet row) of a finished deal whose write failed: written before anything else."""
    pending_start: DealStart | None = None
    """A deal the series has dealt whose write failed: the next try stores and starts this one."""
    last_active: float = 0.0
    """When (a ``time.monotonic()`` reading) a person last acted, joined, connected or left: the idle expiry
    counts from it (:func:`skat.server.limits.idle_reason`)."""
    unwatched_deals: int = 0
    """Deals an all-computer table started while nobody was connected, since somebody last was."""
    stand_ins: set[int] = field(default_factory=set)
    """The numbers (action counts) of the current deal's actions a computer stand-in made for a person."""
    wall: Callable[[], float] = time.time
    """The wall clock the move clock reads (``time.time``; tests give their own)."""
    clock: MoveClock = field(init=False)
    """The move clock (docs/clock.md): off unless the table's settings have one."""

    def __post_init__(self) -> None:
        self.clock = MoveClock(self.settings.get("clock"))

    # ------------------------------------------------------------ the table
    def touch(self, now: float) -> None:
        """Note a person's activity (an action, a join, a connection, a disconnection) at ``now``."""
        self.last_active = now

    def arrive(self, position: int | None) -> None:
        """A connection of a seat holder (``position``) or a spectator (None) joined the table."""
        self.present[position] += 1

    def leave(self, position: int | None) -> None:
        """A connection counted by :meth:`arrive` left."""
        self.present[position] -= 1
        if self.present[position] <= 0:
            del self.present[position]

    @property
    def watched(self) -> bool:
        """Whether anybody is connected to the table (a seat holder or a spectator)."""
        return bool(self.present)

    @property
    def all_computer(self) -> bool:
        return all(s.kind == "bot" for s in self.seats)

    @property
    def paused(self) -> bool:
        """An all-computer table between deals that dealt :attr:`robot_deals` deals while nobody watched:
        it deals no more until somebody connects (then it goes on; nothing is wrong, unlike :attr:`stopped`)."""
        return (self.stopped is None and self.all_computer and not self.watched and self.game is not None
                and self.game.is_over and self.series.next is not None
                and self.unwatched_deals >= self.robot_deals)

    @property
    def n_players(self) -> int:
        return len(self.seats)

    @cached_property
    def game_kind(self) -> TableGame:
        """The game the table plays (:class:`skat.server.games.TableGame`), by its ``variant`` setting (``standard``
        for a table stored before there were others): asked for everything that differs between games."""
        return table_game(self.settings.get("variant", "standard"))

    @property
    def hints_on(self) -> bool:
        """Whether the table gives advice: the card hint on request and the bid estimate (``hints`` in its
        settings; a table stored before the setting existed gives them), if its game gives any (Officers' Skat
        does not: :attr:`TableGame.no_hints <skat.server.games.TableGame.no_hints>`)."""
        return self.game_kind.no_hints is None and bool(self.settings.get("hints", True))

    def seat_of(self, position: int) -> int | None:
        """The game seat (0 forehand, 1 middlehand, 2 rearhand; Officers' Skat: 0 forehand, 1 dealer) of a
        table position in this deal."""
        try:
            return self.positions.index(position)
        except ValueError:
            return None  # the dealer sitting out at a 4-table

    @property
    def public(self) -> bool:
        """Whether the table is listed in the lobby and open to anybody. A private table (``public`` false in its
        settings) admits only its seat holders and whoever brings its invite secret (:meth:`check_invite`); a
        table stored before tables could be private has no ``public`` setting and stays public."""
        return bool(self.settings.get("public", True))

    def check_invite(self, invite: Any) -> None:
        """Let a person without a seat token in (to join or watch): anybody at a public table, at a private one
        only with its invite secret, compared by hash with :func:`secrets.compare_digest`."""
        if self.public:
            return
        if invite is None or invite == "":
            raise TableError("invite_required", f"table {self.id} is private: open the invite link its creator "
                             "shares (/t/ID#invite=...), or send the invite secret (\"invite\" in join and hello, "
                             "the X-Invite header on GET requests); seat holders use their seat token", 403)
        expected = self.settings.get("invite_hash")
        if (not isinstance(invite, str) or not invite.isascii() or len(invite) > 200
                or not isinstance(expected, str) or not secrets.compare_digest(hash_token(invite), expected)):
            raise TableError("bad_invite", f"this invite is not valid for table {self.id} (mistyped, cut short or "
                             "from another table): ask the person who created the table for its invite link again",
                             403)

    def position_for_token(self, token: str | None) -> int | None:
        """The position whose secret token this is (None for no token); raises for an unknown token."""
        if not token:
            return None
        if not isinstance(token, str) or not token.isascii() or len(token) > 200:  # tokens are URL-safe base64
            raise TableError("bad_token", "this is not a seat token (they are short ASCII text, as the join "
                             "answer gave it); join a free seat or watch as a spectator", 403)
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.position
        raise TableError("bad_token", "this seat token is not valid at this table (stale or mistyped); "
                         "join a free seat or watch as a spectator", 403)

    def admit(self, invite: Any = None, token: Any = None) -> None:
        """Let a reader in (``GET /api/tables/{id}`` and its sheet, games, records, analysis): anybody at a
        public table; at a private one a seat holder (``token``) or whoever has the ``invite``."""
        if self.public:
            return
        if isinstance(token, str) and token:
            try:
                self.position_for_token(token)
                return
            except TableError:
                if not invite:
                    raise  # bad_token: a stale or mistyped seat token, and no invite besides
        self.check_invite(invite)

    def free_seats(self) -> list[int]:
        """The positions a person may still take."""
        return [s.position for s in self.seats if s.kind == "human" and s.token_hash is None]

    @property
    def status(self) -> str:
        if self.stopped is not None:
            return "stopped"
        if self.paused:
            return "paused"
        if not all(s.taken for s in self.seats):
            return "waiting"
        if self.game is None:
            return "starting"
        if self.game.is_over:  # (the series' next deal may be taken already, its start being stored: not over)
            return "finished" if self.series.is_over else "between_deals"
        return "playing"

    def public_info(self) -> dict[str, Any]:
        """What anybody may know about the table (lobby entry and header of every state message)."""
        seats = []
        for s in self.seats:
            d = s.public()
            d["connected"] = s.kind == "bot" or s.position in self.present
            d["game_seat"] = self.seat_of(s.position) if self.game is not None else None
            seats.append(d)
        return {
            "id": self.id,
            "name": self.name,
            "variant": self.settings.get("variant", "standard"),
            **self.game_kind.info(self.settings),
            "options": self.settings.get("options") or {},
            "seeded": bool(self.settings.get("seeded")),
            "public": self.public,
            "hints": self.hints_on,
            "n_players": self.n_players,
            "status": self.status,
            "stopped": self.stopped,
            "deal_no": self.deal_no,
            "game_no": None if self.current is None else self.current.number,
            "round": None if self.current is None else self.current.round,
            "upcoming": self.series.upcoming(),
            "dealer": self.dealer,
            "positions": list(self.positions),
            "seats": seats,
            "ready": sorted(self.ready),
            "spectators": self.present.get(None, 0),
            "totals": self.series.totals(),
            "clock": self.clock.info(),
        }

    def state_for(self, position: int | None, table_info: dict[str, Any] | None = None,
                  memo: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state message for a seat holder (own view and hints) or a spectator (public view).
        ``table_info`` and ``memo`` let a broadcast compute once what every state carries alike: the table
        info, and (``memo``, filled by the first state built) the auction's question and the cards as dealt."""
        seat = None if position is None else self.seat_of(position)
        view_json = None
        hints: dict[str, Any] = {}
        memo = {} if memo is None else memo
        dealt = None
        game = self.game
        if game is not None:  # the game's own view, hints and cards as dealt (a spectator's: public facts only)
            view_json, hints, dealt = self.game_kind.state(game, seat, series=self.series, hints=self.hints_on,
                                                           memo=memo)
        return {
            "type": "state",
            "protocol": PROTOCOL_VERSION,
            "table": self.public_info() if table_info is None else table_info,
            "you": {"position": position, "seat": seat, "role": "spectator" if position is None else "player"},
            "seq": 0 if game is None else len(game.history),
            "stopped": self.stopped,
            "view": view_json,
            "hints": hints,
            "dealt": dealt,
            "now": round(self.wall(), 3),
        }

    # ------------------------------------------------------------- deals
    def enter(self, start: DealStart, deal_no: int) -> None:
        """Make the dealt ``start`` the current deal, number ``deal_no``."""
        self.current, self.game, self.deal_no = start, start.game, deal_no
        self.positions, self.dealer = start.positions, start.dealer
        self.ready.clear()
        self.stand_ins = set()

    def count_unwatched(self) -> None:
        """A new deal began: count it towards :attr:`robot_deals` when nobody watches, else start again."""
        self.unwatched_deals = 0 if self.watched else self.unwatched_deals + 1

    def deal_due(self) -> bool:
        """Whether the next deal starts now: every seat taken, the last deal over, the series not over, every
        person ready and the table not resting (:attr:`paused`). A deal dealt before a failed write
        (:attr:`pending_start`) is due at once."""
        if self.stopped is not None:
            return False
        if self.pending_start is not None:
            return True
        if not all(s.taken for s in self.seats):
            return False
        if self.game is not None and not self.game.is_over:
            return False
        if self.series.next is None:
            return False  # the series is over
        if self.game is not None:
            humans = {s.position for s in self.seats if s.kind == "human"}
            if not humans <= self.ready | self.away_ready(humans):
                return False
        return not self.paused  # an all-computer table nobody watches rests until somebody connects

    def finish_deal(self, store: bool = True) -> None:
        """Write the finished deal on the sheet (the series deals the next one) and keep its record; with
        ``store`` its result is to be written (:attr:`pending_finish`). An all-computer table is ready for the
        next deal at once."""
        game = self.game
        assert game is not None and game.result is not None and self.current is not None
        row = self.series.close_deal()
        result_json = game.result.to_json()
        if store:  # with the game's number and whether the series ended: the players' histories and ratings
            self.pending_finish = (self.deal_no, result_json, {"redeal": True} if row is None else row.to_json(),
                                   self.current.number, bool(self.series.is_over))
        self.sheet_changed = True
        self.records[self.deal_no] = pack(self.record(game))
        while len(self.records) > RECENT_RECORDS:
            del self.records[min(self.records)]
        self.results[self.deal_no] = pack({
            "deal_no": self.deal_no, "game_no": self.current.number, "round": self.current.round,
            "dealer": self.dealer, "positions": list(self.positions), "result": result_json,
            "sheet_row": None if row is None else row.to_json()})
        if not any(s.kind == "human" for s in self.seats):
            self.ready = {s.position for s in self.seats}

    def away_ready(self, humans: set[int]) -> set[int]:
        """The people away (their stand-in plays) who count as ready for the next deal: all of them once somebody
        who is not away is ready (they wait), none while nobody is (a table everybody left rests)."""
        away = self.clock.away & humans
        return away if self.ready & (humans - away) else set()

    def game_results(self) -> list[dict[str, Any]]:
        """The finished deals' results and sheet rows, in order."""
        return [unpack(self.results[k]) for k in sorted(self.results)]

    def deal_result(self, deal_no: int) -> dict[str, Any]:
        """One finished deal's result and sheet row (``KeyError`` for a deal not finished)."""
        result: dict[str, Any] = unpack(self.results[deal_no])
        return result

    def kept_record(self, deal_no: int) -> dict[str, Any] | None:
        """The record of a recent finished deal kept in memory, or None (older ones are in the database)."""
        record = self.records.get(deal_no)
        return None if record is None else unpack(record)

    def check_open(self) -> None:
        """Refuse anything at a table closed (or archived) meanwhile: ``404 no_table``."""
        if self.closed:
            raise TableError("no_table", f"table {self.id} was closed; there is no open table {self.id!r}", 404)

    def check_running(self) -> None:
        """Refuse anything more at a closed or stopped table."""
        self.check_open()
        if self.stopped is not None:
            raise TableError("table_stopped", f"this table stopped: {self.stopped}", 409)

    def stop(self, reason: str) -> None:
        """Stop the table for good in this server process (the others hear of it): no more actions."""
        self.stopped = reason
        log.error("table %s stopped at deal %d: %s", self.id, self.deal_no, reason)

    @property
    def seed_public(self) -> bool:
        """Whether the deals' seeds may be shown: only at a seeded table (duplicate play, the seed was given on
        purpose). A secret table's seed and deal seeds never leave the server while it is open: from them the
        later deals could be computed (the store keeps them, to rebuild the table)."""
        return bool(self.settings.get("seeded"))

    def record(self, game: Game, deal_no: int | None = None, dealer: int | None = None,
               positions: tuple[int, ...] | None = None, stand_ins: frozenset[int] | set[int] | None = None
               ) -> dict[str, Any]:
        """The finished deal's record as clients get it: hands, skat, actions, result and the table block; the
        ``seed`` is null unless :attr:`seed_public` (the record replays from its cards all the same); ``stand_in``:
        the numbers of the actions a computer stand-in made for a person (docs/clock.md), when there are any. Of
        the current deal unless ``deal_no``, ``dealer``, ``positions`` and ``stand_ins`` say which."""
        record = game.to_record()
        if not self.seed_public:
            record["seed"] = None
        stand_ins = self.stand_ins if stand_ins is None else stand_ins
        if stand_ins:
            record["stand_in"] = sorted(stand_ins)
        deal_no = self.deal_no if deal_no is None else deal_no
        dealer = self.dealer if dealer is None else dealer
        positions = self.positions if positions is None else positions
        record["table"] = {"id": self.id, "name": self.name, "deal_no": deal_no, "dealer": dealer,
                           "positions": list(positions), "players": [self.seats[p].name for p in positions]}
        return record

    # ----------------------------------------------------------- actions
    def check_action(self, position: int | None, token: Any) -> tuple[int, Action]:
        """The game seat and parsed action of a position's action, or the error that refuses it (nothing
        changes either way)."""
        if position is None:
            raise TableError("not_a_player", "spectators cannot act; join a free seat to play")
        game, seat = self._seat_in_deal(position, "send next_deal to start the next one")
        try:  # the variant's parser refuses a token that is no string, empty or too long, saying why
            action = _variant(game).parse_action(token)
        except IllegalActionError as exc:
            raise TableError("bad_action", str(exc)) from None
        if action in game.legal_actions(seat) or action in game.side_actions(seat):
            return seat, action
        trial = game.copy()  # not legal: let the engine say why, on a copy
        try:
            trial.apply(action, seat)
        except IllegalActionError as exc:
            raise TableError("illegal_action", str(exc)) from None
        return seat, action

    def _seat_in_deal(self, position: int, after: str) -> tuple[Game, int]:
        """The running deal and a position's game seat in it, or the error why there is none (``after``: what the
        ``deal_over`` answer goes on to say)."""
        game = self.game
        if game is None:
            raise TableError("no_deal", "no deal is running at this table yet: wait until every seat is taken")
        if game.is_over:
            raise TableError("deal_over", f"this deal is over; {after}")
        seat = self.seat_of(position)
        if seat is None:
            raise TableError("sitting_out", "this position sits out this deal (the dealer at a table of four; the "
                             "dealer and the third player to his left at a table of five)")
        return game, seat

    def play(self, seat: int, action: Action, *, store: bool = True) -> None:
        """Apply one (stored) action of a game seat; a deal it ends is finished (:meth:`finish_deal`, its result
        to be written when ``store``)."""
        game = self.game
        assert game is not None
        game.apply(action, seat)
        if game.is_over:
            self.finish_deal(store=store)

    def check_ready(self, position: int | None) -> None:
        """Refuse a ``next_deal`` that cannot be: from a spectator, or while a deal is played."""
        if position is None:
            raise TableError("not_a_player", "spectators cannot start deals")
        self.check_running()
        if self.game is not None and not self.game.is_over:
            raise TableError("deal_running", "the current deal is still being played")

    def hint_point(self, position: int | None) -> tuple[tuple[int, int, int], Any]:
        """The point of the deal a hint is asked for — (deal, action count, seat) — and the seat's own view, the
        input a computer player in that seat gets; refuses, saying why, when there is no hint to give. Hints are
        for the seat's turn in the card play and for the declarer's choices: the skat, the discard, the game."""
        if position is None:
            raise TableError("not_a_player", "spectators get no hints; hints are for the seat whose turn it is")
        if not self.hints_on:
            raise TableError("hints_off", self.game_kind.no_hints or
                             "hints are switched off at this table (its creator chose so)")
        self.check_running()
        game, seat = self._seat_in_deal(position, "hints are for the card play")
        if game.phase not in (Phase.PLAY, Phase.SKAT, Phase.DISCARD, Phase.DECLARE):
            raise TableError("not_in_play", "hints are for the card play and the declarer's skat, discard and "
                             f"declaration; the deal is in its {game.phase.value} phase")
        if game.to_move != seat:
            raise TableError("not_your_turn", "a hint is for your own turn; it is "
                             f"{SEAT_LABELS[game.to_move] if game.to_move is not None else 'nobody'}'s turn")
        view = game.view(seat)
        if not hint_possible(view):
            raise TableError("not_in_play", f"there is no hint for this choice in the {game.phase.value} phase "
                             "(hints are for the card play and a standard game's skat, discard and declaration)")
        return (self.deal_no, len(game.history), seat), view

    # ------------------------------------------------------ computer players
    def bot_to_move(self) -> tuple[int, int] | None:
        """The computer player whose turn it is, (position, seat), or None."""
        game = self.game
        if game is None or game.is_over:
            return None
        seat = game.to_move
        if seat is None:
            return None
        position = self.positions[seat]
        if self.seats[position].kind == "bot" or position in self.clock.away:
            return position, seat
        return None

    def stands_in(self, position: int) -> bool | None:
        """Whether a computer decides at a position as a person's stand-in (True), as the seat's own computer player
        (False), or nobody does (None: a person who is not away)."""
        if self.seats[position].kind == "bot":
            return False
        return True if position in self.clock.away else None

    def computer_at(self, position: int) -> ComputerSeat:
        """The computer player who decides at a position: the seat's own, or the stand-in of a person who is away
        (the table's ``clock.stand_in`` level, made by the table's game when first needed)."""
        seat = self.seats[position]
        if seat.bot_seat is not None:
            return seat.bot_seat
        if seat.stand_in is None:
            settings = self.settings.get("clock") or {}
            seat.stand_in = self.game_kind.computer(self.settings, position, settings.get("stand_in"),
                                                    f"{self.id}:{position}:stand-in")
        return seat.stand_in

    def claim_answers_due(self) -> list[tuple[int, int]]:
        """Computer defenders who have not yet answered the declarer's open claim: (position, seat)."""
        game = self.game
        if game is None or game.is_over or not game.claimed or game.declarer is None:
            return []
        due = []
        for seat in range(len(self.positions)):
            position = self.positions[seat]
            key = (self.deal_no, len(game.history), seat)
            if (seat != game.declarer and (self.seats[position].kind == "bot" or position in self.clock.away)
                    and key not in self.claim_checked and CONCEDE in game.side_actions(seat)):
                due.append((position, seat))
        return due

    def unsettled(self) -> bool:
        """Whether a failed try left something to finish (an action, a deal's result or a deal's start)."""
        return self.pending_action is not None or self.pending_finish is not None or self.pending_start is not None

    def progress(self) -> tuple[int, int]:
        """(deal, action count): how far the table is."""
        return self.deal_no, 0 if self.game is None else len(self.game.history)

    # ------------------------------------------------- stored facts
    def seen(self) -> tuple[Any, ...]:
        """What the clients' states show of the stored table: deals, actions, seats and who is ready."""
        return (*self.progress(), tuple((s.name, s.token_hash) for s in self.seats), frozenset(self.ready))

    def replay(self, stored: StoredTable) -> None:
        """Take the stored seats, deals and actions this table does not have yet (all of them for a table
        just built): the series deals each deal again, so the same rounds and cards come."""
        for row in stored.seats:
            seat = self.seats[row["position"]]
            seat.token_hash, seat.name = row.get("token_hash"), row.get("name", seat.name)
        for deal in stored.deals:
            if deal.deal_no < self.deal_no:
                continue
            if deal.deal_no > self.deal_no:
                if self.game is not None and not self.game.is_over:
                    raise TableError("bad_store", f"table {self.id}: deal {deal.deal_no} is stored while deal "
                                     f"{self.deal_no} is not over")
                start = self.pending_start or self.series.start_deal()
                self.pending_start = None
                if tuple(start.positions) != tuple(deal.positions):
                    raise TableError("bad_store", f"table {self.id}: deal {deal.deal_no} was stored with positions "
                                     f"{deal.positions}, the series deals it to {start.positions}")
                self.enter(start, deal.deal_no)
            game = self.game
            assert game is not None
            if game.is_over:
                continue
            for seq in range(len(game.history), len(deal.actions)):
                seat_no, token = deal.actions[seq]
                if seq in deal.stand_ins:
                    self.stand_ins.add(seq)
                game.apply(_variant(game).parse_action(token), seat_no)
            if game.is_over:
                self.finish_deal(store=not deal.finished)
        if self.game is not None and self.game.is_over and stored.ready and any(
                s.kind == "human" for s in self.seats):
            self.ready |= set(stored.ready)

    def apply_notice(self, notice: dict[str, Any]) -> str:
        """Take what another server process stored at this table (its notice, docs/deployment.md): an action,
        a deal's start, a seat taken, a person ready, the table stopped. Returns ``"changed"``, ``"person"``
        (changed by a person's action), ``"stopped"``, ``""`` (nothing new) or ``"catch_up"``: the notice does
        not follow on what this process holds (one was missed), read the database."""
        kind = notice.get("k")
        game = self.game
        if kind == "act":
            deal_no, seq = notice.get("d"), notice.get("s")
            if game is None or not isinstance(deal_no, int) or not isinstance(seq, int):
                return "catch_up"
            if (deal_no, seq) < (self.deal_no, len(game.history)):
                return ""  # taken already
            if deal_no != self.deal_no or seq != len(game.history) or game.is_over:
                return "catch_up"
            seat = int(notice["seat"])
            mover = self.positions[seat]
            if notice.get("si"):  # a computer stand-in decided for the person (that process holds the table)
                self.stand_ins.add(seq)
                self.clock.away.add(mover)
            self.play(seat, _variant(game).parse_action(notice["a"]), store=False)  # that process writes
            return "person" if self.seats[mover].kind == "human" and not notice.get("si") else "changed"
        if kind == "deal":
            deal_no = notice.get("d")
            if not isinstance(deal_no, int) or deal_no <= self.deal_no:
                return ""
            if deal_no == self.deal_no + 1 and (game is None or game.is_over) and self.series.next is not None:
                self.enter(self.pending_start or self.series.start_deal(), deal_no)
                self.pending_start = None
                return "changed"
            return "catch_up"
        if kind == "seat":
            position = notice.get("pos")
            if isinstance(position, int) and 0 <= position < len(self.seats):
                seat_row = self.seats[position]
                seat_row.token_hash = notice.get("token_hash", seat_row.token_hash)
                seat_row.name = notice.get("name", seat_row.name)
                return "changed"
            return ""
        if kind == "ready":
            if notice.get("d") == self.deal_no and isinstance(notice.get("pos"), int):
                self.ready.add(notice["pos"])
                return "changed"
            return ""
        if kind == "away":  # a person's stand-in took over or they came back, at another process
            position = notice.get("pos")
            if isinstance(position, int) and 0 <= position < len(self.seats) and self.seats[position].kind == "human":
                before = position in self.clock.away
                if notice.get("on"):
                    self.clock.away.add(position)
                else:
                    self.clock.away.discard(position)
                return "changed" if before != (position in self.clock.away) else ""
            return ""
        if kind == "stopped":  # its computer players failed at the process that runs them
            if self.stopped is None:
                self.stop(str(notice.get("reason") or "stopped at another server process")[:400])
                return "stopped"
            return ""
        return ""
