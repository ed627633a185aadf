"""What a new table is made of: the checks of a request for one (its game, seats, options and settings, each
refused with a specific error), and a table's seats and series built from its stored settings."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from skat.deal.game import Game
from skat.players.registry import check_player_name
from skat.rules.rulesets import PRESETS, RuleSet, RuleSetError, get_ruleset
from skat.rules.rulesets import SCHEMA as RULE_SCHEMA
from skat.schema import json_value
from skat.server.bots import OFFICERS_LEVEL, BotSeat, OfficersBotSeat, default_level
from skat.server.core import Seat, TableError, hash_token
from skat.server.series import OfficersTableSeries, ServerSeries, TableSeries
from skat.table.series import TABLE_SEED_BITS
from skat.variants.officers.game import OfficersGame
from skat.variants.officers.options import SCHEMA as OFFICERS_SCHEMA
from skat.variants.officers.options import VARIANTS as OFFICERS_VARIANTS
from skat.variants.officers.options import normalize_variant

__all__ = ["NewTable", "plan_table", "build_seats", "build_series", "table_rulesets", "table_ruleset",
           "clean_name", "TABLE_VARIANTS", "BOT_SEED_BITS"]

TABLE_VARIANTS = ("standard", "officers")
"""The games a server table plays: ``standard`` Skat (its rule set picks Tournee Skat too) at 3 or 4 and
Officers' Skat at 2 (one of :data:`skat.variants.officers.options.VARIANTS` as ``officers_variant``)."""
BOT_SEED_BITS = 64
"""Bits of a computer player's seed (drawn from the operating system when its table is built)."""
_BOT_NAMES = ("Anna", "Bernd", "Clara", "Dieter")


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


def bot_label(level: str, position: int) -> str:
    """The name a computer player's seat shows: ``Anna (strong)``."""
    return f"{_BOT_NAMES[position % 4]} ({level})"


@dataclass
class NewTable:
    """A checked request for a table: what is stored, and the secrets handed to its creator only."""

    name: str
    settings: dict[str, Any]
    rows: list[dict[str, Any]]
    token: str | None
    invite: str | None


def plan_table(table_id: str, *, name: str = "", seats: list[str] | None = None, ruleset: str | None = None,
               variant: str = "standard", officers_variant: str | None = None, deals: int | None = None,
               player_name: str = "", claim: int | None = 0, seed: int | None = None,
               options: dict[str, Any] | None = None, public: bool = False, hints: bool = True) -> NewTable:
    """Check a request for a new table (:meth:`skat.server.manager.TableManager.create_table` says what each
    argument means) and make its stored settings and seat rows, its creator's seat token and its invite."""
    if variant not in TABLE_VARIANTS:
        raise TableError("bad_variant", f"variant {str(variant)[:40]!r} is not played at server tables; "
                         f"choose one of: {', '.join(TABLE_VARIANTS)}")
    officers = variant == "officers"
    if officers:
        if ruleset is not None:
            raise TableError("bad_ruleset", "an Officers' Skat table has no Skat rule set: choose its game with "
                             f"officers_variant ({', '.join(OFFICERS_VARIANTS)}) and its options")
        officers_variant, options = _check_officers(officers_variant, options)
    else:
        if officers_variant is not None:
            raise TableError("bad_variant", "officers_variant is for a table of variant 'officers'")
        ruleset = "isko2018" if ruleset is None else ruleset
        if not isinstance(ruleset, str) or ruleset.lower() not in PRESETS:
            raise TableError("bad_ruleset",
                             f"unknown rule set {ruleset!r}; choose one of: {', '.join(table_rulesets())}")
    if deals is not None and (type(deals) is not int or not 1 <= deals <= 10_000):
        raise TableError("bad_deals", f"deals is the length of the series, 1 to 10000 games, not {deals!r}")
    if officers:
        seats = _officers_seats(seats)
    else:
        assert isinstance(ruleset, str)
        options = _check_options(ruleset, options)
        seats = list(seats) if seats is not None else ["human", default_level(), default_level()]
        if len(seats) not in (3, 4):
            raise TableError("bad_seats", f"a table seats 3 or 4 players, not {len(seats)}")
    _check_table(name, public, hints)
    if claim is not None and (not 0 <= claim < len(seats) or seats[claim] != "human"):
        raise TableError("bad_claim", f"position {claim} is not a seat for a person at this table")
    rows = _seat_rows(seats, officers)
    token = None
    if claim is not None:
        token = secrets.token_urlsafe(18)
        rows[claim]["token_hash"] = hash_token(token)
        rows[claim]["name"] = clean_name(player_name) or "Player"
    seeded = seed is not None  # deals anyone who knows the seed can compute (duplicate play)
    if seed is None:
        seed = secrets.randbits(TABLE_SEED_BITS)  # from the operating system; never shown while the table is open
    settings: dict[str, Any]
    if officers:
        settings = {"variant": variant, "officers_variant": officers_variant, "deals": deals, "seed": seed,
                    "seeded": seeded, "options": options, "public": public,
                    # steers the computer's choices: from the seed at a seeded table (duplicate play)
                    "bot_seed": seed if seeded else secrets.randbits(BOT_SEED_BITS - 2)}
    else:
        assert isinstance(ruleset, str)
        settings = {"ruleset": get_ruleset(ruleset).name, "variant": variant, "deals": deals,
                    "first_dealer": len(seats) - 1, "seed": seed, "seeded": seeded, "options": options,
                    "public": public, "hints": hints}
    invite = None
    if not public:
        invite = secrets.token_urlsafe(18)
        settings["invite_hash"] = hash_token(invite)  # the secret itself is never stored
    return NewTable(clean_name(name) or f"Table {table_id[:4]}", settings, rows, token, invite)


def _officers_seats(seats: list[str] | None) -> list[str]:
    seats = list(seats) if seats is not None else ["human", OFFICERS_LEVEL]
    if len(seats) != 2:
        raise TableError("bad_seats", f"an Officers' Skat table seats 2 players, not {len(seats)}: "
                         "[\"human\", \"officers\"] (or two people)")
    for pos, kind in enumerate(seats):
        if kind not in ("human", OFFICERS_LEVEL):
            raise TableError("bad_seats", f"seat {pos}: an Officers' Skat seat is 'human' (a person) or "
                             f"'{OFFICERS_LEVEL}' (the computer opponent), not {str(kind)[:40]!r}")
    return seats


def _check_table(name: Any, public: Any, hints: Any) -> None:
    if not isinstance(name, str) or len(name) > 100:
        raise TableError("bad_name", "the table name must be text of at most 100 characters")
    if type(public) is not bool:
        raise TableError("bad_public", "public is true (the table is listed in the lobby) or false (only people "
                         "with its invite link may join or watch)")
    if type(hints) is not bool:
        raise TableError("bad_hints", "hints is true (a player may ask for a card hint and sees the bid estimate) "
                         "or false (no advice at this table)")


def _seat_rows(seats: list[str], officers: bool) -> list[dict[str, Any]]:
    rows = []
    for pos, kind in enumerate(seats):
        if not isinstance(kind, str):
            raise TableError("bad_seats", "each seat is 'human' or a computer level such as 'strong'")
        if kind == "human":
            rows.append({"position": pos, "kind": "human", "name": "", "bot": None, "token_hash": None})
        elif officers:
            rows.append({"position": pos, "kind": "bot", "name": "Computer", "bot": OFFICERS_LEVEL,
                         "token_hash": None})
        else:
            try:
                check_player_name(kind)
            except ValueError as exc:
                raise TableError("bad_seats", f"seat {pos}: {exc} (or 'human' for a person)") from None
            rows.append({"position": pos, "kind": "bot", "name": bot_label(kind, pos), "bot": kind,
                         "token_hash": None})
    return rows


def build_seats(table_id: str, settings: dict[str, Any], rows: list[dict[str, Any]]) -> list[Seat]:
    """A table's seats from its stored rows, each computer player made (an Officers' Skat opponent's choices
    follow from the stored seed, so a restart plays alike)."""
    officers = settings.get("variant") == "officers"
    seats = []
    for r in rows:
        seat = Seat(position=r["position"], kind=r["kind"], name=r["name"], bot=r.get("bot"),
                    token_hash=r.get("token_hash"))
        key = f"{table_id}:{seat.position}"
        if seat.kind == "bot" and officers:
            seat.bot_seat = OfficersBotSeat(int(settings["bot_seed"]) + seat.position, key=key)
        elif seat.kind == "bot":
            seat.bot_seat = BotSeat(seat.bot or "random", seed=secrets.randbits(BOT_SEED_BITS), key=key)
        seats.append(seat)
    return seats


def build_series(settings: dict[str, Any], n_players: int,
                 stored_starts: list[dict[str, Any]] | None = None) -> ServerSeries:
    """A table's series from its stored settings (``stored_starts``: the deals stored so far, to rebuild)."""
    seed = settings.get("seed")
    seed = secrets.randbits(TABLE_SEED_BITS) if seed is None else int(seed)
    if settings.get("variant") == "officers":  # position 0 is forehand in the first game; forehand alternates
        return OfficersTableSeries(settings["officers_variant"], settings.get("options") or {}, seed,
                                   games=settings.get("deals"), stored_starts=stored_starts)
    # the first deal's forehand is position 0: the first dealer sits at the last position
    return TableSeries(n_players, table_ruleset(settings), seed=seed,
                       first_dealer=int(settings.get("first_dealer", n_players - 1)),
                       games=settings.get("deals"), stored_starts=stored_starts)


def _check_options(ruleset: str, options: Any) -> dict[str, Any]:
    """Rule options a table changes on top of its preset (``{"schieberamsch": true}``), each checked by
    :data:`skat.rules.rulesets.SCHEMA` (strict JSON types, ranges, choices) and then together by the engine."""
    if options is None:
        return {}
    if not isinstance(options, dict) or len(options) > 40:
        raise TableError("bad_options", "options is an object of rule options, e.g. {\"kontra\": true}")
    try:
        clean = RULE_SCHEMA.check_changes(options)
        rules = get_ruleset(ruleset).replace(**clean)
        Game(seed=0, ruleset=rules)  # the engine accepts the combination
    except (RuleSetError, TypeError, ValueError) as exc:
        raise TableError("bad_options", str(exc)) from None
    return {k: json_value(v) for k, v in clean.items()}


def _check_officers(variant: Any, options: Any) -> tuple[str, dict[str, Any]]:
    """The Officers' Skat game of a table (``officers_variant``, default ``classic``; the aliases of
    :func:`skat.variants.officers.options.normalize_variant` are read) and its ``options``, each checked by
    :data:`skat.variants.officers.options.SCHEMA` (strict JSON types, ranges, choices) and then together with
    the variant by the engine (an option the variant does not have is refused)."""
    if variant is None:
        variant = "classic"
    if not isinstance(variant, str):
        raise TableError("bad_variant", f"officers_variant is one of: {', '.join(OFFICERS_VARIANTS)}")
    try:
        variant = normalize_variant(variant[:40])
    except ValueError as exc:
        raise TableError("bad_variant", str(exc)) from None
    if options is None:
        return variant, {}
    if not isinstance(options, dict) or len(options) > 40:
        raise TableError("bad_options", "options is an object of Officers' Skat options, e.g. {\"kontra\": false}")
    try:
        clean = OFFICERS_SCHEMA.check_changes(options)
        OfficersGame(variant, seed=0, **clean)  # the engine accepts the combination
    except (TypeError, ValueError) as exc:
        raise TableError("bad_options", str(exc)) from None
    return variant, {k: json_value(v) for k, v in clean.items()}
