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

Every request is classified (`route_kind`) and counted (`Traffic`), so a benchmark can read how
many calls went through the bot token and how many through interaction tokens.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
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
    enforced, for a run that shows the bot unpaced). `clock`: seconds, the fake's clock by
    default; a test may put a clock of its own in (`limits.clock = frozen.now`).
    """

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        global_rate: int | None = GLOBAL_PER_SECOND,
        invalid_limit: int = INVALID_LIMIT,
        invalid_window: float = INVALID_WINDOW,
    ) -> None:
        self.traffic = Traffic()
        self._clock = clock
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
