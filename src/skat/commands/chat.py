"""The chat's messages, for the server's operator (docs/chat.md):

  skat chat list [--table ID | --lobby] [-n N]   the most recent messages (deleted ones marked): id, time, room,
                                                 channel, author, name, text or phrase
  skat chat delete MESSAGE_ID                    delete one message: nobody sees it any more (a running server on
                                                 PostgreSQL tells its pages at once; on SQLite they drop it when
                                                 they next load the chat)

An account that may not chat is disabled with `skat user disable NAME`. Messages are deleted by the server after
`skat serve --chat-days` days (30). --db is the database of `skat serve` (default: the SQLite file in your data
directory).
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None,
                        help="database URL as for skat serve (default: the SQLite file in your data directory)")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("list", help="the most recent messages")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--table", default=None, metavar="ID", help="only this table's messages")
    where.add_argument("--lobby", action="store_true", help="only the lobby's messages")
    p.add_argument("-n", type=int, default=100, metavar="N", help="at most N messages, the most recent (default 100)")
    p = sub.add_parser("delete", help="delete one message")
    p.add_argument("message_id", type=int, metavar="MESSAGE_ID")


def run(args: argparse.Namespace) -> int:
    from datetime import datetime

    from skat.server.chat import LOBBY, delete_message, list_messages
    from skat.server.store import Store, default_db_url

    store = Store(args.db or default_db_url())
    try:
        if args.action == "list":
            room = LOBBY if args.lobby else args.table
            rows = list_messages(store.engine, room, max(1, args.n))
            for r in rows:
                at = datetime.fromtimestamp(r.at).strftime("%Y-%m-%d %H:%M:%S")
                said = f"[{r.phrase}]" if r.phrase else r.text
                mark = "\t(deleted)" if r.deleted else ""
                print(f"{r.id}\t{at}\t{r.room}\t{r.channel}\t{r.author}\t{r.name}\t{said!r}{mark}")
            if not rows:
                print("no messages", file=sys.stderr)
            return 0
        row = delete_message(store, args.message_id)
        if row is None:
            print(f"skat chat: there is no message {args.message_id}", file=sys.stderr)
            return 1
        print(f"deleted message {row.id} of {row.name} in {row.room}")
        return 0
    finally:
        store.close()
