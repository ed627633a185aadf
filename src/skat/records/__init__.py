"""Game records: the ISS one-line format (:mod:`skat.records.iss`).

The JSON record of a game is :meth:`skat.Game.to_record` / :meth:`skat.Game.from_record`.
"""

from skat.records.iss import (
    ComputedResult,
    IssMove,
    IssRecord,
    IssResult,
    MoveKind,
    format_contract,
    parse_contract,
    parse_iss,
    read_iss_file,
    replay,
    result_of_game,
    to_iss,
    verify,
)

__all__ = [
    "ComputedResult", "IssMove", "IssRecord", "IssResult", "MoveKind", "format_contract", "parse_contract",
    "parse_iss", "read_iss_file", "replay", "result_of_game", "to_iss", "verify",
]
