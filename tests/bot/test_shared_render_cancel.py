"""Two askers of one image share its render (``bot/ui/rendering.py``); the first one cancelled
(a click's answer out of time: ``asyncio.wait_for``) must not cancel the other. It did: with
five identical tables clicked at once, one answer timed out and the four other click handlers
died unanswered (tests/e2e/test_threads_concurrent.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.ui.rendering import ImageRequest, Renderer
from games.amapatolli import GAME
from tests.bot.presenter_kit import SEAT_IDS


class GatedRenderer(Renderer):
    """Draws wait for ``gate`` (as in a busy worker pool), so the test, not the clock, decides
    what happens while one is under way; the bytes say how many were drawn."""

    def __init__(self) -> None:
        super().__init__(None)
        self.drawn = 0
        self.started = asyncio.Event()
        self.gate = asyncio.Event()

    async def _draw(self, request, wanted, *how):  # how: its rank and place in line
        self.started.set()
        await self.gate.wait()
        self.drawn += 1
        return b"png-%d" % self.drawn


def _request() -> ImageRequest:
    state = GAME.new(SEAT_IDS[:2], "seed", {"hand_size": 3})
    return ImageRequest("amapatolli", "render_table", GAME.view(state, None), "es", None, "t.png")


async def test_a_sharer_gets_the_image_when_the_first_asker_is_cancelled():
    renderer, request = GatedRenderer(), _request()
    deadlines: list[asyncio.Timeout] = []

    async def first_asker() -> bytes | None:  # a click's answer with a deadline
        async with asyncio.timeout(None) as deadline:
            deadlines.append(deadline)
            return await renderer.render(request)

    first = asyncio.ensure_future(first_asker())
    await renderer.started.wait()  # its draw is under way
    second = asyncio.ensure_future(renderer.render(request))
    await asyncio.sleep(0)  # the second asker shares that draw
    deadlines[0].reschedule(asyncio.get_running_loop().time())  # the first one's time is up
    with pytest.raises(TimeoutError):
        await first
    renderer.gate.set()
    assert await second == b"png-1"  # drawn again, for itself
    assert await renderer.render(request) == b"png-1"  # and kept


async def test_a_sharer_cancelled_itself_is_cancelled():
    renderer, request = GatedRenderer(), _request()
    first = asyncio.ensure_future(renderer.render(request))
    await renderer.started.wait()
    second = asyncio.ensure_future(renderer.render(request))
    await asyncio.sleep(0)  # the second asker shares that draw
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await second
    renderer.gate.set()
    assert await first == b"png-1"  # the first asker is not disturbed
