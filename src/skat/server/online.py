"""Online tournaments (docs/online-tournaments.md): a director schedules one (start, rule set, rounds, games per
round, the move clock); signed-in people register until the start; then the server seats them by lot at its own
tables (of 4 and 3: :func:`skat.table.tournament.table_sizes`), each seat linked to the player's account (so every
deal counts in the player's history, statistics and rating), and seats every later round by the ranking once the
round's tables are all finished. A no-show or a leaver is replaced by the move clock's computer stand-in
(:mod:`skat.server.clock_runner`). The ranking is the club tournament's: :class:`skat.table.tournament.Tournament`,
each table's Seeger-Fabian points, games won and lost handed in from its server score sheet
(:meth:`~skat.table.tournament.Tournament.record_result`), live while a round is played.

Storage: one row of ``online_tournaments`` per tournament (its status, start and director key's hash as columns;
settings, players, rounds and the tournament's JSON as ``data``) with a change count ``seq``: every change is
written only over the ``seq`` it read (``UPDATE ... WHERE seq = :read``), so of two server processes exactly one
starts a tournament or seats a round; the other sees the change and goes on from it.

:meth:`OnlineService.run` is the background task the application starts: every :attr:`OnlineService.tick` seconds
it starts the tournaments that are due, seats the next round where one is over, and lets no tournament table wait
for ever between deals. A failure is logged with the tournament's id and tried again at the next tick.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, or_, select, update
from sqlalchemy.engine import Connection

from skat.server.accounts import Account, AccountService
from skat.server.clock import ClockError, plan_clock
from skat.server.core import TableError, hash_token, new_secret
from skat.server.creation import clean_name, table_rulesets
from skat.server.database import online_tournaments_t, seats_t
from skat.server.errors import ErrorCode
from skat.server.games import table_game
from skat.server.manager import TableManager
from skat.server.store import Store
from skat.server.tables import ServerTable
from skat.table.tournament import TableResult, Tournament, TournamentError

__all__ = ["OnlineService", "KEY_HEADER", "MAX_PLAYERS", "MAX_ROUNDS", "MAX_GAMES", "STATUSES", "DEFAULT_CLOCK"]

log = logging.getLogger("skat.server.online")

KEY_HEADER = "X-Tournament-Key"
"""The header of the director's key (as for a club tournament)."""
MAX_PLAYERS = 200
"""The most players one online tournament takes."""
MAX_ROUNDS = 12
MAX_GAMES = 48
"""The most games a table plays in one round (a 4-table's list in a Preisskat)."""
MAX_AHEAD = 366 * 86400.0
"""How far ahead a tournament may be scheduled (seconds)."""
STATUSES = ("registering", "running", "finished", "cancelled")
DEFAULT_CLOCK: dict[str, Any] = {"decision": 30, "reserve": 60, "grace": 60, "ready": 30}
"""The clock of a tournament's tables unless the director sets one: the table clock's defaults, a minute's grace
for a lost connection, half a minute between deals."""
RESEAT_SECONDS = 30.0
"""A round whose tables a process began to make and did not finish (it stopped) is made by another after this."""
COMPUTER = "Computer"
"""The player who makes 5 into tables of 3 and 3 (5 people cannot be seated at tables of 3 and 4): the clock's
stand-in level plays that seat; he is ranked like everybody."""
_ID = re.compile(r"[0-9a-f]{32}")


def _error(code: ErrorCode, message: str, status: int = 400) -> TableError:
    return TableError(code, message, status)


def _no_tournament(tid: str) -> TableError:
    return _error(ErrorCode.NO_TOURNAMENT, f"there is no online tournament {tid[:40]!r} (a mistyped or cut-short "
                                           "link?)", 404)


@dataclass(frozen=True)
class Settings:
    """A new tournament's checked settings."""

    name: str
    starts_at: float
    ruleset: str
    rounds: int
    games: dict[str, int]
    clock: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "rounds": self.rounds, "games": dict(self.games), "clock": dict(self.clock)}


def check_settings(*, name: Any, starts_at: Any, ruleset: Any, rounds: Any, games: Any, clock: Any,
                   now: float) -> Settings:
    """A director's settings checked, each wrong one refused with its own code (``bad_name``, ``bad_start``,
    ``bad_ruleset``, ``bad_rounds``, ``bad_games``, ``bad_clock``)."""
    if not isinstance(name, str) or len(name.strip()) > 200:
        raise _error(ErrorCode.BAD_NAME, "the tournament's name is a text of at most 200 characters")
    name = " ".join(name.split()) or "Online tournament"
    if starts_at is None:
        starts_at = now
    if isinstance(starts_at, bool) or not isinstance(starts_at, (int, float)) or not (
            now - 60 <= starts_at <= now + MAX_AHEAD):
        raise _error(ErrorCode.BAD_START, "starts_at is the start as Unix seconds, from now to a year ahead, "
                                          f"not {str(starts_at)[:40]!r}")
    ruleset = "isko2018" if ruleset is None else ruleset
    if not isinstance(ruleset, str) or ruleset not in table_rulesets():
        raise _error(ErrorCode.BAD_RULESET, f"unknown rule set {str(ruleset)[:40]!r}; choose one of: "
                                            f"{', '.join(table_rulesets())}")
    try:
        Tournament(ruleset=ruleset)
    except TournamentError as exc:
        raise _error(ErrorCode.BAD_RULESET, str(exc)) from None
    rounds = 3 if rounds is None else rounds
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise _error(ErrorCode.BAD_ROUNDS, f"rounds is a whole number from 1 to {MAX_ROUNDS}, not {str(rounds)[:40]!r}")
    games = _games(12 if games is None else games)
    if clock is False:
        raise _error(ErrorCode.BAD_CLOCK, "a tournament's tables need the move clock: without it a no-show would "
                                          "stall his table (give true or the settings to change)")
    wanted = dict(DEFAULT_CLOCK, **(clock if isinstance(clock, dict) else {}))
    try:
        planned = plan_clock(wanted if clock is None or clock is True or isinstance(clock, dict) else clock,
                             ["human"] * 3, table_game("standard"))
    except ClockError as exc:
        raise _error(ErrorCode.BAD_CLOCK, str(exc)) from None
    assert planned is not None
    return Settings(name, float(starts_at), ruleset, rounds, games, planned)


def _games(games: Any) -> dict[str, int]:
    """Games per round by table size: one number for both, or ``{"4": n, "3": m}``."""
    def one(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAMES:
            raise _error(ErrorCode.BAD_GAMES, f"a table plays 1 to {MAX_GAMES} games a round, not {str(value)[:40]!r}")
        return value
    if isinstance(games, dict):
        if not games or set(games) - {"3", "4"}:
            raise _error(ErrorCode.BAD_GAMES, 'games by table size is {"4": n, "3": m} (either may be left out)')
        both = {size: one(v) for size, v in games.items()}
        return {"4": both.get("4", both.get("3", 12)), "3": both.get("3", both.get("4", 12))}
    n = one(games)
    return {"4": n, "3": n}


def tournament_name(name: str) -> str:
    """A player's name in the tournament's ranking: the account's, unless it is a word a list uses."""
    return f"{name} (1)" if name.strip() in ("passed", "ramsch") else name


def table_result(table: ServerTable, names: list[str]) -> TableResult:
    """A server table's results by player (its score sheet's Seeger-Fabian totals and games won and lost; ``names``
    in seat order), complete once its series is over."""
    sheet = table.series.sheet()
    return TableResult(dict(zip(names, sheet["seeger_fabian"], strict=True)), dict(zip(names, sheet["won"], strict=True)),
                       dict(zip(names, sheet["lost"], strict=True)), complete=table.status == "finished")


class OnlineService:
    """The online tournaments of one server process: their storage, their players and the background task that
    runs them at the tables of ``manager``."""

    def __init__(self, store: Store, manager: TableManager, accounts: AccountService, *, tick: float = 2.0) -> None:
        self.store = store
        self.manager = manager
        self.accounts = accounts
        self.tick = tick
        """Seconds between two looks of the background task (tests make it shorter)."""
        self.wall: Callable[[], float] = time.time
        self._waiting: dict[str, tuple[int, float]] = {}
        """Tournament tables between deals with nobody ready: (deal, since when, monotonic)."""

    # ------------------------------------------------------------------ create
    async def create(self, *, name: Any, starts_at: Any, ruleset: Any, rounds: Any, games: Any,
                     clock: Any) -> dict[str, Any]:
        """A new tournament; the answer holds its director's key, once (the server keeps its hash only)."""
        now = self.wall()
        s = check_settings(name=name, starts_at=starts_at, ruleset=ruleset, rounds=rounds, games=games, clock=clock,
                           now=now)
        tid = secrets.token_hex(16)
        key = new_secret(24)
        data: dict[str, Any] = {"settings": s.to_json(), "players": [], "rounds": [], "tournament": None, "reason": None,
                "started": None, "finished": None}
        row = {"id": tid, "name": s.name, "created": now, "updated": now, "starts_at": max(s.starts_at, now),
               "status": "registering", "key_hash": hash_token(key), "data": json.dumps(data, ensure_ascii=False),
               "seq": 0}

        def op(conn: Connection) -> None:
            conn.execute(insert(online_tournaments_t).values(**row))
        await self.store.write(op)
        return {**await self.state(tid), "key": key, "director_url": f"/online/{tid}#key={key}"}

    # ------------------------------------------------------------------ reads
    async def listing(self) -> dict[str, Any]:
        """The tournaments registering or running (soonest first) and the last 20 finished or cancelled."""
        def read() -> list[dict[str, Any]]:
            c = online_tournaments_t.c
            with self.store.engine.connect() as conn:
                live = conn.execute(select(online_tournaments_t).where(c.status.in_(("registering", "running")))
                                    .order_by(c.starts_at).limit(200)).mappings().all()
                done = conn.execute(select(online_tournaments_t).where(c.status.in_(("finished", "cancelled")))
                                    .order_by(c.updated.desc()).limit(20)).mappings().all()
            return [dict(r) for r in (*live, *done)]
        rows = await self.store.read(read)
        out = []
        for r in rows:
            data = json.loads(r["data"])
            out.append({"id": r["id"], "name": r["name"], "url": f"/online/{r['id']}", "status": r["status"],
                        "starts_at": r["starts_at"], "players": len(data["players"]),
                        "rounds": data["settings"]["rounds"], "round": len(data["rounds"]),
                        "ruleset": data["settings"]["ruleset"]})
        return {"tournaments": out}

    async def state(self, tid: str, account: Account | None = None) -> dict[str, Any]:
        """The tournament as everybody may see it, with its live ranking; ``you``: whether the signed-in
        ``account`` is registered (None when nobody is signed in)."""
        row = await self._row(tid)
        data = json.loads(row["data"])
        t, live = await self._live(data)
        rounds = []
        for rnd in data["rounds"]:
            tables = []
            recorded = t is not None and rnd["number"] <= len(t.series) and rnd is not data["rounds"][-1]
            for i, entry in enumerate(rnd["tables"], 1):
                table = (live.get(entry["table"]) or self.manager.tables.get(entry["table"])) if entry["table"] else None
                status = table.status if table is not None else "finished" if recorded else None
                tables.append({"number": i, "table": entry["table"], "players": [_name(data, a) for a in entry["players"]],
                               "status": status,
                               "deal_no": None if table is None else table.deal_no,
                               "games": data["settings"]["games"][str(len(entry["players"]))]})
            rounds.append({"number": rnd["number"], "tables": tables})
        accounts = {tournament_name(p["name"]): p["account"] for p in data["players"]}
        you = None
        if account is not None:
            you = {"registered": any(p["account"] == account.id for p in data["players"]), "name": account.name}
        return {"id": tid, "name": row["name"], "url": f"/online/{tid}", "status": row["status"], "seq": row["seq"],
                "created": row["created"], "starts_at": row["starts_at"], "started": data.get("started"),
                "finished": data.get("finished"), "reason": data.get("reason"), **data["settings"],
                "players": [{"name": p["name"], "account": p["account"]} for p in data["players"]],
                "round": len(data["rounds"]), "series": rounds,
                "ranking": [] if t is None else [dict(s.to_json(), account=accounts.get(s.player)) for s in t.ranking()],
                "you": you}

    async def tournament(self, tid: str) -> Tournament:
        """The tournament with its live results (for the printer); refused ``no_series`` before its start."""
        row = await self._row(tid)
        t, _ = await self._live(json.loads(row["data"]))
        if t is None:
            raise _error(ErrorCode.NO_SERIES, "the tournament has not started: there is no ranking to print yet", 404)
        t.name = row["name"]
        return t

    async def _live(self, data: dict[str, Any]) -> tuple[Tournament | None, dict[str, ServerTable]]:
        """The tournament with the running round's tables' results as they stand, and those tables."""
        if data.get("tournament") is None:
            return None, {}
        t = Tournament.from_json(data["tournament"])
        tables: dict[str, ServerTable] = {}
        if data["rounds"]:
            number = len(data["rounds"])
            for i, entry in enumerate(data["rounds"][-1]["tables"], 1):
                if not entry["table"]:
                    continue
                table = await self._table(entry["table"])
                if table is None:
                    continue
                tables[entry["table"]] = table
                if number <= len(t.series) and t.series[number - 1].results[i - 1] is None:
                    t.record_result(number, i, table_result(table, t.series[number - 1].draw[i - 1]))
        return t, tables

    async def _table(self, table_id: str) -> ServerTable | None:
        try:
            return await self.manager.table(table_id)
        except TableError:
            return None

    # ------------------------------------------------------------------ players
    async def register(self, tid: str, account: Account) -> dict[str, Any]:
        """Register the signed-in ``account`` (until the start; ``tournament_started``, ``tournament_over``,
        ``already_registered``, ``tournament_full`` else)."""
        def change(row: Mapping[str, Any], data: dict[str, Any]) -> dict[str, Any]:
            self._open_for_players(row)
            if any(p["account"] == account.id for p in data["players"]):
                raise _error(ErrorCode.ALREADY_REGISTERED, f"{account.name} is registered already", 409)
            if len(data["players"]) >= MAX_PLAYERS:
                raise _error(ErrorCode.TOURNAMENT_FULL, f"this tournament takes at most {MAX_PLAYERS} players, and "
                                                        "they are registered", 409)
            data["players"].append({"account": account.id, "name": account.name})
            return {}
        await self._change(tid, change)
        return await self.state(tid, account)

    async def withdraw(self, tid: str, account: Account) -> dict[str, Any]:
        """Withdraw the signed-in ``account``'s registration (until the start)."""
        def change(row: Mapping[str, Any], data: dict[str, Any]) -> dict[str, Any]:
            self._open_for_players(row)
            if not any(p["account"] == account.id for p in data["players"]):
                raise _error(ErrorCode.NOT_REGISTERED, f"{account.name} is not registered for this tournament", 404)
            data["players"] = [p for p in data["players"] if p["account"] != account.id]
            return {}
        await self._change(tid, change)
        return await self.state(tid, account)

    def _open_for_players(self, row: Mapping[str, Any]) -> None:
        if row["status"] in ("finished", "cancelled"):
            raise _error(ErrorCode.TOURNAMENT_OVER, f"this tournament is {row['status']}", 409)
        if row["status"] != "registering" or self.wall() >= row["starts_at"]:
            raise _error(ErrorCode.TOURNAMENT_STARTED, "this tournament has started: registering and withdrawing "
                                                       "end at its start", 409)

    async def seat(self, tid: str, account: Account) -> dict[str, Any]:
        """The signed-in player's table in the current round, with a fresh seat token (the seat's token is
        replaced: an older link of this seat no longer opens it; the server stores only the new token's hash)."""
        row = await self._row(tid)
        data = json.loads(row["data"])
        if not any(p["account"] == account.id for p in data["players"]):
            raise _error(ErrorCode.NOT_REGISTERED, f"{account.name} is not registered for this tournament", 404)
        if row["status"] != "running" or not data["rounds"]:
            raise _error(ErrorCode.NO_SEAT, f"the tournament is {row['status']}: there is no table to sit at", 404)
        rnd = data["rounds"][-1]
        entry = next((e for e in rnd["tables"] if account.id in e["players"]), None)
        if entry is not None and entry["table"]:
            table = await self.manager.table(entry["table"])
            position = entry["players"].index(account.id)
            token = await self._new_token(table, position)
            return {"round": rnd["number"], "table_id": table.id, "position": position, "token": token,
                    "url": f"/t/{table.id}#token={token}", "status": table.status}
        raise _error(ErrorCode.NO_SEAT, f"the tables of round {rnd['number']} are being made: ask again in a moment",
                     404)

    async def _new_token(self, table: ServerTable, position: int) -> str:
        """A fresh token for a seat: its hash replaces the seat's (stored, and told to the other processes)."""
        token = new_secret()
        token_hash = hash_token(token)
        seat = table.seats[position]
        table_id = table.id

        def op(conn: Connection) -> None:
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.position == position)
                         .values(token_hash=token_hash))
        async with table.lock:
            await self.store.write(op, {"t": table_id, "k": "seat", "pos": position, "token_hash": token_hash,
                                        "name": seat.name})
            seat.token_hash = token_hash
        return token

    # ------------------------------------------------------------------ the director
    async def director(self, tid: str, key: str | None) -> None:
        """Check the director's key (``bad_key``: missing or wrong, a player's request)."""
        row = await self._row(tid)
        if not key:
            raise _error(ErrorCode.BAD_KEY, f"only the tournament's director may do this: the director's key is "
                                            f"needed (header {KEY_HEADER})", 403)
        if not secrets.compare_digest(hash_token(key), row["key_hash"]):
            raise _error(ErrorCode.BAD_KEY, "this is not the director's key of this tournament: only its director "
                                            "may do this", 403)

    async def start(self, tid: str, key: str | None) -> dict[str, Any]:
        """The director starts the tournament now (round 1 seated by lot at once)."""
        await self.director(tid, key)
        row = await self._row(tid)
        if row["status"] in ("finished", "cancelled"):
            raise _error(ErrorCode.TOURNAMENT_OVER, f"this tournament is {row['status']}", 409)
        if row["status"] != "registering":
            raise _error(ErrorCode.TOURNAMENT_STARTED, "this tournament has started already", 409)
        players = len(json.loads(row["data"])["players"])
        if players < 3:
            raise _error(ErrorCode.TOO_FEW_PLAYERS, f"{players} registered: a Skat table needs at least 3 players",
                         409)
        await self._start(row)
        return await self.state(tid)

    async def cancel(self, tid: str, key: str | None) -> dict[str, Any]:
        """The director cancels the tournament (before or while it runs; its tables' games stay in the histories)."""
        await self.director(tid, key)

        def change(row: Mapping[str, Any], data: dict[str, Any]) -> dict[str, Any]:
            if row["status"] in ("finished", "cancelled"):
                raise _error(ErrorCode.TOURNAMENT_OVER, f"this tournament is {row['status']}", 409)
            data["reason"] = "cancelled by the director"
            data["finished"] = self.wall()
            return {"status": "cancelled"}
        await self._change(tid, change)
        return await self.state(tid)

    # ------------------------------------------------------------------ the background task
    async def run(self) -> None:
        """Start, seat and finish tournaments, every :attr:`tick` seconds, until cancelled."""
        while True:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the online tournaments' task failed; it runs again in %g s", self.tick)
            await asyncio.sleep(self.tick)

    async def step(self) -> None:
        """One look at every tournament due or running; each in its own error boundary."""
        now = self.wall()

        def read() -> list[dict[str, Any]]:
            c = online_tournaments_t.c
            with self.store.engine.connect() as conn:
                return [dict(r) for r in conn.execute(select(online_tournaments_t).where(or_(
                    c.status == "running", (c.status == "registering") & (c.starts_at <= now)))).mappings()]
        for row in await self.store.read(read):
            try:
                if row["status"] == "registering":
                    await self._start(row)
                else:
                    await self._advance(row)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("online tournament %s: its step failed; it is tried again in %g s", row["id"], self.tick)

    async def _start(self, row: dict[str, Any]) -> None:
        """Start a tournament: fewer than 3 registered cancels it; else round 1 is drawn by lot and claimed (one
        process wins the claim) and its tables are made."""
        data = json.loads(row["data"])
        players = data["players"]
        now = self.wall()
        if len(players) < 3:
            data["reason"] = f"fewer than 3 players registered at the start ({len(players)})"
            data["finished"] = now
            if await self._write_if(row, data, status="cancelled"):
                log.info("online tournament %s cancelled: %s", row["id"], data["reason"])
            return
        s = data["settings"]
        names = [tournament_name(p["name"]) for p in players]
        if len(names) == 5:  # 5 cannot sit at tables of 3 and 4: a computer player makes them 3 and 3
            data["computer"] = COMPUTER if COMPUTER not in names else f"{COMPUTER} ({s['clock']['stand_in']})"
            names.append(data["computer"])
        t = Tournament(names, name=row["name"], ruleset=s["ruleset"], games={int(k): v for k, v in s["games"].items()})
        series = t.draw_series(secrets.randbits(63))
        data["tournament"] = t.to_json()
        data["rounds"] = [self._round(data, 1, series.draw, now)]
        data["started"] = now
        if await self._write_if(row, data, status="running", starts_at=min(row["starts_at"], now)):
            log.info("online tournament %s started: %d players at %d tables", row["id"], len(players),
                     len(series.draw))
            await self._make_tables(row["id"])

    def _round(self, data: dict[str, Any], number: int, draw: list[list[str]], now: float) -> dict[str, Any]:
        by_name = {tournament_name(p["name"]): p["account"] for p in data["players"]}
        return {"number": number, "claimed": now,  # a computer player's account is None
                "tables": [{"table": None, "players": [by_name.get(n) for n in names]} for names in draw]}

    async def _make_tables(self, tid: str) -> None:
        """Make the server tables of the current round that have none yet, and write their ids."""
        row = await self._row(tid)
        data = json.loads(row["data"])
        rnd = data["rounds"][-1]
        s = data["settings"]
        made: dict[int, str] = {}
        for i, entry in enumerate(rnd["tables"]):
            if entry["table"]:
                continue
            made[i] = await self._make_table(data, row["name"], rnd["number"], i + 1, entry["players"], s)
        for _ in range(10):  # written over whatever changed meanwhile (a director's cancel)
            row = await self._row(tid)
            data = json.loads(row["data"])
            if data["rounds"][-1]["number"] != rnd["number"]:
                return
            for i, table_id in made.items():
                data["rounds"][-1]["tables"][i]["table"] = data["rounds"][-1]["tables"][i]["table"] or table_id
            if await self._write_if(row, data):
                log.info("online tournament %s: round %d seated at %d tables", tid, rnd["number"], len(made))
                return
        raise RuntimeError(f"the tables of round {rnd['number']} could not be written")

    async def _make_table(self, data: dict[str, Any], name: str, number: int, table_no: int,
                          accounts: list[str | None], s: dict[str, Any]) -> str:
        """One tournament table: its seats taken under the players' names and linked to their accounts; the
        clock's grace runs for every seat from now, so that a player who never comes is played for."""
        size = len(accounts)
        table, _ = await self.manager.create_table(
            name=f"{name[:60]} · {number}/{table_no}", ruleset=s["ruleset"],
            seats=["human" if a else s["clock"]["stand_in"] for a in accounts],
            deals=s["games"][str(size)], claim=None, public=False, hints=False, clock=s["clock"])
        async with table.lock:  # a catch-up with the database (its lease just taken) waits for the seats
            for position, account in enumerate(accounts):
                if account is None:
                    continue
                # a token nobody is given: the player asks for a fresh one (``seat``), its hash replaces this one
                token_hash, seat_name = hash_token(new_secret()), clean_name(_name(data, account))
                seat = table.seats[position]
                seat.token_hash, seat.name = token_hash, seat_name
                if not await self.store.take_seat(table.id, position, token_hash, seat_name):
                    raise RuntimeError(f"seat {position} of the new table {table.id} was taken by somebody else")
        for position, account in enumerate(accounts):
            if account is not None:
                await asyncio.to_thread(self.accounts.link_seat, table.id, position, account_id=account)
        table.touch()
        await table.after_change()
        for position, account in enumerate(accounts):
            if account is not None:
                table.timer.gone(position)
        return table.id

    async def _advance(self, row: dict[str, Any]) -> None:
        """A running tournament: make a round's missing tables (its maker stopped), keep its tables going, and
        when all are finished hand their results in and seat the next round (or finish the tournament)."""
        data = json.loads(row["data"])
        rnd = data["rounds"][-1]
        now = self.wall()
        if any(not e["table"] for e in rnd["tables"]):
            if now - rnd.get("claimed", 0) >= RESEAT_SECONDS:
                rnd["claimed"] = now
                if await self._write_if(row, data):
                    await self._make_tables(row["id"])
            return
        tables = []
        for entry in rnd["tables"]:
            table = await self._table(entry["table"])
            tables.append(table)
            if table is not None:
                await self._keep_going(table)
        if any(t is not None and t.status != "finished" for t in tables):
            return
        t = Tournament.from_json(data["tournament"])
        number = rnd["number"]
        for i, table in enumerate(tables, 1):
            names = t.series[number - 1].draw[i - 1]
            if table is None:  # gone (archived, broken): it counts nothing
                log.warning("online tournament %s: table %s of round %d is gone; it counts nothing", row["id"],
                            rnd["tables"][i - 1]["table"], number)
                zero = dict.fromkeys(names, 0)
                t.record_result(number, i, TableResult(zero, zero, zero))
            else:
                t.record_result(number, i, table_result(table, names))
        if number < data["settings"]["rounds"]:
            series = t.draw_series(secrets.randbits(63), by_ranking=True)
            data["tournament"] = t.to_json()
            data["rounds"].append(self._round(data, number + 1, series.draw, now))
            if await self._write_if(row, data):
                await self._make_tables(row["id"])
        else:
            data["tournament"] = t.to_json()
            data["finished"] = now
            if await self._write_if(row, data, status="finished"):
                log.info("online tournament %s finished after %d rounds", row["id"], number)

    async def _keep_going(self, table: ServerTable) -> None:
        """A tournament table between deals where nobody got ready for the clock's ``ready`` time (everybody away, or
        nobody pressed on): everybody is counted ready, so that no table of a round waits for ever."""
        if table.status != "between_deals" or not table.owner or table.ready:
            self._waiting.pop(table.id, None)
            return
        seen = self._waiting.get(table.id)
        now = time.monotonic()
        if seen is None or seen[0] != table.deal_no:
            self._waiting[table.id] = (table.deal_no, now)
            return
        if now - seen[1] < table.clock.seconds("ready"):
            return
        async with table.lock:
            if table.status != "between_deals":
                return
            for seat in table.seats:
                if seat.kind == "human" and seat.position not in table.ready:
                    await table.store.add_ready(table.id, table.deal_no, seat.position)
                    table.ready.add(seat.position)
        self._waiting.pop(table.id, None)
        log.info("online tournament table %s: nobody was ready after deal %d; the next deal starts", table.id,
                 table.deal_no)
        await table.after_change()

    # ------------------------------------------------------------------ storage
    async def _row(self, tid: str) -> dict[str, Any]:
        if not isinstance(tid, str) or not _ID.fullmatch(tid):
            raise _no_tournament(str(tid))

        def read() -> dict[str, Any] | None:
            with self.store.engine.connect() as conn:
                r = conn.execute(select(online_tournaments_t).where(online_tournaments_t.c.id == tid)).mappings().first()
                return None if r is None else dict(r)
        row = await self.store.read(read)
        if row is None:
            raise _no_tournament(tid)
        return row

    async def _write_if(self, row: Mapping[str, Any], data: dict[str, Any], **columns: Any) -> bool:
        """Write ``data`` (and ``columns``) over the change ``row`` was read at; False when another change came first
        (another request, another server process): nothing is written then."""
        tid, seq = row["id"], row["seq"]
        values = {**columns, "data": json.dumps(data, ensure_ascii=False), "seq": seq + 1, "updated": self.wall()}

        def op(conn: Connection) -> bool:
            c = online_tournaments_t.c
            done = conn.execute(update(online_tournaments_t).where(c.id == tid, c.seq == seq).values(**values))
            return bool(done.rowcount == 1)
        return bool(await self.store.write(op))

    async def _change(self, tid: str, change: Callable[[Mapping[str, Any], dict[str, Any]], dict[str, Any]]) -> None:
        """Read, change and write in one transaction of the writer thread (on PostgreSQL the row locked ``FOR
        UPDATE``, so that two server processes never change it at once): ``change`` raises a refusal (nothing is
        written) or answers the columns to set besides ``data``."""
        await self._row(tid)  # no_tournament before anything is queued

        def op(conn: Connection) -> None:
            c = online_tournaments_t.c
            query = select(online_tournaments_t).where(c.id == tid)
            row = dict(conn.execute(query.with_for_update() if conn.dialect.name == "postgresql" else query).mappings().one())
            data = json.loads(row["data"])
            columns = change(row, data)
            conn.execute(update(online_tournaments_t).where(c.id == tid).values(
                **columns, data=json.dumps(data, ensure_ascii=False), seq=row["seq"] + 1, updated=self.wall()))
        await self.store.write(op)


def _name(data: dict[str, Any], account: str | None) -> str:
    if account is None:
        return str(data.get("computer") or COMPUTER)
    for p in data["players"]:
        if p["account"] == account:
            return str(p["name"])
    return "?"
