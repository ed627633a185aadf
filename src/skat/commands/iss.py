"""Read ISS game records (one per line, as the International Skat Server writes them).

  skat iss verify FILE   replay every record, recompute its result and compare it with R[...]:
                         one line per record that differs or does not replay, then "N records, M agree"
  skat iss show FILE     replay every record and explain how each game ended and what it scores
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from skat.errors import RecordError
from skat.records.iss import IssRecord, parse_iss, replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="iss_command", metavar="ACTION", required=True)
    v = sub.add_parser("verify", help="replay every record and compare the recomputed result with its R[...]")
    v.add_argument("file", type=Path, help="ISS record file, one record per line")
    s = sub.add_parser("show", help="replay every record and explain its result")
    s.add_argument("file", type=Path, help="ISS record file, one record per line")
    s.add_argument("--id", dest="ids", action="append", default=None, metavar="ID",
                   help="only the record with this game number (repeatable)")


def _records(path: Path) -> Iterator[IssRecord | RecordError]:
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield parse_iss(line, n)
            except RecordError as exc:
                yield exc


def run(args: argparse.Namespace) -> int:
    try:
        if args.iss_command == "verify":
            status = _verify(args.file)
        else:
            status = _show(args.file, args.ids)
        sys.stdout.flush()  # a closed output shows here, not at exit
        return status
    except BrokenPipeError:
        # the reader of our output went away (``skat iss show FILE | head``): nothing is wrong
        # with FILE, so end quietly
        _discard_stdout()
        return 0
    except OSError as exc:
        print(f"skat iss: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2


def _discard_stdout() -> None:
    """Point stdout at the null device, so that flushing what is still buffered at exit cannot
    raise BrokenPipeError again (as the Python documentation on SIGPIPE recommends)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (a test's capture)
        pass


def _verify(path: Path) -> int:
    total = agree = 0
    for item in _records(path):
        total += 1
        if isinstance(item, RecordError):
            print(f"{item}")
            continue
        try:
            _game, computed = replay(item)
        except RecordError as exc:
            print(exc)
            continue
        diffs = computed.differences(item.result)
        if diffs:
            print(f"{item.label}: {'; '.join(diffs)}")
        else:
            agree += 1
    print(f"{total} records, {agree} agree")
    return 0 if total == agree else 1


def _show(path: Path, ids: list[str] | None) -> int:
    status = 0
    for item in _records(path):
        if isinstance(item, RecordError):
            print(item)
            status = 1
            continue
        if ids and item.id not in ids:
            continue
        print(f"{item.label}: {' / '.join(item.players)}")
        try:
            game, computed = replay(item)
        except RecordError as exc:
            print(f"  does not replay: {exc}")
            status = 1
            continue
        if computed.contract is not None:
            print(f"  declarer seat {game.declarer}, bid {game.bid}, {computed.contract}")
        print(f"  ended: {computed.ended_by}; {computed.explanation}")
        if computed.ignored_moves:
            print(f"  not applied (after the end): {' '.join(str(m) for m in computed.ignored_moves)}")
        diffs = computed.differences(item.result)
        print(f"  ours:   R[{computed.text()}]")
        print(f"  theirs: R[{item.result.text()}]{'' if not diffs else '  DIFFERS: ' + '; '.join(diffs)}")
        if diffs:
            status = 1
    return status
