"""A computer player takes a person's seat at a ``skat serve`` table, over the table protocol."""

from __future__ import annotations

import argparse
import asyncio
import sys

from skat.players.registry import OWN_BOT_FORMS, PLAYER_NAMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("link", help="the seat's link as the server gives it: http://host:port/t/TABLE#token=TOKEN")
    parser.add_argument("--token", default=None, help="the seat's token, when the link has none")
    parser.add_argument("--player", default="strong",
                        help=f"{', '.join(PLAYER_NAMES)}, or a bot of your own ({OWN_BOT_FORMS}); default strong")
    parser.add_argument("--deals", type=int, default=None, help="leave after this many deals (default: stay)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the player's random choices")
    parser.add_argument("--quiet", action="store_true", help="do not print each deal's result")


def run(args: argparse.Namespace) -> int:
    from skat.players.arena import arena_player
    from skat.players.remote import parse_table_link, play_remote

    if args.deals is not None and args.deals < 1:
        print(f"skat bot: --deals must be at least 1, got {args.deals}", file=sys.stderr)
        return 2
    try:
        address = parse_table_link(args.link, args.token)
        player = arena_player(args.player, args.seed)
        log = None if args.quiet else (lambda text: print(text, flush=True))
        played = asyncio.run(play_remote(address, player, args.deals, log=log))
    except (ValueError, RuntimeError) as exc:
        print(f"skat bot: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"skat bot: cannot reach the table at {args.link}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    if not args.quiet:
        print(f"{played} deal(s) played")
    return 0
