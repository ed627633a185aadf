"""Run a Skat server for a club or a group of friends: a lobby of tables in the browser,
seats for people and computer players, every action stored (SQLite or PostgreSQL), and
open tables resumed after a restart. Clients speak the protocol of docs/protocol.md."""

from __future__ import annotations

import argparse
import logging
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for every interface)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    parser.add_argument("--db", default=None,
                        help="database URL: sqlite:///path/skat.sqlite or postgresql://user:pw@host/db "
                             "(default: a SQLite file in your data directory)")
    parser.add_argument("--bot-delay", type=float, default=0.7,
                        help="seconds a computer player waits before it acts, so people can follow (default 0.7)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="an origin (https://host[:port]) besides this server's own whose pages may open its "
                             "WebSockets; repeat it for several (default: none)")
    parser.add_argument("--max-body", type=int, default=None, metavar="BYTES",
                        help="the largest request body in bytes (default 65536)")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from skat.server.app import MAX_FRAME_BYTES, create_app
    from skat.server.store import SecondProcessError, default_db_url

    if not 0 <= args.port <= 65535:
        print(f"skat serve: --port must be between 0 and 65535, got {args.port}", file=sys.stderr)
        return 2
    if args.bot_delay < 0:
        print("skat serve: --bot-delay cannot be negative", file=sys.stderr)
        return 2
    from skat.server.security import MAX_BODY_BYTES, parse_origins

    try:
        parse_origins(args.allow_origin)
    except ValueError as exc:
        print(f"skat serve: --allow-origin: {exc}", file=sys.stderr)
        return 2
    max_body = MAX_BODY_BYTES if args.max_body is None else args.max_body
    if max_body < 1:
        print("skat serve: --max-body must be a positive number of bytes", file=sys.stderr)
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    db = args.db or default_db_url()
    try:
        app = create_app(db, bot_delay=args.bot_delay, trick_pause=min(1.0, args.bot_delay * 1.5),
                         allowed_origins=args.allow_origin, max_body=max_body)
    except SecondProcessError as exc:
        print(f"skat serve: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bad database URL: say which and why
        print(f"skat serve: cannot open the database {db!r}: {exc}", file=sys.stderr)
        return 2
    print(f"skat serve: http://{args.host}:{args.port}/ (database {db.split('@')[-1]})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=MAX_FRAME_BYTES,
                ws_per_message_deflate=False)
    return 0
