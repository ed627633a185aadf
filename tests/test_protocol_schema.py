"""The protocol's models, their JSON Schema (docs/protocol.schema.json) and docs/protocol.md agree:

* the committed schema is what ``python -m skat.server.routes.schema`` prints now;
* every message type and error code of the schema is in docs/protocol.md's tables, and every one there is in the
  schema; every error code the server's source answers with is one of :class:`ErrorCode`;
* every client message has a handler, the two protocol versions are one;
* :func:`check_outgoing` says which message and which field do not fit;
* every REST body refuses a field of the wrong type with the project's own error, never FastAPI's 422 list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from skat.server.errors import CLOSE_CODES, ErrorCode
from skat.server.messages import CLIENT_TYPES, PROTOCOL_VERSION, OutgoingMessageError, ServerMessage, check_outgoing
from skat.server.routes.schema import COMMAND, UNIONS, protocol_schema, schema_text

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "protocol.schema.json"
PROTOCOL_MD = ROOT / "docs" / "protocol.md"
SERVER = ROOT / "src" / "skat" / "server"


def test_the_committed_schema_is_up_to_date():
    assert SCHEMA.exists(), f"docs/protocol.schema.json is missing: write it with `{COMMAND}`"
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        f"docs/protocol.schema.json is stale (the models changed): write it again with `{COMMAND}`")


def test_the_schema_holds_both_unions_the_rest_models_the_version_and_the_codes():
    schema = protocol_schema()
    assert schema["protocol"] == PROTOCOL_VERSION == 1
    assert schema["error_codes"] == [code.value for code in ErrorCode]
    assert set(schema["close_codes"]) == {str(code) for code in CLOSE_CODES}
    defs = schema["$defs"]
    for name in ("ClientMessage", "ServerMessage", "FollowerMessage", "FollowerClientMessage", "CreateTableRequest",
                 "TableCreated", "TableInfo", "State", "SkatView", "OfficersView", "KeeperState", "ErrorAnswer"):
        assert name in defs, name
    assert set(defs["ClientMessage"]["discriminator"]["mapping"]) == set(CLIENT_TYPES)
    refs = set(re.findall(r'"\$ref": "#/\$defs/([^"]+)"', json.dumps(schema)))
    assert refs <= set(defs), refs - set(defs)


def test_the_protocol_version_is_the_servers():
    from skat.server.tables import PROTOCOL_VERSION as SERVED

    assert PROTOCOL_VERSION == SERVED


def _union_types(name: str) -> set[str]:
    return set(protocol_schema()["$defs"][name]["discriminator"]["mapping"])


def _first_column(heading: str) -> set[str]:
    """The names in backticks in the first column of the first table under ``heading`` in docs/protocol.md."""
    lines = PROTOCOL_MD.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    names: set[str] = set()
    in_table = False
    for line in lines[start + 1:]:
        if line.startswith("|"):
            in_table = True
            cell = line.split("|")[1]
            names |= set(re.findall(r"`([^`]+)`", cell))
        elif in_table or line.startswith("#"):
            break
    assert names, f"no table under {heading!r} in docs/protocol.md"
    return names


def _same(documented: set[str], modelled: set[str], what: str) -> None:
    assert documented == modelled, (
        f"{what}: only in docs/protocol.md: {sorted(documented - modelled)}; only in the models (skat.server.messages, "
        f"skat.server.errors.ErrorCode): {sorted(modelled - documented)}")


def test_the_message_tables_of_protocol_md_are_the_schemas():
    _same(_first_column("### Client → server"), _union_types("ClientMessage"), "client -> server messages")
    _same(_first_column("### Server → client"), _union_types("ServerMessage"), "server -> client messages")


def test_the_error_codes_of_protocol_md_are_the_schemas():
    _same(_first_column("## Error codes"), set(protocol_schema()["error_codes"]), "error codes")
    _same(_first_column("### Close codes"), set(protocol_schema()["close_codes"]), "close codes")


CODE_IN_SOURCE = re.compile(r'(?:TableError|__init__)\(\s*"([a-z_]+)"|"(?:error|code)":\s*"([a-z_]+)"'
                            r'|return \d{3}, "([a-z_]+)"|\d{3}, "([a-z_]+)", self\.')


def test_every_error_code_in_the_servers_source_is_an_error_code():
    found: dict[str, str] = {}
    for path in sorted(SERVER.rglob("*.py")):
        for match in CODE_IN_SOURCE.finditer(path.read_text(encoding="utf-8")):
            code = next(g for g in match.groups() if g)
            found.setdefault(code, str(path.relative_to(ROOT)))
    assert len(found) > 30, sorted(found)  # the pattern still finds them
    unknown = {code: where for code, where in found.items() if code not in ErrorCode.__members__.values()}
    assert not unknown, f"error codes the server answers with that skat.server.errors.ErrorCode lacks: {unknown}"


def test_every_client_message_has_a_handler():
    from skat.server.sockets import HANDLERS

    assert set(HANDLERS) == set(CLIENT_TYPES.values())
    assert set(CLIENT_TYPES) == _union_types("ClientMessage")
    assert set(UNIONS) == {"ClientMessage", "ServerMessage", "FollowerClientMessage", "FollowerMessage"}
    assert ServerMessage is UNIONS["ServerMessage"]


def test_check_outgoing_names_the_message_and_the_field():
    check_outgoing({"type": "pong", "t": [1, {"a": None}]})
    check_outgoing({"type": "error", "code": "stale", "message": "the table moved on"})
    with pytest.raises(OutgoingMessageError, match=r"'error'.*code"):
        check_outgoing({"type": "error", "code": "no_such_code", "message": "x"})
    with pytest.raises(OutgoingMessageError, match=r"'welcome'.*role"):
        check_outgoing({"type": "welcome", "protocol": 1, "table_id": "t", "position": 0, "role": "king"})
    with pytest.raises(OutgoingMessageError, match=r"'closed'.*extra"):
        check_outgoing({"type": "closed", "table_id": "t", "message": "bye", "extra": 1})
    with pytest.raises(OutgoingMessageError, match="'dance'"):
        check_outgoing({"type": "dance"})


BODIES = [("POST", "/api/tables", "CreateTableRequest"), ("POST", "/api/tables/{table}/join", "JoinRequest"),
          ("POST", "/api/tables/{table}/close", "CloseRequest"), ("POST", "/api/keeper", "KeeperCreateRequest"),
          ("POST", "/api/keeper/{list}/changes", "ChangesRequest"), ("POST", "/api/keeper/{list}/check", "CheckRequest"),
          ("POST", "/api/tournaments", "TournamentCreateRequest"),
          ("POST", "/api/tournaments/{tournament}/players", "RegisterRequest"),
          ("POST", "/api/tournaments/{tournament}/series", "DrawRequest")]


def test_a_field_of_the_wrong_type_gets_the_projects_error_never_fastapis(client):
    """Every field of every REST body, sent as a value of no type it has: the answer is the project's
    ``{"error": CODE, "message"}`` with a documented code, or the request goes through (a field the server reads
    leniently), never FastAPI's 422 list."""
    from skat.server.routes import models

    table = client.post("/api/tables", json={"seats": ["human", "human", "random"], "public": True}).json()
    made = client.post("/api/keeper", json={"players": ["Ann", "Bob", "Cid"], "ruleset": "isko"}).json()
    tournament = client.post("/api/tournaments", json={"players": list("ABCDEFG")}).json()
    ids = {"table": table["table_id"], "list": made["id"], "tournament": tournament["id"]}
    headers = {"X-Keeper-Key": made["key"], "X-Tournament-Key": tournament["key"]}
    tried = 0
    for method, path, name in BODIES:
        model = getattr(models, name)
        for field, info in model.model_fields.items():
            body: dict[str, Any] = {info.alias or field: {"no": ["such", "value"]}}
            r = client.request(method, path.format(**ids), json=body, headers=headers)
            tried += 1
            if r.status_code < 400:
                continue
            answer = r.json()
            assert set(answer) <= {"error", "message", "detail"}, (path, body, answer)
            assert answer["error"] in ErrorCode.__members__.values() and answer["message"], (path, body, answer)
            assert not isinstance(answer.get("detail"), list), (path, body, answer)
    assert tried >= 25
