"""Discord's budget for one bot, as the fake enforces it (docs/discord.md, "Rate limits").

- The global limit: at most 50 requests per second per bot token, counted over every process
  and shard (the fake is one server, so all of them share one window). A request over it gets
  Discord's global 429 (`"global": true`, `X-RateLimit-Global`, `X-RateLimit-Scope: global`),
  which is also a violation: a bot that paces itself never sees one.
- Interaction endpoints are not bound to the global limit: the callback
  (`/interactions/{id}/{token}/callback`) and the webhook-token routes
  (`/webhooks/{application}/{token}/…`: `@original`, follow-ups), whatever headers they carry.
- Invalid requests (answered 401, 403 or 429, except 429s of scope "shared"): 10,000 in 10
  minutes get the IP banned by Cloudflare; the fake records a violation when a run gets there.

- Per-route buckets (`RouteBuckets`, on by default): every request on a bot-token or
  webhook-token route is counted in its route's bucket, keyed as Discord keys it: the bucket
  (`RouteLimit.bucket`, the `X-RateLimit-Bucket` hash's name) and the route's top-level resource
  ("major parameter": `channel_id`, `guild_id`, or `webhook_id` + `webhook_token`). Every answer
  carries the bucket's `X-RateLimit-Limit`, `-Remaining`, `-Reset` (Unix seconds), `-Reset-After`
  (seconds, rounded up to the millisecond) and `-Bucket`. A request over its bucket gets 429
  with scope "user" (`route_429`: JSON `retry_after`, `"global": false`, `Via`, the bucket's
  headers with `Remaining: 0`), which Discord counts as an invalid request; the fake records a
  `route_rate_limit` violation (a bot that reads the headers never sees one). A bucket is a
  fixed window: it opens at its first request and holds `limit` requests until `period`
  seconds later, as Discord's `Reset` says.

  The limits (`ROUTE_LIMITS`; Discord publishes none of them: "rate limits should not be hard
  coded", https://discord.com/developers/docs/topics/rate-limits), each with its source:

  | route | limit / period | keyed by | source |
  |---|---|---|---|
  | `POST /channels/{channel_id}/messages` | 5 / 5 s | channel | observed (the widely reported `Limit: 5`, `Reset-After: 5`) |
  | `PATCH /channels/{channel_id}/messages/{message_id}` | 5 / 5 s | channel | observed (as creates; a bucket of its own: assumed) |
  | `DELETE /channels/{channel_id}/messages/{message_id}` | 5 / 1 s | channel | assumed |
  | `/webhooks/{webhook_id}/{webhook_token}…` (execute, `@original`, messages: each route its own bucket) | 5 / 2 s | webhook id + token (an interaction's token: per interaction) | observed (discord-api-docs#2701: follow-ups 5/2 s per interaction, "identical to webhook rate limits") |
  | `POST /interactions/{id}/{token}/callback` | none: one answer per interaction (a second is 400 / 40060, `interactions.py`), no headers | | assumed: discord.py's stock adapter would hold the handler for the reset after a `Remaining: 0` |
  | any other route | 50 / 1 s | its major parameter | assumed (never tighter than the global limit) |

  A test changes the table (`fake.ratelimits.routes.table[(method, template)] = RouteLimit(…)`,
  `routes.default`) or turns the buckets off (`FakeDiscord(route_limits=False)`,
  `fake.ratelimits.routes.enabled = False`: no headers, no per-route 429s, as before).

Every request is classified (`route_kind`) and counted (`Traffic`), so a benchmark can read how
many calls went through the bot token and how many through interaction tokens.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

GLOBAL_PER_SECOND = 50
GLOBAL_WINDOW = 1.0
INVALID_LIMIT = 10_000
INVALID_WINDOW = 10 * 60.0
INVALID_STATUSES = frozenset({401, 403, 429})

BOT = "bot"  # carries `Authorization: Bot …` on a route bound to the global limit
INTERACTION = "interaction"  # an interaction callback or a webhook-token route (exempt)
ANONYMOUS = "anonymous"  # neither (refused with 401 by the pipeline)

# Requests that change an existing message (for the share of edits through interaction tokens).
_BOT_EDITS = frozenset({("PATCH", "/channels/{channel_id}/messages/{message_id}")})
_TOKEN_EDITS = frozenset(
    {
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    }
)
_CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
CB_UPDATE = 7  # UPDATE_MESSAGE: the callback edits the message the component sits on


def is_interaction_route(path: str) -> bool:
    """An interaction callback or a route authorized by an interaction (webhook) token."""
    if path.startswith("/interactions/"):
        return True
    parts = path.split("/")  # "", "webhooks", id, token, ...
    return len(parts) >= 4 and parts[1] == "webhooks" and bool(parts[3])


def route_kind(path: str, authorization: str | None) -> str:
    if is_interaction_route(path):
        return INTERACTION
    if authorization is not None and authorization.startswith("Bot "):
        return BOT
    return ANONYMOUS


def edit_kind(method: str, template: str | None, body: Any) -> str | None:
    """BOT or INTERACTION when the request edits an existing message through that route, else None."""
    key = (method, template)
    if key in _BOT_EDITS:
        return BOT
    if key in _TOKEN_EDITS:
        return INTERACTION
    if key == _CALLBACK and isinstance(body, dict) and body.get("type") == CB_UPDATE:
        return INTERACTION
    return None


@dataclass
class Traffic:
    """What the fake answered, counted per kind of route (read by bench/load.py)."""

    bot: int = 0  # requests on bot-token routes, admitted or not
    interaction: int = 0  # interaction callbacks and webhook-token requests
    anonymous: int = 0
    global_429: int = 0  # bot-token requests refused by the global limit
    route_429: int = 0  # requests refused by their route's bucket (scope "user")
    route_spent: int = 0  # requests admitted as their bucket's last (Remaining: 0): how near
    invalid: int = 0  # answers 401 / 403 / 429
    bot_edits: int = 0  # message edits through the bot token
    interaction_edits: int = 0  # message edits through an interaction token (update or webhook)

    def snapshot(self) -> dict[str, int]:
        return dict(vars(self))


class SlidingWindow:
    """At most `limit` events in any `window` seconds of `clock`."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._times: deque[float] = deque()

    def _trim(self, now: float) -> None:
        times = self._times
        while times and times[0] <= now - self.window:
            times.popleft()

    def count(self) -> int:
        self._trim(self.clock())
        return len(self._times)

    def try_take(self) -> float:
        """Count one event and return 0, or return the seconds until one more would fit."""
        now = self.clock()
        self._trim(now)
        if len(self._times) >= self.limit:
            return max(self._times[0] + self.window - now, 0.001)
        self._times.append(now)
        return 0.0

    def take(self) -> bool:
        """Count one event; True when that makes `limit` within the window (the moment the
        limit is reached, once per crossing)."""
        now = self.clock()
        self._trim(now)
        self._times.append(now)
        return len(self._times) == self.limit


class RateLimits:
    """The bot token's global limit and the invalid-request limit of one fake Discord.

    `global_rate`: requests per second on bot-token routes (Discord's 50; None or 0: not
    enforced, for a run that shows the bot unpaced). `route_limits`: the per-route buckets
    (`routes`, a `RouteBuckets`) on or off. `clock`: seconds, the fake's clock by
    default; a test may put a clock of its own in (`limits.clock = frozen.now`).
    """

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        global_rate: int | None = GLOBAL_PER_SECOND,
        invalid_limit: int = INVALID_LIMIT,
        invalid_window: float = INVALID_WINDOW,
        route_limits: bool = True,
    ) -> None:
        self.traffic = Traffic()
        self._clock = clock
        # per-route buckets, on the same clock (a test's own clock moves them too)
        self.routes = RouteBuckets(self._now, enabled=route_limits)
        self._global = SlidingWindow(global_rate or 0, GLOBAL_WINDOW, self._now)
        self._invalid = SlidingWindow(invalid_limit, invalid_window, self._now)
        self.global_rate = global_rate

    def _now(self) -> float:
        return self._clock()

    @property
    def clock(self) -> Callable[[], float]:
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._clock = clock

    @property
    def global_rate(self) -> int | None:
        return self._global.limit or None

    @global_rate.setter
    def global_rate(self, rate: int | None) -> None:
        """Change the limit (None or 0 turns it off); the requests already counted stay."""
        self._global.limit = rate or 0

    @property
    def invalid_limit(self) -> int:
        return self._invalid.limit

    @invalid_limit.setter
    def invalid_limit(self, limit: int) -> None:
        self._invalid.limit = limit

    def admit(self, kind: str) -> float:
        """Count a request of `kind`; 0 when it may proceed, else the seconds to wait (a global 429)."""
        traffic = self.traffic
        if kind == INTERACTION:
            traffic.interaction += 1
            return 0.0
        if kind != BOT:
            traffic.anonymous += 1
            return 0.0
        traffic.bot += 1
        if not self._global.limit:
            return 0.0
        retry_after = self._global.try_take()
        if retry_after:
            traffic.global_429 += 1
        return retry_after

    def answered(self, method: str, template: str | None, body: Any, status: int) -> bool:
        """Count an answer; True when it makes the invalid-request limit (once per crossing)."""
        if 200 <= status < 300:
            edit = edit_kind(method, template, body)
            if edit == BOT:
                self.traffic.bot_edits += 1
            elif edit == INTERACTION:
                self.traffic.interaction_edits += 1
        if status not in INVALID_STATUSES:
            return False
        self.traffic.invalid += 1
        return self._invalid.take()

    def route_slot(self, kind: str, method: str, template: str | None, path: str) -> Slot | None:
        """Count a bot-token or webhook-token request in its route's bucket (`RouteBuckets.take`);
        a refusal is counted as `route_429`."""
        if kind == ANONYMOUS:
            return None
        slot = self.routes.take(method, template, path)
        if slot is not None:
            if not slot.admitted:
                self.traffic.route_429 += 1
            elif slot.spent:
                self.traffic.route_spent += 1
        return slot

    def bot_requests_in_window(self) -> int:
        """Bot-token requests admitted in the last second."""
        return self._global.count()


def global_429(retry_after: float) -> tuple[bytes, dict[str, str]]:
    """Discord's answer to a request over the global limit: body and headers (status 429).
    `Via` tells discord.py it is Discord's limit, not a Cloudflare ban, so it waits and retries."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": True,
        "code": 0,
    }
    headers = {
        "Content-Type": "application/json",
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Global": "true",
        "X-RateLimit-Scope": "global",
        "Via": "1.1 google",
    }
    return json.dumps(body).encode(), headers


# --- per-route buckets ------------------------------------------------------------------------


@dataclass(frozen=True)
class RouteLimit:
    """A route's bucket: `limit` requests per `period` seconds for each value of its major
    parameter. Routes naming the same `bucket` share it (one `X-RateLimit-Bucket`)."""

    limit: int
    period: float
    bucket: str
    source: str = "assumed"  # documented / observed / assumed (module docstring)


_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
_WEBHOOK_TOKEN_LIMIT = 5, 2.0, "observed: discord-api-docs#2701 (5/2 s per interaction)"

# (method, spec template) -> its bucket; the module docstring says where each figure comes from.
ROUTE_LIMITS: dict[tuple[str, str], RouteLimit] = {
    ("POST", "/channels/{channel_id}/messages"): RouteLimit(
        5, 5.0, "channel-message-create", "observed"
    ),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): RouteLimit(
        5, 5.0, "channel-message-edit", "observed"
    ),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): RouteLimit(
        5, 1.0, "channel-message-delete", "assumed"
    ),
    **{
        (method, _WEBHOOK + tail): RouteLimit(
            _WEBHOOK_TOKEN_LIMIT[0],
            _WEBHOOK_TOKEN_LIMIT[1],
            f"webhook-{method.lower()}{tail.replace('/', '-').replace('{', '').replace('}', '')}",
            _WEBHOOK_TOKEN_LIMIT[2],
        )
        for method, tail in (
            ("POST", ""),
            ("GET", "/messages/@original"),
            ("PATCH", "/messages/@original"),
            ("DELETE", "/messages/@original"),
            ("GET", "/messages/{message_id}"),
            ("PATCH", "/messages/{message_id}"),
            ("DELETE", "/messages/{message_id}"),
        )
    },
}
DEFAULT_ROUTE_LIMIT = RouteLimit(50, 1.0, "", "assumed")  # bucket "": the route's own
# No bucket, no headers: answered once per interaction (a second answer is 400 / 40060).
UNBUCKETED = frozenset({("POST", "/interactions/{interaction_id}/{interaction_token}/callback")})
# Discord's top-level resources: a route's bucket is counted apart for each of their values.
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")


class Bucket:
    """One bucket for one value of its major parameter: a fixed window that opens at its first
    request and holds `limit` requests until `reset_at`."""

    __slots__ = ("limit", "used", "reset_at", "name")

    def __init__(self, limit: RouteLimit, name: str) -> None:
        self.limit = limit
        self.used = 0
        self.reset_at = -math.inf
        self.name = name


@dataclass
class Slot:
    """A request's place in its bucket: admitted or not, and the headers of its answer."""

    admitted: bool
    retry_after: float
    headers: dict[str, str]
    bucket: str
    major: str
    limit: RouteLimit
    spent: bool = False  # admitted as the window's last (its answer says Remaining: 0)


class RouteBuckets:
    """Discord's per-route limits (module docstring): `take` counts a request in its bucket."""

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        enabled: bool = True,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.enabled = enabled
        self.table: dict[tuple[str, str], RouteLimit] = dict(ROUTE_LIMITS)
        self.default = DEFAULT_ROUTE_LIMIT
        self._clock = clock
        self._wall = wall  # Unix seconds, for `X-RateLimit-Reset`
        self._buckets: dict[tuple[str, str], Bucket] = {}
        self._majors: dict[str, tuple[int, ...]] = {}  # template -> its major segments' indices
        self._takes = 0

    def quicken(self, pace: float) -> None:
        """Every bucket's window `pace` times shorter, the same number of requests in it: a bot
        that ignores the headers is refused as before, one that waits waits `pace` times less
        (the tests' pace: `FakeDiscord(route_pace=…)`, `pytest_plugin.discord_pace`)."""
        self.table = {
            key: replace(limit, period=limit.period / pace) for key, limit in self.table.items()
        }
        self.default = replace(self.default, period=self.default.period / pace)

    def _major_of(self, template: str, path: str) -> str:
        indices = self._majors.get(template)
        if indices is None:
            segments = template.split("/")
            indices = self._majors[template] = tuple(
                i for i, segment in enumerate(segments) if segment.strip("{}") in MAJOR_PARAMETERS
            )
        if not indices:
            return ""
        parts = path.split("/")
        return "/".join(parts[i] for i in indices if i < len(parts))

    def limit_of(self, method: str, template: str) -> tuple[RouteLimit, str]:
        """The route's limit and its bucket's name (the route's own when the table names none)."""
        limit = self.table.get((method, template), self.default)
        return limit, limit.bucket or f"{method} {template}"

    def take(self, method: str, template: str | None, path: str) -> Slot | None:
        """Count a request in its bucket; None when it has none (turned off, an unknown route,
        an interaction callback)."""
        if not self.enabled or template is None or (method, template) in UNBUCKETED:
            return None
        limit, name = self.limit_of(method, template)
        major = self._major_of(template, path)
        key = (name, major)
        bucket = self._buckets.get(key)
        if bucket is None or bucket.limit != limit:
            bucket = self._buckets[key] = Bucket(limit, name)
        now = self._clock()
        if bucket.reset_at <= now:
            bucket.used = 0
            bucket.reset_at = now + limit.period
        admitted = bucket.used < limit.limit
        if admitted:
            bucket.used += 1
        reset_after = max(bucket.reset_at - now, 0.0)
        self._takes += 1
        if self._takes % 4096 == 0:
            self._forget(now)
        return Slot(
            admitted=admitted,
            retry_after=reset_after if not admitted else 0.0,
            headers=bucket_headers(bucket, reset_after, self._wall()),
            bucket=name,
            major=major,
            limit=limit,
            spent=admitted and bucket.used >= limit.limit,
        )

    def _forget(self, now: float) -> None:
        """Drop the buckets whose window ended (a load run's tokens come and go)."""
        for key in [k for k, b in self._buckets.items() if b.reset_at <= now]:
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


def _hash(name: str) -> str:
    """A bucket's `X-RateLimit-Bucket`: an opaque hex string, the same for the same name."""
    return hashlib.blake2s(name.encode(), digest_size=16).hexdigest()


def bucket_headers(bucket: Bucket, reset_after: float, wall_now: float) -> dict[str, str]:
    """The `X-RateLimit-*` headers of an answer counted in `bucket`. Reset-After is rounded up
    to the millisecond: a client that waits it out never comes back a moment early."""
    after = math.ceil(reset_after * 1000) / 1000
    return {
        "X-RateLimit-Limit": str(bucket.limit.limit),
        "X-RateLimit-Remaining": str(max(bucket.limit.limit - bucket.used, 0)),
        "X-RateLimit-Reset": f"{wall_now + after:.3f}",
        "X-RateLimit-Reset-After": f"{after:.3f}",
        "X-RateLimit-Bucket": _hash(bucket.name),
    }


def route_429(slot: Slot) -> tuple[bytes, dict[str, str]]:
    """Discord's answer to a request over its route's bucket (status 429, scope "user"):
    discord.py waits `retry_after` and sends it again (`Via`: Discord's own limit)."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": math.ceil(slot.retry_after * 1000) / 1000,
        "global": False,
    }
    headers = {
        "Content-Type": "application/json",
        "Retry-After": str(max(1, math.ceil(slot.retry_after))),
        **slot.headers,
        "X-RateLimit-Scope": "user",
        "Via": "1.1 google",
    }
    return json.dumps(body).encode(), headers
