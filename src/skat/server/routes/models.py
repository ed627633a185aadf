"""The REST API's request bodies and answers, and the messages of the followers' WebSockets (``/ws/keeper/{id}``,
``/ws/tournament/{id}``), as pydantic models: the routes' bodies (:func:`skat.server.routes.bodies.body`) and
``response_model``; the parts they share with the table protocol are :mod:`skat.server.messages`'."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    Tag,
    field_validator,
    model_validator,
)

from skat.server.errors import ErrorCode
from skat.server.messages import (
    ErrorMessage,
    Fixed,
    HeldElsewhere,
    Incoming,
    OfficersResult,
    OfficersSheetRow,
    OfficersView,
    Open,
    Ping,
    Pong,
    Position,
    Refusal,
    Seat,
    Sheet,
    SheetRow,
    SkatResult,
    StateRequest,
    TableInfo,
    judged,
    union_adapter,
)

__all__ = ["REST_MODELS", "FollowerMessage", "FollowerClientMessage", "FOLLOWER_ADAPTER", "FOLLOWER_CLIENT_ADAPTER",
           "MAX_CHANGES", "Ping"]


def _name_or_empty(value: Any) -> Any:
    """A person's name where the server reads any value (a name that is no text is no name: the default)."""
    return value if isinstance(value, str) else ""


# ------------------------------------------------------------------ REST: tables
class CreateTableRequest(Incoming):
    """``POST /api/tables``: a new table (docs/protocol.md, "REST API"; ``variant`` ``officers``: "Officers' Skat
    tables")."""

    name: str = Field("", max_length=100)
    variant: Any = judged({"type": "string", "enum": ["standard", "officers"], "default": "standard"},
                          "standard (Skat at 3, 4 or 5) or officers (Officers' Skat at 2); another: bad_variant", "standard")
    seats: list[Any] | None = judged({"type": ["array", "null"], "items": {"type": "string"}, "default": None},
                                     'per position "human" or a computer level (another value: bad_seats)')
    ruleset: Any = judged({"type": ["string", "null"], "default": None},
                          "a rule set of GET /api/meta (default isko2018; another: bad_ruleset)")
    officers_variant: Any = judged({"type": ["string", "null"], "default": None},
                                   "an Officers' Skat variant of GET /api/meta (default classic; another: bad_variant)")
    options: dict[str, JsonValue] | None = None
    deals: int | None = Field(None, ge=1)
    seed: int | None = Field(None, ge=0, lt=2**63)
    player_name: str = ""
    claim: int | None = 0
    public: bool = False
    hints: bool = True
    clock: JsonValue = judged({"type": ["boolean", "object", "null"], "default": None},
                              "the move clock (docs/clock.md): true, false or an object such as {\"decision\": 30, "
                              "\"reserve\": 60, \"grace\": 20, \"ready\": 60, \"stand_in\": \"strong\"}; left out: "
                              "on at a table of two or more people (out of range: bad_clock)")
    refusals = {
        "name": Refusal(ErrorCode.BAD_NAME, "the table name must be text of at most 100 characters"),
        "seats": Refusal(ErrorCode.BAD_SEATS, "seats must be a list such as [\"human\", \"strong\", \"strong\"]"),
        "options": Refusal(ErrorCode.BAD_OPTIONS, "options is an object of rule options, e.g. {{\"kontra\": true}}"),
        "deals": Refusal(ErrorCode.BAD_DEALS, "deals must be a positive whole number (or left out for no limit)"),
        "seed": Refusal(ErrorCode.BAD_SEED, "seed must be a whole number from 0 to 2**63-1 (or left out for secret "
                                            "deals)"),
        "claim": Refusal(ErrorCode.BAD_CLAIM, "claim must be the position you sit at (0, 1, 2, ...) or null"),
        "public": Refusal(ErrorCode.BAD_PUBLIC, "public is true (the table is listed in the lobby) or false (only "
                                                "people with its invite link may join or watch)"),
        "hints": Refusal(ErrorCode.BAD_HINTS, "hints is true (a player may ask for a card hint and sees the bid "
                                              "estimate) or false (no advice at this table)"),
    }
    _lenient_name = field_validator("player_name", mode="before")(_name_or_empty)


class JoinRequest(Incoming):
    """``POST /api/tables/{id}/join``: a free seat (``position``, default the first free one)."""

    name: str = ""
    position: int | None = None
    invite: JsonValue = judged({"type": ["string", "null"], "default": None},
                               "a private table's invite secret (a wrong one: 403 bad_invite)")
    refusals = {"position": Refusal(ErrorCode.BAD_POSITION, "position must be a seat number (0, 1, 2, ...)")}
    _lenient_name = field_validator("name", mode="before")(_name_or_empty)


class CloseRequest(Incoming):
    """``POST /api/tables/{id}/close``: a seated person's token."""

    token: JsonValue = judged({"type": ["string", "null"], "default": None},
                              "the seat token of a person seated at the table (another one: 403 bad_token)")


class ErrorAnswer(Fixed):
    """Every refusal over REST; ``detail``: the same text where a middleware answered, FastAPI's list of problems
    for a path or query parameter that does not fit (422 ``bad_request``)."""

    error: ErrorCode
    message: str
    detail: str | list[dict[str, Any]] | None = None


class HealthAnswer(Fixed):
    status: Literal["ok"]
    protocol: int
    tables: int
    loop_stalls: int
    worst_loop_stall_s: float
    commits: int
    slow_commits: int


class MetaAnswer(Open):
    """What the server plays: the games (``variants``) and what each game lists (the standard game its rule sets,
    Officers' Skat its variants; a game added later may list more: :meth:`skat.server.games.TableGame.meta`)."""

    protocol: int
    levels: list[str]
    default_level: str
    rulesets: list[str]
    variants: list[str]
    officers_variants: list[str]
    iss_records: bool
    ruleset_descriptions: dict[str, str]


class LobbyAnswer(Fixed):
    tables: list[TableInfo | HeldElsewhere]


class Joined(Fixed):
    table_id: str
    position: Position | None
    token: str | None


class TableCreated(Joined):
    invite: str | None
    table: TableInfo
    url: str
    invite_url: str


class TableClosed(Fixed):
    table_id: str
    closed: Literal[True]


class SheetAnswer(Fixed):
    table: TableInfo
    sheet: Sheet


def _result_kind(data: Any) -> str:
    if not isinstance(data, Mapping):
        return type(data).__name__  # a model, as it is serialized
    return "OfficersResult" if "variant" in data else "SkatResult"


def _row_kind(data: Any) -> str:
    if not isinstance(data, Mapping):
        return type(data).__name__
    return "OfficersSheetRow" if "forehand" in data else "SheetRow"


class GameEntry(Fixed):
    deal_no: int
    game_no: int
    round: str
    dealer: Position
    positions: list[Position]
    result: Annotated[Annotated[SkatResult, Tag("SkatResult")] | Annotated[OfficersResult, Tag("OfficersResult")],
                      Discriminator(_result_kind)]
    sheet_row: Annotated[Annotated[SheetRow, Tag("SheetRow")] | Annotated[OfficersSheetRow, Tag("OfficersSheetRow")],
                         Discriminator(_row_kind)] | None


class GamesAnswer(Fixed):
    games: list[GameEntry]


class Analysis(Open):
    """The double-dummy analysis of a finished deal (docs/analysis.md: ``skat.analysis.GameAnalysis.to_json()``,
    whose shape that module owns, with ``players``, ``deal_no`` and ``positions`` from the table's record)."""

    label: str
    players: list[str] | None
    declarer: Seat | None
    contract: str | None
    bid: int | None
    goal: dict[str, Any] | None
    skipped: str | None
    start: dict[str, Any]
    actual: dict[str, Any]
    cards: list[dict[str, Any]]
    ending: dict[str, Any] | None
    turning_points: list[int]
    points_lost: list[int]
    turning_points_by_seat: list[int]
    not_analysed: list[int]
    time_limit: float | None
    deal_no: int | None
    positions: list[Position] | None


# ------------------------------------------------------------------ lists and tournaments (REST and followers)
class KeeperTournamentRef(Fixed):
    id: str
    series: int
    table: int


class KeeperState(Fixed):
    """A list's state (docs/keeper-server.md): the stored list and its computed sheet (skat.table.keeper)."""

    id: str
    name: str
    url: str
    seq: int
    list: dict[str, Any]
    sheet: dict[str, Any]
    tournament: KeeperTournamentRef | None


class TournamentTable(Fixed):
    table: int
    players: list[str]
    list: str
    url: str
    played: int
    limit: int
    seq: int


class TournamentSeries(Fixed):
    number: int
    tables: list[TournamentTable]


class Standing(Fixed):
    rank: int
    player: str
    points: int
    won: int
    lost: int
    series: list[int | None]
    withdrawn: bool


class TournamentState(Fixed):
    id: str
    name: str
    url: str
    seq: int
    players: list[str]
    withdrawn: list[str]
    active: list[str]
    ruleset: str
    games: dict[str, int]
    series: list[TournamentSeries]
    ranking: list[Standing]


class ListMessage(KeeperState):
    type: Literal["list"]


class TournamentMessage(TournamentState):
    type: Literal["tournament"]


FollowerMessage = Annotated[ListMessage | TournamentMessage | ErrorMessage | Pong, Field(discriminator="type")]
"""Every message the server sends to a follower of a list or a tournament."""
FOLLOWER_ADAPTER = union_adapter(FollowerMessage)
FollowerClientMessage = Annotated[Ping | StateRequest, Field(discriminator="type")]
"""What a follower sends on ``/ws/keeper/{id}`` and ``/ws/tournament/{id}``."""
FOLLOWER_CLIENT_ADAPTER = union_adapter(FollowerClientMessage)


# ------------------------------------------------------------------ REST: the score keeper
MAX_CHANGES = 200
"""Changes one request may carry."""
MAX_AUTHOR = 100


class KeeperCreateRequest(Incoming):
    """``POST /api/keeper``: ``name`` and a keeper's file (docs/keeper.md: ``players``, ``ruleset``, ``games``,
    ...), which the library judges (``422 impossible``)."""

    model_config = ConfigDict(extra="allow", strict=True)
    name: str = Field("", max_length=200)
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"name": Refusal(ErrorCode.BAD_REQUEST, "'name' is a text of at most 200 characters")}


class Change(Incoming):
    """One change of a list: ``add`` a game, ``edit`` or ``strike`` game ``number``, ``restore`` a struck one."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="names the change; sent again, it changes nothing")
    op: Literal["add", "edit", "strike", "restore"]
    number: int | None = None
    entry: dict[str, JsonValue] | None = None
    author: str = Field("", max_length=MAX_AUTHOR)
    at: str | None = Field(None, max_length=40, description="an ISO 8601 time such as 2026-12-01T20:15:03+00:00")
    reason: str = Field("", max_length=500)

    refusal = Refusal(ErrorCode.BAD_REQUEST, "{item}: {detail}")
    refusals = {
        "*:model_type": Refusal(ErrorCode.BAD_REQUEST, "{item} is not an object"),
        "id": Refusal(ErrorCode.BAD_REQUEST, "{item}: 'id' names the change: 1 to 64 letters, digits, '-' or '_'"),
        "op": Refusal(ErrorCode.BAD_REQUEST, "{item}: 'op' is one of add, edit, strike, restore, not {value}"),
        "number": Refusal(ErrorCode.BAD_REQUEST, "{item}: 'number' is the number of a game"),
        "entry": Refusal(ErrorCode.BAD_REQUEST, "{item}: 'entry' is a game as docs/keeper.md has it"),
        "author": Refusal(ErrorCode.BAD_REQUEST, f"{{item}}: 'author' is a name of at most {MAX_AUTHOR} characters"),
        "at": Refusal(ErrorCode.BAD_REQUEST, "{item}: 'at' is an ISO 8601 time such as 2026-12-01T20:15:03+00:00"),
        "reason": Refusal(ErrorCode.BAD_REQUEST, "{item}: 'reason' is a text of at most 500 characters"),
    }

    @field_validator("at")
    @classmethod
    def _iso_time(cls, at: str | None) -> str | None:
        if at is not None:
            datetime.fromisoformat(at)  # a ValueError: not such a time
        return at

    @model_validator(mode="after")
    def _needs(self) -> Change:
        if self.op != "add" and self.number is None:
            raise ValueError(f"{self.op} needs the 'number' of the game")
        if self.op in ("add", "edit") and self.entry is None:
            raise ValueError(f"{self.op} needs the 'entry', a game as docs/keeper.md has it")
        return self


class ChangesRequest(Incoming):
    """``POST /api/keeper/{id}/changes`` (header ``X-Keeper-Key``)."""

    changes: list[Change] = Field(min_length=1, max_length=MAX_CHANGES)
    items = {"changes": (Change, "change")}
    refusal = Refusal(ErrorCode.BAD_REQUEST, "{where}: {detail} (docs/keeper-server.md)")
    refusals = {"changes:too_long": Refusal(ErrorCode.TOO_LARGE, f"at most {MAX_CHANGES} changes a request", 413),
                "changes:missing": Refusal(ErrorCode.BAD_REQUEST, "the body is {{\"changes\": [...]}}: a list of "
                                                                  "changes (docs/keeper-server.md)"),
                "changes:too_short": Refusal(ErrorCode.BAD_REQUEST, "the body is {{\"changes\": [...]}}: a list of "
                                                                    "changes (docs/keeper-server.md)"),
                "changes:list_type": Refusal(ErrorCode.BAD_REQUEST, "the body is {{\"changes\": [...]}}: a list of "
                                                                    "changes (docs/keeper-server.md)")}


class CheckRequest(Incoming):
    """``POST /api/keeper/{id}/check``: value ``entry`` at the end of the list, or as an edit of game ``number``."""

    entry: dict[str, JsonValue]
    number: int | None = None
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"entry": Refusal(ErrorCode.BAD_REQUEST, "'entry' must be a game as docs/keeper.md describes it"),
                "number": Refusal(ErrorCode.BAD_REQUEST, "'number' is the number of the game an edit replaces")}


class KeeperRuleset(Fixed):
    name: str
    description: str
    kontra: bool
    kontra_re: bool
    all_pass: str
    ramsch: bool
    ramsch_grand_hand: bool
    ramsch_scoring: str
    schieberamsch: bool
    bock: bool
    pirate: bool
    bid_values: list[int]


class KeeperMeta(Fixed):
    rulesets: list[KeeperRuleset]
    default_ruleset: str
    entry_fields: dict[str, str]
    max_changes: int


class KeeperCreated(KeeperState):
    key: str = Field(description="the list's key, given once")
    keeper_url: str


class Refused(Fixed):
    """An entry the keeper refuses (``ok`` false, ``error`` ``impossible``) says why; a refusal the keeper meets at
    the table has a ``code`` and its ``params`` besides, for a page to say it in its language."""

    ok: bool
    error: Literal["impossible"] | None = None
    message: str | None = None
    code: str | None = None
    params: dict[str, Any] | None = None


class ChangeResult(Refused):
    """A change's answer: ``ok`` with the game's ``number``, or refused."""

    id: str
    number: int | None = None


class CheckAnswer(Refused):
    """``POST /api/keeper/{id}/check``: ``ok`` with the game's ``line`` of the sheet as it would be, or refused."""

    line: dict[str, Any] | None = None


class ChangesAnswer(KeeperState):
    results: list[ChangeResult]


# ------------------------------------------------------------------ REST: tournaments
MAX_PLAYERS = 400
"""Players a tournament registers at most."""

class TournamentCreateRequest(Incoming):
    """``POST /api/tournaments``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field("", max_length=200)
    players: list[Any] = judged({"type": "array", "items": {"type": "string"}, "maxItems": MAX_PLAYERS,
                                       "default": []}, "the players' names (names the tournament cannot take: 409 "
                                       "impossible)", [], max_length=MAX_PLAYERS)
    ruleset: Any = judged({"type": "string", "default": "isko"}, "the rule set the lists are kept under (one the "
                          "tournament cannot keep: 409 impossible)", "isko")
    games: Any = judged({"type": ["object", "null"], "additionalProperties": {"type": "integer"}, "default": None},
                        'the games a list holds by table size, {"4": 48, "3": 36} (others: 409 impossible)')
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"name": Refusal(ErrorCode.BAD_REQUEST, "'name' is a text of at most 200 characters"),
                "players": Refusal(ErrorCode.BAD_REQUEST, f"'players' lists the players' names (at most {MAX_PLAYERS})"),
                "*:extra_forbidden": Refusal(ErrorCode.BAD_REQUEST, "unknown field '{field}': a tournament has name, "
                                                                    "players, ruleset and games")}


class RegisterRequest(Incoming):
    """``POST /api/tournaments/{id}/players`` (header ``X-Tournament-Key``): one of the two."""

    model_config = ConfigDict(extra="forbid", strict=True)
    register_: str | None = Field(None, alias="register")
    withdraw: str | None = None
    refusal = Refusal(ErrorCode.BAD_REQUEST, 'the body is {{"register": "Name"}} or {{"withdraw": "Name"}}')

    @model_validator(mode="after")
    def _one(self) -> RegisterRequest:
        if len(self.model_fields_set) != 1 or (self.register_ is None) == (self.withdraw is None):
            raise ValueError("one of register and withdraw")
        return self


class DrawRequest(Incoming):
    """``POST /api/tournaments/{id}/series``: draw the next series by lot (``seed``) or ``by_ranking``."""

    seed: int | None = None
    by_ranking: bool = False
    refusal = Refusal(ErrorCode.BAD_REQUEST)
    refusals = {"seed": Refusal(ErrorCode.BAD_REQUEST, "'seed' is a whole number (leave it out for a random draw)"),
                "by_ranking": Refusal(ErrorCode.BAD_REQUEST, "'by_ranking' is true or false")}


class TournamentCreated(TournamentState):
    key: str = Field(description="the director's key, given once")
    director_url: str


class TableKey(Fixed):
    table: int
    list: str
    keeper_url: str


class SeriesKeys(Fixed):
    number: int
    tables: list[TableKey]


class KeysAnswer(Fixed):
    series: list[SeriesKeys]


class DrawAnswer(TournamentState):
    keys: list[SeriesKeys]


# ------------------------------------------------------------------ REST: the retired Officers' Skat API
class OfficersVariants(Fixed):
    variants: list[str]


class StoredSheet(Fixed):
    games: list[list[int]]
    you: int
    computer: int


class StoredOfficersState(Fixed):
    """A table of the retired Officers' Skat REST API, read-only."""

    table: str
    seat: Seat
    seq: int
    game_no: int
    variant: str
    view: OfficersView
    legal: list[str]
    read_only: Literal[True]
    sheet: StoredSheet


REST_MODELS: tuple[type[BaseModel], ...] = (
    CreateTableRequest, JoinRequest, CloseRequest, ErrorAnswer, HealthAnswer, MetaAnswer, LobbyAnswer, TableInfo,
    TableCreated, Joined, TableClosed, SheetAnswer, GamesAnswer, Analysis, KeeperCreateRequest, ChangesRequest,
    CheckRequest, CheckAnswer, KeeperMeta, KeeperState, KeeperCreated, ChangesAnswer, TournamentCreateRequest,
    RegisterRequest, DrawRequest, TournamentState, TournamentCreated, KeysAnswer, DrawAnswer, OfficersVariants,
    StoredOfficersState, HeldElsewhere, ChangeResult)
"""The REST API's request bodies and answers (the routes' ``response_model``)."""
