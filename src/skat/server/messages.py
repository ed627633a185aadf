"""The table protocol's messages as pydantic models (docs/protocol.md; its JSON Schema: docs/protocol.schema.json).

* WebSocket ``/ws/{table_id}``: :data:`ClientMessage` (client -> server, parsed with :data:`CLIENT_ADAPTER`) and
  :data:`ServerMessage` (server -> client), each a union discriminated on ``type``, with the parts of a state
  (:class:`TableInfo`, the seat views, results, hints) and of the score sheet.
* :class:`Incoming` is what a client sends (these messages and the REST bodies of
  :mod:`skat.server.routes.models`): strict JSON types; a field that does not fit is refused with the error code
  of its :class:`Refusal` (:func:`refusal_of`), the code the server has always answered for it.
* :func:`check_outgoing` checks a message the server is about to send against :data:`ServerMessage`
  (``skat.server.tables.encode_message`` calls it when :func:`checking`: ``SKAT_CHECK_MESSAGES=1``, as in the
  test suite).

The error codes are :class:`skat.server.errors.ErrorCode` (re-exported here). This module imports nothing of the
server but :mod:`skat.server.errors`, so that every server module (``skat.server.tables`` too) may import it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Discriminator, Field, JsonValue, Tag, TypeAdapter, ValidationError

from skat.server.errors import CLOSE_CODES, ErrorCode

__all__ = ["PROTOCOL_VERSION", "ErrorCode", "CLOSE_CODES", "ClientMessage", "ServerMessage", "CLIENT_ADAPTER",
           "SERVER_ADAPTER", "CLIENT_TYPES", "Incoming", "Refusal", "refusal_of", "check_outgoing", "checking",
           "OutgoingMessageError", "Fixed", "TableInfo", "Sheet", "View", "judged", "CHAT_PHRASES", "ChatLine"]

PROTOCOL_VERSION = 1
"""The protocol's version (``skat.server.tables.PROTOCOL_VERSION`` is the same number; a test holds them equal)."""

CARD_PATTERN = r"^[CSHD][789TJQKA]$"
Card = Annotated[str, Field(pattern=CARD_PATTERN, description="a card: suit C S H D, rank 7 8 9 T J Q K A")]
Position = Annotated[int, Field(ge=0, le=4, description="a table position (0, 1, 2[, 3[, 4]])")]
Seat = Annotated[int, Field(ge=0, le=2, description="a game seat: 0 forehand, 1 middlehand, 2 rearhand "
                                                    "(Officers' Skat: 0 forehand, 1 dealer)")]


def union_adapter(union: Any) -> TypeAdapter[Any]:
    """The validator of a discriminated union of messages (``Annotated[A | B, Field(discriminator="type")]``: a
    value mypy types differently by its cache, so it is taken as Any here)."""
    return TypeAdapter(union)


class Fixed(BaseModel):
    """A part of the server's answers whose shape is fixed: nothing else may be in it."""

    model_config = ConfigDict(extra="forbid")


class Open(BaseModel):
    """A part whose shape a library owns (the keeper's list, an analysis' rows): more fields may come."""

    model_config = ConfigDict(extra="allow")


# ------------------------------------------------------------------ the game's parts
class Contract(Fixed):
    game: Literal["diamonds", "hearts", "spades", "clubs", "grand", "null", "ramsch"]
    hand: bool
    schneider: bool
    schwarz: bool
    ouvert: bool


class Outcome(Fixed):
    """The value of a declared game (``skat.rules.value.Outcome``)."""

    contract: Contract
    bid: int
    won: bool
    overbid: bool
    matadors_with: bool | None
    matadors: int | None
    multiplier: int | None
    base_value: int | None
    game_value: int
    score: int
    declarer_points: int | None
    declarer_tricks: int
    schneider: bool
    schwarz: bool
    explanation: str


class RamschOutcome(Fixed):
    scores: list[int]
    card_points: list[int]
    tricks: list[int]
    losers: list[Seat]
    jungfrauen: list[Seat]
    durchmarsch: Seat | None
    pushes: int
    multiplier: int
    explanation: str


class SkatResult(Fixed):
    """How a Skat deal ended (``GameResult.to_json()``; a Tournee game adds ``game_name``, ``second_turn``,
    ``turned``; ``kontra_level``, ``ramsch`` and ``revoke_by`` only when they apply)."""

    kind: str
    declarer: Seat | None
    contract: Contract | None
    bid: int
    won: bool | None
    declarer_points: int | None
    defender_points: int | None
    declarer_tricks: int
    skat: list[Card]
    discard: list[Card] | None
    outcome: Outcome | None
    scores: list[int]
    explanation: str
    kontra_level: int = 0
    ramsch: RamschOutcome | None = None
    revoke_by: Seat | None = None
    game_name: str | None = None
    second_turn: bool | None = None
    turned: list[str] | None = None


class OfficersOutcome(Fixed):
    game: str
    chooser: Seat | None
    won: bool | None
    winner: Seat | None
    matadors_with: bool | None
    matadors: int | None
    base_value: int | None
    game_value: int | None
    schneider: bool
    schwarz: bool
    kontra_level: int
    scores: list[int]
    explanation: str


class OfficersResult(Fixed):
    kind: str
    variant: str
    game: str | None
    chooser: Seat | None
    contract: Contract | None
    bid: int
    kontra_level: int
    points: list[int]
    tricks: list[int]
    skat: list[Card] | None
    outcome: OfficersOutcome | None
    scores: list[int]
    explanation: str


Trick = tuple[Seat, list[Card], Seat]
"""A trick taken: ``[leader, [cards], winner]``."""

Phase = Literal["bidding", "skat", "discard", "declare", "play", "finished", "grand_hand", "push", "choose",
                "kontra", "re"]


class SkatView(Fixed):
    """A seat's view of a Skat deal (``skat.records.wire.seat_view_to_json``); a spectator's has ``seat`` null."""

    kontra_level: int
    seat: Seat | None
    phase: Phase
    to_move: Seat | None
    hand: list[Card]
    legal_actions: list[str]
    side_actions: list[str]
    auction: list[tuple[Seat, str]]
    bid: int
    declarer: Seat | None
    contract: Contract | None
    skat: list[Card] | None
    discard: list[Card] | None
    open_hands: dict[str, list[Card]]
    trick: list[tuple[Seat, Card]]
    tricks: list[Trick]
    trick_points: list[int]
    hand_sizes: list[int]
    result: SkatResult | None
    ruleset: str | None


class OfficersView(Fixed):
    """A seat's view of an Officers' Skat game (``skat.records.wire.officers_view_to_json``): piles from the
    top down, ``null`` for a card this seat cannot see."""

    seat: Seat | None
    variant: str
    phase: Phase
    to_move: Seat | None
    legal_actions: list[str]
    chooser: Seat | None
    game: str | None
    contract: Contract | None
    kontra_level: int
    bid: int
    auction: list[tuple[Seat, str]]
    own_piles: list[list[Card | None]]
    opponent_piles: list[list[Card | None]]
    hand: list[Card]
    opponent_hand_size: int
    opponent_hand: list[Card] | None
    skat: list[Card] | None
    discard: list[Card] | None
    skat_size: int
    trick: list[tuple[Seat, Card]]
    tricks: list[Trick]
    trick_points: list[int]
    tricks_won: list[int]
    result: OfficersResult | None
    options: dict[str, JsonValue]


def _view_kind(data: Any) -> str:
    if not isinstance(data, Mapping):
        return type(data).__name__  # a model, as it is serialized
    return "OfficersView" if "own_piles" in data else "SkatView"


View = Annotated[Annotated[SkatView, Tag("SkatView")] | Annotated[OfficersView, Tag("OfficersView")],
                 Discriminator(_view_kind)]


class Matadors(Fixed):
    with_: bool = Field(alias="with")
    count: int


class BidEstimate(Fixed):
    value: int
    game: str | None
    hand: bool
    p: int
    matadors: Matadors | None
    trumps: int | None
    aces: int
    tens: int


class ContractValue(Fixed):
    token: str
    contract: Contract
    value: int
    exact: bool
    matadors: Matadors | None


class SortedCards(Fixed):
    hand: list[Card]
    open: dict[str, list[Card]]


class AuctionTurn(Fixed):
    seat: Seat
    asks: Literal["bid", "hold", "play"]
    value: int


class Hints(Fixed):
    """Advice and facts from the seat's own view (each only when it applies)."""

    bid_estimate: BidEstimate | None = None
    contracts: list[ContractValue] | None = None
    sorted: SortedCards | None = None
    auction_turn: AuctionTurn | None = None


class Dealt(Fixed):
    hands: list[list[Card]]
    skat: list[Card]


class You(Fixed):
    position: Position | None
    seat: Seat | None
    role: Literal["player", "spectator"]


# ------------------------------------------------------------------ tables and sheets
class SeatInfo(Fixed):
    position: Position
    kind: Literal["human", "bot"]
    name: str
    bot: str | None
    taken: bool
    connected: bool | None
    game_seat: Seat | None


class Upcoming(Fixed):
    round: str | None
    queued: list[str]
    next_pirate_threshold: int | None


class SkatTotals(Fixed):
    classic: list[int]
    seeger_fabian: list[int]


class OfficersTotals(Fixed):
    scores: list[int]


Status = Literal["waiting", "starting", "playing", "between_deals", "finished", "paused", "stopped"]


class ClockTurn(Fixed):
    """The decision the move clock runs for: whose, when it began, when its own time ends and when the person's
    reserve ends too (wall-clock seconds)."""

    position: Position
    started: float
    decision_ends: float
    ends: float


class ClockInfo(Fixed):
    """A table's move clock (docs/clock.md): its settings, the decision it runs for, the reserves left this deal
    (by position) and the positions whose computer stand-in decides (``away``)."""

    decision: int
    reserve: int
    grace: int
    ready: int
    stand_in: str
    turn: ClockTurn | None
    ready_ends: float | None
    reserve_left: dict[str, float]
    away: list[Position]


class TableInfo(Fixed):
    """What anybody may know of a table (``ServerTable.public_info()``)."""

    id: str
    name: str
    variant: str
    ruleset: str | None
    officers_variant: str | None
    options: dict[str, JsonValue]
    seeded: bool
    public: bool
    hints: bool
    n_players: int
    status: Status
    stopped: str | None
    deal_no: int
    game_no: int | None
    round: str | None
    upcoming: Upcoming
    dealer: Position
    positions: list[Position]
    seats: list[SeatInfo]
    ready: list[Position]
    spectators: int
    totals: SkatTotals | OfficersTotals
    clock: ClockInfo | None


class HeldElsewhere(Fixed):
    """A lobby entry of a table another server process holds: what the database knows of it."""

    id: str
    name: str
    variant: str
    ruleset: str | None
    officers_variant: str | None
    options: dict[str, JsonValue]
    seeded: bool
    public: bool
    n_players: int
    status: Status
    deal_no: int
    seats: list[SeatInfo]
    held_elsewhere: Literal[True]


class SheetRow(Fixed):
    deal_no: int
    dealer: Position
    declarer: Position | None
    game: str
    contract: str
    won: bool | None
    score: int
    scores: list[int]
    round: str
    bock: bool
    kontra: int
    events: list[str]
    classic: list[int]
    seeger: list[int]
    bid: int
    value: int | None
    matadors: int | None
    matadors_with: bool | None
    hand: bool
    schneider: bool
    schneider_announced: bool
    schwarz: bool
    schwarz_announced: bool
    ouvert: bool
    overbid: bool


class SkatSheet(Fixed):
    n_players: int
    ruleset: str
    rows: list[SheetRow]
    classic: list[int]
    seeger_fabian: list[int]
    won: list[int]
    lost: list[int]
    settlement: list[float]
    upcoming: Upcoming


class OfficersSheetRow(Fixed):
    deal_no: int
    forehand: Position
    dealer: Position
    game: str | None
    chooser: Position | None
    points: list[int]
    scores: list[int]
    totals: list[int]
    explanation: str


class OfficersSheet(Fixed):
    n_players: Literal[2]
    variant: Literal["officers"]
    officers_variant: str
    options: dict[str, JsonValue]
    rows: list[OfficersSheetRow]
    totals: list[int]
    won: list[int]
    upcoming: Upcoming


def _sheet_kind(data: Any) -> str:
    if not isinstance(data, Mapping):
        return type(data).__name__
    return "OfficersSheet" if data.get("variant") == "officers" else "SkatSheet"


Sheet = Annotated[Annotated[SkatSheet, Tag("SkatSheet")] | Annotated[OfficersSheet, Tag("OfficersSheet")],
                  Discriminator(_sheet_kind)]


# ------------------------------------------------------------------ WebSocket: client -> server
class Incoming(BaseModel):
    """A message or request body a client sends: strict JSON types; fields the server does not know are
    ignored. A field that does not fit is refused with its :attr:`refusals` entry (else :attr:`refusal`)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    refusals: ClassVar[dict[str, Refusal]] = {}
    refusal: ClassVar[Refusal]
    items: ClassVar[dict[str, tuple[type[Incoming], str]]] = {}
    """Fields that are lists of models: the item's model, and the item's name in a refusal (``change 2: ...``)."""


@dataclass(frozen=True)
class Refusal:
    """How a request whose field does not fit is answered: ``code``, ``status`` (REST) and the message, in
    which ``{value}`` is the value sent (``{text}``: as a quoted text), ``{where}`` the field's place, ``{item}``
    the list item it is in (``change 2``) and ``{detail}`` what is wrong with it."""

    code: ErrorCode
    message: str = "{where}: {detail}"
    status: int = 400


BAD_MESSAGE = Refusal(ErrorCode.BAD_MESSAGE, "{where}: {detail}; see docs/protocol.md")
Incoming.refusal = BAD_MESSAGE


def judged(schema: dict[str, Any], what: str, default: Any = None, **field: Any) -> Any:
    """A field the server reads as any JSON value and judges where it uses it, with the error code it has always
    answered there (after the checks that come first: ``not_a_player`` before ``bad_action``); ``schema`` is what a
    client sends (the JSON Schema's type for it)."""

    def document(documented: dict[str, Any]) -> None:
        documented.clear()
        documented.update(schema, description=what)

    return Field(default, json_schema_extra=document, **field)


class Hello(Incoming):
    """Take your seat (``token``) or watch (none; at a private table with its ``invite``)."""

    type: Literal["hello"]
    protocol: Literal[1] = 1
    token: str | None = None
    invite: JsonValue = judged({"type": ["string", "null"], "default": None},
                               "the invite secret of a private table, to watch it (a wrong one: bad_invite)")
    chat: bool = Field(False, description="true: send the table's recent chat (chat_history) after the state "
                                          "(docs/chat.md)")
    refusals = {"protocol": Refusal(ErrorCode.PROTOCOL, f"this server speaks protocol {PROTOCOL_VERSION}, not "
                                                        "{text}"),
                "token": Refusal(ErrorCode.BAD_TOKEN, "the token must be a string", 403)}


class Action(Incoming):
    """Act: ``action`` is an action token (``18``, ``pass``, ``CJ``, ...); ``seq`` the state's seq it answers."""

    model_config = ConfigDict(extra="ignore", strict=True, json_schema_extra={"required": ["type", "action"]})
    type: Literal["action"]
    action: JsonValue = judged({"type": "string", "maxLength": 80}, "an action token (one that cannot be read: "
                               "bad_action; one the engine refuses: illegal_action)")
    seq: JsonValue = judged({"type": ["integer", "null"], "default": None},
                            "the seq of the state this action answers (another one: stale, and a fresh state)")


class NextDeal(Incoming):
    type: Literal["next_deal"]


class StateRequest(Incoming):
    type: Literal["state"]


class SheetRequest(Incoming):
    type: Literal["sheet"]


class Ping(Incoming):
    type: Literal["ping"]
    t: JsonValue = None


class HintRequest(Incoming):
    type: Literal["hint"]


class Back(Incoming):
    """A person whose computer stand-in took over (their time ran out, docs/clock.md) takes the seat back."""

    type: Literal["back"]


CHAT_PHRASES = ("hello", "good_luck", "well_played", "good_game", "thanks", "sorry", "oops", "bye")
"""The preset phrases of the chat (docs/chat.md): a message carries the key, every client shows it in its own
language."""


class ChatSend(Incoming):
    """Say something at the table (docs/chat.md): ``text`` (plain text, 1 to 300 characters) or a preset ``phrase``.
    A player's message goes to the players' channel, a spectator's to the spectators'."""

    type: Literal["chat"]
    text: JsonValue = judged({"type": ["string", "null"], "default": None},
                             "plain text, 1 to 300 characters after trimming (control characters removed): more is "
                             "chat_too_long, nothing chat_empty; markup is kept as text")
    phrase: JsonValue = judged({"type": ["string", "null"], "enum": [*CHAT_PHRASES, None], "default": None},
                               "a preset phrase's key instead of a text (another one: bad_phrase)")


class Mute(Incoming):
    """Hide (``on``: true) or show again (false) the messages of one ``author`` (the ``from.author`` of a chat
    message) for this connection; the page keeps its list and sends it again after each ``hello``."""

    type: Literal["mute"]
    author: JsonValue = judged({"type": "string", "maxLength": 40}, "the author's id, as chat messages give it")
    on: JsonValue = judged({"type": "boolean", "default": True}, "true: hide the author's messages; false: show them")


ClientMessage = Annotated[Hello | Action | NextDeal | StateRequest | SheetRequest | Ping | HintRequest | ChatSend | Mute
                          | Back,
                          Field(discriminator="type")]
"""Every message a client sends on ``/ws/{table_id}``."""
CLIENT_ADAPTER = union_adapter(ClientMessage)
CLIENT_TYPES: dict[str, type[Incoming]] = {m.model_fields["type"].annotation.__args__[0]: m  # type: ignore[union-attr]
                                           for m in (Hello, Action, NextDeal, StateRequest, SheetRequest, Ping,
                                                     HintRequest, ChatSend, Mute, Back)}



# ------------------------------------------------------------------ WebSocket: server -> client
class Welcome(Fixed):
    type: Literal["welcome"]
    protocol: Literal[1]
    table_id: str
    position: Position | None
    role: Literal["player", "spectator"]


class State(Fixed):
    """The table as this client may see it; sent after every change and on request."""

    type: Literal["state"]
    protocol: Literal[1]
    seq: int
    stopped: str | None
    table: TableInfo
    you: You
    view: View | None
    hints: Hints
    dealt: Dealt | None
    now: float
    """The server's wall clock (seconds) as it sent the state: a browser reads the move clock's times by it."""


class SheetMessage(Fixed):
    type: Literal["sheet"]
    sheet: Sheet


class ErrorMessage(Fixed):
    """One message refused; nothing changed (or, with a close code after it, the connection ends)."""

    type: Literal["error"]
    code: ErrorCode
    message: str


class HintWhy(Fixed):
    key: Literal["only", "take", "smear", "partner_takes", "lost", "stay_under", "null_catch", "trump_out",
                 "cash", "search_win", "search_beat", "search_avg", "search_equal", "rule_of_thumb",
                 "pickup", "pickup_only", "hand_game", "discard_for", "declare", "win_chance", "overbid"]
    card: Card | None = None
    points: int | None = None
    n: int | None = None
    k: int | None = None
    contract: Contract | None = None
    p: int | None = None


class HintMessage(Fixed):
    """The ``strong`` computer player's choice in the seat's place: the card to play (``card``), or the declarer's
    choice (``card`` null): pick up or a hand game, the two cards to put away (``discard``), the game
    (``contract``). ``action`` is the action token it would send."""

    type: Literal["hint"]
    action: str
    card: Card | None
    discard: list[Card] | None = None
    contract: Contract | None = None
    reason: str
    why: list[HintWhy]
    seq: int


class Pong(Fixed):
    type: Literal["pong"]
    t: JsonValue = None


class Closed(Fixed):
    """The table was closed by a seated person, or archived (``reason`` ``idle``)."""

    type: Literal["closed"]
    table_id: str
    message: str
    reason: Literal["idle"] | None = None


class Stopped(Fixed):
    type: Literal["stopped"]
    table_id: str
    reason: str


class Spectators(Fixed):
    """How many watch the table, after spectators came or went (their arrivals within half a second told once;
    the seat holders' states are not sent again for them)."""

    type: Literal["spectators"]
    table_id: str
    spectators: int = Field(ge=0)


class ChatAuthor(Fixed):
    """Who wrote a chat message: the name, the table position (null: a spectator, the lobby) and ``author``, an id
    to mute by (a hash of the person's key: never an account's id, a guest's or a seat's token)."""

    name: str
    position: Position | None
    author: str


class ChatLine(Fixed):
    """One chat message: its ``text`` (plain text: show it as text, never as markup) or a preset ``phrase``'s key."""

    id: int
    channel: Literal["players", "spectators", "lobby"]
    from_: ChatAuthor = Field(alias="from")
    text: str | None
    phrase: str | None
    at: float


class ChatMessage(ChatLine):
    """A chat message said at the table now."""

    type: Literal["chat"]


class ChatHistory(Fixed):
    """The table's recent chat messages (after ``welcome``), oldest first."""

    type: Literal["chat_history"]
    messages: list[ChatLine]


class ChatDeleted(Fixed):
    """The server's operator deleted a chat message: no longer show it."""

    type: Literal["chat_deleted"]
    id: int


ServerMessage = Annotated[Welcome | State | SheetMessage | ErrorMessage | HintMessage | Pong | Closed | Stopped
                          | Spectators | ChatMessage | ChatHistory | ChatDeleted, Field(discriminator="type")]
"""Every message the server sends on ``/ws/{table_id}``."""
SERVER_ADAPTER = union_adapter(ServerMessage)


# ------------------------------------------------------------------ checking what the server sends
class OutgoingMessageError(ValueError):
    """A message the server was about to send does not match the protocol's models."""


def checking() -> bool:
    """Whether outgoing messages are checked (``SKAT_CHECK_MESSAGES=1``: the test suite)."""
    return os.environ.get("SKAT_CHECK_MESSAGES") == "1"


def check_outgoing(message: Mapping[str, Any] | str, adapter: TypeAdapter[Any] | None = None) -> None:
    """Check one message the server is about to send (a dict, or its JSON text) as it goes over the wire, against
    :data:`ServerMessage` (or ``adapter``'s union: the followers' messages of :mod:`skat.server.routes.models`);
    raises :class:`OutgoingMessageError` naming the message's type and the fields that do not fit."""
    text = message if isinstance(message, str) else orjson.dumps(message)
    try:
        (adapter or SERVER_ADAPTER).validate_json(text, strict=True)
    except ValidationError as exc:
        kind = json.loads(text).get("type") if text else None
        problems = "; ".join(f"{_where(e['loc'][1:]) or '(the message)'}: {e['msg']} (got {_short(e.get('input'))})"
                             for e in exc.errors()[:5])
        raise OutgoingMessageError(f"server message {kind!r} does not match the protocol "
                                   f"(skat.server.messages): {problems}") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _where(loc: Any) -> str:
    """A place in a message: ``view.hand[3]``."""
    return "".join(f"[{p}]" if isinstance(p, int) or str(p).isdigit() else f".{p}" for p in loc).lstrip(".")


def refusal_of(model: type[Incoming], exc: ValidationError, *, tagged: bool = False) -> tuple[Refusal, str]:
    """How to answer a body (``tagged``: a WebSocket message, whose errors lie under its ``type``) of ``model``
    that did not validate: the refusal of the first error that has one (``"field:error"``, ``"field"`` or
    ``"*:error"`` in :attr:`Incoming.refusals`; for an item of a list in :attr:`Incoming.items`, the item model's),
    else :attr:`Incoming.refusal` for the first error; and the refusal's message for it."""
    located = [(tuple(str(p) for p in e["loc"])[1 if tagged else 0:], e) for e in exc.errors()]

    def entry(m: type[Incoming], loc: tuple[str, ...], err: Any) -> Refusal | None:
        field = loc[0] if loc else ""
        keys = (f"{field}:{err['type']}", field, f"*:{err['type']}")
        return next((m.refusals[k] for k in keys if k in m.refusals), None)

    def find(loc: tuple[str, ...], err: Any) -> tuple[Refusal, tuple[str, ...], str] | None:
        refusal = entry(model, loc, err)
        if refusal is not None:
            return refusal, loc, ""
        if len(loc) >= 2 and loc[0] in model.items and loc[1].isdigit():
            item, name = model.items[loc[0]]
            return entry(item, loc[2:], err) or item.refusal, loc[2:], f"{name} {int(loc[1]) + 1}"
        return None

    found = next(((f, e) for loc, e in located if (f := find(loc, e)) is not None), None)
    (refusal, loc, item), err = found or ((model.refusal, located[0][0], ""), located[0][1])
    raw = err.get("input")
    detail = str(err["ctx"]["error"]) if err["type"] == "value_error" else err["msg"][:1].lower() + err["msg"][1:]
    return refusal, refusal.message.format(
        value="nothing" if err["type"] == "missing" else _short(raw), text=repr(str(raw)[:40]),
        where=_where(loc) or "the message", field=loc[0] if loc else "", item=item, detail=detail)
