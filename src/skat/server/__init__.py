"""The table server: FastAPI on uvicorn, a versioned WebSocket protocol (docs/protocol.md),
a small REST API, SQLAlchemy persistence and computer players at the tables.

``create_app(db_url)`` builds the application; ``skat play`` and ``skat serve`` run it.
"""

from skat.server.app import create_app
from skat.server.core import PROTOCOL_VERSION, TableError
from skat.server.manager import TableManager

__all__ = ["create_app", "TableManager", "TableError", "PROTOCOL_VERSION"]
