"""Issue 25, the mover's view: a change that waited for a click answering with the view (the
slot was held) is the clicker's own view. When the click releases it, its worker starts at
once, up to its first wait, ahead of every view merely queued in the loop, and its time is
traced apart (``view_mover_*``) from the other DM views'. Counted in steps, not timed."""

from __future__ import annotations

import asyncio

from bot.ui.view_kit import SlotSet
from tests.bot.test_view_trace import _kit, _n


async def test_a_released_view_starts_before_views_queued_earlier():
    kit = _kit()
    order: list[str] = []
    others: SlotSet[int] = SlotSet(kit, "dm")
    own: SlotSet[int] = SlotSet(kit, "dm")

    def work(name: str):
        async def show(slot) -> None:
            order.append(name)

        return show

    own.hold(1)  # a click answers with this view
    own.kick(1, work("mover"))  # its move's change: waits for the click
    others.kick(2, work("next player"))  # the same move's other views: queued in the loop
    others.kick(3, work("public"))
    own.release(1)  # the click is answered
    assert order == ["mover"]  # started, and here done, before the loop's next turn
    await kit.drain_tasks()
    assert order == ["mover", "next player", "public"]


async def test_a_released_view_is_traced_as_the_movers_and_later_changes_as_before():
    kit = _kit()
    slots: SlotSet[int] = SlotSet(kit, "dm")
    before = (_n("view_mover_total"), _n("view_dm_total"))
    gate = asyncio.Event()

    async def work(slot) -> None:
        await gate.wait()

    slots.hold(1)
    slots.kick(1, work)
    slots.release(1)
    gate.set()
    await kit.drain_tasks()
    slots.kick(1, work)  # a later change nobody's click held
    await kit.drain_tasks()
    assert (_n("view_mover_total"), _n("view_dm_total")) == (before[0] + 1, before[1] + 1)


async def test_a_view_still_held_by_another_click_waits():
    kit = _kit()
    slots: SlotSet[int] = SlotSet(kit, "dm")
    shown: list[int] = []

    async def work(slot) -> None:
        shown.append(1)

    slots.hold(1)
    slots.hold(1)  # two clicks answer with it
    slots.kick(1, work)
    slots.release(1)
    await asyncio.sleep(0)
    assert shown == []  # the second click still holds it
    slots.release(1)
    assert shown == [1]
