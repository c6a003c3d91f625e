"""Issue 29: a table's turn mention starts no worker for a change that leaves it as it is: no
live mention, and no person to act it could name (a computer to act, or a player watching from
their live hand). Counted by its worker's runs, not timed."""

from __future__ import annotations

from types import SimpleNamespace

from bot.ui.mentions import TurnMentions
from tests.bot.test_view_trace import _kit


def _table(to_act: set[str]) -> SimpleNamespace:
    seats = [SimpleNamespace(id="101", is_cpu=False), SimpleNamespace(id="cpu1", is_cpu=True)]
    game = SimpleNamespace(to_act=lambda state: set(to_act))
    return SimpleNamespace(
        id=7,
        state=SimpleNamespace(seats=[s.id for s in seats]),
        game=game,
        human_seats=lambda: [s for s in seats if not s.is_cpu],
        interaction_only=True,  # nobody gets a DM there: a person to act is named
        record=SimpleNamespace(locale="es", channel_id="5"),
    )


async def test_a_computers_turn_starts_no_mention_worker():
    kit = _kit()
    mentions = TurnMentions(kit)
    mentions.show(_table({"cpu1"}), over=False)  # its first change: restored, nothing to say
    await kit.drain_tasks()
    slot = mentions._slots[7]
    first = slot.task
    assert first is not None and first.done() and slot.mention == ()
    mentions.show(_table({"cpu1"}), over=False)
    assert slot.task is first and not slot.dirty  # the computer's turn: no worker
    kit.last_click[(7, "101")] = kit.clock()
    kit.ephemerals.live = lambda table_id, seat: object()  # type: ignore[method-assign]
    mentions.show(_table({"101"}), over=False)  # a person watching from their live hand
    assert slot.task is first
    kit.last_click.clear()
    mentions.show(_table({"101"}), over=False)  # a person not watching: their worker decides
    assert slot.task is not first
    await kit.drain_tasks()
    assert slot.mention == ("101",)  # (no fresh token here: named, not posted)
    mentions.show(_table({"cpu1"}), over=True)  # the live mention goes: a worker deletes it
    assert 7 not in mentions._slots and slot.dirty
    await kit.drain_tasks()
    assert slot.mention == ()
