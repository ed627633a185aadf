"""The one-line game records of the International Skat Server (ISS).

A record looks like ``(;GM[Skat]PC[...]ID[...]P0[..]P1[..]P2[..]MV[w <deal> 1 p 2 18 ...]R[d:2 win v:72 ...] ;)``.
The format is described in ``docs/iss.md``. This module reads such records
(:func:`parse_iss`, :func:`read_iss_file`), replays them through :class:`skat.Game`
(:func:`replay`), recomputes their result and compares it with the ``R[...]`` field
(:func:`verify`), and writes records of finished games (:func:`to_iss`).

Seats are numbered as in the engine: 0 forehand, 1 middlehand, 2 rearhand.

ISS moves map to engine actions as follows: a number, ``y`` and ``p`` are Bid, Hold and
Pass; ``s`` is PickUp (the server answers ``w c1.c2`` with the skat); a declaration such
as ``G.CT.DT`` is Discard then Declare (ISS may also send the discard as a separate move,
before or after a bare declaration such as ``G``); a card is Play; ``SC`` (the declarer shows
his cards; play goes on) is Claim; ``RE`` is Concede from a defender (the game ends when both
have conceded) and Resign from the declarer. Timeouts (``w TI.n``) and a
player leaving (``w LE.n``) are not engine actions: their result is computed here, by the
rule ISS applies (see :func:`replay`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path

from skat.cards import Card, CardSet, mask_points
from skat.deal.game import Game, GameResult, Phase
from skat.errors import IllegalActionError, RecordError
from skat.rules.actions import (
    CLAIM,
    CONCEDE,
    HOLD,
    PASS,
    PICKUP,
    RESIGN,
    Bid,
    Claim,
    Concede,
    Declare,
    Discard,
    Hold,
    Pass,
    PickUp,
    Play,
    Resign,
)
from skat.rules.contract import Contract, DeclarationError, null_value
from skat.rules.ranking import GameType
from skat.rules.rulesets import ISKO, RuleSet
from skat.rules.value import evaluate, matadors, multiplier

__all__ = [
    "MoveKind",
    "IssMove",
    "IssResult",
    "IssRecord",
    "ComputedResult",
    "RESULT_FIELDS",
    "parse_iss",
    "read_iss_file",
    "parse_contract",
    "format_contract",
    "replay",
    "verify",
    "result_of_game",
    "to_iss",
]

# ---------------------------------------------------------------------------------- contracts

_GAME_LETTER = {
    "G": GameType.GRAND,
    "C": GameType.CLUBS,
    "S": GameType.SPADES,
    "H": GameType.HEARTS,
    "D": GameType.DIAMONDS,
    "N": GameType.NULL,
}
_LETTER_OF_GAME = {gt: letter for letter, gt in _GAME_LETTER.items()}
_CONTRACT_RE = re.compile(r"^([GCSHDN])([OHSZ]*)$")
_CARD_RE = re.compile(r"^[CSHD][AKQJT987]$")


def parse_contract(code: str) -> Contract:
    """Read an ISS game code: a game letter ``G C S H D N`` and modifiers ``O`` ouvert,
    ``H`` hand, ``S`` Schneider announced, ``Z`` Schwarz announced (``DHS``, ``GO``, ``NOH``).

    A suit or grand ouvert is a hand game with Schwarz announced even when ISS omits ``H``.
    Raises :class:`~skat.errors.RecordError` for an unknown code.
    """
    m = _CONTRACT_RE.match(code)
    if not m:
        raise RecordError(
            f"unknown game code {code!r}: expected a game letter G, C, S, H, D or N followed by "
            "O (ouvert), H (hand), S (Schneider) or Z (Schwarz)"
        )
    letter, mods = m.groups()
    if len(set(mods)) != len(mods):
        raise RecordError(f"game code {code!r} repeats a modifier")
    gt = _GAME_LETTER[letter]
    try:
        return Contract(gt, hand="H" in mods, schneider="S" in mods, schwarz="Z" in mods, ouvert="O" in mods)
    except DeclarationError as exc:
        raise RecordError(f"game code {code!r} is not a valid declaration: {exc}") from None


def format_contract(contract: Contract) -> str:
    """The ISS game code of a contract: ``G``, ``DHS``, ``CHZ``, ``GO`` (ouvert implies hand), ``NOH``."""
    code = _LETTER_OF_GAME[contract.game_type]
    if contract.ouvert:
        code += "O"
    if contract.hand and not (contract.ouvert and not contract.is_null):
        code += "H"
    if not contract.ouvert:
        if contract.schwarz:
            code += "Z"
        elif contract.schneider:
            code += "S"
    return code


# -------------------------------------------------------------------------------------- moves


class MoveKind(StrEnum):
    """What an ISS move says."""

    DEAL = "deal"  # w <32 cards>
    BID = "bid"  # <seat> <value>
    HOLD = "hold"  # <seat> y
    PASS = "pass"  # <seat> p
    PICKUP = "pickup"  # <seat> s
    SKAT = "skat"  # w <c1.c2> or w ??.??: the server hands the skat to the declarer
    DECLARE = "declare"  # <seat> <code>[.<discard1>.<discard2>][.<open cards>]
    DISCARD = "discard"  # <seat> <c1.c2>: the discard sent as a move of its own
    CARD = "card"  # <seat> <card>
    UNKNOWN_CARD = "unknown card"  # <seat> ??: a card the record does not show
    SHOW = "show"  # <seat> SC[.cards]: the declarer lays his cards down (claim)
    RESIGN = "resign"  # <seat> RE: a defender concedes, or the declarer gives up
    TIMEOUT = "timeout"  # w TI.<seat>
    LEAVE = "leave"  # w LE.<seat>


@dataclass(frozen=True)
class IssMove:
    """One (actor, action) pair of ``MV[...]``."""

    number: int
    """1-based position in ``MV`` (the deal is move 1)."""
    seat: int | None
    """The acting seat; None for the server (``w``)."""
    text: str
    """The action as written in the record."""
    kind: MoveKind
    value: int | None = None
    """A bid value, or the seat that timed out or left."""
    cards: tuple[Card, ...] = ()
    """Cards named by the move: the deal, the skat, a discard, the card played."""
    contract: Contract | None = None
    open_cards: tuple[Card, ...] = ()
    """Cards shown with an ouvert declaration or with ``SC``."""

    def __str__(self) -> str:
        return f"{'w' if self.seat is None else self.seat} {self.text}"


def _cards(parts: Sequence[str], what: str) -> tuple[Card, ...]:
    out = []
    for p in parts:
        if not _CARD_RE.match(p):
            raise RecordError(f"{what}: {p!r} is not a card (suit C S H D, rank A K Q J T 9 8 7)")
        out.append(Card.parse(p))
    if len(set(out)) != len(out):
        raise RecordError(f"{what}: a card is named twice")
    return tuple(out)


def _parse_move(number: int, actor: str, text: str) -> IssMove:
    """Classify one move; syntax only (whether it is legal is decided by the replay)."""
    where = f"move {number} ({actor} {text})"
    if actor == "w":
        parts = text.split(".")
        if number == 1:
            # the archive joins the 32 cards by '.'; ISS's live messages end each hand with '|'
            parts = re.split(r"[.|]", text)
            if len(parts) != 32:
                raise RecordError(f"{where}: the deal must name 32 cards joined by '.', found {len(parts)}")
            if "??" in parts:
                raise RecordError(f"{where}: the deal hides cards (??); a record with hidden cards cannot be replayed")
            return IssMove(number, None, text, MoveKind.DEAL, cards=_cards(parts, f"{where}, the deal"))
        if text == "??.??":
            return IssMove(number, None, text, MoveKind.SKAT)
        m = re.match(r"^(TI|LE)\.([012])$", text)
        if m:
            kind = MoveKind.TIMEOUT if m.group(1) == "TI" else MoveKind.LEAVE
            return IssMove(number, None, text, kind, value=int(m.group(2)))
        if len(parts) == 2 and all(_CARD_RE.match(p) for p in parts):
            return IssMove(number, None, text, MoveKind.SKAT, cards=_cards(parts, where))
        raise RecordError(f"{where}: unknown server move; expected the skat (c1.c2), TI.<seat> or LE.<seat>")
    if actor not in ("0", "1", "2"):
        raise RecordError(f"{where}: unknown actor {actor!r}; expected a seat 0, 1, 2 or w for the server")
    seat = int(actor)
    if number == 1:
        raise RecordError(f"{where}: MV must start with the deal by the server (w)")
    if text.isdigit():
        return IssMove(number, seat, text, MoveKind.BID, value=int(text))
    simple = {"y": MoveKind.HOLD, "p": MoveKind.PASS, "s": MoveKind.PICKUP, "RE": MoveKind.RESIGN,
              "??": MoveKind.UNKNOWN_CARD}
    if text in simple:
        return IssMove(number, seat, text, simple[text])
    if _CARD_RE.match(text):
        return IssMove(number, seat, text, MoveKind.CARD, cards=(Card.parse(text),))
    parts = text.split(".")
    if parts[0] == "SC":
        return IssMove(number, seat, text, MoveKind.SHOW, open_cards=_cards(parts[1:], f"{where}, shown cards"))
    if all(_CARD_RE.match(p) for p in parts):
        if len(parts) != 2:
            raise RecordError(f"{where}: a discard names exactly two cards, not {len(parts)}")
        return IssMove(number, seat, text, MoveKind.DISCARD, cards=_cards(parts, f"{where}, the discard"))
    if _CONTRACT_RE.match(parts[0]):
        try:
            contract = parse_contract(parts[0])
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
        shown = _cards(parts[1:], f"{where}, the cards after the game code")
        if contract.hand:
            # a hand game has no discard; cards after the code can only be an ouvert hand
            if shown and not contract.ouvert:
                raise RecordError(f"{where}: a hand game that is not ouvert shows no cards")
            return IssMove(number, seat, text, MoveKind.DECLARE, contract=contract, open_cards=shown)
        if len(shown) not in (0, 2, 12):
            raise RecordError(
                f"{where}: after a skat pickup the game code is followed by the two discarded cards "
                f"(and, ouvert, the ten cards shown), not {len(shown)} cards"
            )
        if len(shown) == 12 and not contract.ouvert:
            raise RecordError(f"{where}: only an ouvert game shows its cards")
        return IssMove(number, seat, text, MoveKind.DECLARE, contract=contract, cards=shown[:2], open_cards=shown[2:])
    raise RecordError(
        f"{where}: unknown move; expected a bid, y, p, s, a game code such as G.CT.DT or DHS, "
        "a card such as CJ, SC, RE or ??"
    )


# ------------------------------------------------------------------------------------- result

RESULT_FIELDS: tuple[str, ...] = ("d", "result", "v", "m", "bid", "p", "t", "s", "z", "p0", "p1", "p2", "l", "to", "r")
"""The fields of ``R[...]`` in the order ISS writes them. ``result`` is win, loss, penalty or
passed; ``bid`` is bidok or overbid; the others are the integers written as ``key:value``."""

_INT_FIELDS = ("d", "v", "m", "p", "t", "s", "z", "p0", "p1", "p2", "l", "to", "r")
_FIELD_NAMES = {
    "d": "declarer", "result": "result", "v": "value", "m": "matadors", "bid": "bid", "p": "card points",
    "t": "tricks", "s": "schneider", "z": "schwarz", "p0": "penalty seat 0", "p1": "penalty seat 1",
    "p2": "penalty seat 2", "l": "left", "to": "timed out", "r": "resigned",
}


@dataclass(frozen=True)
class IssResult:
    """The ``R[...]`` field of a record: the fields it holds, by the keys of :data:`RESULT_FIELDS`.

    Older records lack some fields (``r``); a passed-in deal is ``R[passed]`` and holds only
    ``result``.
    """

    fields: dict[str, int | str]

    @classmethod
    def parse(cls, text: str) -> IssResult:
        """Read the text inside ``R[...]``; raises :class:`RecordError` for unknown or repeated flags."""
        tokens = text.split()
        if tokens == ["passed"]:
            return cls({"result": "passed"})
        if not tokens:
            raise RecordError("the result R[] is empty")
        fields: dict[str, int | str] = {}

        def put(key: str, value: int | str) -> None:
            if key in fields:
                raise RecordError(f"the result names {key!r} twice")
            fields[key] = value

        for tok in tokens:
            if tok in ("win", "loss", "penalty"):
                put("result", tok)
            elif tok in ("bidok", "overbid"):
                put("bid", tok)
            elif ":" in tok:
                key, _, raw = tok.partition(":")
                if key not in _INT_FIELDS:
                    raise RecordError(f"unknown result flag {tok!r}")
                try:
                    put(key, int(raw))
                except ValueError:
                    raise RecordError(f"result flag {tok!r} needs an integer value") from None
            else:
                raise RecordError(f"unknown result flag {tok!r}")
        if "d" not in fields or "result" not in fields:
            raise RecordError(f"the result {text!r} lacks the declarer (d:) or win/loss/penalty")
        return cls(fields)

    @property
    def passed(self) -> bool:
        return self.fields.get("result") == "passed"

    @property
    def declarer(self) -> int | None:
        """The declarer's seat, or None (passed in, or a penalty before any game)."""
        d = self.fields.get("d", -1)
        return None if d == -1 else int(d)

    @property
    def won(self) -> bool | None:
        r = self.fields.get("result")
        return True if r == "win" else False if r == "loss" else None

    @property
    def value(self) -> int:
        """The signed score (``v``): positive won, negative lost."""
        return int(self.fields.get("v", 0))

    def text(self) -> str:
        """The text inside ``R[...]``, in ISS's order."""
        if self.passed:
            return "passed"
        out = []
        for key in RESULT_FIELDS:
            if key in self.fields:
                v = self.fields[key]
                out.append(str(v) if key in ("result", "bid") else f"{key}:{v}")
        return " ".join(out)

    def differences(self, theirs: IssResult) -> list[str]:
        """The fields where ``theirs`` (a record's R) differs from this one, as ``key ours X, theirs Y``.

        Only fields present in ``theirs`` are compared; a passed-in deal is compared as a whole.
        """
        if self.passed or theirs.passed:
            if self.passed == theirs.passed:
                return []
            return [f"result ours {self.fields.get('result')}, theirs {theirs.fields.get('result')}"]
        diffs = []
        for key in RESULT_FIELDS:
            if key in theirs.fields and self.fields.get(key) != theirs.fields[key]:
                diffs.append(f"{key} ours {self.fields.get(key, '-')}, theirs {theirs.fields[key]}")
        return diffs

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class ComputedResult(IssResult):
    """A result recomputed from the moves, with how the game ended and why it scores so."""

    contract: Contract | None = None
    """The declared game (also one announced before a timeout, whose discard never came)."""
    ended_by: str = "played"
    """``played``, ``claimed``, ``conceded``, ``resigned``, ``passed_in``, ``timeout``, ``left``."""
    explanation: str = ""
    game_result: GameResult | None = None
    """The engine's result when the engine finished the game (not for a timeout or a player leaving)."""
    ignored_moves: tuple[IssMove, ...] = field(default_factory=tuple)
    """Moves after the engine had ended the game (ISS sometimes lets play run on), not applied."""


# ------------------------------------------------------------------------------------- record


@dataclass(frozen=True)
class IssRecord:
    """One parsed ISS record: header properties, the deal, the moves after it and ``R[...]``."""

    properties: dict[str, str]
    """Every ``KEY[value]`` of the record in order, ``MV`` and ``R`` included."""
    hands: tuple[CardSet, CardSet, CardSet]
    skat: CardSet
    moves: tuple[IssMove, ...]
    """The moves after the deal."""
    result: IssResult
    line: int | None = None
    """Line number in the file it came from."""

    @property
    def id(self) -> str:
        """The game number ``ID[...]`` (empty when the record has none)."""
        return self.properties.get("ID", "")

    @property
    def players(self) -> tuple[str, str, str]:
        """Player names by seat (``P0 P1 P2``)."""
        p = self.properties
        return (p.get("P0", ""), p.get("P1", ""), p.get("P2", ""))

    @property
    def label(self) -> str:
        """How messages name this record: ``ISS record ID 727 (line 4)``."""
        return _label(self.id, self.line)


def _label(record_id: str | None, line: int | None) -> str:
    text = "ISS record"
    if record_id:
        text += f" ID {record_id}"
    if line is not None:
        text += f" (line {line})"
    return text


_PROP_RE = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")


def parse_iss(line: str, line_no: int | None = None) -> IssRecord:
    """Parse one ISS record line. Raises :class:`RecordError` naming the record and what is wrong."""
    text = line.strip()
    try:
        props = _parse_properties(text)
    except RecordError as exc:
        raise RecordError(f"{_label(None, line_no)}: {exc}") from None
    label = _label(props.get("ID"), line_no)
    try:
        if props.get("GM") != "Skat":
            raise RecordError(f"GM[{props.get('GM', '')}] is not a Skat game record (GM[Skat])")
        for key in ("MV", "R"):
            if key not in props:
                raise RecordError(f"the record has no {key}[...]")
        tokens = props["MV"].split()
        if len(tokens) % 2:
            raise RecordError(f"MV holds {len(tokens)} words; it must be (actor, action) pairs")
        if not tokens:
            raise RecordError("MV is empty; it must start with the deal")
        moves = [_parse_move(i // 2 + 1, tokens[i], tokens[i + 1]) for i in range(0, len(tokens), 2)]
        deal = moves[0]
        hands = (CardSet(deal.cards[0:10]), CardSet(deal.cards[10:20]), CardSet(deal.cards[20:30]))
        skat = CardSet(deal.cards[30:32])
        if any(m.kind is MoveKind.DEAL for m in moves[1:]):
            raise RecordError("MV deals twice")
        result = IssResult.parse(props["R"])
    except RecordError as exc:
        raise RecordError(f"{label}: {exc}") from None
    return IssRecord(props, hands, skat, tuple(moves[1:]), result, line_no)


def _parse_properties(text: str) -> dict[str, str]:
    if not text.startswith("(;"):
        raise RecordError(f"a record starts with '(;', not {text[:12]!r}")
    if not text.endswith(";)"):
        raise RecordError(f"a record ends with ';)', not {text[-12:]!r}")
    body = text[2:-2]
    props: dict[str, str] = {}
    pos = 0
    while pos < len(body):
        if body[pos].isspace():
            pos += 1
            continue
        m = _PROP_RE.match(body, pos)
        if not m:
            raise RecordError(f"expected KEY[value] at column {pos + 3}, found {body[pos:pos + 20]!r}")
        key, value = m.groups()
        if key in props:
            raise RecordError(f"property {key} appears twice")
        props[key] = value
        pos = m.end()
    return props


def read_iss_file(path: str | Path) -> list[IssRecord]:
    """All records of an ISS file, one per line (blank lines skipped). The first bad line raises."""
    records = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                records.append(parse_iss(line, n))
    return records


# ------------------------------------------------------------------------------------- replay


@dataclass
class _Fault:
    kind: MoveKind  # TIMEOUT or LEAVE
    seat: int


def replay(record: IssRecord, ruleset: RuleSet = ISKO) -> tuple[Game, ComputedResult]:
    """Replay a record through :class:`skat.Game` and recompute its result.

    Returns the game (finished, or stopped where a player timed out or left) and the
    recomputed result. Raises :class:`RecordError` naming the record and the move when a
    move does not replay.

    Timeouts and leaving follow ISS's rule, inferred from the records' ``R`` fields:

    * before a game is declared (the auction, or the declarer has not yet announced): no
      game is played; the result is a penalty with no declarer, and the seat at fault gets
      one penalty point (``p<seat>:1``);
    * a defender: the declarer takes every remaining card and trick, and the game is scored
      as played (Schneider and Schwarz count);
    * the declarer: the game is lost "einfach" (ISkO 4.1.4: no Schneider or Schwarz level by
      play; announced levels count). His hand is forfeit: he keeps his tricks and the skat
      (the discard once made), and the matadors are counted over those cards.

    The engine ends a Null game at the declarer's first trick and an announced Schwarz (every
    suit or grand ouvert) at his first lost trick; ISS ends them there too (IDs 25 and 13577 in
    ``tests/data/iss/early_end.sgf``). Should a record run on past that point, the moves after
    the end are not applied; they are listed in ``ignored_moves``.
    """
    label = record.label
    try:
        game = Game(hands=list(record.hands), skat=record.skat, ruleset=ruleset)
    except ValueError as exc:
        raise RecordError(f"{label}: bad deal: {exc}") from None
    pending: IssMove | None = None  # a declaration that waits for its separate discard
    unknown: IssMove | None = None  # a card play the record hides (??)
    fault: _Fault | None = None
    ignored: list[IssMove] = []
    last: IssMove | None = None
    for move in record.moves:
        if fault is not None or game.is_over:
            ignored.append(move)
            continue
        if unknown is not None and move.kind not in (MoveKind.TIMEOUT, MoveKind.LEAVE):
            raise RecordError(
                f"{label}: move {move.number} ({move}) follows the unknown card of move {unknown.number} "
                f"({unknown}); the game cannot be replayed past it"
            )
        try:
            if pending is not None and move.kind not in (MoveKind.DISCARD, MoveKind.TIMEOUT, MoveKind.LEAVE):
                raise RecordError(f"the game was announced ({pending}) but the discard of {pending} is missing")
            if move.kind in (MoveKind.TIMEOUT, MoveKind.LEAVE):
                assert move.value is not None
                fault = _Fault(move.kind, move.value)
            else:
                pending, unknown = _apply(game, move, last, pending, unknown)
        except (IllegalActionError, RecordError) as exc:
            raise RecordError(f"{label}: move {move.number} ({move}) does not replay: {exc}") from None
        last = move
    if fault is not None:
        contract = game.contract or (pending.contract if pending is not None else None)
        return game, _fault_result(game, contract, fault, ruleset, tuple(ignored))
    if not game.is_over:
        where = f"phase {game.phase.value}"
        if game.to_move is not None:
            where += f", seat {game.to_move} to move"
        raise RecordError(f"{label}: the moves end before the game does ({where})")
    return game, result_of_game(game, tuple(ignored))


def _apply(
    game: Game, move: IssMove, last: IssMove | None, pending: IssMove | None, unknown: IssMove | None
) -> tuple[IssMove | None, IssMove | None]:
    """Apply one seat or server move to the game; returns the new (pending declaration, unknown card)."""
    seat = move.seat
    kind = move.kind
    if kind is MoveKind.SKAT:
        if last is None or last.kind is not MoveKind.PICKUP or game.phase is not Phase.DISCARD:
            raise RecordError("the server hands over the skat only right after the declarer's pickup (s)")
        if move.cards and CardSet(move.cards).mask != game.initial_skat:
            dealt = CardSet.from_mask(game.initial_skat)
            raise RecordError(f"the skat handed over ({move.text}) is not the dealt skat ({dealt})")
        return pending, unknown
    assert seat is not None
    if kind is MoveKind.BID:
        assert move.value is not None
        game.apply(Bid(move.value), seat)
    elif kind is MoveKind.HOLD:
        game.apply(HOLD, seat)
    elif kind is MoveKind.PASS:
        game.apply(PASS, seat)
    elif kind is MoveKind.PICKUP:
        game.apply(PICKUP, seat)
    elif kind is MoveKind.CARD:
        game.apply(Play(move.cards[0]), seat)
    elif kind is MoveKind.UNKNOWN_CARD:
        if game.phase is not Phase.PLAY or game.to_move != seat:
            raise RecordError(f"seat {seat} cannot play a card now")
        return pending, move
    elif kind is MoveKind.SHOW:
        if move.open_cards:
            _check_shown(game, seat, move.open_cards, "the cards shown with SC")
        if seat != game.declarer:
            raise RecordError(f"only the declarer can lay down his cards (SC), not seat {seat}")
        game.apply(CLAIM, seat)
    elif kind is MoveKind.RESIGN:
        game.apply(RESIGN if seat == game.declarer else CONCEDE, seat)
    elif kind is MoveKind.DECLARE:
        return _declare(game, move), unknown
    elif kind is MoveKind.DISCARD:
        game.apply(Discard(CardSet(move.cards)), seat)
        if pending is not None:
            _announce(game, pending)
        return None, unknown
    else:  # pragma: no cover - every kind is handled above
        raise RecordError(f"unexpected move kind {kind}")
    return pending, unknown


def _declare(game: Game, move: IssMove) -> IssMove | None:
    contract = move.contract
    assert contract is not None and move.seat is not None
    if game.phase is Phase.DISCARD:
        if contract.hand:
            raise RecordError("a hand game cannot be declared after picking up the skat")
        if game.to_move != move.seat:
            raise RecordError(f"seat {move.seat} is not the declarer")
        if not move.cards:
            return move  # ISS sends the discard as a move of its own
        game.apply(Discard(CardSet(move.cards)), move.seat)
    elif move.cards:
        raise RecordError("a discard is only possible after picking up the skat")
    _announce(game, move)
    return None


def _announce(game: Game, move: IssMove) -> None:
    assert move.contract is not None and move.seat is not None
    game.apply(Declare(move.contract), move.seat)
    if move.open_cards:
        _check_shown(game, move.seat, move.open_cards, "the ouvert cards")


def _check_shown(game: Game, seat: int, shown: Sequence[Card], what: str) -> None:
    if CardSet(shown) != game.hand(seat):
        raise RecordError(f"{what} ({CardSet(shown)}) are not seat {seat}'s hand ({game.hand(seat)})")


# ------------------------------------------------------------------------------- result rules


def _tricks_mask(game: Game, seat: int) -> tuple[int, int]:
    """(cards in the seat's tricks, number of tricks) so far."""
    mask = 0
    count = 0
    for _leader, (a, b, c), winner in game.tricks:
        if winner == seat:
            count += 1
            mask |= (1 << a) | (1 << b) | (1 << c)
    return mask, count


def _declarer_skat(game: Game) -> int:
    """The two cards that count for the declarer besides his tricks: the discard, else the skat."""
    return game.discard if game.discard is not None else game.initial_skat


def _points_and_tricks(game: Game) -> tuple[int, int]:
    declarer = game.declarer
    assert declarer is not None
    won, count = _tricks_mask(game, declarer)
    return mask_points(won | _declarer_skat(game)), count


def result_of_game(game: Game, ignored_moves: tuple[IssMove, ...] = ()) -> ComputedResult:
    """The ISS result of a game the engine finished (played out, claimed, conceded, resigned, passed in).

    ``p`` and ``t`` count the declarer's tricks and the skat (the discard once made), plus the
    cards not yet played when both defenders conceded. ``s`` and ``z`` are the Schneider and
    Schwarz of that card distribution; a game that ended at the declarer's first lost trick of an
    announced Schwarz counts only the cards taken so far (see :func:`_schneider_schwarz_so_far`).
    ``r`` is 1 for a claim, a concession or the declarer giving up.
    """
    result = game.result
    if result is None:
        raise ValueError("the game is not finished; only a finished game has a result")
    if result.declarer is None:
        return ComputedResult({"result": "passed"}, ended_by="passed_in", explanation=result.explanation,
                              game_result=result, ignored_moves=ignored_moves)
    outcome = result.outcome
    contract = result.contract
    assert outcome is not None and contract is not None
    schneider, schwarz = outcome.schneider, outcome.schwarz
    if contract.is_null:
        # ISS counts the Null declarer's card points as his tricks plus the skat (or discard)
        points = _points_and_tricks(game)[0]
        m = 0
    else:
        assert result.declarer_points is not None and outcome.matadors is not None
        points = result.declarer_points
        m = outcome.matadors if outcome.matadors_with else -outcome.matadors
        if result.kind == "played" and len(game.tricks) < 10:
            schneider, schwarz = _schneider_schwarz_so_far(game, points)
    fields: dict[str, int | str] = {
        "d": result.declarer,
        "result": "win" if outcome.won else "loss",
        "v": outcome.score,
        "m": m,
        "bid": "overbid" if outcome.overbid else "bidok",
        "p": points,
        "t": result.declarer_tricks,
        "s": int(schneider),
        "z": int(schwarz),
        "p0": 0, "p1": 0, "p2": 0,
        "l": -1, "to": -1,
        "r": int(result.kind in ("claimed", "conceded", "resigned")),
    }
    return ComputedResult(fields, contract=contract, ended_by=result.kind, explanation=result.explanation,
                          game_result=result, ignored_moves=ignored_moves)


def _schneider_schwarz_so_far(game: Game, declarer_points: int) -> tuple[bool, bool]:
    """``s`` and ``z`` of a suit or grand game that ended before its tenth trick without a claim,
    concession or resignation: an announced Schwarz (every suit or grand ouvert included) ends at
    the declarer's first lost trick.

    ISS writes both flags over the cards taken so far; the cards not yet played count for nobody
    (ID 13577, clubs ouvert lost in the first trick: ``p:13 t:0 s:0 z:0``, where counting the rest
    for the defenders would make the declarer Schneider and Schwarz). So ``s`` is 1 when the
    declarer has reached the Schneider mark or the defenders' tricks hold 90 points, ``z`` when one
    side holds all ten tricks (which cannot happen before the tenth trick).
    """
    declarer = game.declarer
    assert declarer is not None
    defender_points = 0
    defender_tricks = 0
    for d in range(3):
        if d != declarer:
            mask, count = _tricks_mask(game, d)
            defender_points += mask_points(mask)
            defender_tricks += count
    declarer_tricks = _tricks_mask(game, declarer)[1]
    schneider = declarer_points >= game.ruleset.schneider_points or defender_points >= 90
    schwarz = declarer_tricks == 10 or defender_tricks == 10
    return schneider, schwarz


def _fault_result(
    game: Game, contract: Contract | None, fault: _Fault, ruleset: RuleSet, ignored: tuple[IssMove, ...]
) -> ComputedResult:
    """The result when a seat times out or leaves (see :func:`replay` for the rule)."""
    ended_by = "timeout" if fault.kind is MoveKind.TIMEOUT else "left"
    who = f"seat {fault.seat} {'timed out' if fault.kind is MoveKind.TIMEOUT else 'left the table'}"
    base: dict[str, int | str] = {"p0": 0, "p1": 0, "p2": 0, "l": -1, "to": -1, "r": 0}
    base["to" if fault.kind is MoveKind.TIMEOUT else "l"] = fault.seat
    declarer = game.declarer
    if declarer is None or contract is None:
        fields: dict[str, int | str] = {"d": -1, "result": "penalty", "v": 0, "m": 0, "bid": "bidok", "p": 0,
                                        "t": 0, "s": 0, "z": 0, **base}
        fields[f"p{fault.seat}"] = 1
        return ComputedResult(fields, ended_by=ended_by, ignored_moves=ignored,
                              explanation=f"penalty: {who} before a game was declared; no game is scored")
    twelve = game.initial_hands[declarer] | game.initial_skat
    if fault.seat != declarer:
        # the declarer takes every card not yet won by the defenders, and every remaining trick
        defender_mask = 0
        for d in range(3):
            if d != declarer:
                defender_mask |= _tricks_mask(game, d)[0]
        own_points, own_tricks = _points_and_tricks(game)
        done = len(game.tricks)
        if contract.is_null:
            points, tricks = own_points, own_tricks
        else:
            points, tricks = 120 - mask_points(defender_mask), own_tricks + 10 - done
        outcome = evaluate(contract, twelve, None if contract.is_null else points, tricks, game.bid, ruleset)
        fields = {
            "d": declarer, "result": "win" if outcome.won else "loss", "v": outcome.score,
            "m": 0 if contract.is_null else (outcome.matadors or 0) * (1 if outcome.matadors_with else -1),
            "bid": "overbid" if outcome.overbid else "bidok", "p": points, "t": tricks,
            "s": int(outcome.schneider), "z": int(outcome.schwarz), **base,
        }
        return ComputedResult(fields, contract=contract, ended_by=ended_by, ignored_moves=ignored,
                              explanation=f"{outcome.explanation} ({who}: the rest goes to the declarer)")
    # the declarer is at fault: lost "einfach", his hand forfeit
    points, tricks = _points_and_tricks(game)
    kept = _tricks_mask(game, declarer)[0] | _declarer_skat(game)
    factor = ruleset.lost_hand_game_factor if contract.hand else ruleset.lost_game_factor
    if contract.is_null:
        value = null_value(contract.hand, contract.ouvert)
        overbid = value < game.bid
        m = 0
        loss = value
        desc = f"{contract} is worth {value}"
    else:
        gt = contract.game_type
        with_, count = matadors(gt, kept)
        m = count if with_ else -count
        levels = multiplier(count, contract.hand, False, contract.schneider, False, contract.schwarz, contract.ouvert)
        base_value = gt.base_value
        value = levels * base_value
        overbid = value < game.bid
        loss = max(value, base_value * math.ceil(game.bid / base_value))
        desc = (f"{contract} {'with' if with_ else 'without'} {count} (over the cards he keeps: "
                f"{CardSet.from_mask(kept)}) is worth {value}")
    fields = {"d": declarer, "result": "loss", "v": -factor * loss, "m": m,
              "bid": "overbid" if overbid else "bidok", "p": points, "t": tricks, "s": 0, "z": 0, **base}
    return ComputedResult(fields, contract=contract, ended_by=ended_by, ignored_moves=ignored,
                          explanation=f"lost einfach: the declarer ({who}) forfeits his hand; {desc}; "
                                      f"loses {factor} x {loss}")


def verify(record: IssRecord, ruleset: RuleSet = ISKO) -> list[str]:
    """The differences between the record's ``R[...]`` and the recomputed result (empty: they agree).

    Raises :class:`RecordError` when the record does not replay.
    """
    _game, computed = replay(record, ruleset)
    return computed.differences(record.result)


# -------------------------------------------------------------------------------------- write


def _check_value(name: str, value: str) -> str:
    if "]" in value or "\n" in value or "\r" in value:
        raise ValueError(f"{name} {value!r} cannot be written to an ISS record: it holds ']' or a line break")
    return value


def to_iss(
    game: Game,
    players: Iterable[str] = ("P0", "P1", "P2"),
    *,
    game_id: int | str = 0,
    server: str = "skat",
    series: int | str = 0,
    date: datetime | None = None,
    comment: str = "",
) -> str:
    """Write a finished game as one ISS record line (without a line break).

    The declaration is written with its discard (``G.CT.DT``); ``SC`` stands for a claim and
    ``RE`` for a concession or the declarer's resignation; ``R[...]`` holds the result as
    :func:`result_of_game` computes it.
    """
    if not game.is_over:
        raise ValueError("only a finished game can be written as an ISS record")
    if game.result is not None and game.result.kind == "ramsch":
        pushed = " (nor a Schieberamsch's pushes of the skat)" if game.ruleset.schieberamsch else ""
        raise ValueError(f"ISS plays no Ramsch: a Ramsch cannot be written as an ISS record{pushed}")
    names = [str(p) for p in players]
    if len(names) != 3:
        raise ValueError(f"give three player names, not {len(names)}")
    deal = [*game.initial_hands, game.initial_skat]
    moves = ["w " + ".".join(c.name for mask in deal for c in CardSet.from_mask(mask))]
    discard: CardSet | None = None
    for seat, action in game.history:
        if isinstance(action, Bid):
            moves.append(f"{seat} {action.value}")
        elif isinstance(action, Hold):
            moves.append(f"{seat} y")
        elif isinstance(action, Pass):
            moves.append(f"{seat} p")
        elif isinstance(action, PickUp):
            moves.append(f"{seat} s")
            moves.append("w " + ".".join(c.name for c in CardSet.from_mask(game.initial_skat)))
        elif isinstance(action, Discard):
            discard = action.cards
        elif isinstance(action, Declare):
            code = format_contract(action.contract)
            if discard is not None:
                code += "." + ".".join(c.name for c in discard)
            moves.append(f"{seat} {code}")
        elif isinstance(action, Play):
            moves.append(f"{seat} {action.card.name}")
        elif isinstance(action, Claim):
            moves.append(f"{seat} SC")
        elif isinstance(action, (Concede, Resign)):
            moves.append(f"{seat} RE")
        else:  # pragma: no cover - the engine has no other actions
            raise ValueError(f"action {action} has no ISS form")
    props = [("GM", "Skat"), ("PC", server), ("CO", comment), ("SE", str(series)), ("ID", str(game_id))]
    if date is not None:
        props.append(("DT", date.strftime("%Y-%m-%d/%H:%M:%S/UTC")))
    props += [(f"P{i}", n) for i, n in enumerate(names)]
    props += [(f"R{i}", "") for i in range(3)]
    head = "".join(f"{k}[{_check_value(k, v)}]" for k, v in props)
    return f"(;{head}MV[{' '.join(moves)} ]R[{result_of_game(game).text()}] ;)"

