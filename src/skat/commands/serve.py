"""Run a Skat server for a club or a group of friends: a lobby of tables in the browser,
seats for people and computer players, every action stored (SQLite or PostgreSQL), and
open tables resumed after a restart. Clients speak the protocol of docs/protocol.md."""

from __future__ import annotations

import argparse
import logging
import socket
import sys


def trick_pause(bot_delay: float) -> float:
    """The extra pause before a computer leads to a new trick, so that people see the trick taken."""
    return min(1.0, bot_delay * 1.5)


def listen_socket(host: str, port: int, command: str) -> socket.socket | None:
    """A TCP socket bound to ``host``:``port`` (port 0: a free one the system picks), or None after a message
    on stderr naming ``command``. Binding before the server starts lets the command print the real port."""
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        print(f"skat {command}: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return None
    return sock


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for every interface)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0: a free one, printed at start)")
    parser.add_argument("--db", default=None,
                        help="database URL: sqlite:///path/skat.sqlite or postgresql://user:pw@host/db "
                             "(default: a SQLite file in your data directory)")
    parser.add_argument("--bot-delay", type=float, default=0.7,
                        help="the least seconds a computer player takes to act, its thinking included, so people can follow (default 0.7)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="an origin (https://host[:port]) besides this server's own whose pages may open its "
                             "WebSockets; repeat it for several (default: none)")
    parser.add_argument("--max-body", type=int, default=None, metavar="BYTES",
                        help="the largest request body in bytes (default 65536)")
    limits = parser.add_argument_group(
        "limits against abuse", "per client address (behind a proxy: the address uvicorn takes from its trusted "
        "forwarding headers); a refused request is answered 429 rate_limited with Retry-After (docs/protocol.md)")
    limits.add_argument("--rate-create", default=None, metavar="N/SECONDS",
                        help="new tables (REST and Officers' Skat together) per address (default 30/60)")
    limits.add_argument("--rate-join", default=None, metavar="N/SECONDS",
                        help="seat joins per address (default 60/60)")
    limits.add_argument("--rate-action", default=None, metavar="N/SECONDS",
                        help="WebSocket actions per address, all its connections together (default 300/10)")
    limits.add_argument("--rate-analysis", default=None, metavar="N/SECONDS",
                        help="analysis requests per address (default 30/60)")
    limits.add_argument("--rate-hint", default=None, metavar="N/SECONDS",
                        help="card hints asked for per address, all its connections together (default 30/60)")
    limits.add_argument("--rate-print", default=None, metavar="N/SECONDS",
                        help="printed lists and rankings (PDF) per address (default 20/60)")
    limits.add_argument("--analysis-queue", type=int, default=None, metavar="N",
                        help="distinct analyses running or waiting; more are answered 503 busy (default 8)")
    limits.add_argument("--max-tables", type=int, default=None, metavar="N",
                        help="open tables at most; at the cap the longest-idle table nobody is connected to is "
                             "archived for a new one (default 2000)")
    limits.add_argument("--idle-hours", type=float, default=None, metavar="HOURS",
                        help="archive a table nobody acted at, joined or connected to for this long, once nobody "
                             "is connected (its records stay in the database; default 6)")
    limits.add_argument("--finished-minutes", type=float, default=None, metavar="MINUTES",
                        help="archive a table whose series is over this long after its last activity, once nobody "
                             "is connected (default 30)")
    limits.add_argument("--robot-deals", type=int, default=None, metavar="N",
                        help="deals a table of computer players only deals while nobody watches; then it pauses "
                             "until somebody connects (default 20)")
    limits.add_argument("--sockets-per-address", type=int, default=None, metavar="N",
                        help="WebSockets open at once from one address (tables, lists and tournaments together); "
                             "one more is closed with code 1013 (default 64: a club behind one router)")
    limits.add_argument("--hello-seconds", type=float, default=None, metavar="SECONDS",
                        help="a table's WebSocket that sends no hello for this long is closed with code 4408 "
                             "(default 10)")
    limits.add_argument("--login-account", default=None, metavar="N/SECONDS",
                        help="wrong passwords for one account before sign-ins to it wait (default 5/300; "
                             "docs/accounts.md)")
    limits.add_argument("--login-address", default=None, metavar="N/SECONDS",
                        help="wrong passwords from one address before its sign-ins wait (default 20/300)")
    limits.add_argument("--rate-chat", default=None, metavar="N/SECONDS",
                        help="chat messages of one person, at tables and in the lobby (default 5/10; docs/chat.md)")
    limits.add_argument("--chat-days", type=float, default=None, metavar="DAYS",
                        help="chat messages are deleted this many days after they were written (default 30)")
    parser.add_argument("--private-replays", action="store_true",
                        help="a finished deal's replay only for those who played it (default: for everybody once "
                             "its table is closed, as at ISS; docs/history.md)")
    parser.add_argument("--gc-thaw", type=float, default=None, metavar="SECONDS",
                        help="the garbage collector freezes what survives a full collection, so that the next ones "
                             "are short, and gives it back every SECONDS (default 600; 0: Python's own policy); "
                             "see skat.server.collector")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                        help="what the server logs (default info: the server's own events, warnings and errors; "
                             "debug adds every request and the database migrations' steps)")


def configure_logging(level: str) -> None:
    """Log at ``level`` with the time and the logger's name; Alembic's steps (a line per plug-in and migration)
    only at ``debug``: :func:`skat.server.database.migrate` says in one line what it changed."""
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if level != "debug":
        logging.getLogger("alembic").setLevel(logging.WARNING)


def limits_from_args(args: argparse.Namespace):
    """The :class:`skat.server.limits.Limits` of the command line; a ValueError names the flag and says why."""
    from skat.server.limits import Limits, Rate

    values: dict = {}
    for flag, field in (("rate_create", "create"), ("rate_join", "join"), ("rate_action", "action"),
                        ("rate_analysis", "analysis"), ("rate_hint", "hint"), ("rate_print", "print"),
                        ("login_account", "login_account"), ("login_address", "login_address"),
                        ("rate_chat", "chat")):
        text = getattr(args, flag, None)
        if text is not None:
            try:
                values[field] = Rate.parse(text)
            except ValueError as exc:
                raise ValueError(f"--{flag.replace('_', '-')}: {exc}") from None
    for flag, field, scale, what in (("analysis_queue", "analysis_queue", None, "a whole number of at least 1"),
                                     ("max_tables", "max_tables", None, "a whole number of at least 1"),
                                     ("robot_deals", "robot_deals", None, "a whole number of at least 1"),
                                     ("sockets_per_address", "sockets_per_address", None,
                                      "a whole number of at least 1"),
                                     ("hello_seconds", "hello_seconds", 1.0, "a positive number of seconds"),
                                     ("idle_hours", "idle_seconds", 3600.0, "a positive number of hours"),
                                     ("finished_minutes", "finished_seconds", 60.0, "a positive number of minutes"),
                                     ("chat_days", "chat_keep_seconds", 86400.0, "a positive number of days")):
        value = getattr(args, flag, None)
        if value is None:
            continue
        if scale is not None:
            if not (value > 0 and value * scale < float("inf")):
                raise ValueError(f"--{flag.replace('_', '-')} must be {what}, not {value:g}")
            value *= scale
        elif value < 1:
            raise ValueError(f"--{flag.replace('_', '-')} must be {what}, not {value}")
        values[field] = value
    return Limits(**values)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from skat.server.app import MAX_FRAME_BYTES, create_app
    from skat.server.limits import KEEP_ALIVE_SECONDS
    from skat.server.store import SecondProcessError, default_db_url

    if not 0 <= args.port <= 65535:
        print(f"skat serve: --port must be between 0 and 65535, got {args.port}", file=sys.stderr)
        return 2
    if args.bot_delay < 0:
        print("skat serve: --bot-delay cannot be negative", file=sys.stderr)
        return 2
    if args.gc_thaw is not None and (not args.gc_thaw >= 0 or args.gc_thaw == float("inf")):
        print("skat serve: --gc-thaw must be a number of seconds, or 0 for Python's own collector policy",
              file=sys.stderr)
        return 2
    from skat.server.security import MAX_BODY_BYTES, parse_origins

    try:
        parse_origins(args.allow_origin)
    except ValueError as exc:
        print(f"skat serve: --allow-origin: {exc}", file=sys.stderr)
        return 2
    try:
        limits = limits_from_args(args)
    except ValueError as exc:
        print(f"skat serve: {exc}", file=sys.stderr)
        return 2
    max_body = MAX_BODY_BYTES if args.max_body is None else args.max_body
    if max_body < 1:
        print("skat serve: --max-body must be a positive number of bytes", file=sys.stderr)
        return 2
    configure_logging(args.log_level)
    db = args.db or default_db_url()
    try:
        app = create_app(db, bot_delay=args.bot_delay, trick_pause=trick_pause(args.bot_delay),
                         allowed_origins=args.allow_origin, max_body=max_body, limits=limits,
                         restore_in_background=True, public_replays=not args.private_replays)
    except SecondProcessError as exc:
        print(f"skat serve: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bad database URL: say which and why
        print(f"skat serve: cannot open the database {db!r}: {exc}", file=sys.stderr)
        return 2
    sock = listen_socket(args.host, args.port, "serve")
    if sock is None:
        return 2
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"skat serve: http://{host}:{port}/ (database {db.split('@')[-1]})", flush=True)
    from skat.server.collector import THAW_SECONDS, CollectorPolicy

    thaw = THAW_SECONDS if args.gc_thaw is None else args.gc_thaw
    if thaw:
        CollectorPolicy(thaw).install()
    print("  the lobby /, the score keeper /keeper, club tournaments /tournament; stop with Ctrl+C", flush=True)
    # uvicorn's own lines (its start, every request) only at --log-level debug: the lines above say what a
    # person needs, and the server's events are logged by skat's loggers
    quiet = args.log_level != "debug"
    config = uvicorn.Config(app, log_level="warning" if quiet else "debug", access_log=not quiet,
                            ws_max_size=MAX_FRAME_BYTES, ws_per_message_deflate=False,
                            timeout_keep_alive=KEEP_ALIVE_SECONDS)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
