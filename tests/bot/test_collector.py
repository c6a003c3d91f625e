"""The garbage collector's set-up in ``python -m bot`` (``bot/ops/collector.py``): higher
thresholds, and the start-up heap frozen once the bot is connected, after a collection (so no
garbage of the start-up is kept forever)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref
from collections.abc import Iterator

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


@contextlib.contextmanager
def hooked(least: int) -> Iterator[collector.FreezeAfterCollections]:
    """The freeze hook (freezing from generation ``least``) installed, automatic collections
    off."""
    hook = collector.FreezeAfterCollections(least=least)
    gc.disable()
    gc.callbacks.append(hook)
    try:
        yield hook
    finally:
        gc.callbacks.remove(hook)
        gc.enable()


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


def test_a_refreeze_frees_the_garbage_made_since_the_last_freeze_and_freezes_the_rest(
    restored_gc,
):
    gc.unfreeze()
    gc.freeze()  # start-up
    before = gc.get_freeze_count()
    kept = {"a table opened since": [1, 2, 3]}
    garbage = Cycle()
    gone = weakref.ref(garbage)
    del garbage
    gc.disable()
    try:
        assert tracked(kept) and gone() is not None
        frozen = collector.refreeze()
    finally:
        gc.enable()
    assert gone() is None  # freed, not frozen
    assert not tracked(kept)  # frozen: later collections no longer walk it
    assert frozen == gc.get_freeze_count() > before


def test_a_thaw_frees_cycles_among_objects_frozen_alive(restored_gc):
    gc.unfreeze()
    gc.disable()
    try:
        cycle = Cycle()
        gone = weakref.ref(cycle)
        collector.refreeze()  # alive: frozen
        del cycle  # now garbage only the cyclic collector frees
        collector.refreeze()
        assert gone() is not None  # frozen objects are not walked
        collector.refreeze(thaw=True)
    finally:
        gc.enable()
    assert gone() is None


def test_an_older_collection_frees_its_garbage_and_freezes_its_survivors(restored_gc):
    """Issue 29: no collection of its own for a refreeze (the bot's longest pause): what a
    generation-1 collection keeps is frozen as it ends."""
    gc.unfreeze()
    gc.freeze()  # start-up
    with hooked(least=1):  # only the test's collections run
        kept = {"a table opened since": [1, 2, 3]}
        garbage = Cycle()
        gone = weakref.ref(garbage)
        del garbage
        gc.collect(0)  # a young collection: its survivors are promoted, not frozen
        assert tracked(kept) and gone() is None
        young = {"made after the young collection": [4]}
        garbage = Cycle()
        gone = weakref.ref(garbage)
        del garbage
        gc.collect(1)
        assert gone() is None  # freed, not frozen
        assert not tracked(kept) and not tracked(young)  # frozen, never walked again


def test_from_generation_0_a_young_collection_s_survivors_are_frozen(restored_gc):
    """Session 29: no generation-1 walk at all; a cycle alive at a young collection waits
    for the thaw."""
    assert collector.FREEZE_FROM == 0  # the bot's policy since
    gc.unfreeze()
    gc.freeze()  # start-up
    with hooked(least=0) as hook:  # only the test's collections run
        kept = {"a table opened since": [1, 2, 3]}
        garbage = Cycle()
        gone = weakref.ref(garbage)
        del garbage
        alive = Cycle()  # alive at the collection, garbage after it
        frozen_alive = weakref.ref(alive)
        gc.collect(0)
        assert gone() is None  # freed, not frozen
        assert not tracked(kept) and not tracked(alive)  # frozen by the young collection
        del alive
        gc.collect(1)
        assert frozen_alive() is not None  # frozen: no collection but a thaw walks it
        hook.thaw()
        assert frozen_alive() is None
        assert not tracked(kept)  # frozen again after the thaw


def test_the_freeze_hook_follows_the_tree_s_setting_and_each_generation_from_it():
    frozen: list[int] = []
    hook = collector.FreezeAfterCollections(least=1, freeze=lambda: frozen.append(1))
    assert collector.FreezeAfterCollections().least == collector.FREEZE_FROM
    for generation in (0, 1, 2):
        hook("start", {"generation": generation})
        hook("stop", {"generation": generation, "collected": 0, "uncollectable": 0})
    assert frozen == [1, 1]  # at the end of generation 1's and 2's, not 0's nor at starts


def test_no_freeze_undoes_a_thaw_before_its_collection_runs():
    """A collection between the thaw's unfreeze and its own (another thread's, by CPython's
    count) would freeze everything again, and the thaw would free nothing."""
    frozen: list[str] = []
    hook = collector.FreezeAfterCollections(least=0, freeze=lambda: frozen.append("hook"))

    def collect_all() -> int:
        assert hook.thawing
        hook("stop", {"generation": 0, "collected": 0, "uncollectable": 0})  # in between
        hook("stop", {"generation": 2, "collected": 0, "uncollectable": 0})  # its own
        return 7

    assert hook.thaw(collect_all) == 7
    assert frozen == [] and not hook.thawing
    hook("stop", {"generation": 0, "collected": 0, "uncollectable": 0})
    assert frozen == ["hook"]  # freezing again after it


def test_a_thaw_frees_frozen_cycles_though_a_young_collection_runs_within_it(restored_gc):
    gc.unfreeze()
    with hooked(least=0) as hook:  # only the test's collections run
        cycle = Cycle()
        gone = weakref.ref(cycle)
        gc.collect(0)  # alive: frozen
        del cycle

        def intruded() -> int:
            gc.unfreeze()
            gc.collect(0)  # another thread's young collection, before the thaw's own
            gc.collect()
            gc.freeze()
            return gc.get_freeze_count()

        hook.thaw(intruded)
        assert gone() is None


async def test_keep_frozen_hooks_the_collector_and_thaws_when_its_policy_says(
    monkeypatch, restored_gc
):
    thaws: list[bool] = []
    waits: list[float] = []
    counts = iter([100, 100, 200, 100])  # the frozen count at each check
    due = iter([False, True, False])
    hook = collector.FreezeAfterCollections()

    def refreeze(*, thaw: bool = False) -> int:
        assert hook.thawing  # the hook's freezes held off
        thaws.append(thaw)
        return 50

    monkeypatch.setattr(collector, "refreeze", refreeze)
    monkeypatch.setattr(gc, "get_freeze_count", lambda: next(counts))
    seen: list[tuple[float, int]] = []
    left: list[tuple[float, int]] = []

    class Policy(collector.ThawWhenGrown):
        def due(self, now: float, frozen: int) -> bool:
            seen.append((now, frozen))
            return next(due)

        def thawed(self, now: float, frozen: int) -> None:
            left.append((now, frozen))

    async def sleep(seconds: float) -> None:
        assert hook in gc.callbacks
        waits.append(seconds)
        if len(waits) > 3:
            raise asyncio.CancelledError

    clock = iter(range(0, 1000, 10))
    with pytest.raises(asyncio.CancelledError):
        await collector.keep_frozen(Policy(), 60.0, sleep, lambda: float(next(clock)), hook)
    assert waits == [60.0] * 4
    assert seen == [(10.0, 100), (20.0, 200), (40.0, 100)]
    assert thaws == [True]  # only when due
    assert left == [(0.0, 100), (30.0, 50)]  # the start-up heap, then what the thaw left
    assert hook not in gc.callbacks  # removed when cancelled
    assert not hook.thawing


def test_a_thaw_is_due_when_the_frozen_heap_grew_by_a_quarter_not_by_the_clock():
    """Session 25: with the cycles gone at their source a thaw frees next to nothing and walks
    the live heap (~0.3 s of CPU at 300 busy tables): it comes when the frozen count grew
    (garbage frozen, or tables opened), at most every 10 minutes, at least every 6 hours."""
    policy = collector.ThawWhenGrown()
    policy.thawed(now=0.0, frozen=400_000)
    minutes = 60.0
    assert not policy.due(5 * minutes, 900_000)  # grown, but too soon after the last
    assert not policy.due(11 * minutes, 480_000)  # +20 %: not yet
    assert policy.due(11 * minutes, 500_001)  # +25 %
    assert not policy.due(5 * 60 * minutes, 400_000)  # 5 hours, nothing grew
    assert policy.due(6 * 60 * minutes, 400_000)  # the safety net: every 6 hours
    policy.thawed(now=6 * 60 * minutes, frozen=420_000)
    assert not policy.due(6 * 60 * minutes + 11 * minutes, 500_000)  # +19 % of what it left


def test_older_objects_dying_let_the_young_list_outgrow_the_young_count(restored_gc):
    """Why young collections also come by the clock (session 27): the count that triggers one
    is allocations minus deallocations of any generation, so each frozen object a move
    replaces lets one more young survivor in without counting it."""
    gc.unfreeze()
    gc.disable()
    try:
        old = [[n] for n in range(2_000)]  # a table's state, frozen long ago
        gc.collect()
        gc.freeze()
        for n in range(len(old)):
            old[n] = [n + 1]  # the next move's state: the frozen one dies
        assert len(gc.get_objects(0)) > 2 * gc.get_count()[0] + 1_000
    finally:
        gc.enable()


def test_a_young_collection_is_of_generation_1_once_as_many_ran_as_its_threshold_allows(
    restored_gc,
):
    gc.unfreeze()
    gc.set_threshold(collector.THRESHOLDS[0], 2, 10)
    collected: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    gc.disable()  # only the collections below run
    gc.callbacks.append(seen)
    try:
        gc.collect(1)  # generation 1's count back to 0
        collected.clear()
        garbage = Cycle()
        gone = weakref.ref(garbage)
        del garbage
        kept = [[n] for n in range(100)]  # a young list far below the threshold
        generation, cpu = collector.collect_young()
        assert generation == 0 and cpu >= 0.0
        assert gone() is None and tracked(kept[0])  # freed; the survivors promoted
        returned = [collector.collect_young()[0] for _ in range(3)]
    finally:
        gc.callbacks.remove(seen)
        gc.enable()
    assert collected == [0, 0, 0, 1] == [0, *returned]  # as CPython does: once its count passed 2


def test_the_young_pace_adapts_the_wait_to_the_pause_it_aims_at():
    """Session 28: a young collection by the clock, whatever its size, with no measure of the
    young list (a list of every young object, ~1 ms of CPU at 300 busy tables, as much as the
    collection it decided); its CPU follows the wait before it, so the wait follows the CPU."""
    pace = collector.YoungPace(pause=0.003, least=0.25, most=1.0)
    assert pace.every == 0.25  # from the shortest: a start-up's burst
    pace.collected(0, 0.001)  # a third of the pause aimed at: wait longer, at most twice
    assert pace.every == 0.5
    pace.collected(0, 0.002)
    assert pace.every == pytest.approx(0.75)
    pace.collected(0, 0.0005)
    assert pace.every == 1.0  # no longer than the longest
    pace.collected(1, 0.0001)  # generation 1 walked more than the young list: no measure
    assert pace.every == 1.0
    pace.collected(0, 0.012)  # four times the pause: halved, not quartered
    assert pace.every == 0.5
    pace.collected(0, 0.012)
    pace.collected(0, 0.012)
    assert pace.every == 0.25  # no shorter than the shortest
    pace.collected(0, 0.0)  # nothing to walk: an idle bot
    assert pace.every == 0.5


async def test_the_young_generation_is_collected_at_the_pace(monkeypatch):
    waits: list[float] = []
    results = iter([(0, 0.001), (1, 0.02), (0, 0.006)])
    monkeypatch.setattr(collector, "collect_young", lambda: next(results))

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) > 3:
            raise asyncio.CancelledError

    pace = collector.YoungPace(pause=0.003, least=0.25, most=1.0)
    with pytest.raises(asyncio.CancelledError):
        await collector.collect_young_by_pace(pace, sleep)
    assert waits == [0.25, 0.5, 0.5, 0.25]  # each collection's CPU sets the next wait
