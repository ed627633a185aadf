"""The protocol as one JSON Schema document, generated from the models (docs/protocol.schema.json):

    python -m skat.server.routes.schema > docs/protocol.schema.json

It holds the WebSocket unions (:data:`skat.server.messages.ClientMessage`, ``ServerMessage``, the followers'
``FollowerClientMessage`` and ``FollowerMessage``) and the REST bodies and answers
(:data:`skat.server.routes.models.REST_MODELS`, the lessons' and the accounts' models) under ``$defs``, the protocol's version, the error codes
(:class:`skat.server.errors.ErrorCode`) and the WebSocket close codes. ``tests/test_protocol_schema.py`` fails when
the committed file is not what this prints.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import TypeAdapter

from skat.server.errors import CLOSE_CODES, ErrorCode
from skat.server.messages import PROTOCOL_VERSION, ClientMessage, ServerMessage
from skat.server.routes.accounts import ACCOUNT_MODELS
from skat.server.routes.friends import FRIENDS_MODELS
from skat.server.routes.history import HISTORY_MODELS
from skat.server.routes.learn import LEARN_MODELS
from skat.server.routes.models import REST_MODELS, FollowerClientMessage, FollowerMessage
from skat.server.routes.online import ONLINE_MODELS
from skat.server.routes.season import SEASON_MODELS

__all__ = ["protocol_schema", "COMMAND", "main"]

COMMAND = "python -m skat.server.routes.schema > docs/protocol.schema.json"
"""The command that writes the committed schema."""

UNIONS: dict[str, Any] = {"ClientMessage": ClientMessage, "ServerMessage": ServerMessage,
                          "FollowerClientMessage": FollowerClientMessage, "FollowerMessage": FollowerMessage}


def protocol_schema() -> dict[str, Any]:
    """The protocol's JSON Schema (draft 2020-12): every union and REST model under ``$defs``, with ``protocol``,
    ``error_codes``, ``close_codes`` and the WebSockets' unions by path."""
    inputs: list[Any] = [(name, "validation", TypeAdapter(union)) for name, union in UNIONS.items()]
    inputs += [(m.__name__, "validation", TypeAdapter(m))
               for m in (*REST_MODELS, *LEARN_MODELS, *ACCOUNT_MODELS, *HISTORY_MODELS, *SEASON_MODELS,
                         *FRIENDS_MODELS, *ONLINE_MODELS)]
    top, defs = TypeAdapter.json_schemas(inputs, ref_template="#/$defs/{model}")
    every = dict(defs.get("$defs", {}))
    for (name, _mode), schema in top.items():
        if schema.get("$ref") != f"#/$defs/{name}":  # a union: its schema itself
            every[name] = schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "The skat table server's protocol",
        "description": f"Generated from the models of src/skat/server/messages.py and src/skat/server/routes/models.py "
                       f"by `{COMMAND}`; docs/protocol.md describes it in words.",
        "protocol": PROTOCOL_VERSION,
        "error_codes": [code.value for code in ErrorCode],
        "close_codes": {str(code): why for code, why in CLOSE_CODES.items()},
        "websockets": {"/ws/{table_id}": {"client": "#/$defs/ClientMessage", "server": "#/$defs/ServerMessage"},
                       "/ws/keeper/{list_id}": {"client": "#/$defs/FollowerClientMessage",
                                                "server": "#/$defs/FollowerMessage"},
                       "/ws/tournament/{tid}": {"client": "#/$defs/FollowerClientMessage",
                                                "server": "#/$defs/FollowerMessage"}},
        "$defs": dict(sorted(every.items())),
    }


def schema_text() -> str:
    """The schema as the committed file holds it."""
    return json.dumps(protocol_schema(), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
