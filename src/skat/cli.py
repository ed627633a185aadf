"""The ``skat`` command. Each sub-command lives in ``skat.commands.<name>`` with
``add_arguments(parser)`` and ``run(args) -> int``; add a line to COMMANDS to register one."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from skat._version import __version__
from skat.errors import SkatError

COMMANDS: dict[str, tuple[str, str]] = {
    # name: (module, one-line help)
    "value": ("skat.commands.value",
              "game-value calculator: a game in words (skat value grand hand --with 2 --points 78), or JSON on stdin"),
    "sheet": ("skat.commands.sheet",
              "the score keeper's list of a real table from a file of game entries (text, --json, --csv)"),
    "tournament": ("skat.commands.tournament",
                   "a club tournament in one file: draw, tables' lists, ranking, printable lists and ranking (PDF)"),
    "deal": ("skat.commands.deal", "play one deal with random players and print a short record (--json: the full one)"),
    "solve": ("skat.commands.solve", "double-dummy solver: a position as JSON on stdin, its value as JSON"),
    "arena": ("skat.commands.arena", "duplicate match between two players, with statistics"),
    "play": ("skat.commands.play", "play Skat against computer players in the browser (or --text in the terminal)"),
    "serve": ("skat.commands.serve", "run a Skat server with a lobby of tables for a club or friends"),
    "user": ("skat.commands.user", "the server's accounts: list, add, reset-password, disable, delete"),
    "chat": ("skat.commands.chat", "the chat's messages, for the server's operator: list, delete"),
    "series": ("skat.commands.series", "play a series at a 3-, 4- or 5-player table and print the score sheet"),
    "iss": ("skat.commands.iss", "ISS game records: verify a file against its results, or explain it"),
    "bot": ("skat.commands.bot", "a computer player takes a person's seat at a skat serve table (remote)"),
    "analyze": ("skat.commands.analyze", "analyse played games double dummy: turning points and costly cards"),
    "rules": ("skat.commands.rules", "the rule sets and their options: values, allowed values and what they mean"),
}


EPILOG = """\
The rules the engine applies, every table option with its allowed values and default, and which
reading each rule set takes where the sources disagree: docs/rules.md in the source repository
(`skat rules show NAME` prints a rule set's options). `skat COMMAND --help` explains a command."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the module of ``command`` is imported (none for ``skat --help``), so that help comes at
    once and one broken command cannot stop the others."""
    parser = argparse.ArgumentParser(
        prog="skat", description="Skat: rules engine, computer players and a table.", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        if name != command:  # listed by its line of help; its module (the server, the solver...) is not imported
            sub.add_parser(name, help=help_text)
            continue
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=(module.__doc__ or help_text).strip())
        module.add_arguments(p)
        p.set_defaults(_run=module.run, _parser=p)
    return parser


def _version() -> str:
    return f"skat {__version__}"


SECRET_FLAGS = ("--token",)  # flags whose value is a pasted secret, which may begin with "-"


def _secrets_joined(argv: list[str]) -> list[str]:
    """``--token -Xy`` as ``--token=-Xy``: argparse would take a value beginning with "-" for another flag. A next
    word that looks like a long flag (``--player``) is left alone, so a forgotten value is still reported."""
    joined: list[str] = []
    words = iter(argv)
    for word in words:
        following = next(words, None) if word in SECRET_FLAGS else None
        if following is None:
            joined.append(word)
        elif following.startswith("-") and not _looks_like_long_flag(following):
            joined.append(f"{word}={following}")
        else:
            joined += [word, following]
    return joined


def _looks_like_long_flag(word: str) -> bool:
    return word.startswith("--") and word[2:].replace("-", "").isalpha() and word[2:].islower()


def main(argv: list[str] | None = None) -> int:
    argv = _secrets_joined(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    words = getattr(args, "words", None)
    if extra and isinstance(words, list) and not any(a.startswith("-") for a in extra):
        words.extend(extra)  # `skat value grand --with 2 hand`: game words may follow the flags
    elif extra:
        getattr(args, "_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        status = int(args._run(args) or 0)
        sys.stdout.flush()  # a reader that went away shows here, not at the interpreter's exit
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    except SkatError as exc:  # an error a person can act on: a message, not a traceback
        print(f"skat {args.command}: {exc}", file=sys.stderr)
        return 2


def _reader_gone() -> int:
    """The output's reader closed the pipe (``skat ... | head``): end quietly with status 0.

    Standard output is pointed at /dev/null so that Python's final flush raises nothing.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (captured output): nothing to flush
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
