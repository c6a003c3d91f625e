"""The garbage collector's set-up in ``python -m bot`` (``bot/ops/collector.py``): higher
thresholds, and the start-up heap frozen once the bot is connected, after a collection (so no
garbage of the start-up is kept forever)."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bot.__main__ import freeze_when_ready
from bot.ops import collector


@pytest.fixture
def restored_gc():
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


class Cycle:
    def __init__(self) -> None:
        self.me = self


class NotReadyYet:
    """The one thing ``freeze_when_ready`` asks of the bot."""

    def __init__(self) -> None:
        self.ready = asyncio.Event()

    async def wait_until_ready(self) -> None:
        await self.ready.wait()


def tracked(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects())


def test_tune_raises_the_thresholds(restored_gc):
    gc.set_threshold(700, 10, 10)
    collector.tune()
    assert gc.get_threshold() == collector.THRESHOLDS
    assert collector.THRESHOLDS[0] > 700


async def test_the_start_up_heap_is_frozen_once_ready_and_its_garbage_collected(restored_gc):
    gc.unfreeze()
    bot = NotReadyYet()
    kept = {"start-up": [1, 2, 3]}  # alive at start-up: frozen, out of later walks
    garbage = Cycle()  # start-up garbage only a collection frees
    gone = weakref.ref(garbage)
    del garbage
    gc.disable()  # no automatic collection may free it first
    try:
        freezer = asyncio.create_task(freeze_when_ready(bot))
        await asyncio.sleep(0.05)
        assert not freezer.done() and gc.get_freeze_count() == 0  # not before it is ready
        assert gone() is not None and tracked(kept)
        bot.ready.set()
        await freezer
    finally:
        gc.enable()
    assert gc.get_freeze_count() > 0
    assert not tracked(kept)  # collections no longer walk it
    assert gone() is None  # collected before the freeze, not kept forever
