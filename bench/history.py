"""Players' histories with a long history (issue 29, point 7): builds a database of ``--deals`` stored deals (default
100,000) among ``--players`` accounts (default 1,000) and computer players, on SQLite and on PostgreSQL, starts
``skat serve`` on it and measures what a player's pages ask for: a history page (the first, a filtered one, a later
one by its cursor), a replay, a player's statistics, the rating history and the four leaderboards. Goal: each at
most 200 ms p95. Anchor, measured in the same run against the same server: ``GET /api/health`` (HTTP, the
middlewares and the event loop, without the database).

    python bench/history.py                                      # SQLite and PostgreSQL (a throw-away cluster)
    python bench/history.py --db sqlite --deals 2000 --players 50 --repeats 20
    python bench/history.py --db postgresql --pg postgresql://postgres@/postgres?host=/run/postgresql
    python bench/history.py --explain                            # also each query's plan for the busiest player

The database is made as the server makes it: a pool of real deals (``--pool``) is played first by the server's own
computer players at in-process tables of three (lists of 12, 24 and 36 games, ISkO and pub rules: Ramsch, Kontra,
Bock), and the pool's tables are reused as the big database's tables with their cards, every action, result and
sheet row (``skat_tables``, ``skat_seats``, ``skat_deals``, ``skat_actions``), seated by two people and a computer or
one person and two computers (people drawn by a long-tailed activity: a few play thousands of deals, most a few
dozen), spread over ``--days`` days. Then every deal, in the order they ended, goes through
:func:`skat.server.history.record_finished_deal`, as the server's writer runs it when a deal ends (in a savepoint
of a transaction of many deals): the players' history rows, counters, days and ratings; its time per deal is the
write a live server pays. The built database is kept in ``--cache`` under a name made of the parameters and the
schema's revision (``--rebuild`` builds it again: after a change of the history's code, for its write cost): a
SQLite file, and on PostgreSQL a database of a cluster kept in the same folder (or of the server ``--pg`` names).

Every request is one client's, on a kept-alive connection, for a player drawn at random from the accounts (the
history and the replay with that player's session cookie: the browser's own); the endpoints take turns, so that
the machine's drift falls on all alike. Printed per endpoint: median, p95 and max in ms, p95 over the anchor's
median. The answers are checked as they come (a player's statistics count as many games as the history's total,
the replay has a step per action and says where the player sat). ``--explain`` adds every query of the busiest
player's pages in process with its time and plan (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN ANALYZE).
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, event, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine

from skat.server.core import hash_token
from skat.server.database import (
    HEAD_REVISION,
    account_sessions_t,
    accounts_t,
    actions_t,
    deals_t,
    migrate,
    normalize_db_url,
    player_deals_t,
    seats_t,
    tables_t,
)
from skat.server.history import record_finished_deal
from skat.server.security import SESSION_COOKIE

ROOT = Path(__file__).resolve().parent.parent
BUILD_VERSION = 2
"""Bumped when the database this script builds changes (a cached one of another version is built again)."""
GOAL_MS = 200.0
LEVELS = (("heuristic", 4), ("easy", 3), ("medium", 3), ("strong", 2), ("random", 1))
"""The computer levels seated at the big database's tables, with their weights (the pool's cards are played by the
fast levels: the speed of the history does not depend on who chose the cards)."""
FIRST = ("Anna", "Bernd", "Clara", "Dieter", "Elke", "Frank", "Gisela", "Heinz", "Ilse", "Jürgen", "Karin", "Lothar",
         "Monika", "Norbert", "Ömer", "Petra", "Rainer", "Sabine", "Thomas", "Ute", "Volker", "Waltraud", "Xaver",
         "Yvonne", "Zoë", "Günter", "Bärbel", "Klaus", "Renate", "Uwe", "Hannelore", "Wolfgang")
LAST = ("Becker", "Schmidt", "Müller", "Weber", "Wagner", "Hoffmann", "Koch", "Richter", "Klein", "Wolf", "Schröder",
        "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann", "Hartmann", "Lange", "Schmitt", "Werner",
        "Krause", "Meier", "Lehmann", "Schulz", "Köhler", "Maier", "Fuchs", "Scholz", "Vogel", "Jäger", "Roth")
FILTERS = ({"role": "declarer"}, {"game": "grand"}, {"result": "won"}, {"role": "defender", "result": "lost"},
           {"game": "null", "role": "declarer"}, {"game": "ramsch"}, {"since": -30 * 86400.0})
"""The filters a filtered history page is asked with (``since``: relative to now)."""


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


# ------------------------------------------------------------------ the pool of real deals
def play_pool(deals: int, seed: int) -> list[dict[str, Any]]:
    """Play at least ``deals`` deals at in-process server tables of three computer players (SQLite in a temporary
    folder) and return the tables as stored: settings and, per deal, its row and actions (the strings as stored)."""
    import logging
    import warnings

    with warnings.catch_warnings():  # starlette's TestClient would rather have httpx2
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from skat.server.app import create_app
    from skat.server.limits import Limits, Rate

    logging.getLogger("skat").setLevel(logging.WARNING)
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="skat-bench-pool-")
    url = f"sqlite:///{folder}/pool.sqlite"
    plan: list[dict[str, Any]] = []
    total = 0
    while total < deals:
        i = len(plan)
        length = (12, 24, 36)[i % 3]
        seats = ["heuristic", "heuristic", "random" if rng.random() < 0.3 else "heuristic"]
        rng.shuffle(seats)
        plan.append({"seats": seats, "ruleset": "pub" if i % 4 == 3 else "isko2018", "deals": length, "claim": None,
                     "public": True, "seed": rng.getrandbits(62)})
        total += length
    app = create_app(url, bot_delay=0.0, limits=Limits(robot_deals=1_000_000, create=Rate(1_000_000, 1)))
    with TestClient(app) as client:
        ids = []
        for body in plan:
            answer = client.post("/api/tables", json=body)
            answer.raise_for_status()
            ids.append(answer.json()["table_id"])
        manager = app.state.manager
        deadline = time.monotonic() + 60 + deals
        while time.monotonic() < deadline:
            tables = [manager.tables.get(i) for i in ids]
            if any(t is not None and t.stopped for t in tables):
                raise SystemExit(f"a pool table stopped: {[t.stopped for t in tables if t is not None]}")
            if all(t is None or (t.series.is_over and t.game is not None and t.game.is_over) for t in tables):
                break
            time.sleep(0.1)
        else:
            raise SystemExit("the pool's tables did not finish in time")
    engine = create_engine(url)
    out = []
    with engine.connect() as conn:
        for table_id in ids:
            settings = conn.execute(select(tables_t.c.settings).where(tables_t.c.id == table_id)).scalar_one()
            game_nos = dict(conn.execute(select(player_deals_t.c.deal_no, player_deals_t.c.game_no).where(
                player_deals_t.c.table_id == table_id, player_deals_t.c.position == 0)).all())
            actions: dict[int, list[list[Any]]] = {}
            for a in conn.execute(select(actions_t).where(actions_t.c.table_id == table_id)
                                  .order_by(actions_t.c.deal_no, actions_t.c.seq)):
                actions.setdefault(a.deal_no, []).append([a.seq, a.seat, a.token])
            rows = []
            for d in conn.execute(select(deals_t).where(deals_t.c.table_id == table_id, deals_t.c.finished.is_(True))
                                  .order_by(deals_t.c.deal_no)):
                rows.append({"deal_no": d.deal_no, "dealer": d.dealer, "positions": d.positions, "start": d.start,
                             "result": d.result, "sheet_row": d.sheet_row, "game_no": game_nos[d.deal_no],
                             "actions": actions.get(d.deal_no, [])})
            out.append({"settings": settings, "deals": rows})
    engine.dispose()
    shutil.rmtree(folder, ignore_errors=True)
    return out


def pool_of(cache: Path, deals: int, seed: int, rebuild: bool) -> list[dict[str, Any]]:
    """The pool, played now or read from the cache."""
    path = cache / f"pool-{deals}-{seed}-b{BUILD_VERSION}.json"
    if path.exists() and not rebuild:
        return json.loads(path.read_text())
    t0 = time.perf_counter()
    pool = play_pool(deals, seed)
    n = sum(len(t["deals"]) for t in pool)
    print(f"pool: {n} real deals at {len(pool)} tables played by the server's computer players in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)
    path.write_text(json.dumps(pool))
    return pool


# ------------------------------------------------------------------ building the big database
@dataclass
class Built:
    """What a build made and how long it took (kept beside the cached database)."""

    deals: int = 0
    tables: int = 0
    actions: int = 0
    accounts: list[str] = field(default_factory=list)
    built_at: float = 0.0
    rows_seconds: float = 0.0
    """Inserting the accounts, tables, seats, deals and actions."""
    record_seconds: float = 0.0
    """record_finished_deal of every deal, the commits included."""
    per_deal_ms: list[float] = field(default_factory=list)
    """[median, p95, mean of the first tenth, mean of the last tenth] of one record_finished_deal (ms)."""
    history_rows: int = 0
    statements: float = 0.0
    """SQL statements per deal in record_finished_deal (its savepoint's included)."""
    size_mb: float = 0.0


def session_token(account_id: str) -> str:
    """The session token of an account in the bench's database (its sha256 is stored, as create_session does)."""
    return hashlib.sha256(f"skat-bench-history:{account_id}".encode()).hexdigest()


def sqlite_engine(url: str) -> Engine:
    engine = create_engine(url)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # as the server's store sets them
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()
    return engine


def build(url: str, pool: list[dict[str, Any]], deals: int, players: int, days: float, seed: int,
          log: Callable[[str], None]) -> Built:
    """Fill the empty database at ``url``: accounts with a session each, tables seated by them and by computer
    players with the pool's deals, then every deal's history through record_finished_deal."""
    rng = random.Random(seed)
    engine = sqlite_engine(url) if url.startswith("sqlite") else create_engine(url)
    migrate(engine)
    built = Built(built_at=time.time())
    now = built.built_at
    t0 = time.perf_counter()

    from argon2 import PasswordHasher
    password_hash = PasswordHasher().hash("bench-password")
    names = [f"{a} {b}" for a in FIRST for b in LAST]
    rng.shuffle(names)
    account_rows, session_rows = [], []
    for i in range(players):
        account_id = f"{rng.getrandbits(64):016x}"
        name = names[i] if i < len(names) else f"{names[i % len(names)]} {i // len(names) + 1}"
        account_rows.append({"id": account_id, "name": name, "name_key": name.casefold(),
                             "password_hash": password_hash, "created": now - days * 86400.0 - 3600.0,
                             "disabled": False})
        session_rows.append({"token_hash": hash_token(session_token(account_id)), "account_id": account_id,
                             "created": now, "last_seen": now, "expires": now + 3650 * 86400.0})
    built.accounts = [a["id"] for a in account_rows]
    weights = [1.0 / (r + 1) ** 0.7 for r in range(players)]  # a long tail: a few play much, most a little
    with engine.begin() as conn:
        conn.execute(insert(accounts_t), account_rows)
        conn.execute(insert(account_sessions_t), session_rows)

    plan: list[tuple[float, str, int, dict[str, Any], int, bool]] = []
    batch: dict[str, list[dict[str, Any]]] = {"tables": [], "seats": [], "deals": [], "actions": []}

    def flush(conn: Connection) -> None:
        for key, table in (("tables", tables_t), ("seats", seats_t), ("deals", deals_t), ("actions", actions_t)):
            if batch[key]:
                conn.execute(insert(table), batch[key])
                batch[key] = []

    with engine.begin() as conn:
        while built.deals < deals:
            source = pool[rng.randrange(len(pool))]
            rows = source["deals"][:deals - built.deals]
            table_id = f"{rng.getrandbits(48):012x}"
            settings = json.loads(source["settings"])
            settings.update(deals=len(rows) if len(rows) < len(source["deals"]) else settings.get("deals"),
                            public=rng.random() < 0.7, seed=rng.getrandbits(62))
            gaps = [80.0 + 40.0 * rng.random() for _ in rows]  # a deal takes a minute and a half or two
            span = sum(gaps)
            start = now - 600.0 - span - rng.random() * max(0.0, days * 86400.0 - span - 600.0)
            batch["tables"].append({"id": table_id, "name": f"Table {table_id[:4]}", "created": start - 30.0,
                                    "settings": json.dumps(settings), "closed": True})
            n_people = 2 if rng.random() < 0.5 else 1
            people = set()
            while len(people) < n_people:
                people.add(rng.choices(range(players), weights)[0])
            kinds = ["person"] * n_people + ["computer"] * (3 - n_people)
            rng.shuffle(kinds)
            people_left = sorted(people)
            rng.shuffle(people_left)
            for position, kind in enumerate(kinds):
                if kind == "person":
                    account = account_rows[people_left.pop()]
                    batch["seats"].append({"table_id": table_id, "position": position, "kind": "human",
                                           "name": account["name"], "bot": None,
                                           "token_hash": f"{rng.getrandbits(256):064x}",
                                           "account_id": account["id"], "guest_hash": None})
                else:
                    level = rng.choices([lv for lv, _ in LEVELS], [w for _, w in LEVELS])[0]
                    batch["seats"].append({"table_id": table_id, "position": position, "kind": "bot",
                                           "name": f"{FIRST[rng.randrange(len(FIRST))]} ({level})", "bot": level,
                                           "token_hash": None, "account_id": None, "guest_hash": None})
            at = start
            limit = settings.get("deals")
            for d, gap in zip(rows, gaps):
                at += gap
                batch["deals"].append({"table_id": table_id, "deal_no": d["deal_no"], "dealer": d["dealer"],
                                       "positions": d["positions"], "start": d["start"], "finished": True,
                                       "result": d["result"], "sheet_row": d["sheet_row"]})
                n = len(d["actions"])
                for k, (seq, seat, token) in enumerate(d["actions"]):
                    batch["actions"].append({"table_id": table_id, "deal_no": d["deal_no"], "seq": seq,
                                             "seat": seat, "token": token, "at": at - 2.0 * (n - 1 - k)})
                sheet_row = json.loads(d["sheet_row"])
                over = bool(limit) and d["game_no"] >= int(limit) and not sheet_row.get("redeal")
                plan.append((at, table_id, d["deal_no"], sheet_row, d["game_no"], over))
                built.actions += n
            built.deals += len(rows)
            built.tables += 1
            if len(batch["actions"]) >= 20_000:
                flush(conn)
        flush(conn)
    built.rows_seconds = time.perf_counter() - t0
    log(f"{built.tables:,} tables, {built.deals:,} deals, {built.actions:,} actions stored in "
        f"{built.rows_seconds:.1f} s; now each deal's history, in the order the deals ended")

    plan.sort(key=lambda p: (p[0], p[1], p[2]))
    times: list[float] = []
    statements = [0]

    @event.listens_for(engine, "before_cursor_execute")
    def _count(*_args: Any) -> None:
        statements[0] += 1
    t0 = time.perf_counter()
    chunk = 500  # deals per transaction (the server's writer commits up to 256 writes together)
    for i in range(0, len(plan), chunk):
        with engine.begin() as conn:
            for at, table_id, deal_no, sheet_row, game_no, over in plan[i:i + chunk]:
                t = time.perf_counter()
                with conn.begin_nested():  # as Store.finish_deal runs it
                    built.history_rows += record_finished_deal(conn, table_id, deal_no, sheet_row, game_no, over, at)
                times.append(time.perf_counter() - t)
        if (i // chunk) % 40 == 39:
            done = i + chunk
            log(f"  {done:,} of {len(plan):,} deals recorded, {done / (time.perf_counter() - t0):.0f} deals/s")
    built.record_seconds = time.perf_counter() - t0
    event.remove(engine, "before_cursor_execute", _count)
    built.statements = statements[0] / max(1, len(plan))
    tenth = max(1, len(times) // 10)
    built.per_deal_ms = [1000 * statistics.median(times), 1000 * percentile(times, 0.95),
                         1000 * statistics.fmean(times[:tenth]), 1000 * statistics.fmean(times[-tenth:])]
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))  # what autovacuum does after a bulk load, at once
    engine.dispose()
    return built


def built_line(label: str, b: Built, cached: bool) -> str:
    med, p95, first, last = b.per_deal_ms
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(b.built_at))
    return (f"{label}: {b.deals:,} deals at {b.tables:,} tables ({b.actions:,} actions, {b.history_rows:,} history "
            f"rows{f', {b.size_mb:,.0f} MB' if b.size_mb else ''}) {'built earlier, ' + when if cached else 'built'}: "
            f"{b.rows_seconds + b.record_seconds:.0f} s in all, the deals' rows {b.rows_seconds:.0f} s, "
            f"record_finished_deal {b.record_seconds:.0f} s = {b.deals / b.record_seconds:.0f} deals/s; one deal's "
            f"history write median {med:.2f} ms, p95 {p95:.2f} ms (first tenth of the deals {first:.2f} ms, "
            f"last tenth {last:.2f} ms on average), {b.statements:.1f} SQL statements per deal")


# ------------------------------------------------------------------ the databases (cached)
def db_key(args: argparse.Namespace) -> str:
    return f"d{args.deals}-p{args.players}-pool{args.pool}-days{args.days:g}-s{args.seed}-r{HEAD_REVISION}-b{BUILD_VERSION}"


def sqlite_db(args: argparse.Namespace, pool: Callable[[], list[dict[str, Any]]],
              log: Callable[[str], None]) -> tuple[str, Built, bool]:
    """The cached SQLite database of these parameters (built now when there is none): its URL, the build's
    figures and whether it was cached."""
    path = args.cache / f"history-{db_key(args)}.sqlite"
    meta = path.with_suffix(".json")
    if path.exists() and meta.exists() and not args.rebuild:
        return f"sqlite:///{path}", Built(**json.loads(meta.read_text())), True
    partial = path.with_suffix(".partial")
    for p in glob.glob(f"{partial}*"):
        os.remove(p)
    built = build(f"sqlite:///{partial}", pool(), args.deals, args.players, args.days, args.seed, log)
    built.size_mb = partial.stat().st_size / 1e6
    os.replace(partial, path)
    meta.write_text(json.dumps(built.__dict__))
    return f"sqlite:///{path}", built, False


class Cluster:
    """A PostgreSQL server: the one ``--pg`` names (an admin URL: the bench makes its databases there), or a
    cluster of Debian's PostgreSQL kept in the cache folder (started now, stopped at the end), so that a database
    built once is there the next run."""

    def __init__(self, admin_url: str | None, cache: Path) -> None:
        self.admin_url = admin_url
        self.started: list[str] | None = None
        if admin_url:
            return
        bindirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not bindirs:
            raise RuntimeError("no PostgreSQL here (Debian package postgresql, or --pg URL)")
        bindir = bindirs[-1]
        folder = cache / "pg"
        data, sock = folder / "data", folder
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if not (data / "PG_VERSION").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            if as_postgres:
                shutil.chown(folder, "postgres")
            subprocess.run([*as_postgres, f"{bindir}/initdb", "-D", str(data), "-A", "trust", "-U", "postgres"],
                           check=True, capture_output=True)
        subprocess.run([*as_postgres, f"{bindir}/pg_ctl", "-D", str(data), "-m", "fast", "stop"], capture_output=True)
        subprocess.run([*as_postgres, f"{bindir}/pg_ctl", "-D", str(data), "-w", "-l", str(folder / "log"), "-o",
                        f"-p 5432 -k {sock} -c listen_addresses=''", "start"], check=True, capture_output=True)
        self.started = [*as_postgres, f"{bindir}/pg_ctl", "-D", str(data), "-m", "fast", "stop"]
        self.admin_url = f"postgresql://postgres@/postgres?host={sock}&port=5432"

    def database(self, name: str) -> tuple[str, str | None]:
        """The URL of database ``name`` and its comment (the build's figures, set when it was complete)."""
        import psycopg

        assert self.admin_url is not None
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            row = conn.execute("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
                               (name,)).fetchone()
        base, _, query = self.admin_url.partition("?")
        url = base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")
        return url, None if row is None else (row[0] or "")

    def fresh(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.database(name)[0]

    def mark(self, name: str, built: Built) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            size = conn.execute("SELECT pg_database_size(%s)", (name,)).fetchone()[0]
            built.size_mb = size / 1e6
            comment = json.dumps(built.__dict__).replace("'", "''")
            conn.execute(f"COMMENT ON DATABASE \"{name}\" IS '{comment}'")

    def stop(self) -> None:
        if self.started:
            subprocess.run(self.started, capture_output=True)


def postgres_db(args: argparse.Namespace, cluster: Cluster, pool: Callable[[], list[dict[str, Any]]],
                log: Callable[[str], None]) -> tuple[str, Built, bool]:
    name = "skat_history_" + hashlib.sha256(db_key(args).encode()).hexdigest()[:12]
    url, comment = cluster.database(name)
    if comment and not args.rebuild:
        return url, Built(**json.loads(comment)), True
    url = cluster.fresh(name)
    built = build(normalize_db_url(url), pool(), args.deals, args.players, args.days, args.seed, log)
    cluster.mark(name, built)
    return url, built, False


# ------------------------------------------------------------------ the server and the requests
@contextmanager
def server(url: str) -> Iterator[str]:
    """``skat serve`` on the database at a free port, once it answers: its address."""
    log_file = tempfile.NamedTemporaryFile("w", prefix="skat-bench-history-", suffix=".log", delete=False)
    proc = subprocess.Popen([sys.executable, "-m", "skat", "serve", "--port", "0", "--db", url, "--log-level",
                             "warning", "--bot-delay", "0"], stdout=subprocess.PIPE, stderr=log_file, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        if "http://" not in line:
            proc.wait(30)
            raise SystemExit(f"the server did not start: {Path(log_file.name).read_text()[-3000:]}")
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # type: ignore[union-attr]
        base = "http://127.0.0.1:" + line[line.index("http://"):].split()[0].rstrip("/").rsplit(":", 1)[1]
        deadline = time.time() + 120
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.time() > deadline or proc.poll() is not None:
                raise SystemExit(f"the server did not answer: {Path(log_file.name).read_text()[-3000:]}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log_file.close()
        os.remove(log_file.name)


ENDPOINTS = ("anchor: GET /api/health", "history: first page", "history: filtered page",
             "history: later page (cursor)", "replay of a deal", "statistics", "statistics of a computer",
             "rating history", "leaderboard person all", "leaderboard person 30d", "leaderboard computer all",
             "leaderboard computer 30d")


@dataclass
class Player:
    account_id: str
    rows: list[tuple[float, int, str, int, int]]
    """The player's history rows: (at, id, table_id, deal_no, position)."""


def players_of(url: str, accounts: list[str]) -> list[Player]:
    """Every account with its history rows (read before the server runs: the cursors and the replays asked for)."""
    engine = create_engine(normalize_db_url(url))
    c = player_deals_t.c
    rows: dict[str, list[tuple[float, int, str, int, int]]] = {}
    with engine.begin() as conn:
        for r in conn.execute(select(c.player, c.at, c.id, c.table_id, c.deal_no, c.position)
                              .where(c.player.like("a:%"))):
            rows.setdefault(r.player[2:], []).append((r.at, r.id, r.table_id, r.deal_no, r.position))
        # the sessions were last seen now: a request is not the one that writes last_seen (every 5 minutes)
        conn.execute(update(account_sessions_t).values(last_seen=time.time() + 3600.0))
    engine.dispose()
    return [Player(a, sorted(rows[a])) for a in accounts if a in rows]


def computers_of(url: str) -> dict[str, int]:
    """The computer levels with their numbers of history rows."""
    engine = create_engine(normalize_db_url(url))
    c = player_deals_t.c
    with engine.connect() as conn:
        counts = {r.player[2:]: r.n for r in conn.execute(select(c.player, func.count().label("n"))
                                                          .where(c.player.like("b:%")).group_by(c.player))}
    engine.dispose()
    return counts


class Failures(list):
    def check(self, ok: bool, what: str) -> None:
        if not ok and len(self) < 20:
            self.append(what)


def measure(base: str, players: list[Player], computers: dict[str, int], repeats: int, seed: int, warmup: int = 10
            ) -> tuple[dict[str, list[float]], Failures]:
    """``repeats`` requests of each endpoint, taking turns, each for a player drawn at random: the times (ms) by
    endpoint, and what was wrong in the answers."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {name: [] for name in ENDPOINTS}
    failures = Failures()
    now = time.time()
    with httpx.Client(base_url=base, timeout=60) as client:
        def get(name: str, path: str, params: dict[str, Any] | None = None, token: str | None = None,
                count: bool = True) -> Any:
            client.cookies.clear()
            if token:
                client.cookies.set(SESSION_COOKIE, token)
            t = time.perf_counter()
            answer = client.get(path, params=params)
            elapsed = 1000 * (time.perf_counter() - t)
            if answer.status_code != 200:
                failures.check(False, f"{name}: {path} {params} answered {answer.status_code} {answer.text[:300]}")
                return None
            if count:
                times[name].append(elapsed)
            return answer.json()

        def one(name: str, count: bool = True) -> None:
            p = players[rng.randrange(len(players))]
            token = session_token(p.account_id)
            if name == ENDPOINTS[0]:
                get(name, "/api/health", count=count)
            elif name == "history: first page":
                page = get(name, "/api/me/history", token=token, count=count)
                if page is not None:
                    failures.check(page["total"] == len(p.rows), f"{name}: total {page['total']}, the player has "
                                   f"{len(p.rows)} rows")
                    failures.check(len(page["deals"]) == min(50, len(p.rows)), f"{name}: {len(page['deals'])} deals")
                    failures.check([d["at"] for d in page["deals"]] == [r[0] for r in p.rows[::-1][:50]],
                                   f"{name}: not the newest deals first")
            elif name == "history: filtered page":
                params = dict(FILTERS[rng.randrange(len(FILTERS))])
                if "since" in params:
                    params["since"] = now + params["since"]
                page = get(name, "/api/me/history", params, token, count)
                if page is not None:
                    for d in page["deals"]:
                        failures.check(all(d[k] == v for k, v in params.items() if k in ("game", "role"))
                                       and d["won"] is {"won": True, "lost": False}.get(params.get("result"), d["won"])
                                       and d["at"] >= params.get("since", 0), f"{name}: {params} gave {d}")
            elif name == "history: later page (cursor)":
                at, row_id = p.rows[rng.randrange(len(p.rows))][:2]
                page = get(name, "/api/me/history", {"cursor": f"{at!r}:{row_id}"}, token, count)
                if page is not None:
                    older = [r for r in p.rows if (r[0], r[1]) < (at, row_id)]
                    failures.check([d["at"] for d in page["deals"]] == [r[0] for r in older[::-1][:50]],
                                   f"{name}: not the 50 deals before the cursor")
            elif name == "replay of a deal":
                _, _, table_id, deal_no, position = p.rows[rng.randrange(len(p.rows))]
                replay = get(name, f"/api/replays/{table_id}/{deal_no}", token=token, count=count)
                if replay is not None:
                    failures.check(replay["you"] == position, f"{name}: you {replay['you']}, sat at {position}")
                    failures.check(len(replay["steps"]) == len(replay["record"]["actions"]) + 1,
                                   f"{name}: {len(replay['steps'])} steps for {len(replay['record']['actions'])}")
            elif name == "statistics":
                stats = get(name, f"/api/players/a-{p.account_id}", count=count)
                if stats is not None:
                    failures.check(stats["stats"]["games"] == len(p.rows), f"{name}: {stats['stats']['games']} "
                                   f"games, the history has {len(p.rows)}")
                    failures.check(len(stats["form"]) == min(100, len(p.rows)), f"{name}: form of "
                                   f"{len(stats['form'])}")
            elif name == "statistics of a computer":
                level = sorted(computers)[rng.randrange(len(computers))]
                stats = get(name, f"/api/players/b-{level}", count=count)
                if stats is not None:
                    failures.check(stats["stats"]["games"] == computers[level], f"{name}: {level} "
                                   f"{stats['stats']['games']} games, {computers[level]} history rows")
            elif name == "rating history":
                get(name, f"/api/players/a-{p.account_id}/ratings", count=count)
            else:
                _, kind, period = name.split()
                board = get(name, "/api/leaderboard", {"kind": kind, "period": period}, count=count)
                if board is not None:
                    failures.check(0 < len(board["rows"]) <= 100, f"{name}: {len(board['rows'])} rows")
                    key = (lambda r: r["rating"]["conservative"]) if period == "all" else (lambda r: r["sf_per_game"])
                    values = [key(r) for r in board["rows"]]
                    failures.check(values == sorted(values, reverse=True), f"{name}: not in order")

        for name in ENDPOINTS:
            for _ in range(warmup):
                one(name, count=False)
        for _ in range(repeats):
            order = list(ENDPOINTS)
            rng.shuffle(order)
            for name in order:
                one(name)
    return times, failures


def report(label: str, times: dict[str, list[float]]) -> tuple[list[str], list[str]]:
    """The table of figures, and the endpoints over the goal."""
    anchor = statistics.median(times[ENDPOINTS[0]])
    lines = [f"{label}: {'endpoint':30} {'n':>5} {'median':>8} {'p95':>8} {'max':>8}  p95/anchor   (ms)"]
    missed = []
    for name in ENDPOINTS:
        ts = times[name]
        if not ts:
            lines.append(f"{label}: {name:30} no answer")
            missed.append(name)
            continue
        p95 = percentile(ts, 0.95)
        lines.append(f"{label}: {name:30} {len(ts):5d} {statistics.median(ts):8.1f} {p95:8.1f} {max(ts):8.1f}  "
                     f"{p95 / anchor:8.1f}x")
        if p95 > GOAL_MS:
            missed.append(name)
    lines.append(f"{label}: anchor (median of GET /api/health) {anchor:.2f} ms; goal p95 <= {GOAL_MS:.0f} ms: "
                 + ("met by every endpoint" if not missed else "MISSED by " + ", ".join(missed)))
    return lines, missed


# ------------------------------------------------------------------ the queries, in process
def explain(url: str, player: Player, out: Callable[[str], None]) -> None:
    """Every statement of the busiest player's pages, run in process: its time and its plan."""
    from skat.server.history import HistoryFilter, history_page, leaderboard, player_stats, stored_record

    engine = create_engine(normalize_db_url(url))
    captured: list[tuple[str, Any]] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, many: bool) -> None:
        if not many:
            captured.append((statement, parameters))

    key = f"a:{player.account_id}"
    at, row_id, table_id, deal_no, _ = player.rows[len(player.rows) // 2]
    calls: list[tuple[str, Callable[[Connection], Any]]] = [
        ("history: first page", lambda c: history_page(c, key, HistoryFilter())),
        ("history: filtered (role=declarer)", lambda c: history_page(c, key, HistoryFilter(role="declarer"))),
        ("history: filtered (game=grand)", lambda c: history_page(c, key, HistoryFilter(game="grand"))),
        ("history: later page (cursor)", lambda c: history_page(c, key, HistoryFilter(), (at, row_id))),
        ("statistics", lambda c: player_stats(c, key)),
        ("statistics of a computer (heuristic)", lambda c: player_stats(c, "b:heuristic")),
        ("replay (stored record)", lambda c: stored_record(c, table_id, deal_no)),
        ("leaderboard person all", lambda c: leaderboard(c, "person", "all", time.time())),
        ("leaderboard person 30d", lambda c: leaderboard(c, "person", "30d", time.time())),
    ]
    pg = engine.dialect.name == "postgresql"
    out(f"explain: the busiest player, {len(player.rows):,} history rows; each statement's time in process "
        f"(median of 5) and plan")
    with engine.connect() as conn:
        for title, call in calls:
            captured.clear()
            call(conn)
            statements = list(captured)
            for statement, params in statements:
                runs = []
                for _ in range(5):
                    t = time.perf_counter()
                    conn.exec_driver_sql(statement, params).fetchall()
                    runs.append(1000 * (time.perf_counter() - t))
                out(f"  {title}: {statistics.median(runs):.2f} ms: {' '.join(statement.split())[:300]}")
                if pg:
                    plan = conn.exec_driver_sql("EXPLAIN ANALYZE " + statement, params).fetchall()
                    lines = [r[0] for r in plan]
                else:
                    plan = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params).fetchall()
                    lines = [r[-1] for r in plan]
                for line in lines:
                    out(f"      {line}")
    engine.dispose()


# ------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1000, help="accounts (people); computer players come too")
    parser.add_argument("--pool", type=int, default=600, help="real deals played first, their records reused")
    parser.add_argument("--days", type=float, default=180.0, help="the deals are spread over this many days")
    parser.add_argument("--repeats", type=int, default=200, help="requests per endpoint (after --warmup)")
    parser.add_argument("--warmup", type=int, default=10, help="requests per endpoint first, not counted")
    parser.add_argument("--db", choices=("both", "sqlite", "postgresql"), default="both")
    parser.add_argument("--pg", metavar="URL", help="a PostgreSQL server's admin URL (default: a cluster of "
                        "Debian's PostgreSQL kept in --cache)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "skat-bench-history",
                        help="where the built databases are kept (default: %(default)s)")
    parser.add_argument("--rebuild", action="store_true", help="build the databases again")
    parser.add_argument("--explain", action="store_true", help="print every query's time and plan")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)

    def log(line: str) -> None:
        print(line, flush=True)

    pool_cache: list[list[dict[str, Any]]] = []

    def pool() -> list[dict[str, Any]]:
        if not pool_cache:
            pool_cache.append(pool_of(args.cache, args.pool, args.seed, args.rebuild))
        return pool_cache[0]

    log(f"history bench: {args.deals:,} deals among {args.players:,} accounts and computer players "
        f"({', '.join(lv for lv, _ in LEVELS)}), tables of three over {args.days:g} days, {args.repeats} requests "
        f"per endpoint; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    wanted = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    missed_any = False
    cluster: Cluster | None = None
    try:
        for label in wanted:
            t0 = time.perf_counter()
            if label == "sqlite":
                url, built, cached = sqlite_db(args, pool, lambda line: log("sqlite: " + line))
            else:
                try:
                    cluster = cluster or Cluster(args.pg, args.cache)
                except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
                    log(f"postgresql: not measured: {exc}")
                    continue
                url, built, cached = postgres_db(args, cluster, pool, lambda line: log("postgresql: " + line))
            log(built_line(label, built, cached) + ("" if cached else f" (with the pool: "
                                                                       f"{time.perf_counter() - t0:.0f} s)"))
            players = players_of(url, built.accounts)
            with server(url) as base:
                times, failures = measure(base, players, computers_of(url), args.repeats, args.seed, args.warmup)
            lines, missed = report(label, times)
            for line in lines:
                log(line)
            if failures:
                log(f"{label}: WRONG ANSWERS: " + "; ".join(failures))
            else:
                log(f"{label}: checks: every answer was right (totals, filters, cursors, replays, statistics, order)")
            missed_any = missed_any or bool(missed) or bool(failures)
            if args.explain:
                explain(url, max(players, key=lambda p: len(p.rows)), lambda line, label=label: log(f"{label}: {line}"))
    finally:
        if cluster is not None:
            cluster.stop()
    return 1 if missed_any else 0


if __name__ == "__main__":
    sys.exit(main())
