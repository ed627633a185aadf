"""The static files reach a browser compressed (issue 32: a court card's SVG of 150 KB went out uncompressed and
the table page scored 74 for performance in Lighthouse's mobile profile): the textual ones gzip-compressed for a
client that takes it, plain for one that does not, with validators that give 304 for either."""

from __future__ import annotations

import gzip

import pytest

from skat.server.routes.pages import COMPRESSED_TYPES, STATIC_DIR

COURT_CARD = "cards/french/CQ.svg"


def raw_get(client, path: str, **headers: str):
    """GET without httpx's own decoding: the bytes as they came over the wire."""
    with client.stream("GET", path, headers=headers) as answer:
        return answer, b"".join(answer.iter_raw())


def test_a_court_card_goes_out_gzip_compressed_to_a_third(client):
    plain = (STATIC_DIR / COURT_CARD).read_bytes()
    answer, wire = raw_get(client, f"/static/{COURT_CARD}", **{"Accept-Encoding": "gzip, deflate, br"})
    assert answer.status_code == 200
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.headers["vary"] == "Accept-Encoding"
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert int(answer.headers["content-length"]) == len(wire)
    assert gzip.decompress(wire) == plain
    assert len(wire) < len(plain) / 2.5, (len(wire), len(plain))


def test_without_gzip_the_file_goes_out_as_it_is(client):
    plain = (STATIC_DIR / "app.js").read_bytes()
    answer, wire = raw_get(client, "/static/app.js", **{"Accept-Encoding": "identity"})
    assert answer.status_code == 200 and "content-encoding" not in answer.headers
    assert wire == plain


@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_a_cached_copy_is_answered_304_in_either_encoding(client, encoding):
    first, _ = raw_get(client, "/static/style.css", **{"Accept-Encoding": encoding})
    etag = first.headers["etag"]
    again, body = raw_get(client, "/static/style.css", **{"Accept-Encoding": encoding, "If-None-Match": etag})
    assert again.status_code == 304 and body == b""
    other = "identity" if encoding == "gzip" else "gzip"
    changed, body = raw_get(client, "/static/style.css", **{"Accept-Encoding": other, "If-None-Match": etag})
    if encoding == "gzip":  # a client holding only the compressed copy, now without gzip: the plain file
        assert changed.status_code == 200 and body == (STATIC_DIR / "style.css").read_bytes()
    else:  # a client holding the plain copy may keep it: the same file
        assert changed.status_code == 304


def test_every_textual_static_file_is_compressed_and_reads_back(client):
    files = [p for p in STATIC_DIR.rglob("*") if p.is_file() and p.suffix.lower() in COMPRESSED_TYPES]
    assert len(files) > 100
    sent = saved = 0
    for path in files[::7]:
        rel = path.relative_to(STATIC_DIR).as_posix()
        answer, wire = raw_get(client, f"/static/{rel}", **{"Accept-Encoding": "gzip"})
        assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip", rel
        assert gzip.decompress(wire) == path.read_bytes(), rel
        sent += len(wire)
        saved += path.stat().st_size
    assert sent < saved / 2
