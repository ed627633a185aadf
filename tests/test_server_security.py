"""Web security (docs/protocol.md, "Security"): headers on every answer, JSON-only bodies, the body limit and
the WebSocket Origin check, for the Skat server and the stand-alone Officers' app."""

from __future__ import annotations

import argparse
import asyncio
import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from skat.server import create_app
from skat.server.security import MAX_BODY_BYTES, Security, content_security_policy, normalise_origin
from test_server import hello, new_table

HEADERS = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin"}


def assert_secured(r) -> None:
    for name, value in HEADERS.items():
        assert r.headers.get(name) == value, (r.request.url, name, r.headers)
    csp = r.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'" and directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'" and "unsafe" not in csp
    assert directives["frame-ancestors"] == "'none'" and directives["base-uri"] == "'none'"
    assert directives["form-action"] == "'self'" and directives["img-src"] == "'self' data:"
    assert directives["connect-src"] == "'self' ws://testserver wss://testserver"


def lobby(client) -> int:
    return len(client.get("/api/tables").json()["tables"])


def stored_tables(client) -> int:
    """Every table in the database (private ones too: the lobby lists only public tables)."""
    store = client.app.state.manager.store
    return len(store.open_table_ids())


# ------------------------------------------------------------------ headers
def test_headers_on_pages_api_static_and_errors(client):
    created = new_table(client)
    for path in ("/", f"/t/{created['table_id']}", "/api/tables", "/api/meta", "/static/app.js",
                 "/static/style.css", "/officers", "/api/tables/nope", "/static/nope.js"):
        r = client.get(path)
        assert r.status_code in (200, 404), (path, r.status_code)
        assert_secured(r)
    assert_secured(client.post("/api/tables", json={"seats": "x"}))


def test_headers_on_the_officers_page_and_the_retired_api(client):
    for path in ("/officers", "/api/health", "/api/officers/variants", "/static/officers.js"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert_secured(r)
    r = client.post("/api/officers/tables", json={"seed": 1})
    assert r.status_code == 410 and r.json()["error"] == "retired"
    assert_secured(r)


def test_the_policy_of_an_odd_host_names_no_websocket_address():
    assert "connect-src 'self';" in content_security_policy("evil\r\nx: y")
    assert "ws://[::1]:8000 wss://[::1]:8000" in content_security_policy("[::1]:8000")


def test_the_pages_have_no_inline_script_or_style(client):
    for path in ("/", "/officers"):
        html = client.get(path).text
        assert "<script>" not in html and "style=" not in html and "<style" not in html
        assert " onclick=" not in html and "javascript:" not in html


# -------------------------------------------------------------- JSON only
BAD_BODIES = [
    ({"content-type": "text/plain"}, b'{"seats": ["human", "random", "random"]}'),
    ({"content-type": "text/plain;charset=UTF-8"}, b'{"seed": 1}'),
    ({"content-type": "application/x-www-form-urlencoded"}, b"seats=human&seed=1"),
    ({"content-type": "multipart/form-data; boundary=x"}, b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'),
    ({}, b'{"seed": 1}'),
]


@pytest.mark.parametrize(("headers", "body"), BAD_BODIES)
def test_a_body_that_is_not_json_is_415_and_creates_nothing(client, headers, body):
    before, stored_before = lobby(client), stored_tables(client)
    for path in ("/api/tables", "/api/officers/tables"):
        r = client.post(path, content=body, headers=headers)
        assert r.status_code == 415, (path, r.status_code, r.text)
        assert r.json()["error"] == "unsupported_media_type" and "application/json" in r.json()["message"]
        assert r.json()["detail"] == r.json()["message"]  # the Officers' page shows either
        assert_secured(r)
    assert lobby(client) == before and stored_tables(client) == stored_before


def test_json_with_a_charset_and_a_post_without_a_body_are_fine(client):
    r = client.post("/api/tables", content=json.dumps({"seats": ["human", "random", "random"]}).encode(),
                    headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201, r.text
    # a POST without a body needs no Content-Type (the handler answers as before)
    r = client.post(f"/api/tables/{r.json()['table_id']}/join")
    assert r.status_code != 415


# ------------------------------------------------------------- body limit
@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1, 1024 * 1024, 20 * 1024 * 1024])
def test_a_large_body_is_413_and_creates_nothing(client, size):
    before, stored_before = lobby(client), stored_tables(client)
    body = b'{"name": "' + b"x" * (size - 12) + b'"}'
    assert len(body) == size
    for path in ("/api/tables", "/api/officers/tables"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 413, (path, r.status_code)
        assert r.json()["error"] == "too_large" and str(MAX_BODY_BYTES) in r.json()["message"]
    assert lobby(client) == before and stored_tables(client) == stored_before


def test_a_chunked_body_over_the_limit_is_413(client):
    before = lobby(client)

    def chunks():
        yield b'{"name": "'
        for _ in range(40):
            yield b"x" * 65536
        yield b'"}'

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert lobby(client) == before


def test_the_limit_is_an_option(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'small.sqlite'}", max_body=100)) as small:
        ok = small.post("/api/tables", json={"seats": ["human", "random", "random"]})
        assert ok.status_code == 201
        r = small.post("/api/tables", json={"seats": ["human", "random", "random"], "name": "x" * 100})
        assert r.status_code == 413


def run_asgi(middleware: Security, scope: dict, messages: list[dict]) -> tuple[list[dict], int, bool]:
    """Run ``middleware`` on one request; returns the messages sent, how many body messages it read before it
    started its answer (a refused body is drained after the answer: skat.server.security.Security.drain) and
    whether the inner app was called."""
    read = 0
    read_before_answer: int | None = None
    sent: list[dict] = []
    called = False

    async def receive() -> dict:
        nonlocal read
        read += 1
        return messages[read - 1] if read <= len(messages) else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        nonlocal read_before_answer
        if read_before_answer is None:
            read_before_answer = read
        sent.append(message)

    async def inner(scope, receive, send) -> None:
        nonlocal called
        called = True
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    middleware.app = inner
    asyncio.run(middleware(scope, receive, send))
    assert read_before_answer is not None
    return sent, read_before_answer, called


def http_scope(headers: list[tuple[bytes, bytes]]) -> dict:
    return {"type": "http", "method": "POST", "path": "/api/tables", "scheme": "http",
            "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers]}


def test_content_length_over_the_limit_reads_no_byte():
    sent, read, called = run_asgi(Security(None), http_scope([(b"content-length", b"20971520")]),
                                  [{"type": "http.request", "body": b"x" * 65536, "more_body": True}] * 320)
    assert sent[0]["status"] == 413 and read == 0 and not called


def test_a_chunked_body_is_read_only_up_to_the_limit():
    chunk = {"type": "http.request", "body": b"x" * 16384, "more_body": True}
    sent, read, called = run_asgi(Security(None), http_scope([(b"transfer-encoding", b"chunked")]), [chunk] * 1280)
    assert sent[0]["status"] == 413 and not called
    assert read == MAX_BODY_BYTES // 16384 + 1  # 20 MB offered, 80 KiB read
    # under the limit, the whole body reaches the app
    sent, read, called = run_asgi(Security(None), http_scope([(b"transfer-encoding", b"chunked")]),
                                  [chunk, {"type": "http.request", "body": b"{}", "more_body": False}])
    assert called and sent[0]["status"] == 200


# ------------------------------------------------------------ WebSocket Origin
def connect(client, table_id: str, origin: str | None):
    headers = {} if origin is None else {"origin": origin}
    return client.websocket_connect(f"/ws/{table_id}", headers=headers)


@pytest.mark.parametrize("origin", ["https://evil.example", "http://testserver.evil.example", "https://testserver",
                                    "http://testserver:8080", "null", "garbage"])
def test_a_websocket_from_another_origin_is_refused(client, origin):
    created = new_table(client)
    with pytest.raises(WebSocketDisconnect) as refused:
        with connect(client, created["table_id"], origin) as ws:
            ws.receive_text()
    assert refused.value.code == 4403


@pytest.mark.parametrize("origin", [None, "http://testserver", "http://TestServer:80"])
def test_a_websocket_from_the_same_origin_or_without_one_is_accepted(client, origin):
    created = new_table(client)
    with connect(client, created["table_id"], origin) as ws:
        welcome, _, state = hello(ws, created["token"])
    assert welcome["type"] == "welcome" and state["type"] == "state"


def test_an_allowed_origin_is_accepted(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'o.sqlite'}", allowed_origins=["https://skat.example",
                                                                             "http://localhost:5173"])
    with TestClient(app) as client:
        created = new_table(client)
        for origin in ("https://skat.example", "https://skat.example:443", "http://localhost:5173"):
            with connect(client, created["table_id"], origin) as ws:
                assert hello(ws, created["token"])[0]["type"] == "welcome"
        with pytest.raises(WebSocketDisconnect) as refused:
            with connect(client, created["table_id"], "https://evil.example") as ws:
                ws.receive_text()
        assert refused.value.code == 4403


def test_a_bad_allowed_origin_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not an origin"):
        create_app(f"sqlite:///{tmp_path / 'o.sqlite'}", allowed_origins=["skat.example"])


def test_origins_are_normalised():
    assert normalise_origin("HTTPS://Skat.Example") == ("https", "skat.example", 443)
    assert normalise_origin("http://[::1]:8000") == ("http", "::1", 8000)
    assert normalise_origin("null") is None and normalise_origin("ftp://x") is None
    assert normalise_origin("http://x:99999") is None


# ------------------------------------------------------------------ the CLI
def test_serve_parses_allow_origin_and_max_body():
    from skat.commands import serve

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args(["--allow-origin", "https://a.example", "--allow-origin", "http://b.example:8080",
                              "--max-body", "1000"])
    assert args.allow_origin == ["https://a.example", "http://b.example:8080"] and args.max_body == 1000
    args = parser.parse_args([])
    assert args.allow_origin == [] and args.max_body is None


def test_serve_refuses_a_bad_origin(capsys):
    from skat.commands import serve

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    assert serve.run(parser.parse_args(["--allow-origin", "skat.example"])) == 2
    assert "not an origin" in capsys.readouterr().err
