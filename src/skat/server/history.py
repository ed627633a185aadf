"""Every player's history, statistics and rating (issue 29, docs/history.md), kept up to date as deals finish.

A *player* is a key: ``a:ACCOUNT`` (a person with an account), ``g:GUEST_HASH`` (a guest browser, by its id's
hash) or ``b:LEVEL`` (a computer player: ``b:strong``). When a deal at a server table finishes, the store writes
in the same transaction (:func:`record_finished_deal`):

* one ``player_deals`` row per table position: the game, the player's role and seat, the bid, whether the
  player's side won, the list score and the Seeger-Fabian points the deal gave the player;
* the player's counters (``player_stats``, :func:`count_deal`), and the counters of the computer players at each
  person's tables (scope: that person), for comparison;
* the day's sums (``player_days``) that the last 30 days' leaderboard adds up;
* after every :data:`LIST_GAMES` games of a table (and at the end of its series) the list is rated: OpenSkill's
  Plackett-Luce over the positions' order by their SF points in the list (docs/ratings.md), each player's new
  rating in ``ratings`` and ``rating_history``.

Reading is for the routes (:mod:`skat.server.routes.history`): a player's history page with filters, statistics,
rating history, the leaderboards, and the stored record of a finished deal for its replay. Every function takes a
SQLAlchemy connection and does no I/O of its own; the counters are one pure function, so that a rebuild from the
stored deals (:func:`rebuild`, the migration's) counts as the live server does.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from skat.ratings import plackett_luce_step
from skat.server.database import (
    accounts_t,
    actions_t,
    deals_t,
    dialect_insert,
    player_days_t,
    player_deals_t,
    player_stats_t,
    rating_history_t,
    ratings_t,
    seats_t,
    tables_t,
)
from skat.server.games import table_game, table_games

__all__ = ["LIST_GAMES", "ROLES", "GAMES", "HistoryFilter", "player_of_seat", "record_finished_deal", "count_deal",
           "history_page", "player_stats", "rating_history", "leaderboard", "stored_record", "claim_guest",
           "forget_player", "rebuild", "table_players", "player_kind", "player_name", "MU", "SIGMA", "FORM_GAMES", "DAY"]

LIST_GAMES = 12
"""A table's games are rated in lists of this many (games 1-12, 13-24, ...; the last, shorter one when the table's
series ends)."""
MU, SIGMA = 25.0, 25.0 / 3.0
"""A new player's rating (OpenSkill's scale)."""
FORM_GAMES = 100
"""The games the form chart shows."""
DAY = 86400.0
ROLES = ("declarer", "defender", "ramsch", "passed", "out")
GAMES = ("grand", "clubs", "spades", "hearts", "diamonds", "null", "ramsch", "passed")
"""The game column's values a filter takes (Tournee's games are stored by their sheet names too)."""
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def player_of_seat(seat: Any) -> str | None:
    """The player key of a stored seat (a ``skat_seats`` row), or None for a seat of nobody known (an account
    deleted since, a seat taken before accounts existed)."""
    if seat.account_id:
        return f"a:{seat.account_id}"
    if seat.guest_hash:
        return f"g:{seat.guest_hash}"
    if seat.kind == "bot" and seat.bot:
        return f"b:{seat.bot}"
    return None


def player_kind(player: str) -> str:
    """``person``, ``guest`` or ``computer``."""
    return {"a": "person", "g": "guest", "b": "computer"}.get(player[:1], "guest")


# ------------------------------------------------------------------ counting
def count_deal(counters: dict[str, int], row: dict[str, Any]) -> None:
    """Add one ``player_deals`` row to a player's counters (the one rule of what the statistics count)."""
    def add(key: str, n: int = 1) -> None:
        counters[key] = counters.get(key, 0) + n

    role, game, seat, won = row["role"], row["game"], row["seat"], row["won"]
    if row.get("stand_in"):  # the computer stand-in decided for the player (docs/clock.md)
        add("stand_in.deals")
        add("stand_in.decisions", row["stand_in"])
    apart = _apart(row.get("variant"))
    if apart is not None:  # a game counted apart from Skat's figures (Officers' Skat for two)
        add(f"{apart}.games")
        add(f"{apart}.score", row["score"])
        if role == "declarer":
            add(f"{apart}.chooser")
        if won:
            add(f"{apart}.won")
        return
    add("deals")
    if row.get("contract") == "redealt":  # all passed and the rule set deals again: no game of the list
        add("redealt")
        return
    add("sf", row["sf"])
    add("score", row["score"])
    if role == "out":
        add("out")
        return
    add("games")
    add(f"seat.{seat}.games")
    if role == "passed":
        add("passed")
    elif role == "ramsch":
        add("ramsch")
        if won is False:
            add("ramsch.lost")
    elif role == "declarer":
        add("declarer")
        add(f"declarer.{game}")
        add(f"seat.{seat}.declarer")
        if won:
            add("declarer.won")
            add(f"declarer.{game}.won")
            add(f"seat.{seat}.won")
        if row["overbid"]:
            add("overbid")
    elif role == "defender":
        add("defender")
        if won:
            add("defender.won")
    if row["kontra"] and role in ("declarer", "defender"):
        add(f"kontra.{role}")
        if won:
            add(f"kontra.{role}.won")


def _deal_rows(table_id: str, deal_no: int, settings: dict[str, Any], seats: Sequence[Any], positions: list[int],
               sheet_row: dict[str, Any], previous: dict[str, Any] | None, game_no: int,
               at: float, stand_ins: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """The ``player_deals`` rows of one finished deal, what each position's deal was asked of the table's game
    (:meth:`~skat.server.games.TableGame.history_seats`); a seat of nobody known gets none. ``stand_ins``: the
    decisions a computer stand-in made, by position (None: the database has no such column yet, migration 0005)."""
    variant = str(settings.get("variant") or "standard")
    facts = table_game(variant).history_seats(settings, sheet_row, positions, len(seats), previous)
    rows = []
    for seat_row in seats:
        player = player_of_seat(seat_row)
        if player is None:
            continue
        fact = facts[seat_row.position]
        rows.append({
            "player": player, "table_id": table_id, "deal_no": deal_no, "position": seat_row.position,
            "game_no": game_no, "at": at, "variant": variant[:20], "ruleset": str(fact["ruleset"])[:40],
            "game": str(fact["game"])[:20], "contract": str(fact["contract"])[:80], "role": fact["role"],
            "seat": fact["seat"], "bid": int(fact["bid"]), "won": fact["won"], "score": int(fact["score"]),
            "sf": int(fact["sf"]), "kontra": int(fact["kontra"]), "overbid": bool(fact["overbid"]),
        })
        if stand_ins is not None:
            rows[-1]["stand_in"] = stand_ins.get(seat_row.position, 0)
    return rows


def _apart(variant: Any) -> str | None:
    """The name under which a player's statistics count the game's deals apart from Skat's (None: Skat's)."""
    try:
        return table_game(str(variant or "standard")).history_apart
    except LookupError:
        return None


def _aparts() -> list[str]:
    """The statistics' parts counted apart (each game's :attr:`~skat.server.games.TableGame.history_apart`)."""
    return [g.history_apart for g in table_games().values() if g.history_apart]


def _rated(variant: str) -> bool:
    try:
        return table_game(variant).rated
    except LookupError:
        return False


def record_finished_deal(conn: Connection, table_id: str, deal_no: int, sheet_row: dict[str, Any],
                         game_no: int, list_over: bool, at: float | None = None, *, stand_in_column: bool = True) -> int:
    """Write a finished deal into its players' histories, counters, days and (when it ends a list) ratings; a
    deal written before changes nothing. Returns the number of history rows written. ``stand_in_column``: the
    database marks the stand-in's actions (migration 0007; the migration 0005 that rebuilds runs before it)."""
    if conn.execute(select(player_deals_t.c.id).where(player_deals_t.c.table_id == table_id,
                                                      player_deals_t.c.deal_no == deal_no).limit(1)).first():
        return 0
    table = conn.execute(select(tables_t.c.settings).where(tables_t.c.id == table_id)).first()
    deal = conn.execute(select(deals_t.c.positions).where(deals_t.c.table_id == table_id,
                                                          deals_t.c.deal_no == deal_no)).first()
    if table is None or deal is None:
        return 0
    seats = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.position)).all()
    previous: dict[str, Any] | None = None
    if not sheet_row.get("redeal"):
        earlier = conn.execute(
            select(deals_t.c.sheet_row).where(deals_t.c.table_id == table_id, deals_t.c.deal_no < deal_no,
                                              deals_t.c.finished.is_(True), deals_t.c.sheet_row.is_not(None),
                                              ~deals_t.c.sheet_row.like('{"redeal"%'))
            .order_by(deals_t.c.deal_no.desc()).limit(1)).first()
        if earlier is not None:
            previous = json.loads(earlier.sheet_row)
    at = time.time() if at is None else at
    settings = json.loads(table.settings)
    positions = json.loads(deal.positions)
    stand_ins: dict[int, int] | None = None
    if stand_in_column:
        stand_ins = {}
        for row in conn.execute(
                select(actions_t.c.seat, func.count()).where(actions_t.c.table_id == table_id,
                                                            actions_t.c.deal_no == deal_no,
                                                            actions_t.c.stand_in.is_(True))
                .group_by(actions_t.c.seat)):
            seat_no, count = int(row[0]), int(row[1])
            if 0 <= seat_no < len(positions):
                stand_ins[positions[seat_no]] = int(count)
    rows = _deal_rows(table_id, deal_no, settings, seats, positions, sheet_row, previous, game_no, at, stand_ins)
    if not rows:
        return 0
    conn.execute(insert(player_deals_t), rows)
    _count(conn, rows, at)
    _add_days(conn, rows, at)
    rated = not sheet_row.get("redeal") and _rated(str(settings.get("variant") or "standard"))
    if rated and (game_no % LIST_GAMES == 0 or list_over):
        _rate_list(conn, table_id, ((game_no - 1) // LIST_GAMES) * LIST_GAMES + 1, game_no, at)
    return len(rows)


def _count(conn: Connection, rows: list[dict[str, Any]], at: float) -> None:
    """Add the rows to their players' counters, and the computers' rows to each person's comparison."""
    people = sorted({r["player"] for r in rows if player_kind(r["player"]) != "computer"})
    changes: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        changes[(row["player"], "")].append(row)
        if player_kind(row["player"]) == "computer":
            for person in people:
                changes[(row["player"], person)].append(row)
    keys = sorted(changes)  # one lock order for every process (no deadlock between two tables' writes)
    ins = dialect_insert(conn, player_stats_t)
    conn.execute(ins.on_conflict_do_nothing(), [
        {"player": p, "scope": s, "games": 0, "data": "{}", "updated": at} for p, s in keys])
    for player, scope in keys:
        where = and_(player_stats_t.c.player == player, player_stats_t.c.scope == scope)
        stored = conn.execute(select(player_stats_t.c.data).where(where).with_for_update()).one()
        counters = json.loads(stored.data)
        for row in changes[(player, scope)]:
            count_deal(counters, row)
        conn.execute(update(player_stats_t).where(where).values(
            data=json.dumps(counters, sort_keys=True), games=counters.get("games", 0), updated=at))


def _add_days(conn: Connection, rows: list[dict[str, Any]], at: float) -> None:
    day = int(at // DAY)
    sums: dict[str, list[int]] = {}
    for row in rows:
        s = sums.setdefault(row["player"], [0, 0, 0])
        s[0] += row["role"] != "out"
        s[1] += row["sf"]
        s[2] += row["score"]
    for player in sorted(sums):
        _add_day(conn, player, day, *sums[player])


def _add_day(conn: Connection, player: str, day: int, games: int, sf: int, score: int) -> None:
    """Add to a player's sums of one day (the row made when it is the day's first)."""
    stmt = dialect_insert(conn, player_days_t).values(player=player, day=day, games=games, sf=sf, score=score)
    conn.execute(stmt.on_conflict_do_update(
        index_elements=["player", "day"],
        set_={"games": player_days_t.c.games + games, "sf": player_days_t.c.sf + sf,
              "score": player_days_t.c.score + score}))


def _rate_list(conn: Connection, table_id: str, first: int, last: int, at: float) -> None:
    """Rate one list of a table: its games ``first`` to ``last``, each position's SF points in them."""
    rows = conn.execute(
        select(player_deals_t.c.position, player_deals_t.c.player, func.sum(player_deals_t.c.sf).label("sf"),
               func.count().label("deals"))
        .where(player_deals_t.c.table_id == table_id, player_deals_t.c.game_no >= first,
               player_deals_t.c.game_no <= last)
        .group_by(player_deals_t.c.position, player_deals_t.c.player).order_by(player_deals_t.c.position)).all()
    seats = [(r.player, float(r.sf)) for r in rows]
    players = sorted({p for p, _ in seats})
    if len(players) < 2:
        return
    ins = dialect_insert(conn, ratings_t)
    conn.execute(ins.on_conflict_do_nothing(), [
        {"player": p, "kind": player_kind(p), "mu": MU, "sigma": SIGMA, "conservative": MU - 3 * SIGMA, "lists": 0,
         "games": 0, "updated": at} for p in players])
    before = {}
    for p in players:
        r = conn.execute(select(ratings_t.c.mu, ratings_t.c.sigma).where(ratings_t.c.player == p)
                         .with_for_update()).one()
        before[p] = (r.mu, r.sigma)
    after = plackett_luce_step(_MODEL, before, seats)
    games = last - first + 1
    sf_of: dict[str, int] = defaultdict(int)
    for p, sf in seats:
        sf_of[p] += int(sf)
    for p in players:
        mu, sigma = after[p]
        conn.execute(update(ratings_t).where(ratings_t.c.player == p).values(
            mu=mu, sigma=sigma, conservative=mu - 3 * sigma, lists=ratings_t.c.lists + 1,
            games=ratings_t.c.games + games, updated=at))
    conn.execute(insert(rating_history_t), [
        {"player": p, "at": at, "table_id": table_id, "first_game": first, "last_game": last, "sf": sf_of[p],
         "mu": after[p][0], "sigma": after[p][1]} for p in players])


# ------------------------------------------------------------------ reading
@dataclass(frozen=True)
class HistoryFilter:
    """What a history page shows: a game type, a role, a result (``won``/``lost``), a time span."""

    game: str | None = None
    role: str | None = None
    result: str | None = None
    since: float | None = None
    until: float | None = None


def _where(player: str, f: HistoryFilter) -> list[Any]:
    c = player_deals_t.c
    where = [c.player == player]
    if f.game:
        where.append(c.game == f.game)
    if f.role:
        where.append(c.role == f.role)
    if f.result == "won":
        where.append(c.won.is_(True))
    elif f.result == "lost":
        where.append(c.won.is_(False))
    if f.since is not None:
        where.append(c.at >= f.since)
    if f.until is not None:
        where.append(c.at < f.until)
    return where


def history_page(conn: Connection, player: str, f: HistoryFilter, before: tuple[float, int] | None = None,
                 limit: int = 50) -> dict[str, Any]:
    """A page of the player's deals, newest first: ``deals`` (with the table's name and the players at it),
    ``total`` (all that match the filter) and ``next`` (the cursor of the next page, or None)."""
    c = player_deals_t.c
    where = _where(player, f)
    total = conn.execute(select(func.count()).select_from(player_deals_t).where(*where)).scalar_one()
    if before is not None:
        where.append(or_(c.at < before[0], and_(c.at == before[0], c.id < before[1])))
    rows = conn.execute(select(player_deals_t, tables_t.c.name.label("table_name"), tables_t.c.closed)
                        .join(tables_t, tables_t.c.id == c.table_id)
                        .where(*where).order_by(c.at.desc(), c.id.desc()).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    names: dict[str, list[str]] = defaultdict(list)
    table_ids = sorted({r.table_id for r in rows})
    if table_ids:
        for s in conn.execute(select(seats_t.c.table_id, seats_t.c.name).where(seats_t.c.table_id.in_(table_ids))
                              .order_by(seats_t.c.table_id, seats_t.c.position)):
            names[s.table_id].append(s.name)
    deals = [{
        "table_id": r.table_id, "table_name": r.table_name, "deal_no": r.deal_no, "game_no": r.game_no,
        "position": r.position, "at": r.at, "variant": r.variant, "ruleset": r.ruleset, "game": r.game,
        "contract": r.contract, "role": r.role, "seat": r.seat, "bid": r.bid, "won": r.won, "score": r.score,
        "sf": r.sf, "kontra": r.kontra, "overbid": r.overbid, "stand_in": r.stand_in, "players": names[r.table_id],
        "table_closed": bool(r.closed)} for r in rows]
    cursor = f"{rows[-1].at!r}:{rows[-1].id}" if more and rows else None
    return {"deals": deals, "total": total, "next": cursor}


def player_name(conn: Connection, player: str) -> str | None:
    """The name a player is shown by: the account's name, the computer level's; None for a guest (and an account
    that is no more)."""
    if player.startswith("a:"):
        row = conn.execute(select(accounts_t.c.name).where(accounts_t.c.id == player[2:])).first()
        return None if row is None else str(row.name)
    if player.startswith("b:"):
        return player[2:]
    return None


def _stats_of(counters: dict[str, int]) -> dict[str, Any]:
    """The shares and averages of a player's counters."""
    def share(part: str, whole: str) -> float | None:
        n = counters.get(whole, 0)
        return None if n == 0 else counters.get(part, 0) / n

    games = counters.get("games", 0)
    by_game = {g: {"declared": counters.get(f"declarer.{g}", 0), "won": counters.get(f"declarer.{g}.won", 0),
                   "won_share": share(f"declarer.{g}.won", f"declarer.{g}")}
               for g in sorted({k.split(".")[1] for k in counters if k.startswith("declarer.") and k.count(".") == 1
                                and k != "declarer.won"})}
    by_seat = [{"games": counters.get(f"seat.{s}.games", 0), "declared": counters.get(f"seat.{s}.declarer", 0),
                "won": counters.get(f"seat.{s}.won", 0), "won_share": share(f"seat.{s}.won", f"seat.{s}.declarer")}
               for s in range(3)]
    sf = counters.get("sf", 0)
    return {
        "games": games, "deals": counters.get("deals", 0), "sat_out": counters.get("out", 0),
        "declarer": counters.get("declarer", 0), "declarer_share": share("declarer", "games"),
        "declarer_won": counters.get("declarer.won", 0), "declarer_won_share": share("declarer.won", "declarer"),
        "defender": counters.get("defender", 0), "defender_won_share": share("defender.won", "defender"),
        "by_game": by_game, "by_seat": by_seat,
        "grands": counters.get("declarer.grand", 0), "nulls": counters.get("declarer.null", 0),
        "overbid": counters.get("overbid", 0), "passed": counters.get("passed", 0),
        "ramsch": counters.get("ramsch", 0), "ramsch_lost": counters.get("ramsch.lost", 0),
        "kontra": {role: {"games": counters.get(f"kontra.{role}", 0), "won": counters.get(f"kontra.{role}.won", 0)}
                   for role in ("declarer", "defender")},
        "sf": sf, "score": counters.get("score", 0),
        "stand_in": {"deals": counters.get("stand_in.deals", 0), "decisions": counters.get("stand_in.decisions", 0)},
        **{apart: {"games": counters.get(f"{apart}.games", 0), "won": counters.get(f"{apart}.won", 0),
                   "chose": counters.get(f"{apart}.chooser", 0), "score": counters.get(f"{apart}.score", 0)}
           for apart in _aparts()},
        "sf_per_game": None if games == 0 else sf / games,
        "sf_per_list": None if games == 0 else 36 * sf / games,
    }


def player_stats(conn: Connection, player: str) -> dict[str, Any] | None:
    """A player's statistics, the computer players' at the person's tables, the form over the last
    :data:`FORM_GAMES` games (SF points per game, oldest first) and the rating; None for a player with no deal."""
    rows = conn.execute(select(player_stats_t.c.player, player_stats_t.c.data).where(or_(
        and_(player_stats_t.c.player == player, player_stats_t.c.scope == ""),
        player_stats_t.c.scope == player))).all()
    own = next((r for r in rows if r.player == player), None)
    if own is None:
        return None
    computers = {r.player[2:]: _stats_of(json.loads(r.data)) for r in rows if r.player != player}
    c = player_deals_t.c
    form = conn.execute(select(c.sf, c.at, c.won, c.role).where(c.player == player, c.role != "out")
                        .order_by(c.at.desc(), c.id.desc()).limit(FORM_GAMES)).all()
    rating = conn.execute(select(ratings_t).where(ratings_t.c.player == player)).first()
    return {"player": player, "kind": player_kind(player), "name": player_name(conn, player),
            "stats": _stats_of(json.loads(own.data)), "computers": computers,
            "form": [{"sf": r.sf, "at": r.at, "won": r.won, "role": r.role} for r in reversed(form)],
            "rating": None if rating is None else _rating(rating)}


def _rating(row: Any) -> dict[str, Any]:
    return {"mu": row.mu, "sigma": row.sigma, "conservative": row.conservative, "lists": row.lists,
            "games": row.games, "updated": row.updated}


def rating_history(conn: Connection, player: str, limit: int = 500) -> list[dict[str, Any]]:
    """The player's rating after each rated list, oldest first (the last ``limit``)."""
    c = rating_history_t.c
    rows = conn.execute(select(rating_history_t).where(c.player == player).order_by(c.at.desc(), c.id.desc())
                        .limit(limit)).all()
    return [{"at": r.at, "mu": r.mu, "sigma": r.sigma, "conservative": r.mu - 3 * r.sigma, "sf": r.sf,
             "table_id": r.table_id, "first_game": r.first_game, "last_game": r.last_game} for r in reversed(rows)]


def leaderboard(conn: Connection, kind: str, period: str, now: float, limit: int = 100,
                min_games: int = LIST_GAMES) -> list[dict[str, Any]]:
    """The leaderboard of people (``person``) or computers (``computer``): ``all`` by the conservative rating
    (mu - 3 sigma), ``30d`` by SF points per game over the last 30 days (at least ``min_games`` games)."""
    if period == "all":
        r = ratings_t.c
        rows = conn.execute(select(ratings_t, accounts_t.c.name).outerjoin(
            accounts_t, accounts_t.c.id == func.substr(r.player, 3)).where(r.kind == kind)
            .order_by(r.conservative.desc(), r.player).limit(limit)).all()
        return [{"rank": i + 1, "player": row.player, "name": row.name if kind == "person" else row.player[2:],
                 "rating": _rating(row)} for i, row in enumerate(rows)
                if kind != "person" or row.name is not None]
    d = player_days_t.c
    since = int(now // DAY) - 29
    prefix = "a:" if kind == "person" else "b:"
    games = func.sum(d.games)
    sf = func.sum(d.sf)
    rows = conn.execute(select(d.player, games.label("games"), sf.label("sf"))
                        .where(d.day >= since, d.player.like(prefix + "%"))
                        .group_by(d.player).having(games >= min_games)).all()
    ranked = sorted(rows, key=lambda row: (-row.sf / row.games, row.player))[:limit]
    names = _names(conn, [row.player for row in ranked])
    return [{"rank": i + 1, "player": row.player, "name": names.get(row.player), "games": int(row.games),
             "sf": int(row.sf), "sf_per_game": row.sf / row.games}
            for i, row in enumerate(ranked) if kind != "person" or names.get(row.player) is not None]


def _names(conn: Connection, players: Iterable[str]) -> dict[str, str]:
    players = list(players)
    ids = [p[2:] for p in players if p.startswith("a:")]
    names = {f"b:{p[2:]}": p[2:] for p in players if p.startswith("b:")}
    if ids:
        names.update({f"a:{r.id}": r.name for r in conn.execute(select(accounts_t.c.id, accounts_t.c.name)
                                                                 .where(accounts_t.c.id.in_(ids)))})
    return names


def stored_record(conn: Connection, table_id: str, deal_no: int) -> dict[str, Any] | None:
    """A finished deal as stored: its record (without the seeds at a table that was not seeded), the players at
    its positions (keys, for who may see it) and whether its table is closed; None for no finished deal."""
    deal = conn.execute(select(deals_t).where(deals_t.c.table_id == table_id, deals_t.c.deal_no == deal_no)).first()
    table = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
    if deal is None or table is None or not deal.finished:
        return None
    actions = conn.execute(select(actions_t.c.seat, actions_t.c.token, actions_t.c.stand_in).where(
        actions_t.c.table_id == table_id, actions_t.c.deal_no == deal_no).order_by(actions_t.c.seq)).all()
    seats = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.position)).all()
    settings = json.loads(table.settings)
    record = dict(json.loads(deal.start), actions=[[a.seat, a.token] for a in actions])
    if not settings.get("seeded"):
        record["seed"] = None
    if any(a.stand_in for a in actions):  # the actions a computer stand-in made for a person (docs/clock.md)
        record["stand_in"] = [i for i, a in enumerate(actions) if a.stand_in]
    positions = json.loads(deal.positions)
    record["table"] = {"id": table_id, "name": table.name, "deal_no": deal_no, "dealer": deal.dealer,
                       "positions": positions, "players": [seats[p].name for p in positions]}
    return {"record": record, "players": [player_of_seat(s) for s in seats], "closed": bool(table.closed),
            "settings": settings, "sheet_row": json.loads(deal.sheet_row) if deal.sheet_row else None,
            "result": json.loads(deal.result) if deal.result else None}


def table_players(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    """The players at a table's positions with their ratings: ``{"position", "player", "name", "rating"}``, the
    player None for a guest (a guest's key stays on the server) and a seat of nobody known."""
    seats = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.position)).all()
    keys = {s.position: player_of_seat(s) for s in seats}
    known = [k for k in keys.values() if k is not None and not k.startswith("g:")]
    ratings = {r.player: _rating(r) for r in conn.execute(select(ratings_t).where(ratings_t.c.player.in_(known)))} \
        if known else {}
    names = _names(conn, known)
    out = []
    for position, key in sorted(keys.items()):
        shown = key if key is not None and not key.startswith("g:") else None
        out.append({"position": position, "player": shown, "name": names.get(shown) if shown else None,
                    "rating": ratings.get(shown) if shown else None})
    return out


# ------------------------------------------------------------------ accounts
def claim_guest(conn: Connection, guest_hash: str, account_id: str) -> None:
    """A guest's history becomes the account's (registering or signing in in that browser): the rows move and
    the account's counters are counted again from its rows; the guest's rating becomes the account's when the
    account has none yet (else the account keeps its own)."""
    guest, person = f"g:{guest_hash}", f"a:{account_id}"
    moved = conn.execute(update(player_deals_t).where(player_deals_t.c.player == guest).values(player=person))
    if not moved.rowcount:
        return
    conn.execute(delete(player_stats_t).where(or_(player_stats_t.c.player == guest, player_stats_t.c.scope == guest,
                                                  player_stats_t.c.player == person,
                                                  player_stats_t.c.scope == person)))
    _recount(conn, person)
    days = conn.execute(select(player_days_t).where(player_days_t.c.player == guest)).all()
    conn.execute(delete(player_days_t).where(player_days_t.c.player == guest))
    for d in days:
        _add_day(conn, person, d.day, d.games, d.sf, d.score)
    has_rating = conn.execute(select(ratings_t.c.player).where(ratings_t.c.player == person)).first()
    if has_rating is None:
        conn.execute(update(ratings_t).where(ratings_t.c.player == guest).values(player=person, kind="person"))
        conn.execute(update(rating_history_t).where(rating_history_t.c.player == guest).values(player=person))
    else:
        conn.execute(delete(ratings_t).where(ratings_t.c.player == guest))
        conn.execute(delete(rating_history_t).where(rating_history_t.c.player == guest))


def _recount(conn: Connection, person: str) -> None:
    """Count a person's counters, and the computers' at the person's tables, again from the stored rows."""
    c = player_deals_t.c
    own: dict[str, int] = {}
    theirs: dict[str, dict[str, int]] = defaultdict(dict)
    mine = conn.execute(select(player_deals_t).where(c.player == person).order_by(c.at, c.id)).all()
    deals = {(r.table_id, r.deal_no) for r in mine}
    for r in mine:
        count_deal(own, r._asdict())
    tables = sorted({t for t, _ in deals})
    for i in range(0, len(tables), 500):
        for r in conn.execute(select(player_deals_t).where(c.table_id.in_(tables[i:i + 500]), c.player.like("b:%"))
                              .order_by(c.at, c.id)):
            if (r.table_id, r.deal_no) in deals:
                count_deal(theirs[r.player], r._asdict())
    now = time.time()
    rows = [{"player": person, "scope": "", "games": own.get("games", 0), "data": json.dumps(own, sort_keys=True),
             "updated": now}]
    rows += [{"player": b, "scope": person, "games": cnt.get("games", 0), "data": json.dumps(cnt, sort_keys=True),
              "updated": now} for b, cnt in sorted(theirs.items())]
    conn.execute(insert(player_stats_t), rows)


def forget_player(conn: Connection, player: str) -> None:
    """Remove a player's history, counters, days and rating (an account deleted): its seats stay anonymous in the
    stored games (the accounts service renames them)."""
    conn.execute(delete(player_deals_t).where(player_deals_t.c.player == player))
    conn.execute(delete(player_stats_t).where(or_(player_stats_t.c.player == player,
                                                  player_stats_t.c.scope == player)))
    conn.execute(delete(player_days_t).where(player_days_t.c.player == player))
    conn.execute(delete(ratings_t).where(ratings_t.c.player == player))
    conn.execute(delete(rating_history_t).where(rating_history_t.c.player == player))


# ------------------------------------------------------------------ rebuilding
def rebuild(conn: Connection, *, stand_in_column: bool = True) -> int:
    """Write every stored finished deal into the histories (a database made before them; deals written before
    are skipped): in the order the deals ended, each dated by its last action. Returns the rows written.
    ``stand_in_column``: as :func:`record_finished_deal` (False in migration 0005)."""
    last_action = (select(actions_t.c.table_id, actions_t.c.deal_no, func.max(actions_t.c.at).label("at"))
                   .group_by(actions_t.c.table_id, actions_t.c.deal_no).subquery())
    deals = conn.execute(
        select(deals_t.c.table_id, deals_t.c.deal_no, deals_t.c.sheet_row, tables_t.c.created,
               last_action.c.at, tables_t.c.settings)
        .join(tables_t, tables_t.c.id == deals_t.c.table_id)
        .outerjoin(last_action, and_(last_action.c.table_id == deals_t.c.table_id,
                                     last_action.c.deal_no == deals_t.c.deal_no))
        .where(deals_t.c.finished.is_(True), deals_t.c.sheet_row.is_not(None))
        .order_by(deals_t.c.table_id, deals_t.c.deal_no)).all()
    games: dict[str, int] = defaultdict(int)
    planned = []
    for d in deals:
        row = json.loads(d.sheet_row)
        if row.get("redeal"):
            game_no = games[d.table_id] + 1
        else:
            game_no = int(row.get("deal_no") or games[d.table_id] + 1)
            games[d.table_id] = game_no
        planned.append((d.at or d.created, d.table_id, d.deal_no, row, game_no))
    limit = {d.table_id: json.loads(d.settings).get("deals") for d in deals}
    written = 0
    for at, table_id, deal_no, row, game_no in sorted(planned, key=lambda p: (p[0], p[1], p[2])):
        over = bool(limit.get(table_id)) and game_no >= int(limit[table_id] or 0) and not row.get("redeal")
        written += record_finished_deal(conn, table_id, deal_no, row, game_no, over, at,
                                        stand_in_column=stand_in_column)
    return written
