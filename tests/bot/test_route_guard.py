"""The gate's per-route buckets (``bot/ui/route_guard.py``): a request is sent only while its
bucket, as the answers' ``X-RateLimit-*`` headers told it, less the requests still on their way,
has room; a spent bucket waits its reset. On a clock of the test's own (its sleep moves it)."""

from __future__ import annotations

import asyncio

from bot.ui.route_guard import RouteGuard, route_of

POST = ("POST", "/channels/5/messages")
WINDOW = 1_900_000_005.0  # the first window's X-RateLimit-Reset (Unix seconds)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))
        self.t += seconds
        await asyncio.sleep(0)


def headers(remaining: int, after: float, reset: float = WINDOW, limit: int = 5, hashed="h"):
    values = {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset-After": str(after),
        "X-RateLimit-Reset": str(reset),
        "X-RateLimit-Bucket": hashed,
    }
    return lambda name: values.get(name)


async def settled(task: asyncio.Future[object]) -> bool:
    for _ in range(5):
        await asyncio.sleep(0)
    return task.done()


def test_a_route_s_shape_and_major_parameter():
    assert route_of("/channels/5/messages/9") == ("/channels/{}/messages/{}", "5")
    assert route_of("/guilds/7/members/3") == ("/guilds/{}/members/{}", "7")
    assert route_of("/users/@me/channels") == ("/users/@me/channels", "")
    assert route_of("/applications/1/guilds/2/commands") == (
        "/applications/{}/guilds/{}/commands",
        "2",
    )


async def test_a_route_never_answered_is_not_held():
    guard = RouteGuard()
    sent = [await guard.sending(*POST) for _ in range(10)]
    assert len(guard) == 0 and guard.waited == 0
    guard.answered(sent[0], headers(4, 5.0))
    assert len(guard) == 1


async def test_a_spent_bucket_waits_its_reset_then_a_new_window_opens():
    clock = Clock()
    guard = RouteGuard(clock.now, clock.sleep)
    guard.answered(await guard.sending(*POST), headers(4, 5.0))
    sent = [await guard.sending(*POST) for _ in range(4)]  # the window's four left
    sixth = asyncio.ensure_future(guard.sending(*POST))
    assert await settled(sixth)  # the clock's sleep moved time on: waited exactly the reset
    assert clock.slept == [5.0] and guard.waited == 1
    for one in sent:  # sent in the window before, and counted there: their places are free
        guard.answered(one, headers(0, 0.0))
    for _ in range(4):
        await guard.sending(*POST)
    assert clock.slept == [5.0]  # the new window had room for all four


async def test_the_first_answer_after_a_reset_counts_the_requests_still_on_their_way():
    """discord.py takes "4 remaining" as it is; with 3 more sent and not yet answered, only one
    more may go: five in the window, not eight."""
    clock = Clock()
    guard = RouteGuard(clock.now, clock.sleep)
    guard.answered(await guard.sending(*POST), headers(4, 0.5))
    clock.t += 1.0  # that window is over
    on_their_way = [await guard.sending(*POST) for _ in range(4)]
    # the first of them answered before the other three arrived: Discord saw one of five
    guard.answered(on_their_way[0], headers(4, 5.0, reset=WINDOW + 5))
    await guard.sending(*POST)  # the fifth goes at once
    assert clock.slept == []
    sixth = asyncio.ensure_future(guard.sending(*POST))
    assert await settled(sixth)
    assert clock.slept == [5.0]  # the sixth waited the window's end


async def test_a_bucket_spent_before_any_answer_of_its_window_waits_for_one():
    clock = Clock()
    guard = RouteGuard(clock.now, clock.sleep)
    guard.answered(await guard.sending(*POST), headers(4, 0.5))
    clock.t += 1.0
    in_flight = [await guard.sending(*POST) for _ in range(5)]  # the whole new window
    waiting = asyncio.ensure_future(guard.sending(*POST))
    assert not await settled(waiting)  # nothing tells when this window ends yet
    guard.answered(in_flight[0], headers(0, 5.0, reset=WINDOW + 5))
    assert await settled(waiting)
    assert clock.slept == [5.0]


async def test_channels_are_counted_apart_and_routes_of_one_hash_together():
    clock = Clock()
    guard = RouteGuard(clock.now, clock.sleep)
    guard.answered(await guard.sending(*POST), headers(0, 5.0))
    assert await guard.sending("POST", "/channels/6/messages")  # another channel: not held
    shared = ("PATCH", "/channels/5/messages/9")
    guard.answered(await guard.sending(*shared), headers(0, 5.0))  # the same hash, "h"
    waiting = asyncio.ensure_future(guard.sending(*POST))
    assert await settled(waiting) and clock.slept == [5.0]


async def test_an_answer_that_never_came_frees_its_place():
    clock = Clock()
    guard = RouteGuard(clock.now, clock.sleep)
    guard.answered(await guard.sending(*POST), headers(1, 5.0))
    lost = await guard.sending(*POST)
    guard.failed(lost)
    waiting = asyncio.ensure_future(guard.sending(*POST))
    assert await settled(waiting) and clock.slept == [5.0]  # it was counted all the same
