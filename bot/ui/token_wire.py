"""A lean HTTP/1.1 keep-alive client for the bot's REST requests (issue 29): its own
interaction-token requests (``bot/ui/payload.py``) and discord.py's through the gate
(``http_gate.GatedSession.sent``: bot-token routes, follow-ups).

A click's callback and a token edit (``bot/ui/payload.py``, ~3 per move) cost ~330 k
instructions (~90 µs) each in aiohttp + uvloop, and no public aiohttp option cuts that
(``bench/profile_transports.py``, ``bench/count_request_instructions.py``). Here the same request
is one prebuilt ``bytes`` written on the loop's own transport, and its answer is parsed by
httptools (llhttp, uvicorn's parser), over a pool of keep-alive connections per origin. An
answer of the usual shape that arrives in one read (``_Connection._whole``: Content-Length or
a bodiless 204, nothing else about framing) is taken off its bytes without httptools'
callback per header, read exactly as httptools reads it (``tests/bot/test_wire_answers.py``);
a token request's URL is split without yarl (``Target``).

What it does as aiohttp does, and what it does not:
- TLS with ``ssl.create_default_context()`` (aiohttp's default: the system's CAs, hostname
  checked) and SNI; HTTP/1.1 keep-alive (the connection idle longest taken first, as aiohttp's
  connector: ``_Origin.idle_one``); ``Content-Length``, chunked and read-to-close answers;
  an answer's ``Connection: close`` (or HTTP/1.0) closes its connection after it.
- The headers aiohttp adds (``Host``, ``Accept``, ``User-Agent`` unless the request names
  its own, ``Content-Length`` but on a GET without a body) less
  ``Accept-Encoding``: Discord is not asked to compress what it answers;
  one compressed all the same is inflated.
- A connection the peer closed while idle is dropped and the request goes on another one: a
  request is sent again ONLY when nothing of it was written. Once written, a connection lost
  before the answer raises as aiohttp raises (``ServerDisconnectedError``, ``ClientOSError``),
  for a POST callback (Discord may have taken it: a second one is refused as already
  acknowledged) and a PATCH edit alike (aiohttp retries neither: not idempotent methods).
  An idempotent one (a bot-token GET or DELETE) lost so on a reused connection is sent once
  more on a new connection, as aiohttp does.
- Connection errors are aiohttp's (``ClientConnectorError``, ``ConnectionTimeoutError`` after
  ``connect_timeout`` s: aiohttp's ``sock_connect`` of ``http_gate.UNTIMED``); the request's
  overall limit is the gate's ``Overdue``; a cancelled request closes its connection.
- No proxy, cookies, redirects nor 100-continue: the caller (``http_gate.exempt_request``)
  leaves requests through a proxy to aiohttp, and Discord's API answers none of the others.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import ssl
import sys
import time
import zlib
from collections import deque
from collections.abc import Coroutine, Mapping
from typing import Any, Protocol

import aiohttp
import httptools
from aiohttp.client_reqrep import ConnectionKey
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

# aiohttp's own User-Agent: Discord sees the same client whichever way a request goes.
USER_AGENT = f"Python/{sys.version_info[0]}.{sys.version_info[1]} aiohttp/{aiohttp.__version__}"
IDLE_LIMIT = 15.0  # s an idle connection is kept (aiohttp's keepalive_timeout)
IDLE_KEPT = 64  # idle connections kept per origin; more are closed when they come back
_BODYLESS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})  # aiohttp's: no length when empty
_IDEMPOTENT = _BODYLESS | {"PUT", "DELETE"}  # aiohttp's ``IDEMPOTENT_METHODS``: sent again once


# A JSON body's headers: one read-only mapping for every request (aiohttp copies it; a
# multidict already, it is not converted to one first), written as one prebuilt line here.
JSON_HEADERS: Mapping[str, str] = CIMultiDictProxy(
    CIMultiDict({"Content-Type": "application/json"})
)
_JSON_LINE = "Content-Type: application/json\r\n"


class Target:
    """A request's URL on an origin known beforehand (``target``): its origin's key and the
    path with its query as the request line carries them, split without yarl. A token request's
    URL holds its interaction's token, so each is new to yarl's caches: ``URL(…, encoded=True)``
    and the parts read of it took ~4.5 µs of every token request (issue 29)."""

    __slots__ = ("key", "path_qs")

    def __init__(self, key: tuple[str, str], path_qs: str) -> None:
        self.key = key  # (scheme, authority as written): ``TokenWire.origin``'s key
        self.path_qs = path_qs

    def __str__(self) -> str:
        return f"{self.key[0]}://{self.key[1]}{self.path_qs}"

    def __repr__(self) -> str:
        return f"Target({str(self)!r})"

    def url(self) -> URL:
        """The same URL as yarl's (for aiohttp: a request through a proxy)."""
        return URL(str(self), encoded=True)


def target(base: str, path: str) -> Target | URL:
    """``URL(base + path, encoded=True)``: ``base`` a URL without a query nor fragment
    (Discord's API root), ``path`` with nothing to quote and a plain ``name=value`` query, if
    any. A ``Target`` of the same parts, or yarl's URL for a base of another shape."""
    split = _split_base(base)
    if split is None:
        return URL(base + path, encoded=True)
    return Target(split[0], split[1] + path)


@functools.lru_cache(maxsize=8)
def _split_base(base: str) -> tuple[tuple[str, str], str] | None:
    """(scheme, authority) and the rest of ``base`` as written, or None if yarl reads it
    otherwise (a query, a fragment, an authority written in another way)."""
    url = URL(base, encoded=True)
    origin = f"{url.scheme}://{url.raw_authority}"
    rest = base[len(origin) :]
    if not base.startswith(origin) or url.raw_query_string or url.raw_fragment:
        return None
    if url.raw_path != (rest or "/"):
        return None
    return (url.scheme, url.raw_authority), rest


class Answer:
    """A whole answer: what ``payload.send`` and discord.py's errors read of an aiohttp
    response (``status``, ``reason``, ``headers``, ``read()``, ``content.is_eof()``)."""

    __slots__ = ("status", "reason", "_raw_headers", "_head", "_lower", "_headers", "body")

    def __init__(
        self,
        status: int,
        reason: str,
        raw_headers: list[tuple[bytes, bytes]] | None,
        body: bytes,
        head: bytes = b"",
        lower: bytes = b"",
    ) -> None:
        self.status = status
        self.reason = reason
        # httptools' (name, value) pairs, or None: ``head`` holds them (``_whole``), read when
        # asked (its status line, then a "\r\n" before each header line; ``lower``: the same
        # in lowercase)
        self._raw_headers = raw_headers
        self._head = head
        self._lower = lower
        self._headers: CIMultiDictProxy[str] | None = None
        self.body = body

    def _pairs(self) -> list[tuple[bytes, bytes]]:
        if self._raw_headers is None:
            pairs = []
            for line in self._head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                pairs.append((name, value.lstrip(b" \t")))  # as llhttp: trailing kept
            self._raw_headers = pairs
        return self._raw_headers

    @property
    def headers(self) -> CIMultiDictProxy[str]:
        """Built when read (a callback's 2xx are not): aiohttp's ``CIMultiDictProxy``."""
        if self._headers is None:
            self._headers = CIMultiDictProxy(
                CIMultiDict([(n.decode("latin-1"), v.decode("latin-1")) for n, v in self._pairs()])
            )
        return self._headers

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or None: what ``payload.send`` reads
        of every edit's answer (``X-Ratelimit-Remaining``), without ``headers``' whole
        ``CIMultiDictProxy`` (~2.5 µs an answer)."""
        if self._headers is not None:
            return self._headers.get(name)
        wanted = name.lower().encode("latin-1")
        if self._raw_headers is None:  # one search of the head for its line
            head = self._head
            found = self._lower.find(b"\r\n" + wanted + b":")
            if found < 0:
                return None
            start = found + len(wanted) + 3
            end = head.find(b"\r\n", start)
            value = head[start:end] if end >= 0 else head[start:]
            return value.lstrip(b" \t").decode("latin-1")
        size = len(wanted)
        for raw_name, value in self._pairs():
            if len(raw_name) == size and raw_name.lower() == wanted:
                return value.decode("latin-1")
        return None

    @property
    def content(self) -> Answer:
        return self  # its body has arrived whole (``content.is_eof()``)

    def is_eof(self) -> bool:
        return True

    async def read(self) -> bytes:
        return self.body

    async def text(self, encoding: str = "utf-8") -> str:
        return self.body.decode(encoding, errors="replace")


class Watch(Protocol):
    """What watches an answer for its time limit (``http_gate.Overdue``): told when the
    request is written (``watch``: its answer's future, which it may fail) and when it is
    over (``unwatch``)."""

    def watch(self, answer: asyncio.Future[Any]) -> None: ...

    def unwatch(self, answer: asyncio.Future[Any]) -> None: ...


class _Deaf:
    """A parser's protocol without callbacks: what a closed connection's parser is left with."""


_DETACHED = httptools.HttpResponseParser(_Deaf())  # fed nothing: a connection lost reads none


class _Connection(asyncio.Protocol):
    """One keep-alive connection: one request at a time, its answer parsed as it arrives."""

    def __init__(self) -> None:
        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self._loop = asyncio.get_running_loop()  # made by ``create_connection``, on the loop
        self.closed = False
        self.idle_since = 0.0
        self._waiter: asyncio.Future[Answer] | None = None
        self._reason = b""
        self._headers: list[tuple[bytes, bytes]] = []
        self._body: list[bytes] = []
        self._headers_done = False
        self._to_close = False  # no length nor chunks: the body ends with the connection
        self._framed = False  # a Content-Length or Transfer-Encoding header came
        self._encoded = False  # a Content-Encoding header came
        self._fresh = False  # nothing of the answer asked for has come yet (``_whole``)

    # ----- the connection -------------------------------------------------------------------
    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        raw = transport.get_extra_info("socket")
        if raw is not None:
            try:
                raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as aiohttp does
            except (OSError, AttributeError):
                pass

    def data_received(self, data: bytes) -> None:
        if self._waiter is None:  # nothing asked: a peer that talks out of turn is left
            self.close()
            return
        if self._fresh:
            self._fresh = False  # whatever comes next is httptools' if this is not whole
            if self._whole(data):
                return
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(aiohttp.ClientPayloadError(f"bad answer from Discord: {exc}"))
            self.close()

    def eof_received(self) -> bool:
        self.closed = True
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        try:
            self._lost(exc)
        finally:
            # The parser holds our callbacks (bound methods) and we hold the parser: a cycle
            # only the garbage collector frees, with the transport, its socket and buffers in
            # it. A connection lives long enough to be frozen (``bot/ops/collector.py``)
            # before it closes, and then waits for the thaw: 531 connections, ~17 objects
            # each, in the bot's first 3.7 minutes at 288 busy tables (``bench/heap_census.py``).
            # Without the cycle, reference counting frees it at once.
            self.parser = _DETACHED

    def _lost(self, exc: Exception | None) -> None:
        if self._waiter is None:
            return
        if exc is None and self._to_close and self._headers_done:
            self._complete()  # a read-to-close body ends here
            return
        if isinstance(exc, OSError):
            self._fail(aiohttp.ClientOSError(*exc.args))
        else:
            self._fail(aiohttp.ServerDisconnectedError())

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    # ----- one exchange ---------------------------------------------------------------------
    def send(self, request: bytes) -> asyncio.Future[Answer]:
        """Write ``request``; the answer's future (nothing of the request is written when the
        connection is closed: the caller checks ``closed`` first)."""
        assert self.transport is not None
        waiter: asyncio.Future[Answer] = self._loop.create_future()
        self._waiter = waiter
        self._reason, self._headers, self._body = b"", [], []
        self._headers_done = self._to_close = self._framed = self._encoded = False
        self._fresh = not request.startswith(b"HEAD ")  # a HEAD's answer has no body
        self.transport.write(request)
        return waiter

    def _whole(self, data: bytes) -> bool:
        """Take ``data`` as the whole answer if it is one in the common shape: HTTP/1.1, a
        final status, its body's ``Content-Length`` (none and no body: a 204), nothing that
        changes how the body or the connection ends (``Transfer-Encoding``,
        ``Content-Encoding``, a ``Connection`` but ``keep-alive``). Its headers are read from
        the head when asked, instead of one httptools callback per header as it is parsed
        (issue 29). False: nothing taken, httptools parses it (the parser has seen nothing of
        this answer)."""
        if not data.startswith(b"HTTP/1.1 "):
            return False
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return False
        head = data[:end]
        lower = head.lower()
        if b"\r\ntransfer-encoding:" in lower or b"\r\ncontent-encoding:" in lower:
            return False
        kept = lower.find(b"\r\nconnection:")
        if kept >= 0 and not _keeps_alive(lower, kept + 13):
            return False
        line_end = head.find(b"\r\n")
        status_line = head if line_end < 0 else head[:line_end]
        code = status_line[9:12]
        if len(code) != 3 or not code.isdigit() or status_line[12:13] not in (b" ", b""):
            return False
        status = int(code)
        body = data[end + 4 :]
        length_at = lower.find(b"\r\ncontent-length:")
        if length_at < 0:
            if status != 204 or body:
                return False
        else:
            if status < 200 or status in (204, 304):
                return False
            start = length_at + 17
            stop = lower.find(b"\r\n", start)
            length = (lower[start:stop] if stop >= 0 else lower[start:]).strip(b" \t")
            if (
                not length.isdigit()
                or int(length) != len(body)
                or lower.find(b"\r\ncontent-length:", start) >= 0
            ):
                return False
        waiter, self._waiter = self._waiter, None
        answer = Answer(status, status_line[13:].decode("latin-1"), None, body, head, lower)
        if waiter is not None and not waiter.done():
            waiter.set_result(answer)
        return True

    def _fail(self, exc: BaseException) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(exc)

    def _complete(self) -> None:
        waiter, self._waiter = self._waiter, None
        if not self.parser.should_keep_alive() or self._to_close:
            self.close()  # Connection: close, HTTP/1.0, or a body ended by the close
        body = b"".join(self._body) if len(self._body) != 1 else self._body[0]
        answer = Answer(
            self.parser.get_status_code(), self._reason.decode("latin-1"), self._headers, body
        )
        if self._encoded:
            _inflate(answer)
        if waiter is not None and not waiter.done():
            waiter.set_result(answer)

    # ----- httptools' callbacks -------------------------------------------------------------
    def on_status(self, status: bytes) -> None:
        self._reason += status

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers.append((name, value))
        if name[:1] in b"CcTt":  # the few names that matter here, seen in one pass
            lower = name.lower()
            if lower == b"content-length" or lower == b"transfer-encoding":
                self._framed = True
            elif lower == b"content-encoding":
                self._encoded = True

    def on_headers_complete(self) -> None:
        self._headers_done = True
        status = self.parser.get_status_code()
        if status < 200 and status != 101:
            return  # an interim answer (1xx): its headers are not the answer's
        self._to_close = not self._framed and status not in (204, 304)

    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        if self.parser.get_status_code() < 200:
            self._reason, self._headers, self._body = b"", [], []
            self._headers_done = self._framed = self._encoded = False
            return
        self._complete()


class _Origin:
    """Connections to one scheme://host:port, and the start of every request's bytes."""

    def __init__(self, url: URL, wire: TokenWire) -> None:
        self.host = url.raw_host or ""
        self.port = url.port or (443 if url.scheme == "https" else 80)
        self.tls = url.scheme == "https"
        self.wire = wire
        self.idle: deque[_Connection] = deque()  # the one idle longest first
        host = self.host if url.is_default_port() else f"{self.host}:{self.port}"
        # what aiohttp adds to a request's own headers: with its User-Agent, and without it
        # (a request that names its own: discord.py's bot-token requests)
        self.agentless = f"Host: {host}\r\nAccept: */*\r\n"
        self.fixed = f"{self.agentless}User-Agent: {USER_AGENT}\r\n"

    def idle_one(self) -> _Connection | None:
        """An idle connection still open and fresh (None: a new one is needed): the one idle
        longest, as aiohttp's connector takes them (``popleft``), so the kept ones take the
        requests in turn and each stays in use while the traffic lasts; one that got none for
        ``IDLE_LIMIT`` is closed here on the way. The newest first left those below the
        busiest few idle until they expired, and opened new ones at the next burst: 0.010
        connections per move at 100 tables (``bench/syscalls_per_move.py``; 0.06 on a loaded
        machine), none in turn. A new one costs the bot ~0.2 ms of CPU on the bench's plain
        HTTP, ~1.3-1.8 ms with TLS (its handshake, as against Discord), and the request that
        waits for it the handshakes' round trips."""
        now = time.monotonic()
        while self.idle:
            conn = self.idle.popleft()
            if not conn.closed and now - conn.idle_since < IDLE_LIMIT:
                return conn
            conn.close()
        return None

    async def open(self) -> _Connection:
        loop = asyncio.get_running_loop()
        context = self.wire.ssl_context() if self.tls else None
        try:
            async with asyncio.timeout(self.wire.connect_timeout):
                _, conn = await loop.create_connection(
                    _Connection,
                    self.host,
                    self.port,
                    ssl=context,
                    server_hostname=self.host if context is not None else None,
                )
        except TimeoutError as exc:
            raise aiohttp.ConnectionTimeoutError(
                f"Connection timeout to host {self.host}:{self.port}"
            ) from exc
        except ssl.SSLCertVerificationError as exc:
            raise aiohttp.ClientConnectorCertificateError(self._key(context), exc) from exc
        except OSError as exc:
            raise aiohttp.ClientConnectorError(self._key(context), exc) from exc
        return conn

    def _key(self, context: ssl.SSLContext | None) -> ConnectionKey:
        return ConnectionKey(
            self.host, self.port, self.tls, context or True, None, None, None, None
        )

    def back(self, conn: _Connection) -> None:
        """A connection whose exchange ended: kept for the next request if it may be."""
        if conn.closed:
            return
        if len(self.idle) >= IDLE_KEPT:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        self.idle.append(conn)


class TokenWire:
    """Pools of keep-alive connections per origin, for requests whose whole answer is read
    before it is handed over (``request``). One per bot (``http_gate.install``)."""

    def __init__(
        self, *, ssl_context: ssl.SSLContext | None = None, connect_timeout: float = 30.0
    ) -> None:
        self._ssl = ssl_context
        self.connect_timeout = connect_timeout
        self._origins: dict[tuple[str, str], _Origin] = {}
        self.sent = 0  # requests written
        self.opened = 0  # connections opened for them

    def ssl_context(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = ssl.create_default_context()
        return self._ssl

    def request(
        self,
        method: str,
        url: URL | Target,
        data: bytes | None,
        headers: Mapping[str, str],
        overdue: Watch | None = None,
    ) -> WireRequest:
        """``method url`` with body ``data`` and ``headers`` (beside the fixed ones), used as
        ``async with`` like aiohttp's ``session.request``: the whole answer inside; ``overdue``
        watches its answer (``exchange``)."""
        return WireRequest(self, method, url, data, headers, overdue)

    def origin(self, url: URL | Target) -> _Origin:
        # keyed by the URL's scheme and authority as written: one property of a fresh URL
        # instead of its host and port parsed out of it (~half the look-up's cost)
        if isinstance(url, Target):
            key = url.key
            found = self._origins.get(key)
            if found is None:
                found = self._origins[key] = _Origin(url.url(), self)
            return found
        key = (url.scheme, url.raw_authority)
        found = self._origins.get(key)
        if found is None:
            found = self._origins[key] = _Origin(url, self)
        return found

    async def exchange(
        self,
        method: str,
        url: URL | Target,
        data: bytes | None,
        headers: Mapping[str, str],
        overdue: Watch | None = None,
    ) -> Answer:
        """The whole answer to ``method url``. ``overdue`` (the gate's ``Overdue``) watches it
        from the request's write on: one it fails (a ``TimeoutError``) ends the exchange as a
        lost connection does (the connection closed), without a task cancelled."""
        origin = self.origin(url)
        path_qs = url.path_qs if isinstance(url, Target) else url.raw_path_qs
        fixed = origin.fixed
        if headers is JSON_HEADERS:
            extra = _JSON_LINE
        else:
            extra = ""
            for name, value in headers.items():
                if name.lower() == "user-agent":
                    fixed = origin.agentless
                extra += f"{name}: {value}\r\n"
        if data is None and method in _BODYLESS:
            # as aiohttp: no length for a GET without a body
            request = f"{method} {path_qs} HTTP/1.1\r\n{fixed}{extra}\r\n".encode("latin-1")
        else:
            body = data or b""
            request = (
                f"{method} {path_qs} HTTP/1.1\r\n{fixed}{extra}Content-Length: {len(body)}\r\n\r\n"
            ).encode("latin-1") + body
        conn = origin.idle_one()
        reused = conn is not None
        if conn is None:
            conn = await origin.open()
            self.opened += 1
        while True:
            self.sent += 1
            # an open one: nothing awaited since it was found so, and nothing of this request
            # was written anywhere else; from here on, it is written
            waiter = conn.send(request)
            if overdue is not None:
                overdue.watch(waiter)
            try:
                answer = await waiter
            except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
                conn.close()
                if not (reused and method in _IDEMPOTENT):
                    raise
                # as aiohttp: a kept-alive connection the peer closed just as an idempotent
                # request went out gets that request once more, on a new connection
                reused = False
                conn = await origin.open()
                self.opened += 1
                continue
            except BaseException:
                conn.close()  # mid-exchange (cancelled, lost, overdue): its state is unknown
                raise
            finally:
                if overdue is not None:
                    overdue.unwatch(waiter)
            origin.back(conn)
            return answer

    async def close(self) -> None:
        for origin in self._origins.values():
            for conn in origin.idle:
                conn.close()
            origin.idle.clear()
        self._origins.clear()


def _inflate(answer: Answer) -> None:
    """An answer compressed although nobody asked (no ``Accept-Encoding``): inflated."""
    coding = answer.headers.get("Content-Encoding", "").lower()
    if answer.body and coding in ("gzip", "deflate"):
        answer.body = zlib.decompress(answer.body, wbits=47)  # 47: gzip or zlib, told apart


def _keeps_alive(lower: bytes, start: int) -> bool:
    """Whether the one ``Connection`` header whose value starts at ``start`` of a lowercase
    head says only ``keep-alive`` (as Cloudflare's answers do): HTTP/1.1's default."""
    stop = lower.find(b"\r\n", start)
    value = lower[start:stop] if stop >= 0 else lower[start:]
    return value.strip(b" \t") == b"keep-alive" and lower.find(b"\r\nconnection:", start) < 0


class WireRequest:
    """``TokenWire.request(…)`` as ``async with``: the answer is whole when it is entered."""

    __slots__ = ("_wire", "_args")

    def __init__(
        self,
        wire: TokenWire,
        method: str,
        url: URL | Target,
        data: bytes | None,
        headers: Mapping[str, str],
        overdue: Watch | None = None,
    ) -> None:
        self._wire = wire
        self._args = (method, url, data, headers, overdue)

    def __aenter__(self) -> Coroutine[Any, Any, Answer]:
        return self._wire.exchange(*self._args)  # awaited by ``async with``: no frame between

    def __aexit__(self, *exc: object) -> _Done:
        return DONE


class _Done:
    """An awaitable that is done at once, with None: what leaving a request whose answer is
    whole already awaits, without a coroutine made per request."""

    __slots__ = ()

    def __await__(self) -> Any:
        return iter(())


DONE = _Done()
