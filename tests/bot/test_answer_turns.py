"""Issue 25, the ack: a click answered in place (its view updated as its answer) takes its
view's slot and finishes its image without giving the event loop a turn when nothing is to be
waited for (``Slot.take_by``, ``view_kit.ready_by``); ``asyncio.wait_for`` cost three turns
each, and under load every turn is a loop lag before the click is answered. Counted in loop
turns and steps, not timed."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bot.ui.view_kit import Slot, ready_by

HANG_BOUND = 60.0  # seconds: only a bound against a hang; nothing here waits for it


def _no_turn(coroutine) -> object:
    """Run ``coroutine`` to its end without the loop; fail if it waited for anything."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise AssertionError("gave the loop a turn with nothing to wait for")


async def test_a_free_slot_is_taken_without_a_loop_turn():
    slot = Slot()
    deadline = asyncio.get_running_loop().time() + HANG_BOUND
    assert _no_turn(slot.take_by(deadline)) is True
    assert slot.busy.locked()


async def test_a_slot_held_past_the_deadline_is_not_taken():
    slot = Slot()
    await slot.busy.acquire()  # an edit under way holds it
    assert await slot.take_by(asyncio.get_running_loop().time()) is False
    slot.busy.release()


async def test_a_slot_freed_before_the_deadline_is_taken():
    slot = Slot()
    await slot.busy.acquire()
    taking = asyncio.create_task(slot.take_by(asyncio.get_running_loop().time() + HANG_BOUND))
    await asyncio.sleep(0)
    slot.busy.release()
    assert await taking is True


async def test_work_with_nothing_to_wait_for_is_ready_without_a_loop_turn():
    async def image_drawn_already() -> str:
        return "digest"

    deadline = asyncio.get_running_loop().time() + HANG_BOUND
    assert _no_turn(ready_by(image_drawn_already(), deadline)) == "digest"


async def test_work_that_waits_gives_its_result_and_late_work_is_cancelled():
    loop = asyncio.get_running_loop()
    drawn: asyncio.Future[str] = loop.create_future()
    cancelled: list[bool] = []

    async def draw() -> str:
        return await drawn

    async def never() -> str:
        try:
            await loop.create_future()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return ""

    waiting = asyncio.create_task(ready_by(draw(), loop.time() + HANG_BOUND))
    await asyncio.sleep(0)
    drawn.set_result("digest")
    assert await waiting == "digest"
    with pytest.raises(TimeoutError):
        await ready_by(never(), loop.time())  # the deadline has passed: not ready in time
    assert cancelled == [True]


async def test_a_started_coroutine_cancelled_before_its_task_ran_is_told():
    """Its cleanup runs (a render's sharers are released): the cancellation is not lost
    before the task's first step."""
    from bot.ui.items import started

    loop = asyncio.get_running_loop()
    cleaned: list[str] = []

    async def render() -> str:
        try:
            return await loop.create_future()
        except asyncio.CancelledError:
            cleaned.append("sharers released")
            raise

    rest = started(render())
    rest.cancel()  # in the same turn: its task has not stepped yet
    with pytest.raises(asyncio.CancelledError):
        await rest
    assert cleaned == ["sharers released"]


async def test_work_with_nothing_to_wait_for_makes_no_task():
    """Issue 29: an answer's image drawn already (or none) is no task of its own."""
    loop = asyncio.get_running_loop()
    made: list[object] = []
    factory = loop.get_task_factory()

    def counting(loop, coro, **kwargs):
        made.append(coro)
        return asyncio.Task(coro, loop=loop, **kwargs)

    async def image_drawn_already() -> str:
        return "digest"

    async def draw(drawn: asyncio.Future[str]) -> str:
        return await drawn

    loop.set_task_factory(counting)
    try:
        assert await ready_by(image_drawn_already(), loop.time() + HANG_BOUND) == "digest"
        assert made == []
        drawn: asyncio.Future[str] = loop.create_future()
        loop.call_soon(drawn.set_result, "drawn")
        assert await ready_by(draw(drawn), loop.time() + HANG_BOUND) == "drawn"
        assert len(made) == 1  # the rest of work that waited: a task
    finally:
        loop.set_task_factory(factory)


async def test_started_here_runs_the_first_section_in_the_callers_task():
    from bot.ui.items import started_here

    loop = asyncio.get_running_loop()
    seen: list[asyncio.Task | None] = []
    cleaned: list[str] = []

    async def render() -> str:
        seen.append(asyncio.current_task())
        try:
            return await loop.create_future()
        except asyncio.CancelledError:
            cleaned.append("sharers released")
            raise

    rest = started_here(render())
    assert seen == [asyncio.current_task()]  # (no task of its own before its first wait)
    rest.cancel()  # in the same turn: its task has not stepped yet
    with pytest.raises(asyncio.CancelledError):
        await rest
    assert cleaned == ["sharers released"]

    async def fails() -> str:
        raise ValueError("no image")

    with pytest.raises(ValueError):
        await started_here(fails())


async def test_a_failed_acknowledgement_is_freed_without_the_collector():
    """An acknowledgement that failed (the interaction expired: ``NotFound``) is raised once
    the work is over, and nothing is left in a reference cycle: the bot freezes what outlives
    a collection (``bot/ops/collector.py``), so a cycle of the error, its traceback's frames
    and the click they hold would wait for the thaw."""
    from types import SimpleNamespace

    from bot.ui.items import acknowledged_meanwhile

    loop = asyncio.get_running_loop()
    work_over: asyncio.Future[str] = loop.create_future()
    errors: list[weakref.ref[Exception]] = []

    class Expired(Exception):
        def __init__(self) -> None:
            super().__init__()
            errors.append(weakref.ref(self))

    async def acknowledgement() -> None:
        await asyncio.sleep(0)  # (its request went out)
        work_over.set_result("done")
        raise Expired()  # (as discord.py raises: held by no frame's variable)

    unanswered = SimpleNamespace(response=SimpleNamespace(is_done=lambda: False))
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        try:
            await acknowledged_meanwhile(unanswered, loop.time(), work_over, acknowledgement)
        except Expired:
            pass
        else:
            pytest.fail("the acknowledgement's failure was not raised")
        assert len(errors) == 1
        assert errors[0]() is None
    finally:
        if was_enabled:
            gc.enable()
