"""Standard Skat at a server table: its table part (:class:`StandardTable`, ``TABLE``), which the server loads by
the name its variant gives (``Variant.table``) and asks for everything a Skat table does differently.

A Skat table seats 3, 4 or 5 under a rule set (every preset of :mod:`skat.rules.rulesets`, Tournee Skat's
included: the series deals the games its rule set plays) with its options, computer players by level
(:class:`skat.server.bots.BotSeat`), card hints and bid estimates, ISS records and the analysis of its deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skat.deal.game import Game, Phase, SeatView
from skat.players.registry import check_player_name
from skat.records.wire import public_view, seat_view_to_json
from skat.rules.rulesets import PRESETS, RuleSetError, get_ruleset
from skat.rules.rulesets import SCHEMA as RULE_SCHEMA
from skat.schema import json_value
from skat.server.bots import BotSeat, ComputerSeat, default_level
from skat.server.core import TableError
from skat.server.creation import BOT_SEED_BITS, draw_bits, table_ruleset, table_rulesets
from skat.server.games import INFO_KEYS, GamePlan, StateParts, TableGame, TableRequest
from skat.server.hints import auction_turn, bid_estimate, contract_values
from skat.server.series import ServerSeries, TableSeries, sheet_csv
from skat.server.views import dealt_cards, shared, sorted_cards

__all__ = ["StandardTable", "TABLE", "bot_label"]

_BOT_NAMES = ("Anna", "Bernd", "Clara", "Dieter", "Emil")


def bot_label(level: str, position: int) -> str:
    """The name a computer player's seat shows: ``Anna (strong)``."""
    return f"{_BOT_NAMES[position % len(_BOT_NAMES)]} ({level})"


class StandardTable(TableGame):
    """Skat at 3, 4 or 5 (the dealer sits out at four; at five the dealer and the third player to his left) under
    a rule set; a game of its own may subclass it."""

    name = "standard"
    title = "Skat"
    seat_counts = (3, 4, 5)

    def history_seats(self, settings: Mapping[str, Any], sheet_row: dict[str, Any], positions: list[int],
                      n_positions: int, previous: dict[str, Any] | None) -> list[dict[str, Any]]:
        """Skat's roles from the sheet row (table positions): the declarer, the defenders, all in a Ramsch or a
        deal passed in, ``out`` for the dealer who sits out at four or five; the Seeger-Fabian points as the
        difference of the running SF totals. A deal dealt again (all passed under a redealing rule set) is a
        ``passed`` deal with the contract ``redealt``: no game of the list."""
        redeal = bool(sheet_row.get("redeal"))
        game = "passed" if redeal else str(sheet_row.get("game") or "passed")
        declarer = None if redeal else sheet_row.get("declarer")
        scores = [0] * n_positions if redeal else list(sheet_row.get("scores") or [0] * n_positions)
        seeger = list(sheet_row.get("seeger") or [0] * n_positions)
        before = list((previous or {}).get("seeger") or [0] * n_positions)
        declarer_won = sheet_row.get("won")
        seats = []
        for p in range(n_positions):
            seat = positions.index(p) if p in positions else None
            if seat is None:
                role = "out"
            elif game == "passed":
                role = "passed"
            elif game == "ramsch":
                role = "ramsch"
            else:
                role = "declarer" if declarer == p else "defender"
            won = {"declarer": bool(declarer_won), "defender": not declarer_won,
                   "ramsch": scores[p] >= 0}.get(role)
            seats.append({
                "ruleset": settings.get("ruleset") or "", "game": game,
                "contract": "redealt" if redeal else sheet_row.get("contract") or game, "role": role, "seat": seat,
                "bid": 0 if redeal else int(sheet_row.get("bid") or 0), "won": won, "score": int(scores[p]),
                "sf": 0 if redeal else int(seeger[p]) - int(before[p]),
                "kontra": 0 if redeal else int(sheet_row.get("kontra") or 0),
                "overbid": bool(not redeal and role == "declarer" and sheet_row.get("overbid"))})
        return seats

    def default_seats(self) -> list[str]:
        return ["human", default_level(), default_level()]

    def plan(self, request: TableRequest) -> GamePlan:
        """The rule set (default ``isko2018``), its options and the seats: 3, 4 or 5, ``"human"`` or a level."""
        ruleset = "isko2018" if request.ruleset is None else request.ruleset
        if not isinstance(ruleset, str) or ruleset.lower() not in PRESETS:
            raise TableError("bad_ruleset",
                             f"unknown rule set {ruleset!r}; choose one of: {', '.join(table_rulesets())}")
        options = _check_options(ruleset, request.options)
        seats = list(request.seats) if request.seats is not None else self.default_seats()
        if len(seats) not in self.seat_counts:
            counts = [str(n) for n in self.seat_counts]
            said = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]
            raise TableError("bad_seats", f"a Skat table seats {said} players, not {len(seats)}")
        # the first deal's forehand is position 0: the first dealer sits at the last position
        return GamePlan({"ruleset": get_ruleset(ruleset).name, "first_dealer": len(seats) - 1, "options": options,
                         "hints": request.hints}, seats)

    def computer_row(self, position: int, kind: str) -> dict[str, Any]:
        try:
            check_player_name(kind)
        except ValueError as exc:
            raise TableError("bad_seats", f"seat {position}: {exc} (or 'human' for a person)") from None
        return {"name": bot_label(kind, position), "bot": kind}

    def computer(self, settings: Mapping[str, Any], position: int, bot: str | None, key: str) -> ComputerSeat:
        return BotSeat(bot or "random", seed=draw_bits(BOT_SEED_BITS), key=key)

    def series(self, settings: Mapping[str, Any], seed: int, n_players: int,
               stored_starts: list[dict[str, Any]] | None = None) -> ServerSeries:
        return TableSeries(n_players, table_ruleset(dict(settings)), seed=seed,
                           first_dealer=int(settings.get("first_dealer", n_players - 1)),
                           games=settings.get("deals"), stored_starts=stored_starts)

    def info(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        return {**dict.fromkeys(INFO_KEYS), "ruleset": settings.get("ruleset", "isko2018")}

    def state(self, game: Any, seat: int | None, *, series: ServerSeries, hints: bool,
              memo: dict[str, Any]) -> StateParts:
        """A seat's own view with its hints (its cards in display order, the bid estimate when it is to bid and
        the table gives advice, the values of its possible contracts), or a spectator's public view; the
        auction's question, and every card as dealt once the deal is over."""
        out: dict[str, Any] = {}
        view: SeatView
        if seat is not None:
            view = game.view(seat)
            view_json = seat_view_to_json(view)
            out["sorted"] = sorted_cards(view)
            assert isinstance(series, TableSeries)
            if series.table.ruleset.variant == "standard":  # the estimates know the standard game values only
                if view.phase is Phase.BIDDING and view.to_move == seat and hints:
                    out["bid_estimate"] = bid_estimate(view.hand)
                values = contract_values(view)
                if values:
                    out["contracts"] = values
        else:
            spectated = public_view(game)  # built from the public facts only
            assert isinstance(spectated, SeatView)
            view = spectated
            view_json = seat_view_to_json(view)
            out["sorted"] = sorted_cards(view, own=False)
        if view.phase is Phase.BIDDING:
            out["auction_turn"] = shared(memo, "auction_turn", lambda: auction_turn(game, view.bid))
        dealt = None
        if game.is_over:  # every card may be shown once the deal is over, to every seat and spectator
            dealt = shared(memo, "dealt", lambda: dealt_cards(game))
        return StateParts(view_json, out, dealt)

    def sheet_csv(self, sheet: dict[str, Any], names: list[str]) -> str:
        return sheet_csv(sheet, names)

    def meta(self) -> dict[str, Any]:
        """The rule sets a Skat table plays, with their descriptions."""
        return {"rulesets": table_rulesets(),
                "ruleset_descriptions": {name: get_ruleset(name).description for name in table_rulesets()}}


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


TABLE = StandardTable()
"""Standard Skat's table game (``skat.variants.standard.VARIANT.table`` names this module)."""
