"""The move path's guarantees: committed before presented, presented outside the table lock,
in version order per table; computer searches in worker processes choose as in-process."""

import asyncio
import random
import sys

import pytest

from bot.service import ServiceConfig, TableService
from bot.service.choose import choose_action_text, game_ref
from bot.service.cpu import ComputerTurns
from bot.service.moves import Move
from bot.workers import Workers
from games.core import IllegalAction
from storage import open_database
from storage.writer import Decided
from tests.bot.computer_kit import computer_table
from tests.bot.lobby_kit import open_lobby
from tests.bot.toy_game import TOY, Take
from tests.waiting import computer_idle, until


async def _until(condition, what):
    """Yield to the loop (and the writer thread) until ``condition()``; no timing involved in
    the outcome, only a generous wall-clock bound against a hang."""
    await until(condition, what, poll=0.001)


class Listener:
    """Records (version, actor) of every game change; hooks let a test act inside a call."""

    def __init__(self):
        self.calls = []
        self.on_game = None

    async def lobby_changed(self, table):
        pass

    async def game_changed(self, table, events, actor, by_timer):
        if self.on_game is not None:
            await self.on_game(table, events, actor)
        self.calls.append((table.version, actor))

    async def table_closed(self, table, reason):
        pass

    async def seat_replaced(self, table, seat_id):
        pass


async def _table(db_target, listener, players=("h", "a"), **config):
    db = await open_database(db_target)
    cfg = ServiceConfig(**{"cpu_delay_seconds": 0, **config})
    service = TableService(db, {"toy": TOY}, listener, cfg)
    table = await open_lobby(
        service, "toy", host=(players[0], "Host"), seed="seed-1", options={"pile": 40}
    )
    for seat in players[1:]:
        await service.lobby.join(table.id, seat, seat.upper())
    await service.lobby.start(table.id, players[0])
    return db, service, table


async def test_a_move_is_committed_before_the_listener_hears_of_it(db_target):
    listener = Listener()
    db, service, table = await _table(db_target, listener)
    other = await open_database(db_target)  # connections of its own: see only what is committed
    seen = []

    async def check(shown, events, actor):
        version = await other.fetchone("SELECT version FROM tables WHERE id = ?", (shown.id,))
        actions = await other.fetchall(
            "SELECT version, seat FROM actions WHERE table_id = ? ORDER BY version", (shown.id,)
        )
        seen.append((version[0], tuple(actions[-1]), shown.version))

    listener.on_game = check
    await service.act(table.id, "h", 0, "t.1")
    await service.act(table.id, "a", 1, "t.2")
    assert seen == [(1, (1, "h"), 1), (2, (2, "a"), 2)]
    await service.close()
    await other.close()
    await db.close()


async def _second_behind_a_slow_first(db_target):
    """Two moves: the first one's presentation hangs (a Discord call retrying) until ``gate``
    is set; the second is applied and committed meanwhile. (listener, db, service, table,
    gate, first, second)"""
    listener = Listener()
    db, service, table = await _table(db_target, listener)
    gate = asyncio.Event()
    entered = asyncio.Event()

    async def slow_first(shown, events, actor):
        if shown.version == 1:
            entered.set()
            await gate.wait()

    listener.on_game = slow_first
    first = asyncio.create_task(service.act(table.id, "h", 0, "t.1"))
    await entered.wait()
    second = asyncio.create_task(service.act(table.id, "a", 1, "t.1"))
    await _until(lambda: table.version == 2, "second move applied")
    return listener, db, service, table, gate, first, second


async def test_presenting_does_not_hold_the_table_lock_and_keeps_version_order(db_target):
    # The second move is applied and committed while the first is still being presented.
    listener, db, service, table, gate, first, second = await _second_behind_a_slow_first(db_target)
    assert [r.version for r in await service.repo.actions(table.id)] == [1, 2]
    assert not second.done()  # ... but not presented before the first
    gate.set()
    await asyncio.gather(first, second)
    assert listener.calls == [(0, None), (1, "h"), (2, "a")]
    await service.close()
    await db.close()


async def test_a_click_cancelled_while_its_turn_waits_is_still_shown_once_in_order(db_target):
    """A person's move tells the listener itself when its turn comes (``notify.Turn``); a
    click cancelled before then hands its delivery to a task: shown once, after the earlier."""
    listener, db, service, table, gate, first, second = await _second_behind_a_slow_first(db_target)
    second.cancel()  # waiting for its turn behind the first's presentation
    await asyncio.gather(second, return_exceptions=True)
    assert second.cancelled()
    assert listener.calls == [(0, None)]
    gate.set()
    await first
    await _until(lambda: len(listener.calls) == 3, "the cancelled click's move shown")
    await service._ctx.notify.idle(table.id)
    assert listener.calls == [(0, None), (1, "h"), (2, "a")]
    assert not service._ctx.notify.pending(table.id)
    await service.close()
    await db.close()


def _on_write(service, then):
    """Each move's write (the writer's future) goes through ``then``, whose answer the mover
    awaits; ``del repo.record_action`` (the returned repo) undoes it."""
    repo = service._ctx.repo
    real = repo.record_action
    repo.record_action = lambda *args, **kwargs: then(real(*args, **kwargs))
    return repo


async def test_a_mover_cancelled_during_its_write_commits_once_and_stays_in_step(db_target):
    """The move's write is the writer's own future, which refuses cancellation
    (``storage.writer.Decided``, no shield around it): a mover cancelled while it is in flight
    is woken once it is decided, keeps memory in step with the database, and the move is shown
    once; the next move plays on."""
    listener = Listener()
    db, service, table = await _table(db_target, listener)
    written = []

    def cancelled_meanwhile(write):
        written.append(write)
        asyncio.current_task().cancel()  # the click goes away while its write is in flight
        return write

    repo = _on_write(service, cancelled_meanwhile)
    mover = asyncio.create_task(service.act(table.id, "h", 0, "t.1"))
    await asyncio.gather(mover, return_exceptions=True)
    assert mover.cancelled()
    assert len(written) == 1 and written[0].done() and not written[0].cancelled()
    del repo.record_action
    assert table.version == 1  # memory in step with the database
    assert [(r.version, r.seat) for r in await service.repo.actions(table.id)] == [(1, "h")]
    await _until(lambda: len(listener.calls) == 2, "the cancelled mover's move shown")
    await service.act(table.id, "a", 1, "t.1")  # the next move passes the version guard
    assert [v for v, _ in listener.calls] == [0, 1, 2]
    assert [r.version for r in await service.repo.actions(table.id)] == [1, 2]
    await service.close()
    await db.close()


async def test_the_listener_hears_a_persons_move_in_the_turn_after_its_commit(db_target):
    """Under load every turn of the event loop costs a loop lag: once the writer hands the
    commit over, the mover resumes in the next turn and tells the listener itself (no shield
    around the write, no delivery task). Counted in loop turns, not timed."""
    listener = Listener()
    db, service, table = await _table(db_target, listener)
    handed = []

    def held_back(write):
        mine = Decided(loop=asyncio.get_running_loop())  # what the writer hands over
        handed.append((write, mine))
        return mine

    repo = _on_write(service, held_back)
    mover = asyncio.create_task(service.act(table.id, "h", 0, "t.1"))
    await _until(lambda: handed and handed[0][0].done(), "the move committed")
    write, mine = handed[0]
    loop = asyncio.get_running_loop()
    loop.call_soon(mine.set_result, write.result())  # as the writer thread does
    turns = 0
    while len(listener.calls) < 2:
        await asyncio.sleep(0)
        turns += 1
    assert turns == 2  # the hand-over, then the mover up to the listener
    await mover
    del repo.record_action
    await service.close()
    await db.close()


async def test_notifications_of_overlapping_moves_arrive_in_version_order(db_target):
    listener = Listener()
    rng = random.Random(7)

    async def jitter(shown, events, actor):
        for _ in range(rng.randint(0, 5)):
            await asyncio.sleep(0)

    listener.on_game = jitter
    db, service, table = await _table(db_target, listener, players=("h", "a", "b"))
    moves = []
    while table.record.status == "playing":
        seat = table.state.seats[table.state.turn]
        version = table.version
        # The next click comes as soon as the move is applied, not when it was presented.
        moves.append(asyncio.create_task(service.act(table.id, seat, version, "t.1")))
        await _until(lambda v=version: table.version > v, "move applied")
    await asyncio.gather(*moves)
    versions = [v for v, _ in listener.calls]
    assert versions == list(range(len(moves) + 1))
    await service.close()
    await db.close()


async def test_computer_turns_are_presented_in_order_too(db_target):
    listener = Listener()
    rng = random.Random(3)

    async def jitter(shown, events, actor):
        for _ in range(rng.randint(0, 5)):
            await asyncio.sleep(0)

    listener.on_game = jitter
    db = await open_database(db_target)
    service = TableService(db, {"toy": TOY}, listener, ServiceConfig(cpu_delay_seconds=0))
    table = await open_lobby(service, "toy", host=("h", "Host"), seed="s", options={"pile": 30})
    await service.lobby.add_cpu(table.id, "h", "easy")
    await service.lobby.add_cpu(table.id, "h", "normal")
    await service.lobby.start(table.id, "h")
    while table.record.status == "playing":
        await computer_idle(service, table.id)
        if table.record.status == "playing" and "h" in TOY.to_act(table.state):
            await service.act(table.id, "h", table.version, "t.1")
    await _until(lambda: service.registry.find(table.id) is None, "table released")
    versions = [v for v, _ in listener.calls]
    assert versions == list(range(table.version + 1))
    await service.close()
    await db.close()


async def test_computer_moves_play_the_actions_offered_and_apply_still_judges_them(
    db_target, monkeypatch
):
    """A computer's move carries the legal action its search chose (its text is not parsed
    again); the engine's ``apply`` judges such an action as it judges a decoded one."""
    decoded = []
    decode = TOY.decode_action

    def counted(text):
        if sys._getframe(1).f_code.co_name == "_attempt":  # (the searches decode their own)
            decoded.append(text)
        return decode(text)

    monkeypatch.setattr(TOY, "decode_action", counted)
    listener = Listener()
    db = await open_database(db_target)
    service = TableService(db, {"toy": TOY}, listener, ServiceConfig(cpu_delay_seconds=0))
    table = await open_lobby(service, "toy", host=("h", "Host"), seed="s", options={"pile": 30})
    await service.lobby.add_cpu(table.id, "h", "normal")
    await service.lobby.start(table.id, "h")
    human_moves = 0
    while table.record.status == "playing":
        await computer_idle(service, table.id)
        if table.record.status == "playing" and "h" in TOY.to_act(table.state):
            await service.act(table.id, "h", table.version, "t.1")
            human_moves += 1
    rows = await db.fetchall("SELECT seat, action FROM actions WHERE table_id = ?", (table.id,))
    cpu_rows = [action for seat, action in rows if seat != "h"]
    assert cpu_rows and all(action in ("t.1", "t.2") for action in cpu_rows)
    assert len(decoded) == human_moves  # only the people's clicks were parsed by the move path

    other = await open_lobby(service, "toy", host=("h", "Host"), seed="t", options={"pile": 9})
    await service.lobby.join(other.id, "a", "A")
    await service.lobby.start(other.id, "h")
    seat = next(iter(TOY.to_act(other.state)))
    waiting = "a" if seat == "h" else "h"
    version = other.version
    async with other.lock:  # the other seat's action, handed over decoded: refused
        with pytest.raises(IllegalAction):
            await service._moves.act_locked(other, Move(waiting, version, "t.1", action=Take(n=1)))
    assert other.version == version
    await service.close()
    await db.close()


async def test_process_pool_choice_equals_in_process_choice(db_target):
    from bot.registry import load_games

    games = dict(load_games())
    games["toy"] = TOY
    workers = Workers(1)
    try:
        checked = 0
        for key, game in games.items():
            try:
                state = game.new(["cpu1", "cpu2"], f"pool-{key}", {})
            except Exception:  # a game that needs more setup (triad hands)
                continue
            table = computer_table(key, game, state)
            searches = ComputerTurns._searches(_CtxStub(), table)  # type: ignore[arg-type]
            for _, _, args, legal in searches:
                if args is None:  # a waited seat's only action: played without a search
                    assert len(legal) == 1 and game.lists_every_action
                    continue
                assert args[2] == [a.encode() for a in legal]  # the texts offered, in order
                here = choose_action_text(*args)
                remote_args = (game_ref(game), *args[1:])
                there = await workers.run(choose_action_text, *remote_args)
                assert there == here, key
                checked += 1
        assert checked >= 2
    finally:
        workers.shutdown()


class _CtxStub:
    """Just what ``ComputerTurns._searches`` reads of its context."""

    think_clock = None
    config = ServiceConfig(cpu_think_seconds=0.2)
    think_budget = ComputerTurns.think_budget

    class workers:
        in_process = True

    @property
    def ctx(self):
        return self
