"""Seats of a game in progress (bot/service/seats.py): leave, rejoin, kick; and a rematch that
opens once (bot/service/lobby.py), with the toy game."""

import asyncio

import pytest

from bot.errors import TableError
from bot.service import ServiceConfig, TableService
from storage import StandingsRepo, open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_tables import RecordingListener
from tests.bot.toy_game import TOY
from tests.waiting import computer_idle


async def _service(path, listener=None):
    db = await open_database(path)
    cfg = ServiceConfig(cpu_delay_seconds=0, turn_timeout_seconds=3600)
    return db, TableService(db, {"toy": TOY}, listener or RecordingListener(), cfg)


async def _game(service, *guests, pile=40, cpu_level="easy"):
    """h hosts; ``guests`` join; dealt. Turns go h, then the guests in order."""
    table = await open_lobby(
        service,
        "toy",
        host=("h", "Host"),
        seed="seed-1",
        options={"pile": pile, "cpu_level": cpu_level},
    )
    for guest in guests:
        await service.lobby.join(table.id, guest, guest.upper())
    await service.lobby.start(table.id, "h")
    return table


def _to_act(table):
    return table.state.seats[table.state.turn]


async def _refused(code, work):
    with pytest.raises(TableError) as err:
        await work
    assert err.value.code == code


async def test_a_player_leaves_the_computer_plays_on_and_they_come_back_after_a_restart(db_target):
    listener = RecordingListener()
    db, service = await _service(db_target, listener)
    table = await _game(service, "a", "b")
    await service.act(table.id, "h", 0, "t.1")
    assert _to_act(table) == "a"
    await service.seats.leave(table.id, "a")
    assert ("seat", "a", "left") in listener.calls
    assert table.seat("a").cpu_level == "easy"  # the table's level
    await computer_idle(service, table.id)
    assert _to_act(table) == "b" and table.version == 2  # the computer played a's turn
    assert [r.seat for r in await service.repo.actions(table.id)] == ["h", "a"]
    await _refused("seat_played_by_cpu", service.act(table.id, "a", None, "t.1"))
    await _refused("already_left", service.seats.leave(table.id, "a"))
    await _refused("not_seated", service.seats.leave(table.id, "stranger"))
    await _refused("not_seated", service.seats.rejoin(table.id, "stranger"))
    await _refused("not_replaced", service.seats.rejoin(table.id, "b"))
    await service.close()

    # A restart keeps who the computer plays for, and who may take it back.
    listener = RecordingListener()
    service = TableService(
        db, {"toy": TOY}, listener, ServiceConfig(cpu_delay_seconds=0, turn_timeout_seconds=3600)
    )
    [table] = await service.load()
    assert table.seat("a").is_cpu and not table.seat("b").is_cpu
    await service.act(table.id, "b", table.version, "t.1")
    await computer_idle(service, table.id)  # h's turn now (the computer played none)
    await service.seats.rejoin(table.id, "a")
    assert ("seat", "a", "rejoined") in listener.calls
    assert not table.seat("a").is_cpu and table.record.meta["timeouts"]["a"] == 0
    stored = await service.repo.get(table.id)
    assert not stored.seat("a").is_cpu
    await service.act(table.id, "h", table.version, "t.1")
    await service.act(table.id, "a", table.version, "t.1")  # a plays their own turn again
    await service.close()
    await db.close()


async def test_a_seat_the_timer_handed_to_the_computer_can_be_taken_back(db_target):
    db, service = await _service(db_target)
    table = await _game(service, "a")
    for _ in range(3):  # h times out three times in a row; a plays
        assert await service.timers.expire_turn(table.id) == ["h"]
        if table.seat("h").is_cpu:
            await computer_idle(service, table.id)
        await service.act(table.id, "a", table.version, "t.1")
    assert table.seat("h").is_cpu and table.record.meta["timeouts"]["h"] == 3
    assert table.seat("h").cpu_level == "easy"  # the table's level, not "normal"
    assert (await service.repo.get(table.id)).seat("h").cpu_level == "easy"
    await computer_idle(service, table.id)
    assert _to_act(table) == "a"  # the computer played h's turn
    await service.seats.rejoin(table.id, "h")
    assert not table.seat("h").is_cpu and table.record.meta["timeouts"]["h"] == 0
    await service.act(table.id, "a", table.version, "t.1")
    await computer_idle(service, table.id)
    assert _to_act(table) == "h"  # the computer plays h no more: h's turn waits for h
    await service.act(table.id, "h", table.version, "t.1")
    await service.close()
    await db.close()


async def test_the_host_or_a_moderator_removes_a_player_for_good(db_target):
    listener = RecordingListener()
    db, service = await _service(db_target, listener)
    table = await _game(service, "a", "b")
    await _refused("not_host_kick", service.seats.kick(table.id, "b", "a"))
    await _refused("kick_yourself", service.seats.kick(table.id, "h", "h"))
    await _refused("not_a_seated_person", service.seats.kick(table.id, "h", "stranger"))
    await service.seats.kick(table.id, "h", "a")
    assert ("seat", "a", "kicked") in listener.calls
    assert table.seat("a").is_cpu and table.record.meta["kicked"] == ["a"]
    assert table.seat("a").cpu_level == "easy"  # the table's level
    await _refused("kicked", service.seats.rejoin(table.id, "a"))
    await _refused("already_kicked", service.seats.kick(table.id, "h", "a"))
    # A member who may manage the channel may remove anyone, the host too; the host passes on.
    await service.seats.kick(table.id, "b", "h", may_manage=True)
    assert table.record.host_id == "b"
    stored = await service.repo.get(table.id)
    assert stored.meta["kicked"] == ["a", "h"] and stored.host_id == "b"
    await service.close()
    await db.close()


async def test_a_leaver_still_counts_in_the_standings_and_the_last_one_out_closes(db_target):
    listener = RecordingListener()
    db, service = await _service(db_target, listener)
    table = await _game(service, "a", pile=6)
    await service.seats.leave(table.id, "h")  # the host leaves: a hosts; the computer plays h
    assert table.record.host_id == "a"
    while table.record.status == "playing":
        await computer_idle(service, table.id)
        if table.record.status == "playing" and _to_act(table) == "a":
            await service.act(table.id, "a", table.version, "t.1")
    board = await StandingsRepo(db).leaderboard("g", "toy")
    assert sorted((r.user_id, r.played) for r in board) == [("a", 1), ("h", 1)]

    db2, service2 = await _service(db_target, listener)
    alone = await _game(service2, "a")
    await service2.seats.leave(alone.id, "a")
    await service2.seats.leave(alone.id, "h")  # nobody left to play: the table closes
    assert alone.record.status == "cancelled"
    assert ("closed", alone.id, "empty") in listener.calls
    assert service2.registry.find(alone.id) is None
    for s, d in ((service, db), (service2, db2)):
        await s.close()
        await d.close()


async def _finished(service, *guests):
    table = await _game(service, *guests, pile=3)
    while table.record.status == "playing":
        await service.act(table.id, _to_act(table), table.version, "t.1")
    return table


async def test_a_rematch_opens_once(db_target):
    listener = RecordingListener()
    db, service = await _service(db_target, listener)
    table = await _finished(service, "a")
    first, second = await asyncio.gather(
        service.lobby.rematch(table.id, "a"),
        service.lobby.rematch(table.id, "h"),
        return_exceptions=True,
    )
    assert not isinstance(first, Exception)
    assert isinstance(second, TableError) and second.code == "rematch_open"
    assert ("rematch", table.id, first.id) in listener.calls
    assert (await service.repo.get(table.id)).meta["rematch"] == first.id
    await service.lobby.cancel(
        first.id, "a"
    )  # even once that lobby ends, this game's rematch is used
    await _refused("rematch_open", service.lobby.rematch(table.id, "h"))
    await service.close()
    await db.close()


class _ChainToy(type(TOY)):  # type: ignore[misc]
    """The toy game where taking 1 keeps the turn (a chain of actions in one turn, like
    Amapatolli's double play); taking 2 passes it."""

    key = "toy"

    def _apply(self, state, seat, action):
        events = super()._apply(state, seat, action)
        if action.n == 1 and not state.winner:
            state.turn = (state.turn - 1) % len(state.seats)
        return events

    def default_action(self, state, seat):
        return self.legal_actions(state, seat)[0]  # take 1: the chain goes on


async def test_a_timeout_counts_once_per_turn_not_per_action_of_a_chain(db_target):
    db = await open_database(db_target)
    cfg = ServiceConfig(cpu_delay_seconds=0, turn_timeout_seconds=3600)
    service = TableService(db, {"toy": _ChainToy()}, RecordingListener(), cfg)
    table = await _game(service, "a")
    assert _to_act(table) == "h"
    for _ in range(5):  # five timed-out actions of one chain: still one turn
        assert await service.timers.expire_turn(table.id) == ["h"]
        assert _to_act(table) == "h" and table.last_by_timer
    assert table.record.meta["timeouts"]["h"] == 1 and not table.seat("h").is_cpu
    await service.act(table.id, "h", table.version, "t.2")  # h ends the turn themself
    assert table.record.meta["timeouts"]["h"] == 0 and not table.last_by_timer
    await service.act(table.id, "a", table.version, "t.2")
    assert await service.timers.expire_turn(table.id) == ["h"]  # a new turn: counted again
    assert table.record.meta["timeouts"]["h"] == 1
    await service.close()
    await db.close()
