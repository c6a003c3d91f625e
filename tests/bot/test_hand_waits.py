"""Issue 29: ``WaitingHands.waits`` says, without changing anything, whether a change of a
waiting seat's hand is covered by a wait under way (``held_back`` would hold it back): the
listener then starts no worker for it. Not a wait that is due, another slot's, a hand that
shows or gets their turn, nor during a drain."""

from __future__ import annotations

from bot.ui.view_kit import Slot
from bot.ui.waiting_hands import WaitingHands
from tests.bot.test_view_trace import _kit
from tests.timers import RecordedTimers


async def test_a_wait_under_way_covers_the_changes_after_the_one_that_started_it():
    waiting = WaitingHands(_kit())
    timers = waiting.schedule = RecordedTimers()
    slot = Slot(kind="dm", message_id=42)
    assert not waiting.waits("dm", 1, "7", slot, False)  # no wait yet: a worker starts one
    assert waiting.held_back("dm", 1, "7", slot, False, False)
    assert waiting.waits("dm", 1, "7", slot, False)
    assert not waiting.waits("dm", 1, "7", Slot(kind="dm", message_id=42), False)  # not its slot
    assert not waiting.waits("dm", 1, "7", slot, True)  # their turn now: shown at once
    assert not waiting.waits("hand", 1, "7", slot, False)  # (their live hand has no wait)
    with waiting.unheld():
        assert not waiting.waits("dm", 1, "7", slot, False)  # a drain shows everything
    assert waiting.held_back("dm", 1, "7", slot, False, False)  # a new wait
    timers.all[-1].fire()  # its time has come: the next change is shown
    assert not waiting.waits("dm", 1, "7", slot, False)


async def test_forgetting_a_seat_ends_its_waits_only():
    waiting = WaitingHands(_kit())
    timers = waiting.schedule = RecordedTimers()
    slots = {
        key: Slot(kind=key[0], message_id=n)
        for n, key in enumerate([("dm", 1, "7"), ("hand", 1, "7"), ("dm", 1, "8"), ("dm", 2, "7")])
    }
    for (kind, table_id, seat), slot in slots.items():
        assert waiting.held_back(kind, table_id, seat, slot, False, False)

    def waits() -> set[tuple[str, int, str]]:
        return {key for key, slot in slots.items() if waiting.waits(*key, slot, False)}

    assert waits() == set(slots)
    waiting.forget(1, "7")  # its DM hand's and its live hand's waits end, their timers too
    assert waits() == {("dm", 1, "8"), ("dm", 2, "7")}
    assert sum(timer.cancelled for timer in timers.all) == 2
    waiting.forget(1, "8")
    assert waits() == {("dm", 2, "7")}
