"""A ``skat play`` that runs already: a second one opens its table instead of failing.

SQLite is served by one process (:class:`skat.server.database.SecondProcessError`), so a second ``skat play`` on
the same database cannot start a server of its own. The first one writes where it runs into a small file beside
the database (``skat.sqlite.play.json``: its process, lobby address and the person's table with its seat token;
readable by its owner only, as the token is the seat) and removes it when it stops. The second one finds it,
asks the running server whether it answers, and opens the person's table there, or, asked for another table
(``--ruleset``, ``--level``, ``--seed``, ``--deals``, ``--name``), makes that table on the running server and
opens it.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["running_file", "announce", "find_running", "create_table_at"]

SUFFIX = ".play.json"


def running_file(db_url: str) -> Path | None:
    """Where a ``skat play`` serving the SQLite file of ``db_url`` says where it runs (None for other databases)."""
    from skat.server.database import normalize_db_url

    url = normalize_db_url(db_url)
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url[len(prefix):] in ("", ":memory:"):
        return None
    return Path(url[len(prefix):] + SUFFIX)


def announce(db_url: str, lobby: str, table: str, variant: str) -> Callable[[], None]:
    """Write this process's lobby address and the person's table (of ``variant``) beside the database; the
    function that removes it (call it when the server stops; it also runs at exit)."""
    path = running_file(db_url)
    if path is None:
        return lambda: None
    data = json.dumps({"pid": os.getpid(), "lobby": lobby, "table": table, "variant": variant})
    spare = path.with_name(path.name + f".{os.getpid()}")
    fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(data)
    os.replace(spare, path)
    pid = os.getpid()
    atexit.register(_withdraw, path, pid)
    return lambda: _withdraw(path, pid)


def _withdraw(path: Path, pid: int) -> None:
    """Remove the file at exit if it is still this process's."""
    with contextlib.suppress(OSError, ValueError):
        if json.loads(path.read_text()).get("pid") == pid:
            path.unlink()


def find_running(db_url: str, timeout: float = 2.0) -> dict[str, Any] | None:
    """The running ``skat play`` of this database (``pid``, ``lobby``, ``table``, ``variant``) if its server
    answers, else None."""
    path = running_file(db_url)
    if path is None:
        return None
    try:
        info = json.loads(path.read_text())
        pid, lobby = int(info["pid"]), str(info["lobby"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # a stale file of a process that was killed
    except PermissionError:
        pass  # it runs, as another user
    try:
        with urllib.request.urlopen(lobby + "api/health", timeout=timeout) as answer:
            if answer.status != 200:
                return None
    except (OSError, urllib.error.URLError, ValueError):
        return None
    return {"pid": pid, "lobby": lobby, "table": info.get("table"), "variant": info.get("variant")}


def create_table_at(lobby: str, request: dict[str, Any], timeout: float = 30.0) -> str:
    """Make a table on the running server (``POST /api/tables``); the person's address of it with the seat token.

    A refusal raises ValueError with the server's message (e.g. an unknown rule set)."""
    body = json.dumps(request).encode()
    post = urllib.request.Request(lobby + "api/tables", data=body, method="POST",
                                  headers={"Content-Type": "application/json", "Origin": lobby.rstrip("/")})
    try:
        with urllib.request.urlopen(post, timeout=timeout) as answer:
            made = json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("message") or str(exc)
        except ValueError:
            message = str(exc)
        raise ValueError(message) from None
    return f"{lobby.rstrip('/')}{made['url']}#token={made['token']}"
