"""Rules the test suite keeps so that it fails only for real faults (each rule came from a CI run that failed
without a fault in the code)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _bare_test_clients(source: str) -> list[int]:
    """Lines of ``TestClient(app)`` / ``TestClient(client.app)`` calls, a browser at an app that may run already,
    that are not the client of a ``with`` statement (a client of a new app, ``TestClient(create_app(...))``, is
    the one that runs it)."""
    tree = ast.parse(source)
    in_with = {id(item.context_expr) for node in ast.walk(tree) if isinstance(node, ast.With | ast.AsyncWith)
               for item in node.items}
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "TestClient"
            and node.args and isinstance(node.args[0], ast.Name | ast.Attribute) and id(node) not in in_with]


def test_every_second_browser_shares_the_servers_event_loop():
    """A TestClient outside ``with`` starts an event loop of its own for each socket and request: two sockets of
    one server on two loops meet asyncio locks bound to the other loop and hang (a CI run timed out so). A second
    browser is made with ``test_server_support.browser(client)``; the only other TestClients run the app's
    lifespan (``with TestClient(app) as client``)."""
    found = {path.name: lines for path in sorted(TESTS.glob("*.py")) if path.name != "test_server_support.py"
             for lines in [_bare_test_clients(path.read_text())] if lines}
    assert found == {}, f"TestClient outside a with statement (use test_server_support.browser): {found}"


def test_the_check_sees_a_bare_test_client():
    assert _bare_test_clients("with TestClient(app) as c:\n    other = TestClient(c.app)\n") == [2]
    assert _bare_test_clients("with TestClient(app) as c, ExitStack() as s:\n    pass\n") == []
    assert _bare_test_clients("one = TestClient(create_app(url))\nbrowser = TestClient(app)\n") == [2]
