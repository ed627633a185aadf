"""What a server table plays: a :class:`TableGame` per game, found by the table's ``variant`` setting.

The server (the table core, the checks of a new table, the manager's lobby, the routes) asks the table's game
about everything that differs between games: which seats it has and which computer players, the checks and
stored settings of a new table, the series it deals, what the table info and ``/api/meta`` show of it, and
each state's ``view``, ``hints`` and ``dealt``. It never names a variant.

Each variant played at server tables names the module of its table part (``Variant.table``, e.g.
``skat.variants.standard_table`` or ``skat.variants.officers.table``), which defines its game as ``TABLE``; this
module loads those by the names the registered variants give (:func:`table_games`), so adding a variant is its
module(s) under ``skat/variants/`` and nothing else (docs/architecture.md, "Adding a variant"). A table part
may import the server's modules (the series, the computer players, the wire form); the server imports none of
them by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from skat.variants.registry import variants

if TYPE_CHECKING:
    from skat.server.bots import ComputerSeat
    from skat.server.series import ServerSeries

__all__ = ["TableGame", "TableRequest", "GamePlan", "StateParts", "INFO_KEYS", "table_games", "table_game",
           "table_variants", "request_fields", "games_meta"]

INFO_KEYS = ("ruleset", "officers_variant")
"""The keys of a table's info (docs/protocol.md, ``TableInfo``; the lobby's entries alike) that its game fills
(:meth:`TableGame.info`), in this order; null where a game has none."""


@dataclass(frozen=True)
class TableRequest:
    """The part of a request for a new table that its game checks (every value as the client sent it)."""

    seats: list[Any] | None
    """Per position ``"human"`` or a computer seat kind; None for the game's :meth:`TableGame.default_seats`."""
    ruleset: Any
    options: Any
    hints: Any
    fields: Mapping[str, Any]
    """The request's fields that only some games read (:attr:`TableGame.request_fields`), by name."""


@dataclass(frozen=True)
class GamePlan:
    """A checked request's game: the settings its game stores (besides the table's own: ``variant``, ``deals``,
    ``seed``, ``seeded``, ``public``) and the seat kinds, one per position."""

    settings: dict[str, Any]
    seats: list[Any]


class StateParts(NamedTuple):
    """The game's parts of a state message (docs/protocol.md): the ``view``, the ``hints`` and the ``dealt``
    cards of a finished deal."""

    view: dict[str, Any] | None
    hints: dict[str, Any]
    dealt: dict[str, Any] | None


class TableGame:
    """One game that server tables play; a subclass lives in its variant's table part, as ``TABLE``.

    ``name`` is the table's ``variant`` setting and the name of the engine's
    :class:`~skat.deal.variant.Variant` that names this table part; ``seat_counts`` are the numbers of
    positions its tables have. ``request_fields`` are the fields of a new-table request that only this game
    reads (another game's table refuses them). ``no_hints``, ``no_iss_record`` and ``no_analysis`` say why its
    tables give no card hints and bid estimates, why its finished deals have no ISS record, why they are not
    analysed (None: they are given, written, analysed).
    """

    name: str = ""
    title: str = ""
    seat_counts: tuple[int, ...] = ()
    request_fields: tuple[str, ...] = ()
    no_hints: str | None = None
    no_iss_record: str | None = None
    no_analysis: str | None = None
    history_apart: str | None = None
    """A game whose deals a player's statistics count apart from Skat's figures, under this name (None: they are
    Skat's figures: games, declarer, Seeger-Fabian points, ...); docs/history.md."""
    rated: bool = True
    """Whether a table's lists of this game are rated (by their Seeger-Fabian points, docs/ratings.md)."""

    # ------------------------------------------------------------ a new table
    def default_seats(self) -> list[str]:
        """The seats of a table whose request names none: ``"human"`` or a computer seat kind per position."""
        raise NotImplementedError

    def plan(self, request: TableRequest) -> GamePlan:
        """Check the game's part of a request for a new table (its rules, options and seats; raise
        :class:`~skat.server.core.TableError` saying why not) and return its settings and seat kinds."""
        raise NotImplementedError

    def seed_settings(self, seed: int, seeded: bool) -> dict[str, Any]:
        """Settings that follow from the table's seed, drawn (unless ``seeded``, given by the request) once every
        check has passed: none unless the game has some."""
        return {}

    def computer_row(self, position: int, kind: str) -> dict[str, Any]:
        """The stored ``name`` and ``bot`` of a computer seat of this ``kind`` (refused with ``bad_seats`` when the
        game has no such computer player)."""
        raise NotImplementedError

    # ------------------------------------------------------- a table built
    def computer(self, settings: Mapping[str, Any], position: int, bot: str | None, key: str) -> ComputerSeat:
        """The computer player of a stored seat (``bot``: its stored kind; ``key``: ``table:position``)."""
        raise NotImplementedError

    def series(self, settings: Mapping[str, Any], seed: int, n_players: int,
               stored_starts: list[dict[str, Any]] | None = None) -> ServerSeries:
        """The series a table deals from its stored settings (``stored_starts``: the deals stored so far)."""
        raise NotImplementedError

    def info(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """What a table's info and its lobby entry show of the game's settings: the keys of :data:`INFO_KEYS`."""
        return dict.fromkeys(INFO_KEYS)

    def state(self, game: Any, seat: int | None, *, series: ServerSeries, hints: bool,
              memo: dict[str, Any]) -> StateParts:
        """The view, hints and dealt cards of a state message for a game seat (``seat``) or a spectator (None):
        never a card the receiver may not know. ``hints`` says whether the table gives advice
        (:attr:`~skat.server.core.TableCore.hints_on`); ``memo`` holds what every state of one broadcast shares
        (:func:`skat.server.views.shared`)."""
        raise NotImplementedError

    def sheet_csv(self, sheet: dict[str, Any], names: list[str]) -> str:
        """The score sheet (``series.sheet()``) as CSV text, the per-position columns headed by ``names``."""
        raise NotImplementedError

    def history_seats(self, settings: Mapping[str, Any], sheet_row: dict[str, Any], positions: list[int],
                      n_positions: int, previous: dict[str, Any] | None) -> list[dict[str, Any]]:
        """What a finished deal was for each table position, for the players' histories (docs/history.md): per
        position ``ruleset``, ``game``, ``contract``, ``role`` (declarer, defender, ramsch, passed, out), ``seat``,
        ``bid``, ``won``, ``score``, ``sf``, ``kontra``, ``overbid``. ``sheet_row`` is the deal's stored sheet row
        (``{"redeal": true}`` for a deal dealt again), ``positions`` the table position of each game seat,
        ``previous`` the sheet row of the table's last deal before it that has one (None: the first)."""
        raise NotImplementedError

    def meta(self) -> dict[str, Any]:
        """What ``/api/meta`` lists for this game (its rule sets, its kinds of game), besides its name."""
        return {}


_LOADED: dict[str, TableGame] = {}
"""The table games loaded so far, by the module that defines them."""


def table_games() -> dict[str, TableGame]:
    """The games server tables play, by name, in the order their variants were registered: each registered
    variant's table part (``Variant.table``) loaded by its name."""
    games: dict[str, TableGame] = {}
    for variant in variants():
        if variant.table is None:
            continue
        game = _LOADED.get(variant.table)
        if game is None:
            game = importlib.import_module(variant.table).TABLE
            if not isinstance(game, TableGame) or game.name != variant.name:
                raise TypeError(f"{variant.table}.TABLE must be the TableGame named {variant.name!r}, not {game!r}")
            _LOADED[variant.table] = game
        games[game.name] = game
    return games


def table_game(name: str) -> TableGame:
    """The game of this name; :class:`LookupError` when no server table plays it."""
    try:
        return table_games()[name]
    except (KeyError, TypeError):
        raise LookupError(f"no server table plays {str(name)[:40]!r}") from None


def table_variants() -> tuple[str, ...]:
    """The names of the games server tables play (a table's ``variant``: ``standard``, ``officers``...)."""
    return tuple(table_games())


def request_fields() -> tuple[str, ...]:
    """The fields of a new-table request that some game reads besides the common ones."""
    return tuple(dict.fromkeys(f for game in table_games().values() for f in game.request_fields))


def games_meta() -> dict[str, Any]:
    """What ``/api/meta`` lists of the games: ``variants`` (their names), then what each game lists."""
    games = table_games()
    meta: dict[str, Any] = {"variants": list(games)}
    for game in games.values():
        meta.update(game.meta())
    return meta
