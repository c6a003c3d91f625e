"""A table that is over is forgotten once its last views are out (``ViewKit.settled``): a view
held by a click being answered with it is waited for until its release (an event, not a poll),
and the wait ends anyway at its cap when a hold never ends."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.ui.pacer import RequestPacer
from bot.ui.view_kit import SlotSet, ViewKit
from tests.waiting import within_guard

# Loop turns a waiter needs to wake after an event is set (``Event.wait`` inside
# ``asyncio.wait_for``'s task): a handful, where a poll would need its whole period.
WAKE_TURNS = 8


def _kit() -> ViewKit:
    return ViewKit(SimpleNamespace(), RequestPacer(0))  # type: ignore[arg-type]


async def _turns(n: int) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def _done_within_turns(task: asyncio.Task[None], turns: int = WAKE_TURNS) -> bool:
    for _ in range(turns):
        if task.done():
            return True
        await asyncio.sleep(0)
    return task.done()


async def test_settled_returns_once_the_last_hold_is_released():
    kit = _kit()
    slots: SlotSet[int] = SlotSet(kit, "probe")
    slots.hold(1)
    slots.hold(1)  # two clicks answered with the same view
    slot = slots.get(1)
    settling = asyncio.ensure_future(kit.settled([slot], []))
    await _turns(WAKE_TURNS)
    assert not settling.done()  # held
    slots.release(1)
    await _turns(WAKE_TURNS)
    assert not settling.done()  # still held by the second click
    slots.release(1)
    assert await _done_within_turns(settling)  # woken by the release, not a poll's next look
    assert slot is not None and slot.released is None and slot.idle()


async def test_settled_waits_for_the_worker_a_release_starts():
    kit = _kit()
    slots: SlotSet[int] = SlotSet(kit, "probe")
    shown, go = asyncio.Event(), asyncio.Event()

    async def work(slot) -> None:
        await go.wait()
        shown.set()

    slots.hold(1)
    slot = slots.kick(1, work)  # a change the click's answer left for the worker: not started
    assert slot.task is None
    settling = asyncio.ensure_future(kit.settled([slot], []))
    await _turns(WAKE_TURNS)
    slots.release(1)  # the worker starts now: settled waits for it too
    await _turns(WAKE_TURNS)
    assert slot.task is not None and not settling.done() and not shown.is_set()
    go.set()
    await within_guard(settling)
    assert shown.is_set() and slot.idle()


async def test_settled_gives_up_on_a_hold_that_never_ends_at_its_cap():
    kit = _kit()
    slots: SlotSet[int] = SlotSet(kit, "probe")
    slots.hold(1)
    held, free = slots.get(1), slots.of(2)
    await within_guard(kit.settled([held, free], [], within=0.01))
    assert held is not None and held.holds == 1  # never released: the table is forgotten anyway
    slots.release(1)  # a late release after the wait is harmless
    assert held.released is None and held.idle()


async def test_settled_at_a_spent_cap_does_not_wait():
    kit = _kit()
    slots: SlotSet[int] = SlotSet(kit, "probe")
    slots.hold(1)
    await within_guard(kit.settled([slots.get(1)], [], within=0.0))
    assert slots.get(1) is not None and slots.get(1).released is None  # no event made
