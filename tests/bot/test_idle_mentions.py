"""Issue 29: a table's turn mention starts no worker for a change that leaves it as it is: no
live mention, and no person to act it could name (a computer to act, or a player watching from
their live hand). Counted by its worker's runs, not timed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.ui.dm_gate import DmGate
from bot.ui.mentions import TurnMentions
from bot.ui.play_from import PlayPlaces
from bot.ui.private_views import PrivateViews
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


class _Players:
    """The players' stored marks: DMs open unless refused; where each plays."""

    def __init__(self, from_tables: bool) -> None:
        self.from_tables = from_tables
        self.reads = 0

    async def dms_state(self, user_id: str) -> tuple[bool, float | None, int]:
        self.reads += 1
        return False, None, 0

    async def dm_failed(self, user_id: str, retry_at: float) -> int:
        return 1

    async def play_place(self, user_id: str) -> bool | None:
        self.reads += 1
        return self.from_tables


class _Channel:
    """The table's channel: the mentions posted and deleted."""

    def __init__(self) -> None:
        self.live: list[int] = []

    async def send(self, content: str, allowed_mentions: Any) -> SimpleNamespace:
        self.live.append(len(self.live) + 1)
        return SimpleNamespace(id=self.live[-1])

    def get_partial_message(self, message_id: int) -> SimpleNamespace:
        async def delete() -> None:
            self.live.remove(message_id)

        return SimpleNamespace(delete=delete)


def _dm_kit(players: _Players) -> tuple[Any, TurnMentions]:
    kit = _kit()
    channel = _Channel()
    kit.bot = SimpleNamespace(get_partial_messageable=lambda channel_id, **kw: channel)
    kit.dms = DmGate(lambda: players)
    kit.places = PlayPlaces(lambda: players)
    private = PrivateViews(kit)
    return kit, TurnMentions(kit, private.spares_dm, private.spares_dm_now)


def _dm_table(to_act: set[str]) -> SimpleNamespace:
    table = _table(to_act)
    table.interaction_only = False  # a DM table: its players may get DMs
    return table


async def test_a_dm_players_turn_starts_no_mention_worker_once_their_place_is_known():
    players = _Players(from_tables=False)
    kit, mentions = _dm_kit(players)
    mentions.show(_dm_table({"101"}), over=False)  # not known yet: the worker reads it
    await kit.drain_tasks()
    slot = mentions._slots[7]
    first = slot.task
    assert first is not None and first.done() and slot.mention == ()
    assert players.reads == 2  # their DM state and where they play, read once
    mentions.show(_dm_table({"101"}), over=False)  # known: open DMs, playing from them
    assert slot.task is first and not slot.dirty  # no worker to find the same empty mention
    assert await kit.dms.refused("101")  # their DMs closed: the mention names them now
    mentions.show(_dm_table({"101"}), over=False)
    assert slot.task is not first
    await kit.drain_tasks()
    assert slot.mention == ("101",) and kit.bot.get_partial_messageable(5).live == [1]


async def test_a_player_from_the_tables_or_not_known_yet_is_left_to_the_worker():
    players = _Players(from_tables=True)
    kit, mentions = _dm_kit(players)
    mentions.show(_dm_table({"101"}), over=False)
    await kit.drain_tasks()
    slot = mentions._slots[7]
    assert slot.mention == ("101",)  # plays from the tables: named
    players.from_tables = False
    kit.places.played("101", from_table=False)  # a DM click: a DM player again, known at once
    mentions.show(_dm_table({"101"}), over=False)  # the live mention goes: a worker deletes it
    await kit.drain_tasks()
    assert slot.mention == () and kit.bot.get_partial_messageable(5).live == []
    await kit.places.close()
