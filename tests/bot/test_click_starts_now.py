"""Issue 25, the ack: a click's handler starts in the loop turn its gateway event is read, up to
its first wait (``bot.ui.items.start_now``, as Python 3.12's eager tasks), not in a task that
waits for everything else the loop has ready. Counted in steps, not timed."""

from __future__ import annotations

import asyncio
import contextvars
import logging

import pytest

from bot.ui.items import start_now

seen: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="outside")


async def test_the_handler_runs_to_its_first_wait_before_the_caller_goes_on():
    loop = asyncio.get_running_loop()
    steps: list[str] = []
    gate = loop.create_future()

    async def handler() -> None:
        steps.append("started")
        steps.append(f"got {await gate}")

    rest = start_now(handler())
    steps.append("caller")
    assert steps == ["started", "caller"]  # no loop turn before the handler began
    assert rest is not None and not rest.done()
    gate.set_result("written")
    await rest
    assert steps == ["started", "caller", "got written"]


async def test_a_handler_that_never_waits_leaves_no_task():
    done: list[bool] = []

    async def handler() -> None:
        done.append(True)

    assert start_now(handler()) is None
    assert done == [True]


async def test_the_handler_has_its_own_context_as_in_a_task():
    async def handler() -> None:
        seen.set("inside")
        await asyncio.sleep(0)
        assert seen.get() == "inside"  # kept across its own waits

    rest = start_now(handler())
    assert seen.get() == "outside"  # nothing leaked into the gateway reader's context
    assert rest is not None
    await rest


async def test_a_failure_before_the_first_wait_is_logged_not_raised_into_the_reader(caplog):
    async def handler() -> None:
        raise ValueError("broken click")

    with caplog.at_level(logging.ERROR, logger="bot.ui.items"):
        assert start_now(handler()) is None
    assert "broken click" in caplog.text


async def test_the_rest_gets_the_waits_outcome_and_its_cancellation():
    loop = asyncio.get_running_loop()
    failing = loop.create_future()
    caught: list[str] = []

    async def handler() -> None:
        try:
            await failing
        except OSError as exc:
            caught.append(str(exc))
        try:
            await loop.create_future()  # never done
        finally:
            caught.append("cleaned up")

    rest = start_now(handler())
    assert rest is not None
    failing.set_exception(OSError("disk full"))
    for _ in range(3):
        await asyncio.sleep(0)
    assert caught == ["disk full"]
    rest.cancel()
    with pytest.raises(asyncio.CancelledError):
        await rest
    assert caught == ["disk full", "cleaned up"]


async def test_a_timeout_entered_before_the_first_wait_cancels_the_handler_not_the_reader():
    """The first section runs as the handler's own task (``asyncio.current_task()``): a
    timeout entered there (the intent's 1-s wait, aiohttp's) that expires cancels the handler.
    It used to cancel the caller, the gateway's reader, and the bot closed (a write slower
    than 1 s on a loaded machine)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.current_task()
    handlers: list[asyncio.Task[None] | None] = []

    async def handler() -> None:
        handlers.append(asyncio.current_task())
        async with asyncio.timeout(0):  # expires at once: the write never comes
            await loop.create_future()

    rest = start_now(handler())
    assert rest is not None and handlers == [rest]
    with pytest.raises(TimeoutError):
        await rest
    assert reader is not None and not reader.cancelling()  # the reader goes on
    await asyncio.sleep(0)  # (a cancellation aimed at the reader would land here)
    assert asyncio.current_task() is reader
