"""The one gate every bot-token request passes: around discord.py's HTTP session.

discord.py sends each REST request through one ``aiohttp.ClientSession`` (``HTTPClient`` and the
interaction webhooks share it). Wrapping that session's ``request`` sees every request at the
moment it is actually sent, including discord.py's own retries after a 429, the command sync and
every call nobody paced by hand. A request that carries the bot token on a route bound to
Discord's global limit waits its turn in the pacer (``bot/ui/pacer.py``) and is counted there
when it goes; interaction callbacks and webhook-token routes (``/interactions/…``,
``/webhooks/{app}/{token}/…``) are exempt and pass at once. A global 429 that still comes back
pauses the pacer for its ``retry_after``, so discord.py's retry, and everyone else's call, waits
it out in the gate instead of going around it. Before its turn, such a request waits for room in
its route's bucket as the answers' ``X-RateLimit-*`` headers told it, counting the requests still
on their way (``bot/ui/route_guard.py``): discord.py's own bucket trusts a first answer's
``Remaining`` while others it let go are still held here.

A request the bot itself makes on an interaction token's route (``bot/ui/payload.py``: a click's
update, a token edit) knows it is exempt: it goes straight to the session under the gate
(``exempt_request``) and times itself (``answered``, ``callback_sent``), without the gate's
parse of its URL and body (issue 29: a tenth of a request's bot-side CPU), and without
aiohttp's per-request timer: the gate's ``Overdue`` guards all of them with one. Without a
proxy they go through the gate's lean transport (``bot/ui/token_wire.py``) instead of aiohttp
(``exempt_exchange``: awaited, its whole answer), and so do discord.py's own requests through
the gate (``GatedSession.sent``), once paced.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Mapping
from contextvars import ContextVar
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from yarl import URL

from bot import metrics
from bot.ui.pacer import RequestPacer
from bot.ui.route_guard import RouteGuard, header_reader
from bot.ui.token_wire import Answer, Target, TokenWire

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1_420_070_400_000  # a snowflake's time is milliseconds since this


def api_path(url: str | URL | Target) -> str:
    """``https://discord.com/api/v10/channels/1/messages`` -> ``/channels/1/messages``. A
    ``yarl.URL`` or a ``token_wire.Target`` (``bot/ui/payload.py``'s requests) has its path
    split already: not split again (urlsplit was a tenth of the gate's own CPU)."""
    if isinstance(url, Target):
        path = url.path_qs.partition("?")[0]
    elif isinstance(url, URL):
        path = url.raw_path
    else:
        path = urlsplit(url).path
    marker = path.find("/api/v")
    if marker >= 0:
        rest = path[marker + len("/api/v") :]
        slash = rest.find("/")
        path = rest[slash:] if slash >= 0 else "/"
    return path


def is_exempt(path: str) -> bool:
    """An interaction callback, or a route authorized by an interaction (webhook) token: not
    bound to the bot token's global limit."""
    if path.startswith("/interactions/"):
        return True
    parts = path.split("/")  # "", "webhooks", id, token, ...
    return len(parts) >= 4 and parts[1] == "webhooks" and bool(parts[3])


def bound_to_global_limit(url: str, headers: Any) -> bool:
    return _bound(api_path(url), headers)


def _bound(path: str, headers: Any) -> bool:
    """``bound_to_global_limit`` of a request whose API path is known already."""
    authorization = (headers or {}).get("Authorization") or ""
    return authorization.startswith("Bot ") and not is_exempt(path)


# When our handler of the current task's interaction began (perf_counter), until its answer
# (the callback) is sent: that wait is timed as ``ack_handler`` (``bench/load.py``).
_handling_since: ContextVar[float | None] = ContextVar("mesa_handling_since", default=None)


def handling_started() -> None:
    """An interaction's handler begins in this task (its first callback is then timed)."""
    _handling_since.set(time.perf_counter())


def _time_answer(path: str, start: float, body: Any = None) -> None:
    """A callback goes through the gate (``path``, its ``body``): ``callback_sent``."""
    callback_sent(_made_at(path), answer_kind(body), start)


def callback_sent(made: float | None, kind: str, start: float) -> None:
    """A callback of kind ``kind`` (``answer_kind``) is sent at ``start`` (perf_counter): how
    long since Discord made its interaction at ``made`` (Unix seconds, its id's time:
    ``made_at``; ``ack_sent``: the ack as the player sees it, less the way back) and, for a
    handler that said when it began, its own wait (``ack_handler``, and apart by kind of
    answer) and what came before it (``ack_arrival``: the gateway, discord.py, and the loop's
    queue before our code ran)."""
    sent = (time.time() - made) * 1000 if made is not None else None
    if sent is not None:
        metrics.observe("ack_sent", sent)
    since = _handling_since.get()
    if since is None:
        return
    _handling_since.set(None)
    handler = (start - since) * 1000
    metrics.observe("ack_handler", handler)
    metrics.observe(_ACK_BY_KIND.get(kind) or f"ack_handler_{kind}", handler)
    if sent is not None:
        metrics.observe("ack_arrival", max(0.0, sent - handler))


# An interaction callback's type (Discord's InteractionResponseType) -> its name in the timings.
_ANSWER_KINDS = {4: "message", 5: "thinking", 6: "deferred", 7: "update", 9: "modal"}
_ACK_BY_KIND = {kind: f"ack_handler_{kind}" for kind in (*_ANSWER_KINDS.values(), "files", "other")}


def answer_kind_of(callback_type: Any) -> str:
    """The kind of a callback of type ``callback_type`` (Discord's InteractionResponseType)."""
    return _ANSWER_KINDS.get(callback_type, "other") if type(callback_type) is int else "other"


def answer_kind(body: Any) -> str:
    """The kind of a callback from its body: a JSON text (discord.py writes ``type`` first),
    or a multipart form (``FormData``, or its bytes: ``bot/ui/payload.py``), which only an
    answer with files is: a message or an update."""
    if isinstance(body, bytes) and body.startswith(b"--"):
        return "files"
    if isinstance(body, str | bytes):
        text = body[:24].decode() if isinstance(body, bytes) else body[:24]
        marker = text.find('"type":')
        if marker >= 0:
            digits = text[marker + 7 :].lstrip()[:1]
            if digits.isdigit():
                return _ANSWER_KINDS.get(int(digits), "other")
        return "other"
    return "files" if body is not None else "other"


def _made_at(path: str) -> float | None:
    """Unix seconds at which Discord made the interaction of ``/interactions/{id}/…``."""
    parts = path.split("/", 3)  # "", "interactions", id, rest
    try:
        return made_at(int(parts[2]))
    except (IndexError, ValueError):
        return None


def made_at(snowflake: int) -> float:
    """Unix seconds at which Discord made ``snowflake`` (an interaction's id)."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def request_kind(path: str, counted: bool) -> str:
    """A request's name in the timings: ``callback`` (an interaction's answer), ``webhook``
    (an edit or follow-up through an interaction token), ``bot`` (bound to the global limit),
    ``other`` (the bot token on an exempt route)."""
    if path.startswith("/interactions/"):
        return "callback"
    if counted:
        return "bot"
    return "webhook" if path.startswith("/webhooks/") else "other"


_HTTP_METRIC = {kind: f"http_{kind}" for kind in ("callback", "webhook", "bot", "other")}


def answered(kind: str, start: float) -> None:
    """A request of ``kind`` (``request_kind``) sent at ``start`` (perf_counter) is answered
    now (its headers: a free connection of the session's pool included)."""
    metrics.observe(_HTTP_METRIC[kind], (time.perf_counter() - start) * 1000)


def exempt_request(session: Any, method: str, url: URL | Target, **kwargs: Any) -> Any:
    """``session.request(…)`` of a request on an interaction token's route (``is_exempt``),
    by a caller that knows it is one (``bot/ui/payload.py``): never paced, so sent by the
    session under the gate at once; the caller times it (``answered``, ``callback_sent``).
    Under the gate it runs without aiohttp's own timer, guarded by the gate's ``Overdue``.
    A ``token_wire.Target`` goes to aiohttp as yarl's URL."""
    wire = exempt_wire(session, kwargs.get("proxy"))
    if wire is not None:
        # the lean transport (``bot/ui/token_wire.py``): ~a quarter of aiohttp's instructions
        headers = kwargs.get("headers") or {}
        return wire.request(method, url, kwargs.get("data"), headers, session.overdue)
    if not isinstance(session, GatedSession):
        return session.request(method, url.url() if type(url) is Target else url, **kwargs)
    if type(url) is Target:
        url = url.url()
    request = session.session.request(method, url, timeout=UNTIMED, **kwargs)
    return _Guarded(session.overdue, request)


def exempt_wire(session: Any, proxy: str | None) -> TokenWire | None:
    """The gate's wire when a request on ``session`` through ``proxy`` (None: none) goes on
    it (``exempt_request``, ``exempt_exchange``): a gated session's without a proxy; else
    None (aiohttp)."""
    if proxy is None and isinstance(session, GatedSession):
        return session.wire
    return None


def exempt_exchange(
    session: GatedSession,
    wire: TokenWire,
    method: str,
    url: URL | Target,
    data: bytes | None,
    headers: Mapping[str, str],
) -> Coroutine[Any, Any, Answer]:
    """``exempt_request`` on the gate's ``wire`` (``exempt_wire``) as one awaitable of its whole
    answer: the wire's exchange under the gate's ``Overdue``, without the ``async with``'s
    object and calls around it (issue 29: the bot's own token requests, ~3 a move)."""
    return wire.exchange(method, url, data, headers, session.overdue)


# aiohttp arms a timer per request for its total timeout (``ClientTimeout.total``, 300 s by
# default): a ``call_at`` and its cancel, a libuv timer each, ~6 µs of a ~100 µs request
# (``bench/profile_session_options.py``). The bot's own token requests, ~3 per move, go without
# it (a new connection keeps aiohttp's connect timeout), and ``Overdue`` guards them together.
REQUEST_LIMIT = 300.0  # seconds: aiohttp's default total timeout, which this stands for
UNTIMED = aiohttp.ClientTimeout(total=None, sock_connect=30)


class Overdue:
    """Requests in flight, each ended if it is not over ``limit`` seconds after it began and
    raised as the ``TimeoutError`` aiohttp's total timeout raises: ONE timer checks them
    every ``every`` seconds while any is in flight (so one is late by at most ``every``),
    instead of a timer armed and cancelled per request. A request on aiohttp (``_Guarded``)
    is cancelled and its cancellation raised as the timeout; an answer awaited on the wire
    (``watch``: its future, from the request's write on) is failed with the timeout itself,
    so nothing is cancelled nor registered per request but the future (issue 29)."""

    def __init__(self, limit: float = REQUEST_LIMIT, every: float = 10.0) -> None:
        self.limit = limit
        self.every = every
        self._open: set[_Guarded] = set()
        self._answers: dict[asyncio.Future[Any], float] = {}  # the wire's: answer -> deadline
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def begin(self, request: _Guarded) -> None:
        loop = asyncio.get_running_loop()
        request.task = asyncio.current_task(loop)
        request.deadline = loop.time() + self.limit
        self._open.add(request)
        if self._timer is None or self._loop is not loop:
            self._arm(loop)

    def end(self, request: _Guarded) -> None:
        self._open.discard(request)

    def watch(self, answer: asyncio.Future[Any]) -> None:
        """The wire's answer to a request written now (``token_wire.TokenWire.exchange``)."""
        loop = answer.get_loop()
        self._answers[answer] = loop.time() + self.limit
        if self._timer is None or self._loop is not loop:
            self._arm(loop)

    def unwatch(self, answer: asyncio.Future[Any]) -> None:
        """``answer`` came (or failed, or its request was cancelled)."""
        self._answers.pop(answer, None)

    def in_flight(self) -> int:
        return len(self._open) + len(self._answers)

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._timer = loop.call_later(self.every, self._check)

    def _check(self) -> None:
        loop = self._loop
        assert loop is not None
        now = loop.time()
        for request in self._open:
            if request.deadline <= now and not request.expired and request.task is not None:
                request.expired = True
                request.task.cancel()
        for answer, deadline in list(self._answers.items()):
            if deadline <= now and not answer.done():
                answer.set_exception(TimeoutError(f"no answer within {self.limit:.0f} s"))
        self._timer = (
            loop.call_later(self.every, self._check) if self._open or self._answers else None
        )


class _Guarded:
    """An exempt request (``exempt_request``) under the gate's ``Overdue`` from its start to
    its end (the answer read inside the ``async with``, as aiohttp's own timer covers it)."""

    __slots__ = ("_overdue", "_request", "task", "deadline", "expired")

    def __init__(self, overdue: Overdue, request: Any) -> None:
        self._overdue = overdue
        self._request = request
        self.task: asyncio.Task[Any] | None = None
        self.deadline = 0.0
        self.expired = False

    async def __aenter__(self) -> Any:
        self._overdue.begin(self)
        try:
            return await self._request.__aenter__()
        except BaseException as exc:
            self._overdue.end(self)
            self._timed_out(exc)
            raise

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> Any:
        try:
            return await self._request.__aexit__(kind, exc, tb)
        finally:
            self._overdue.end(self)
            if exc is not None:
                self._timed_out(exc)

    def _timed_out(self, exc: BaseException) -> None:
        """A cancellation of our own (the request was overdue) raised as a timeout, as
        ``asyncio.timeout`` does; anyone else's goes on as it is."""
        if (
            self.expired
            and isinstance(exc, asyncio.CancelledError)
            and self.task is not None
            and self.task.uncancel() == 0
        ):
            raise TimeoutError(f"no answer within {self._overdue.limit:.0f} s") from exc


class _GatedRequest:
    """``session.request(…)`` used as ``async with``: waits for the gate, then sends."""

    def __init__(self, gate: GatedSession, method: str, url: Any, kwargs: dict[str, Any]) -> None:
        self._gate = gate
        self._args = (method, url, kwargs)
        self._inner: Any = None

    async def __aenter__(self) -> Any:
        method, url, kwargs = self._args
        path = api_path(url)  # once per request
        counted = _bound(path, kwargs.get("headers"))
        pacer = self._gate.pacer() if counted else None
        start = time.perf_counter()
        if path.startswith("/interactions/"):
            _time_answer(path, start, kwargs.get("data"))
        routes = self._gate.routes if counted else None
        bucket = None
        if routes is not None:  # its route's bucket first: a turn is not held while it waits
            bucket = await routes.sending(method, path)
        if pacer is not None:
            await pacer.sending()
            metrics.count("http.bot_token")
            sent = time.perf_counter()
            metrics.observe("gate_wait", (sent - start) * 1000)
            start = sent
        try:
            self._inner = self._gate.sent(method, url, await in_one_piece(kwargs))
            response = await self._inner.__aenter__()
        except BaseException:
            if routes is not None and bucket is not None:
                routes.failed(bucket)
            raise
        finally:
            if pacer is not None:
                pacer.landed()  # Discord counted it by now: the pacer's window knows when
        if routes is not None and bucket is not None:
            routes.answered(bucket, header_reader(response))
        answered(request_kind(path, counted), start)
        if pacer is not None and response.status == 429:
            self._gate.refused(pacer, response)
        return response

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> Any:
        return await self._inner.__aexit__(kind, exc, tb)


# What a request through the gate may carry to go on the wire (discord.py's requests carry no
# more); anything else, a proxy, or a body aiohttp streams, stays on aiohttp.
_ON_THE_WIRE = frozenset({"data", "headers", "params", "proxy", "proxy_auth"})


class GatedSession:
    """An ``aiohttp.ClientSession`` whose bot-token requests pass the pacer's gate; anything
    else is the session's own."""

    def __init__(
        self,
        session: Any,
        pacer: Callable[[], RequestPacer],
        wire: TokenWire | None = None,
    ) -> None:
        self.session = session
        self.pacer = pacer  # the bot's current one (shard processes swap in a shared one)
        self.global_429s = 0
        self.routes = RouteGuard()  # the bot token's per-route buckets, as answers tell them
        self.overdue = Overdue()  # the bot's own token requests (``exempt_request``)
        # their transport when no proxy is set (None: the session's, aiohttp)
        self.wire = wire

    def request(self, method: str, url: Any, **kwargs: Any) -> _GatedRequest:
        return _GatedRequest(self, method, url, kwargs)

    def sent(self, method: str, url: Any, kwargs: dict[str, Any]) -> Any:
        """discord.py's request (a bot-token route, a follow-up through a webhook token…), its
        body in one piece already, as ``async with``: through the wire when it can carry it
        (no proxy, a body of bytes or text, nothing but headers and a query besides; issue 29:
        ~a quarter of aiohttp's instructions) under the gate's ``Overdue`` as the bot's own
        token requests go, else through the session."""
        wire = self.wire
        data = kwargs.get("data")
        if (
            wire is None
            or kwargs.get("proxy") is not None
            or not _ON_THE_WIRE.issuperset(kwargs)
            or not (data is None or isinstance(data, bytes | str))
        ):
            return self.session.request(method, url.url() if type(url) is Target else url, **kwargs)
        query = kwargs.get("params")
        if type(url) is Target and not query:
            target: URL | Target = url  # split already (``payload.bot_send``)
        else:
            target = url.url() if type(url) is Target else url if isinstance(url, URL) else URL(url)
            if query:
                target = target.extend_query(query)  # as aiohttp adds it
        body = data.encode() if isinstance(data, str) else data  # aiohttp's: UTF-8
        headers = kwargs.get("headers") or {}
        return wire.request(method, target, body, headers, self.overdue)

    def refused(self, pacer: RequestPacer, response: Any) -> None:
        """A 429 came back: a global one pauses every bot-token call for its retry-after."""
        headers = response.headers
        if (
            headers.get("X-RateLimit-Global") is None
            and headers.get("X-RateLimit-Scope") != "global"
        ):
            return
        self.global_429s += 1
        try:
            retry_after = float(headers.get("Retry-After") or 1.0)
        except ValueError:
            retry_after = 1.0
        log.warning("Discord's global rate limit was hit; bot-token calls wait %.2f s", retry_after)
        pacer.pause(retry_after)

    async def close(self) -> None:
        """The session's ``close`` (discord.py's ``HTTPClient.close``), the wire's first."""
        if self.wire is not None:
            await self.wire.close()
        await self.session.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)


def install(http: Any, pacer: Callable[[], RequestPacer]) -> GatedSession:
    """Put the gate around discord.py's session (after login, before any interaction arrives:
    each interaction keeps the session it found)."""
    attribute = "_HTTPClient__session"
    session = getattr(http, attribute)
    if isinstance(session, GatedSession):
        session.pacer = pacer
        return session
    gated = GatedSession(session, pacer, TokenWire())
    setattr(http, attribute, gated)
    return gated


async def in_one_piece(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A multipart body (discord.py's ``FormData`` of a message with an image) as one bytes
    object: aiohttp writes a ``FormData`` to the socket part by part, boundary, headers and
    body apart (9 system calls on the loop's thread for a message and one image; one for a JSON
    body), one bytes body goes with the request's headers in one (issue 29). The same bytes:
    aiohttp's own ``as_bytes`` of the form, under the form's content type."""
    data = kwargs.get("data")
    if not isinstance(data, aiohttp.FormData):
        return kwargs
    form = data()
    headers = dict(kwargs.get("headers") or {})
    headers["Content-Type"] = form.content_type
    return {**kwargs, "data": await form.as_bytes(), "headers": headers}
