"""The server's accounts, for its operator (docs/accounts.md):

  skat user list                       every account: name, created, disabled, live sessions
  skat user add NAME                   a new account (the password is asked for, or read with --password-stdin)
  skat user reset-password NAME        a new password; every session of the account ends
  skat user disable NAME [--enable]    no sign-in, every session ends (--enable: allowed again)
  skat user delete NAME [--yes]        remove the name, password hash, sessions, history, statistics and rating;
                                       its seats in stored games stay, anonymous
  skat user rebuild-history            write the finished deals that are in no player's history yet into the
                                       histories, statistics and ratings (after a failure the server logged)

--db is the database of `skat serve` (default: the SQLite file in your data directory). A password is never printed.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None,
                        help="database URL as for skat serve (default: the SQLite file in your data directory)")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("list", help="every account")
    for name, text in (("add", "a new account"), ("reset-password", "a new password (every session ends)")):
        p = sub.add_parser(name, help=text)
        p.add_argument("name")
        p.add_argument("--password-stdin", action="store_true",
                       help="read the password from the first line of standard input (not asked for)")
    p = sub.add_parser("disable", help="no sign-in, every session ends")
    p.add_argument("name")
    p.add_argument("--enable", action="store_true", help="allow signing in again")
    sub.add_parser("rebuild-history", help="write finished deals missing from the players' histories")
    p = sub.add_parser("delete", help="remove the account; its seats in stored games stay, anonymous")
    p.add_argument("name")
    p.add_argument("--yes", action="store_true", help="do not ask")


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    import getpass

    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise ValueError("the two passwords differ; nothing was changed")
    return first


def run(args: argparse.Namespace) -> int:
    from datetime import datetime

    from skat.server.accounts import AccountService
    from skat.server.core import TableError
    from skat.server.store import Store, default_db_url

    store = Store(args.db or default_db_url())
    try:
        service = AccountService(store.engine)
        if args.action == "list":
            rows = service.accounts()
            for account, sessions in rows:
                created = datetime.fromtimestamp(account.created).strftime("%Y-%m-%d %H:%M")
                state = "disabled" if account.disabled else "active"
                print(f"{account.name}\t{created}\t{state}\t{sessions} session(s)")
            if not rows:
                print("no accounts", file=sys.stderr)
            return 0
        if args.action == "rebuild-history":
            from skat.server.history import rebuild

            with store.engine.begin() as conn:
                written = rebuild(conn)
            print(f"{written} history row(s) written" if written else "every finished deal is in the histories")
            return 0
        if args.action == "add":
            account, _ = service.register(args.name, _password(args))
            print(f"added {account.name}")
            return 0
        found = service.find(args.name)
        if found is None:
            print(f"skat user: no account named {args.name!r}", file=sys.stderr)
            return 1
        account = found
        if args.action == "reset-password":
            service.set_password(account.id, _password(args))
            print(f"new password for {account.name}; every session of it ended")
        elif args.action == "disable":
            service.disable(account.id, not args.enable)
            print(f"{account.name} is {'enabled' if args.enable else 'disabled (every session ended)'}")
        elif args.action == "delete":
            if not args.yes and input(f"delete the account {account.name!r}? [y/N] ").strip().lower() not in ("y", "yes"):
                print("nothing was deleted")
                return 1
            seats = service.delete(account.id)
            print(f"deleted {account.name}; {seats} seat(s) in stored games are anonymous now")
        return 0
    except (TableError, ValueError) as exc:
        print(f"skat user: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
