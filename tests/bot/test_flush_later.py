"""The one write-behind of the presentation (``bot/ui/shown.FlushLater``): what each message
shows (``ShownStore``) and where players play (``PlayPlaces``) are known at once and stored a
little later, off the click's path; a close stores what is left at once."""

from __future__ import annotations

import asyncio

from bot.ui.shown import FlushLater
from tests.waiting import until, within_guard


class Flushes:
    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.runs = 0
        self.done = 0
        self.gate = gate

    async def __call__(self) -> None:
        self.runs += 1
        if self.gate is not None:
            await self.gate.wait()
        self.done += 1


async def test_changes_close_together_are_stored_in_one_flush_after_the_delay():
    flush = Flushes()
    later = FlushLater(0.05, flush)
    later.schedule()
    first = later._task
    later.schedule()  # a second change while the first waits: the same flush
    assert later._task is first
    assert flush.runs == 0  # nothing on the change's own path
    await within_guard(first)
    assert flush.runs == 1
    later.schedule()  # a change after that flush: another one
    assert later._task is not first
    await within_guard(later._task)
    assert flush.runs == 2


async def test_close_stores_at_once_and_the_delayed_flush_does_not_run_again():
    flush = Flushes()
    later = FlushLater(60.0, flush)
    later.schedule()
    delayed = later._task
    await later.close()
    assert flush.runs == 1
    assert delayed is not None and delayed.cancelled()  # it will never run


async def test_close_waits_for_a_flush_under_way_instead_of_cancelling_it():
    gate = asyncio.Event()
    flush = Flushes(gate)
    later = FlushLater(0.0, flush)
    later.schedule()
    await until(lambda: flush.runs, "the delayed flush started (it waits on the database)")
    closing = asyncio.ensure_future(later.close())
    await asyncio.sleep(0.05)
    assert not closing.done()  # it waits for the flush under way (held by the gate)...
    gate.set()
    await closing
    assert flush.done == 2  # ...which finished (not cancelled), then one more for the rest


async def test_a_change_made_while_a_flush_is_under_way_gets_a_flush_of_its_own():
    """The flush under way took its rows before the change: without another flush the change
    would wait in memory for the next one (a two-process test saw a public version never
    stored)."""
    gate = asyncio.Event()
    flush = Flushes(gate)
    later = FlushLater(0.0, flush)
    later.schedule()
    await until(lambda: flush.runs, "the delayed flush started (it waits on the database)")
    task = later._task
    later.schedule()  # a change while that flush waits on the database
    assert later._task is task  # no second task beside the first...
    gate.set()
    await within_guard(task)
    assert flush.done == 2  # ...but the same task flushed once more after it
    later.schedule()  # and a later change starts a new flush as before
    await within_guard(later._task)
    assert flush.done == 3
