"""A request body over the limit (skat.server.security) against a real ``skat serve``: the client reads the
``413 too_large`` answer even while it is still writing its body, because the server drains the rest of a
refused body before it closes the connection (closing with unread bytes sends a TCP reset, and a client that
writes its whole body before reading, such as Python's urllib or a plain socket, then sees the reset instead
of the answer). The drain's bounds are tested on the middleware itself."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request

import httpx
import pytest

from skat.server.security import MAX_BODY_BYTES, Security
from test_server_support import ServerProcess

BIG = 12 * 1024 * 1024
"""A body far over the limit and over what the kernel's socket buffers hold (a few MiB on loopback): the
client's writes block until the server reads."""
BLOCK = b"x" * 65536
SEATS = ["human", "random", "random"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = f"sqlite:///{tmp_path_factory.mktemp('upload') / 'skat.sqlite'}"
    srv = ServerProcess(db).start()
    yield srv
    srv.stop()


def raw_post(server: ServerProcess, size: int, *, chunked: bool = False,
             content_type: str = "application/json") -> tuple[int, bytes, str]:
    """POST ``size`` bytes to /api/tables from a plain socket that writes the whole body first and reads the
    answer only then: (bytes written before a write failed, the answer, how the connection ended)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        head = f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: {content_type}\r\n"
        head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {size}\r\n\r\n"
        sock.sendall(head.encode())
        written = 0
        while written < size:
            block = BLOCK[:size - written]
            sock.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)  # a reset raises here
            written += len(block)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
        answer = b""
        while True:
            try:
                part = sock.recv(65536)
            except ConnectionResetError:
                return written, answer, "reset"
            if not part:
                return written, answer, "closed"
            answer += part


def parse(answer: bytes) -> tuple[int, dict[str, str], dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert len(body) == int(headers["content-length"]), answer  # the whole answer, nothing after it
    return int(lines[0].split()[1]), headers, json.loads(body)


def assert_served(server: ServerProcess) -> None:
    """The server answers the next requests as usual."""
    assert httpx.get(server.url + "/api/health", timeout=30).status_code == 200
    r = httpx.post(server.url + "/api/tables", json={"seats": SEATS}, timeout=30)
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_client_that_keeps_writing_reads_the_413(server, chunked):
    written, answer, end = raw_post(server, BIG, chunked=chunked)
    assert written == BIG
    status, headers, body = parse(answer)
    assert status == 413 and body["error"] == "too_large" and str(MAX_BODY_BYTES) in body["message"]
    assert headers["connection"] == "close" and headers["content-type"] == "application/json"
    assert end == "closed"  # the whole body was read: a clean close, no reset
    assert_served(server)


def test_a_large_body_that_is_not_json_reads_the_415(server):
    written, answer, end = raw_post(server, BIG, content_type="text/plain")
    status, _, body = parse(answer)
    assert written == BIG and status == 415 and body["error"] == "unsupported_media_type" and end == "closed"
    assert_served(server)


def test_urllib_reads_the_413(server):
    """Python's urllib writes the whole body before it reads: it saw a reset before the drain."""
    request = urllib.request.Request(server.url + "/api/tables", data=b"x" * BIG,
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == 413 and json.loads(refused.value.read())["error"] == "too_large"
    assert_served(server)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_httpx_reads_the_413(server, chunked):
    body = b"x" * BIG
    content = (body[i:i + 65536] for i in range(0, BIG, 65536)) if chunked else body
    r = httpx.post(server.url + "/api/tables", content=content, headers={"content-type": "application/json"},
                   timeout=60)
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert_served(server)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_body_under_the_limit_works(server, chunked):
    body = json.dumps({"seats": SEATS, "name": "Upload"}).encode()
    body = body[:-1] + b" " * (MAX_BODY_BYTES - len(body)) + b"}"  # exactly the limit
    assert len(body) == MAX_BODY_BYTES
    content = (body[i:i + 4096] for i in range(0, len(body), 4096)) if chunked else body
    r = httpx.post(server.url + "/api/tables", content=content, headers={"content-type": "application/json"},
                   timeout=60)
    assert r.status_code == 201, r.text
    assert r.json()["table"]["name"] == "Upload"
    assert_served(server)


# ---------------------------------------------------------------- the drain, on the middleware
def refuse(security: Security, headers: list[tuple[bytes, bytes]], receive) -> list[dict]:
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def inner(scope, receive, send) -> None:  # never reached: the request is refused
        raise AssertionError("the app was called")

    security.app = inner
    scope = {"type": "http", "method": "POST", "path": "/api/tables", "scheme": "http",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers]}
    asyncio.run(security(scope, receive, send))
    return sent


def body_messages(chunk: int, count: int, *, ends: bool = True) -> tuple[list[int], object]:
    """A receive that offers ``count`` body messages of ``chunk`` bytes, the last one ending the body (or,
    not ``ends``, the client leaving after them); and a one-element list counting the messages read."""
    read = [0]

    async def receive() -> dict:
        read[0] += 1
        if read[0] > count:
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": b"x" * chunk, "more_body": read[0] < count or not ends}

    return read, receive


@pytest.mark.parametrize("framing", [(b"content-length", str(100 * 16384).encode()),
                                     (b"transfer-encoding", b"chunked")])
def test_the_answer_is_whole_before_the_drain_and_ends_after_it(framing):
    read, receive = body_messages(16384, 100)
    sent = refuse(Security(None), [framing], receive)
    assert read[0] == 100  # the whole body, to its end, and no further
    start, answer, end = sent
    assert start["status"] == 413 and (b"connection", b"close") in start["headers"]
    assert json.loads(answer["body"])["error"] == "too_large" and answer["more_body"] is True
    assert end == {"type": "http.response.body", "body": b"", "more_body": False}


def test_the_drain_stops_after_its_bytes():
    read, receive = body_messages(16384, 10_000)  # 160 MB offered
    sent = refuse(Security(None, drain_bytes=1024 * 1024), [(b"transfer-encoding", b"chunked")], receive)
    assert sent[0]["status"] == 413 and sent[-1]["more_body"] is False
    assert read[0] < 1024 * 1024 // 16384 + MAX_BODY_BYTES // 16384 + 3


def test_the_drain_stops_when_the_client_sends_nothing():
    async def silent() -> dict:
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    sent = refuse(Security(None, drain_idle_seconds=0.05), [(b"content-length", b"100000000")], silent)
    assert sent[0]["status"] == 413 and sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


def test_the_drain_stops_when_the_client_leaves():
    read, receive = body_messages(16384, 3, ends=False)  # the client goes away before the end of its body
    sent = refuse(Security(None), [(b"content-length", b"100000000")], receive)
    assert read[0] == 4 and sent[0]["status"] == 413
