"""What a new table is made of: the checks of a request for one (its game, seats, options and settings, each
refused with a specific error), and a table's seats and series built from its stored settings.

Whatever differs between games is the table's game's (:class:`skat.server.games.TableGame`, found by the
request's ``variant``): its rules and options, its seats and computer players, its settings and its series."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from skat.rules.rulesets import PRESETS, RuleSet, get_ruleset
from skat.server.clock import ClockError, plan_clock
from skat.server.core import Seat, TableError, hash_token, new_secret
from skat.server.games import TableGame, TableRequest, table_game, table_games, table_variants
from skat.server.series import ServerSeries
from skat.table.series import TABLE_SEED_BITS

__all__ = ["NewTable", "plan_table", "build_seats", "build_series", "table_rulesets", "table_ruleset",
           "clean_name", "draw_bits", "game_of", "BOT_SEED_BITS"]

BOT_SEED_BITS = 64
"""Bits of a computer player's seed (drawn from the operating system when its table is built)."""


def __getattr__(name: str) -> Any:
    """``TABLE_VARIANTS``: the games server tables play, as registered (``("standard", "officers")``), for the
    callers that import it from here (:func:`skat.server.games.table_variants` is the function)."""
    if name == "TABLE_VARIANTS":
        return table_variants()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def draw_bits(bits: int) -> int:
    """Random bits from the operating system (the seeds of a table and its computer players; tests replace this
    module's ``secrets`` to replay a table's draws)."""
    return secrets.randbits(bits)


def table_rulesets() -> list[str]:
    """Presets a server table plays: every preset of :mod:`skat.rules.rulesets` (``isko`` is ``isko2018``).

    The series runs through :class:`skat.Table`, so Bock, Ramsch and Schieber rounds and Tournee
    games happen exactly as in ``skat series``."""
    return sorted(name for name in PRESETS if name != "isko")


def table_ruleset(settings: dict[str, Any]) -> RuleSet:
    """The rule set of a table: its preset with the table's ``options`` changed on top."""
    rules = get_ruleset(settings.get("ruleset", "isko2018"))
    options = settings.get("options") or {}
    return rules.replace(**options) if options else rules


def clean_name(name: Any) -> str:
    """A person's or table's name as shown: text, its white space collapsed, at most 40 characters."""
    if not isinstance(name, str):
        return ""
    return " ".join(name.split())[:40]


@dataclass
class NewTable:
    """A checked request for a table: what is stored, and the secrets handed to its creator only."""

    name: str
    settings: dict[str, Any]
    rows: list[dict[str, Any]]
    token: str | None
    invite: str | None


def game_of(settings: dict[str, Any]) -> TableGame:
    """The game a table plays, by its stored ``variant`` (``standard`` for a table stored before there were
    others)."""
    return table_game(settings.get("variant", "standard"))


def plan_table(table_id: str, *, name: str = "", seats: list[str] | None = None, ruleset: str | None = None,
               variant: str = "standard", deals: int | None = None, player_name: str = "", claim: int | None = 0,
               seed: int | None = None, options: dict[str, Any] | None = None, public: bool = False,
               hints: bool = True, clock: Any = None, **fields: Any) -> NewTable:
    """Check a request for a new table (:meth:`skat.server.manager.TableManager.create_table` says what each
    argument means) and make its stored settings and seat rows, its creator's seat token and its invite.
    ``fields`` are the request's fields that only some games read (``officers_variant``: the table game's
    :attr:`~skat.server.games.TableGame.request_fields`); another game's table refuses them."""
    try:
        game = table_game(variant)
    except LookupError:
        raise TableError("bad_variant", f"variant {str(variant)[:40]!r} is not played at server tables; "
                         f"choose one of: {', '.join(table_variants())}") from None
    _check_fields(game, fields)
    plan = game.plan(TableRequest(seats=seats, ruleset=ruleset, options=options, hints=hints, fields=fields))
    seats = plan.seats
    if deals is not None and (type(deals) is not int or not 1 <= deals <= 10_000):
        raise TableError("bad_deals", f"deals is the length of the series, 1 to 10000 games, not {deals!r}")
    _check_table(name, public, hints)
    if claim is not None and (not 0 <= claim < len(seats) or seats[claim] != "human"):
        raise TableError("bad_claim", f"position {claim} is not a seat for a person at this table")
    rows = _seat_rows(game, seats)
    token = None
    if claim is not None:
        token = new_secret()
        rows[claim]["token_hash"] = hash_token(token)
        rows[claim]["name"] = clean_name(player_name) or "Player"
    seeded = seed is not None  # deals anyone who knows the seed can compute (duplicate play)
    if seed is None:
        seed = draw_bits(TABLE_SEED_BITS)  # from the operating system; never shown while the table is open
    settings: dict[str, Any] = {"variant": game.name, **plan.settings, "deals": deals, "seed": seed,
                                "seeded": seeded, "public": public, **game.seed_settings(seed, seeded)}
    try:
        move_clock = plan_clock(clock, list(seats), game)
    except ClockError as exc:
        raise TableError(exc.code, str(exc)) from None
    if move_clock is not None:
        settings["clock"] = move_clock
    invite = None
    if not public:
        invite = new_secret()
        settings["invite_hash"] = hash_token(invite)  # the secret itself is never stored
    return NewTable(clean_name(name) or f"Table {table_id[:4]}", settings, rows, token, invite)


def _check_fields(game: TableGame, fields: dict[str, Any]) -> None:
    """Refuse a request field that only other games read (``officers_variant`` at a Skat table)."""
    for key, value in fields.items():
        if value is None or key in game.request_fields:
            continue
        readers = [g.name for g in table_games().values() if key in g.request_fields]
        if not readers:
            raise TypeError(f"plan_table() got an unexpected keyword argument {key!r}")
        raise TableError("bad_variant", f"{key} is for a table of variant {' or '.join(map(repr, readers))}")


def _check_table(name: Any, public: Any, hints: Any) -> None:
    if not isinstance(name, str) or len(name) > 100:
        raise TableError("bad_name", "the table name must be text of at most 100 characters")
    if type(public) is not bool:
        raise TableError("bad_public", "public is true (the table is listed in the lobby) or false (only people "
                         "with its invite link may join or watch)")
    if type(hints) is not bool:
        raise TableError("bad_hints", "hints is true (a player may ask for a card hint and sees the bid estimate) "
                         "or false (no advice at this table)")


def _seat_rows(game: TableGame, seats: list[Any]) -> list[dict[str, Any]]:
    rows = []
    for pos, kind in enumerate(seats):
        if not isinstance(kind, str):
            raise TableError("bad_seats", "each seat is 'human' or a computer level such as 'strong'")
        if kind == "human":
            rows.append({"position": pos, "kind": "human", "name": "", "bot": None, "token_hash": None})
        else:
            computer = game.computer_row(pos, kind)
            rows.append({"position": pos, "kind": "bot", "name": computer["name"], "bot": computer["bot"],
                         "token_hash": None})
    return rows


def build_seats(table_id: str, settings: dict[str, Any], rows: list[dict[str, Any]]) -> list[Seat]:
    """A table's seats from its stored rows, each computer player made by the table's game (an Officers' Skat
    opponent's choices follow from the stored seed, so a restart plays alike)."""
    game = game_of(settings)
    seats = []
    for r in rows:
        seat = Seat(position=r["position"], kind=r["kind"], name=r["name"], bot=r.get("bot"),
                    token_hash=r.get("token_hash"))
        if seat.kind == "bot":
            seat.bot_seat = game.computer(settings, seat.position, seat.bot, f"{table_id}:{seat.position}")
        seats.append(seat)
    return seats


def build_series(settings: dict[str, Any], n_players: int,
                 stored_starts: list[dict[str, Any]] | None = None) -> ServerSeries:
    """A table's series from its stored settings (``stored_starts``: the deals stored so far, to rebuild)."""
    seed = settings.get("seed")
    seed = draw_bits(TABLE_SEED_BITS) if seed is None else int(seed)
    return game_of(settings).series(settings, seed, n_players, stored_starts)
