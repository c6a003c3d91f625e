"""Issue 29: an answer that arrives whole in the common shape is taken by the lean transport
(``bot/ui/token_wire.py``: ``_Connection._whole``) without httptools' callback per header. It
must read exactly as httptools reads it: every answer below is taken both ways, in one piece
(the short way where it applies) and byte by byte (httptools, which never sees a whole head in
one piece), and compared field by field, with whether the connection stays open."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.ui import token_wire

MESSAGE = b'{"id":"2","content":"x"}'
LIMITED = b'{"retry_after": 0.5, "global": true}'
ANSWERS = {
    "edit": (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
        b"Connection: keep-alive\r\nX-RateLimit-Limit: 5\r\nx-ratelimit-remaining: 0\r\n"
        b"X-RateLimit-Reset-After: 0.25\r\nVia: 1.1 google\r\n\r\n%s" % (len(MESSAGE), MESSAGE)
    ),
    "callback": b"HTTP/1.1 204 No Content\r\nDate: Sun, 06 Dec 2026 07:00:00 GMT\r\n\r\n",
    "bare 204": b"HTTP/1.1 204 No Content\r\n\r\n",
    "odd spacing": (
        b"HTTP/1.1 200 OK\r\nContent-Length:   2  \r\nX-Ratelimit-Remaining:\t3\r\n"
        b"Empty:\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n{}"
    ),
    "no reason": b"HTTP/1.1 200\r\nContent-Length: 2\r\n\r\n{}",
    "429": (
        b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
        b"Retry-After: 1\r\nX-RateLimit-Global: true\r\nX-RateLimit-Scope: global\r\n"
        b"Via: 1.1 google\r\nContent-Length: %d\r\n\r\n%s" % (len(LIMITED), LIMITED)
    ),
    "404": (
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 45\r\n"
        b'\r\n{"message": "Unknown Message", "code": 10008}'
    ),
    "closing": b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
    "two connection headers": (
        b"HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nConnection: close\r\n"
        b"Content-Length: 2\r\n\r\n{}"
    ),
    "chunked": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"),
    "http/1.0": b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}",
    "interim then final": (
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
    ),
    "304": b"HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n",
    "read to close, nothing yet": b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n",
    "read to close": b"HTTP/1.1 200 OK\r\n\r\n{}",
    "short of its length": b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}",
    "empty 200": b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
}
NAMES = ("X-RateLimit-Remaining", "content-type", "Via", "Retry-After", "Empty", "Missing")


class _Transport:
    def __init__(self) -> None:
        self.closed = False

    def write(self, data: bytes) -> None:
        return None

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> Any:
        return None


async def _answer(data: bytes, *, whole: bool) -> tuple[Any, bool, bool]:
    """(the answer, the connection closed, its future done) of ``data`` fed in one piece or
    byte by byte."""
    conn = token_wire._Connection()
    transport = _Transport()
    conn.connection_made(transport)
    waiter = conn.send(b"PATCH /x HTTP/1.1\r\n\r\n")
    pieces = [data] if whole else [data[i : i + 1] for i in range(len(data))]
    for piece in pieces:
        conn.data_received(piece)
    if not waiter.done():
        conn.connection_lost(None)  # a body read to the close, or an answer cut short
    await asyncio.sleep(0)
    answer = waiter.result() if waiter.exception() is None else waiter.exception()
    return answer, conn.closed or transport.closed, conn._fresh


def _read(answer: Any) -> Any:
    if isinstance(answer, BaseException):
        return type(answer)
    found = [answer.header(name) for name in NAMES]
    return answer.status, answer.reason, list(answer.headers.items()), answer.body, found


@pytest.mark.parametrize("kind", sorted(ANSWERS))
async def test_an_answer_in_one_piece_reads_as_httptools_reads_it(kind: str):
    data = ANSWERS[kind]
    whole, whole_closed, _ = await _answer(data, whole=True)
    parsed, parsed_closed, _ = await _answer(data, whole=False)
    assert _read(whole) == _read(parsed)
    assert whole_closed == parsed_closed


async def test_the_common_answers_take_the_short_way_and_the_rest_httptools():
    """The short way is really taken for Discord's usual answers (their headers are then read
    off the head, not collected one callback at a time), and not for the others."""
    taken = {}
    for kind, data in ANSWERS.items():
        answer, _, _ = await _answer(data, whole=True)
        taken[kind] = not isinstance(answer, BaseException) and answer._raw_headers is None
    assert {k for k, short in taken.items() if short} == {
        "edit",
        "callback",
        "bare 204",
        "odd spacing",
        "no reason",
        "429",
        "404",
        "empty 200",
    }
