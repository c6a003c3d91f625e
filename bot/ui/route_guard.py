"""Discord's per-route buckets of the bot token, as the answers' ``X-RateLimit-*`` headers tell
them, kept where bot-token requests are actually sent (``bot/ui/http_gate.py``).

discord.py keeps a bucket per route and major parameter too (``http.Ratelimit``), but counts a
request against it when the request leaves discord.py, and after a reset it takes the first
answer's ``Remaining`` as it is: when the sends of one bucket are spread out after they left it
(the gate's pacer spaces bot-token sends at 45/s; a loaded host delays them), the first answer
comes back before the others reached Discord, says "4 remaining" while 4 more are on their way,
and discord.py lets 4 more go: a burst of 8 in a 5-per-5-s window, 3 of them refused with a 429
(the fake Discord, which keys buckets as Discord does: 15 refusals in a flood of 120 posts to
one channel). Here a bucket's requests are counted from the moment they are sent until their
answer came back, and a request is sent only while the bucket, as the last answer told it, less
the requests in flight, has room; once the window the answers told is over, a new one holds
``limit`` less those still in flight, until its first answer says when it ends.

A bucket is keyed as Discord keys it: the bucket's hash (``X-RateLimit-Bucket``, learnt per route;
the route's shape until then) and the route's top-level resource (the id after ``/channels/``,
``/guilds/`` or ``/webhooks/``). A route never answered is not held: discord.py sends its first
request alone (its bucket starts at a limit of 1).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot import metrics

_MAJORS = frozenset({"channels", "guilds", "webhooks"})
FORGET_EVERY = 1024  # answers between two sweeps of the buckets whose windows ended long ago
FORGET_AFTER = 60.0  # seconds after its window's end a quiet bucket is forgotten
SAME_WINDOW = 0.05  # seconds: two ``X-RateLimit-Reset`` this close name the same window


def route_of(path: str) -> tuple[str, str]:
    """A request path's route shape (ids as ``{}``) and its major parameter's value:
    ``/channels/5/messages/9`` -> (``/channels/{}/messages/{}``, ``5``)."""
    parts = path.split("/")
    major = ""
    for index, part in enumerate(parts):
        if part.isdigit():
            if not major and parts[index - 1] in _MAJORS:
                major = part
            parts[index] = "{}"
    return "/".join(parts), major


class _Bucket:
    __slots__ = ("limit", "remaining", "reset_at", "window", "in_flight", "carried", "answered")

    def __init__(self, limit: int, remaining: int, reset_at: float, window: float) -> None:
        self.limit = limit
        self.remaining = remaining  # requests that may still be sent in the window
        # the window's end on our clock (None: taken for over, the next one's end not told yet)
        self.reset_at: float | None = reset_at
        self.window = window  # its ``X-RateLimit-Reset``: the same in every answer of it
        self.in_flight = 0  # sent, answer not back yet
        self.carried = 0  # of them, sent in the window before (they may land in this one)
        self.answered: asyncio.Event | None = None  # set at each answer, while someone waits


class RouteGuard:
    """The bot token's per-route buckets (module docstring): ``sending`` before a request on
    a route goes, ``answered`` with its answer's headers (or None: no answer) once back."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._hashes: dict[str, str] = {}  # route shape (with its method) -> bucket hash
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._answers = 0
        self.waited = 0  # requests that waited for their bucket (tests, metrics)

    def key(self, method: str, path: str) -> tuple[str, str]:
        shape, major = route_of(path)
        route = f"{method} {shape}"
        return self._hashes.get(route, route), major

    async def sending(self, method: str, path: str) -> tuple[str, str, str]:
        """Wait until the bucket of ``method path`` has room, and count the request in it.
        Returns what ``answered`` needs to find the bucket again."""
        route_key = self.key(method, path)
        bucket = self._buckets.get(route_key)
        if bucket is not None:
            waited = False
            while True:
                now = self._clock()
                if bucket.reset_at is not None and now >= bucket.reset_at:
                    # the window the answers told is over: a new one, whose first answer says
                    # when it ends; the requests still in flight may land in it
                    bucket.remaining = bucket.limit - bucket.in_flight
                    bucket.carried = bucket.in_flight
                    bucket.reset_at = None
                if bucket.remaining > 0:
                    break
                if not waited:
                    waited = True
                    self.waited += 1
                    metrics.count("route.waited")
                if bucket.reset_at is not None:
                    await self._sleep(bucket.reset_at - now)
                elif bucket.in_flight == 0:
                    break  # nothing on its way will tell more (its answers were errors)
                else:  # spent before any answer of this window came: wait for one
                    if bucket.answered is None:
                        bucket.answered = asyncio.Event()
                    await bucket.answered.wait()
            bucket.remaining -= 1
            bucket.in_flight += 1
        route = f"{method} {route_of(path)[0]}"
        return route, route_key[0], route_key[1]

    def answered(self, sent: tuple[str, str, str], headers: Callable[[str], str | None]) -> None:
        """The answer of a request ``sending`` counted came back; ``headers`` reads one of its
        headers (None when absent). A request that got no answer: ``failed``."""
        route, hashed, major = sent
        bucket = self._buckets.get((hashed, major))
        if bucket is not None:
            bucket.in_flight = max(0, bucket.in_flight - 1)
        remaining = headers("X-RateLimit-Remaining")
        if remaining is not None:
            self._learn(route, hashed, major, bucket, remaining, headers)
        if bucket is not None and bucket.answered is not None:
            bucket.answered.set()
            bucket.answered = None
        self._answers += 1
        if self._answers % FORGET_EVERY == 0:
            self._forget(self._clock())

    def failed(self, sent: tuple[str, str, str]) -> None:
        """A request ``sending`` counted got no answer (an error on the way)."""
        self.answered(sent, _no_headers)

    def _learn(
        self,
        route: str,
        hashed: str,
        major: str,
        bucket: _Bucket | None,
        remaining_text: str,
        headers: Callable[[str], str | None],
    ) -> None:
        try:
            remaining = int(remaining_text)
            limit = int(headers("X-RateLimit-Limit") or remaining + 1)
            reset_after = float(headers("X-RateLimit-Reset-After") or 0.0)
            reset_text = headers("X-RateLimit-Reset")
            window = float(reset_text) if reset_text else time.time() + reset_after
        except ValueError:
            return
        reset_at = self._clock() + reset_after
        bucket_hash = headers("X-RateLimit-Bucket")
        if bucket_hash is not None and self._hashes.get(route) != bucket_hash:
            self._hashes[route] = bucket_hash  # the route's requests are keyed by it from now
            if bucket is not None:
                self._buckets.setdefault((bucket_hash, major), bucket)
            bucket = self._buckets.get((bucket_hash, major))
            hashed = bucket_hash
        if bucket is None:
            self._buckets[(hashed, major)] = _Bucket(limit, remaining, reset_at, window)
            return
        bucket.limit = limit
        if bucket.window is not None and window < bucket.window - SAME_WINDOW:
            return  # an answer of a window before: it says nothing of this one
        if bucket.window is not None and window <= bucket.window + SAME_WINDOW:
            # the window we count in (as told, or taken for over early: then its end again)
            if bucket.reset_at is None:  # taken for over: a request sent in it landed there
                if bucket.carried > 0:
                    bucket.carried -= 1
                    bucket.remaining += 1  # the place kept for it in the new window is free
                return
            bucket.remaining = min(bucket.remaining, remaining - bucket.in_flight)
            bucket.reset_at = max(bucket.reset_at, reset_at)
            return
        # the first answer of a newer window: it says how much of it is left, and when it ends
        if bucket.reset_at is not None:  # not rolled over yet: the old window ended meanwhile
            bucket.remaining = bucket.limit - bucket.in_flight
        bucket.carried = 0  # the answers of the window before that are still due: not known
        bucket.remaining = min(bucket.remaining, remaining - bucket.in_flight)
        bucket.window = window
        bucket.reset_at = reset_at

    def _forget(self, now: float) -> None:
        quiet = [
            key
            for key, bucket in self._buckets.items()
            if bucket.in_flight == 0
            and bucket.answered is None
            and (bucket.reset_at is None or bucket.reset_at < now - FORGET_AFTER)
        ]
        for key in quiet:
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


def _no_headers(name: str) -> str | None:
    return None


def header_reader(response: Any) -> Callable[[str], str | None]:
    """How ``answered`` reads an answer's headers: the wire's one at a time, aiohttp's from its
    multidict."""
    reader = getattr(response, "header", None)
    if reader is not None:
        return reader
    return response.headers.get
