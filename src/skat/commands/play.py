"""Play Skat against two computer players: in the browser (a local server on 127.0.0.1 opens a
table), or with --text in the terminal. --variant officers plays Officers' Skat for two."""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from skat.cards import CardSet
from skat.deal.game import SEAT_NAMES, Game, Phase
from skat.errors import IllegalActionError
from skat.players.registry import LEVELS, PLAYER_NAMES
from skat.rules.actions import parse_action
from skat.rules.ranking import display_order
from skat.rules.rulesets import PRESETS, get_ruleset
from skat.server.bots import BotSeat, default_level
from skat.server.hints import bid_estimate, contract_values
from skat.server.series import UNLIMITED_GAMES
from skat.table.series import Table

if TYPE_CHECKING:
    from fastapi import FastAPI


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--text", action="store_true", help="play in the terminal instead of the browser")
    parser.add_argument("--variant", default="standard", choices=["standard", "officers"],
                        help="standard Skat (default) or Officers' Skat for two players")
    parser.add_argument("--officers-variant", default="classic",
                        choices=["classic", "passing", "harlequin", "half_open", "admiral"],
                        help="with --variant officers: which Officers' Skat (default classic)")
    parser.add_argument("--level", default=None, choices=PLAYER_NAMES, metavar="LEVEL",
                        help=f"computer players' level: {', '.join(LEVELS)} (default strong), or heuristic or "
                             "random (the simple players for bot authors)")
    parser.add_argument("--name", default="", help="your name at the table")
    parser.add_argument("--ruleset", default="isko2018",
                        help="rule set of the browser table: isko2018 (default), old_pre1999, pub, pirate, tournee")
    parser.add_argument("--host", default="127.0.0.1", help="address of the local server (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port of the local server (default: a free one)")
    parser.add_argument("--db", default=None, help="database URL (default: a SQLite file in your data directory)")
    parser.add_argument("--no-browser", action="store_true", help="print the table's address instead of opening it")
    parser.add_argument("--bot-delay", type=float, default=0.8,
                        help="the least seconds a computer player takes to act in the browser, its thinking included (default 0.8)")
    parser.add_argument("--deals", type=int, default=None, help="length of the series in deals (default: no limit)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the deals (and the computer players in the terminal): the same seed deals the same "
                             "cards; a seeded browser table shows its seed (default: a secret one)")


def run(args: argparse.Namespace) -> int:
    if args.deals is not None and args.deals < 1:
        print("skat play: --deals must be at least 1", file=sys.stderr)
        return 2
    if args.variant == "officers":
        return _run_officers(args)
    ruleset = getattr(args, "ruleset", "isko2018") or "isko2018"
    if ruleset.lower() not in PRESETS:
        print(f"skat play: unknown rule set {ruleset!r}; choose one of: {', '.join(sorted(PRESETS))}", file=sys.stderr)
        return 2
    if args.text:
        if get_ruleset(ruleset).name != "isko2018":
            print(f"skat play: the terminal table plays ISkO rules; play {ruleset!r} in the browser "
                  f"(skat play --ruleset {ruleset}) or watch it with skat series --ruleset {ruleset}", file=sys.stderr)
            return 2
        level = args.level or default_level()
        return play_text(sys.stdin, sys.stdout, level=level, deals=args.deals, seed=args.seed, name=args.name)
    return _run_browser(args)


# --------------------------------------------------------------------- officers
def _run_officers(args: argparse.Namespace) -> int:
    """Officers' Skat for two against the computer: a page in the browser, or the terminal."""
    if args.text:
        from skat.commands.play_officers import play_text as play_officers_text

        play_officers_text(variant=args.officers_variant, seed=args.seed, input=sys.stdin, output=sys.stdout,
                           games=args.deals or 1000)
        return 0
    return _run_officers_browser(args)


def _run_officers_browser(args: argparse.Namespace) -> int:
    """The club server with the Officers' Skat page: the page starts a server table against the computer
    (``"variant": "officers"``), kept in the database like every table, so a restart goes on with it."""
    from skat.server.app import create_app
    from skat.server.officers import page_url
    from skat.server.store import SecondProcessError, default_db_url

    if args.bot_delay < 0:
        print("skat play: --bot-delay cannot be negative", file=sys.stderr)
        return 2
    db = args.db or default_db_url()
    log_file = _log_to_file()
    try:
        app = create_app(db, bot_delay=args.bot_delay, trick_pause=min(1.2, args.bot_delay * 1.5))
    except SecondProcessError as exc:
        return _open_running(args, db, exc, "officers")
    except Exception as exc:
        print(f"skat play: cannot open the database {db!r}: {exc}", file=sys.stderr)
        return 2
    sock = _listen(args)
    if sock is None:
        return 2
    port = sock.getsockname()[1]
    base = f"http://{args.host}:{port}"
    url = page_url(base, args.officers_variant, args.seed)
    local = local_player(app.state.manager.store, args.name)
    open_url = signed_in_url(app, local.id, base, url[len(base):])
    lines = [f"Your table: {url}", f"Lobby (other tables, invitations): http://{args.host}:{port}/   Stop with Ctrl+C."]
    return _serve(app, sock, args, lines, url, ws_max_size=64 * 1024, ws_per_message_deflate=False,
                  running=(db, f"http://{args.host}:{port}/", "officers"), log_file=log_file, open_url=open_url)


def _listen(args: argparse.Namespace) -> socket.socket | None:
    """A socket bound to --host/--port (a free port by default), or None after a message."""
    from skat.commands.serve import listen_socket

    return listen_socket(args.host, args.port, "play")


def _serve(app: FastAPI, sock: socket.socket, args: argparse.Namespace, lines: list[str], url: str,
           *, ws_max_size: int, ws_per_message_deflate: bool, running: tuple[str, str, str],
           log_file: Path | None, open_url: str | None = None) -> int:
    """Run ``app`` on ``sock``; once it is up, print ``lines``, open ``open_url`` (the address that signs the browser
    in as the local player and goes on to ``url``; else ``url``) in the browser if there is one, and
    say where it runs for a second ``skat play`` (``running``: the database, the lobby address, the variant;
    :mod:`skat.commands.running`)."""
    import uvicorn

    from skat.commands.running import announce as announce_running
    from skat.server.limits import KEEP_ALIVE_SECONDS

    if log_file is not None:
        lines = [*lines, f"The server's log: {log_file}"]

    withdrawals: list[Callable[[], None]] = []

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            for withdraw in withdrawals:  # first: uvicorn may end the process by the signal that stopped it
                withdraw()
            await super().shutdown(sockets)

    server = Server(uvicorn.Config(app, log_level="warning", ws_max_size=ws_max_size,
                                   ws_per_message_deflate=ws_per_message_deflate, timeout_keep_alive=KEEP_ALIVE_SECONDS))

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.should_exit:
            return
        db, lobby, variant = running
        try:
            withdrawals.append(announce_running(db, lobby, url, variant))
        except OSError as exc:  # a read-only data directory: a second skat play then says the database is taken
            print(f"skat play: cannot note where this table runs beside the database ({exc})", file=sys.stderr)
        for line in lines:
            print(line, flush=True)
        if not args.no_browser:
            try:
                webbrowser.open(open_url or url)
            except Exception:  # no browser here: the address is printed above
                pass

    threading.Thread(target=announce, daemon=True).start()
    server.run(sockets=[sock])
    return 0


# --------------------------------------------------------------------- browser
def _run_browser(args: argparse.Namespace) -> int:
    from skat.server.accounts import AccountService
    from skat.server.app import create_app
    from skat.server.manager import TableManager
    from skat.server.store import SecondProcessError, Store, default_db_url

    if args.bot_delay < 0:
        print("skat play: --bot-delay cannot be negative", file=sys.stderr)
        return 2
    if args.seed is not None and not 0 <= args.seed < 2**63:
        print("skat play: --seed must be a whole number from 0 to 2**63-1", file=sys.stderr)
        return 2
    db = args.db or default_db_url()
    log_file = _log_to_file()
    try:
        store = Store(db, serve=True)
    except SecondProcessError as exc:
        return _open_running(args, db, exc, "standard")
    except Exception as exc:
        print(f"skat play: cannot open the database {db!r}: {exc}", file=sys.stderr)
        return 2
    manager = TableManager(store, bot_delay=args.bot_delay, trick_pause=min(1.2, args.bot_delay * 1.5))
    manager.restore()
    level = args.level or default_level()
    local = local_player(store, args.name)
    table, seat = asyncio.run(manager.create_table(
        name="", seats=["human", level, level], player_name=local.name, claim=0,
        ruleset=getattr(args, "ruleset", "isko2018") or "isko2018", deals=args.deals, seed=args.seed))
    AccountService(store.engine).link_seat(table.id, 0, account_id=local.id)
    sock = _listen(args)
    if sock is None:
        return 2
    port = sock.getsockname()[1]
    app = create_app(db, manager=manager)
    base = f"http://{args.host}:{port}"
    path = f"/t/{table.id}#token={seat['token']}"
    url = base + path
    lines = [f"Your table: {url}", f"Lobby (other tables, invitations): {base}/   Stop with Ctrl+C.",
             f"New to Skat? Learn it in three guided deals: {base}/learn",
             f"Your games, statistics and rating: {signed_in_url(app, local.id, base, '/me')}"]
    return _serve(app, sock, args, lines, url, open_url=signed_in_url(app, local.id, base, path),
                  ws_max_size=64 * 1024, ws_per_message_deflate=False,
                  running=(db, f"http://{args.host}:{port}/", "standard"), log_file=log_file)


def local_player(store: Any, name: str) -> Any:
    """The person at the keyboard: the database's local player (:meth:`AccountService.local_account`), named by
    ``--name`` (renamed when given) or else by the computer's user name."""
    import getpass

    from skat.server.accounts import AccountService

    try:
        user = getpass.getuser()
    except (OSError, KeyError):
        user = ""
    if user.lower() in ("root", "user", "admin", "runner"):  # an account's name, not a person's
        user = ""
    return AccountService(store.engine).local_account(name or user.capitalize() or "Player", rename=bool(name))


def signed_in_url(app: FastAPI, account_id: str, base: str, path: str) -> str:
    """The address that signs the browser in as the local player (a one-time code) and goes on to ``path``."""
    import secrets
    from urllib.parse import quote

    code = secrets.token_urlsafe(24)
    app.state.local_codes[code] = account_id
    return f"{base}/local-sign-in?code={code}&next={quote(path, safe='/')}"


def _log_to_file() -> Path | None:
    """Log the local server's events to a file in the person's log directory (the terminal shows only errors: a
    player needs no operator's notes such as a stalled event loop); the file's path, or None where none can be
    made (then everything from warnings up goes to the terminal, as Python does by default)."""
    import logging
    from logging.handlers import RotatingFileHandler

    from platformdirs import user_log_dir

    try:
        folder = Path(user_log_dir("skat", appauthor=False))
        folder.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = RotatingFileHandler(folder / "play.log", maxBytes=1 << 20, backupCount=2,
                                                       encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.setLevel(logging.INFO)
    console = logging.StreamHandler()
    console.setLevel(logging.ERROR)
    console.setFormatter(logging.Formatter("skat play: %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.addHandler(console)
    root.setLevel(logging.INFO)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    return folder / "play.log"


def _asks_for_another_table(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a table of its own (a rule set, level, seed, length or name)."""
    return (args.level is not None or bool(args.name) or args.seed is not None or args.deals is not None
            or (getattr(args, "ruleset", "isko2018") or "isko2018").lower() != "isko2018")


def _open_running(args: argparse.Namespace, db: str, refused: Exception, variant: str) -> int:
    """A ``skat play`` serves this database already: open the person's table there (or the table asked for, made
    on that server). Another kind of process holding the database (``skat serve``): say so, as before."""
    from skat.commands import running

    info = running.find_running(db)
    if info is None:
        print(f"skat play: {refused}", file=sys.stderr)
        return 2
    lobby = info["lobby"]
    if variant == "officers":
        from skat.server.officers import page_url

        url = page_url(lobby.rstrip("/"), args.officers_variant, args.seed)
    elif info["table"] and info["variant"] == "standard" and not _asks_for_another_table(args):
        url = info["table"]
    else:
        level = args.level or default_level()
        request = {"name": "", "seats": ["human", level, level], "player_name": args.name or "", "claim": 0,
                   "ruleset": getattr(args, "ruleset", "isko2018") or "isko2018", "deals": args.deals,
                   "seed": args.seed}
        try:
            url = running.create_table_at(lobby, request)
        except (ValueError, OSError) as exc:
            print(f"skat play: the skat play that runs already (process {info['pid']}, {lobby}) did not make the "
                  f"table: {exc}", file=sys.stderr)
            return 2
    print(f"skat play runs already (process {info['pid']}); this table is on its server.", flush=True)
    print(f"Your table: {url}", flush=True)
    if not args.no_browser:
        try:
            webbrowser.open(url)
        except Exception:  # no browser here: the address is printed above
            pass
    return 0


# --------------------------------------------------------------------- text
_HELP = """Commands:
  bidding:  a number bids that value, 'hold' (or 'y') says yes, 'pass' (or 'p') passes
  skat:     'pickup' takes the skat; 'hand GAME' plays hand, e.g. 'hand grand' or 'hand clubs schneider'
  discard:  two cards to put away, e.g. 'C7 D8'
  declare:  the game, e.g. 'clubs', 'grand', 'null ouvert' (or its number from the list)
  play:     a card such as 'CJ' or 'HT' (or its number from the list)
  any time: 'claim', 'concede', 'resign' (when allowed), 'help', 'quit'
Cards are written suit letter + rank: C S H D (clubs spades hearts diamonds) and 7 8 9 T J Q K A."""


class _Quit(Exception):
    pass


def _cards(cards: CardSet | list, game_type=None) -> str:
    cs = cards if isinstance(cards, CardSet) else CardSet(cards)
    return " ".join(c.name for c in display_order(cs, game_type)) or "-"


def play_text(stdin: TextIO, stdout: TextIO, *, level: str = "random", deals: int | None = None,
              seed: int | None = None, name: str = "") -> int:
    """Standard Skat in the terminal: you against two computer players, reading actions from ``stdin``."""
    import random

    rng = random.Random(seed)
    me_name = name or "You"
    names = [me_name, f"Anna ({level})", f"Bernd ({level})"]
    bots = {1: BotSeat(level, rng.randrange(2**31)), 2: BotSeat(level, rng.randrange(2**31))}
    # the third player deals first, so that you sit in forehand of the first deal
    table = Table(names, seed=rng.randrange(2**48), games=deals or UNLIMITED_GAMES, first_dealer=2)

    def out(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    def ask(prompt: str) -> str:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            raise _Quit
        text = line.strip()
        if text.lower() in ("quit", "exit", "q"):
            raise _Quit
        return text

    out(f"Skat: {me_name} against {names[1]} and {names[2]}. Type 'help' for the commands, 'quit' to stop.")
    try:
        for game in table:
            positions = table.seats
            my_seat = positions.index(0)
            out()
            out(f"=== Deal {table.number}: {names[table.dealer]} deals; you are {SEAT_NAMES[my_seat]} ===")
            last_auction = 0
            last_tricks = 0
            while not game.is_over:
                seat = game.to_move
                assert seat is not None
                view = game.view(my_seat)
                for s, word in view.auction[last_auction:]:
                    if s != my_seat:
                        said = {"hold": "yes", "pass": "passes"}.get(word, word)
                        out(f"  {names[positions[s]]} ({SEAT_NAMES[s]}): {said}")
                last_auction = len(view.auction)
                last_tricks = _report_tricks(out, view, names, positions, my_seat, last_tricks)
                if positions[seat] != 0:
                    action = bots[positions[seat]].choose(game.view(seat))
                    if game.phase is Phase.PLAY:
                        out(f"  {names[positions[seat]]} plays {action}")
                    elif game.phase is Phase.SKAT and str(action) == "pickup":
                        out(f"  {names[positions[seat]]} picks up the skat")
                    elif str(action).startswith("declare"):
                        out(f"  {names[positions[seat]]} announces {str(action)[len('declare '):]}")
                    game.apply(action, seat)
                    continue
                _human_turn(game, view, my_seat, names, positions, out, ask)
            view = game.view(my_seat)
            _report_tricks(out, view, names, positions, my_seat, last_tricks)
            result = game.result
            assert result is not None
            out("")
            out(f"Result: {_named(result.explanation, names, positions, my_seat)}")
            if result.declarer is not None:
                out(f"  declarer: {names[positions[result.declarer]]}; skat was {_cards(result.skat)}")
            table.close_game()
            classic, seeger = table.sheet.totals, table.sheet.seeger_fabian
            out("Score sheet: " + ", ".join(f"{names[p]} {classic[p]} (SF {seeger[p]})" for p in range(3)))
            if not table.is_over:
                ask("Press Enter for the next deal (or 'quit'): ")
    except _Quit:
        out("")
        out("Goodbye.")
    return 0


def _report_tricks(out, view, names, positions, my_seat, last_tricks: int) -> int:
    for leader, cards, winner in view.tricks[last_tricks:]:
        played = ", ".join(f"{names[positions[(leader + i) % 3]]} {c.name}" for i, c in enumerate(cards))
        out(f"  trick {view.tricks.index((leader, cards, winner)) + 1}: {played} -> {names[positions[winner]]}")
    return len(view.tricks)


def _human_turn(game: Game, view, my_seat: int, names, positions, out, ask) -> None:
    gt = None if view.contract is None else view.contract.game_type
    out(f"Your cards: {_cards(view.hand, gt)}")
    for seat_str, cards in ((str(s), h) for s, h in view.open_hands.items()):
        s = int(seat_str)
        if s != my_seat:
            out(f"  {names[positions[s]]} shows: {_cards(cards, gt)}")
    options: list[str] = []
    phase = view.phase
    legal = [str(a) for a in view.legal_actions]
    if phase is Phase.BIDDING:
        est = bid_estimate(view.hand)
        hint = f"up to {est['value']} ({est['game']}{' hand' if est['hand'] else ''})" if est["value"] else "pass"
        if "hold" in legal:
            prompt = f"Bid of {view.bid}: hold or pass? (estimate: {hint}) > "
        else:
            bids = [x for x in legal if x.isdigit()]
            prompt = f"Your bid: {', '.join(bids[:6])}{' ...' if len(bids) > 6 else ''} or pass (estimate: {hint}) > "
    elif phase is Phase.SKAT:
        values = contract_values(view)
        options = ["pickup"] + [v["token"] for v in values]
        out(f"You won the auction at {view.bid}.")
        out("  1: pick up the skat")
        for i, v in enumerate(values, start=2):
            out(f"  {i}: {v['token'][len('declare '):]} (about {v['value']})")
        prompt = "pickup or hand game > "
    elif phase is Phase.DISCARD:
        out(f"You picked up {_cards(view.skat or CardSet())}")
        prompt = "Two cards to put away > "
    elif phase is Phase.DECLARE:
        values = contract_values(view)
        options = [v["token"] for v in values]
        for i, v in enumerate(values, start=1):
            out(f"  {i}: {v['token'][len('declare '):]} (worth {v['value']})")
        prompt = f"Your game (bid {view.bid}) > "
    else:
        if view.trick:
            out("  on the table: " + ", ".join(f"{names[positions[s]]} {c.name}" for s, c in view.trick))
        # numbered in the order the hand is shown (trumps first, then the suits, highest first)
        order = {c.name: i for i, c in enumerate(display_order(view.hand, gt))}
        options = sorted(legal, key=lambda c: order.get(c, len(order)))
        listing = " ".join(f"{i}:{c}" for i, c in enumerate(options, start=1))
        prompt = f"Play a card [{listing}] > "
    while True:
        text = ask(prompt)
        if not text:
            continue
        if text.lower() in ("help", "?"):
            out(_HELP)
            continue
        token = text
        if text.isdigit() and options and phase is not Phase.BIDDING:
            k = int(text)
            if not 1 <= k <= len(options):
                out(f"choose a number from 1 to {len(options)}")
                continue
            token = options[k - 1]
        elif phase is Phase.SKAT and text.lower().startswith("hand"):
            token = "declare " + text[4:].strip() + " hand"
        elif phase is Phase.DISCARD and not text.lower().startswith("discard"):
            token = "discard " + text
        elif phase is Phase.DECLARE and not text.lower().startswith("declare"):
            token = "declare " + text
        try:
            action = parse_action(token)
            game.apply(action, my_seat)
        except IllegalActionError as exc:
            out(f"  not possible: {_named(str(exc), names, positions, my_seat)}")
            continue
        return


def _named(text: str, names, positions, my_seat: int) -> str:
    """An engine's message with the players' names for its seat numbers: "seat 0 must follow S8" reads "you must
    follow S8" to the person, "Anna (random) must follow S8" of a computer player."""
    import re

    def who(m: re.Match[str], own: bool = False, alone: bool = False) -> str:
        s = int(m[1])
        if not 0 <= s < len(positions):
            return m[0]
        if s == my_seat:
            return ("yours" if alone else "your") if own else "you"
        return names[positions[s]] + ("'s" if own else "")

    text = re.sub(r"\(seat (\d+)\)", lambda m: f"({who(m)})", text)
    text = re.sub(r"\bseat (\d+)'s(?=\W*$)", lambda m: who(m, own=True, alone=True), text)
    return re.sub(r"\bseat (\d+)('s)?", lambda m: who(m, own=bool(m[2])), text)
