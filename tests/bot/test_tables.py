import asyncio

import pytest

from bot.errors import TableError
from bot.service import ServiceConfig, TableService
from games.core import IllegalAction
from storage import StandingsRepo, open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.toy_game import TOY
from tests.waiting import computer_idle


class RecordingListener:
    def __init__(self):
        self.calls = []

    async def lobby_changed(self, table):
        self.calls.append(("lobby", table.id, [s.id for s in table.record.seats]))

    async def game_changed(self, table, events, actor, by_timer):
        self.calls.append(("game", table.version, actor, by_timer))

    async def table_closed(self, table, reason):
        self.calls.append(("closed", table.id, reason))

    async def seat_replaced(self, table, seat_id):
        self.calls.append(("replaced", seat_id))

    async def seat_changed(self, table, seat_id, change):
        self.calls.append(("seat", seat_id, change))

    async def rematch_opened(self, finished, rematch):
        self.calls.append(("rematch", finished.id, rematch.id))


async def _service(path, listener=None, **config):
    db = await open_database(path)
    cfg = ServiceConfig(**{"cpu_delay_seconds": 0, **config})
    service = TableService(db, {"toy": TOY}, listener or RecordingListener(), cfg)
    return db, service


async def _open(service, **options):
    return await open_lobby(service, "toy", host=("h", "Host"), seed="seed-1", options=options)


async def _wait_finished(service, table):
    await computer_idle(service, table.id)
    assert table.record.status == "finished"


async def test_lobby_rules(db_target):
    db, service = await _service(db_target)
    table = await _open(service)
    with pytest.raises(TableError) as err:
        await _open(service)
    assert err.value.code == "channel_busy"
    with pytest.raises(TableError) as err:
        await service.lobby.start(table.id, "h")
    assert err.value.code == "not_enough_players"
    await service.lobby.join(table.id, "a", "Ana")
    with pytest.raises(TableError) as err:
        await service.lobby.join(table.id, "a", "Ana")
    assert err.value.code == "already_joined"
    with pytest.raises(TableError) as err:
        await service.lobby.add_cpu(table.id, "a")
    assert err.value.code == "not_host"
    await service.lobby.add_cpu(table.id, "h")
    await service.lobby.add_cpu(table.id, "h")
    with pytest.raises(TableError) as err:
        await service.lobby.join(table.id, "b", "Bea")
    assert err.value.code == "table_full"
    await service.lobby.remove(table.id, "h", "cpu2")
    await service.lobby.leave(table.id, "h")  # the host leaves: Ana hosts now
    assert table.record.host_id == "a"
    assert [s.id for s in table.record.seats] == ["a", "cpu1"]
    await service.close()
    await db.close()


async def test_invalid_options_are_refused(db_target):
    db, service = await _service(db_target)
    for bad in ({"cpu_level": "godlike"}, {"turn_seconds": 1}):
        with pytest.raises(TableError) as err:
            await _open(service, **bad)
        assert err.value.code == "invalid_options"
    # the game's own options: the engine's one option error, whatever the game
    with pytest.raises(IllegalAction) as refused:
        await _open(service, pile=99)
    assert refused.value.code == "bad_options" and refused.value.params["reason"].startswith("pile")
    await service.close()
    await db.close()


async def test_actions_are_checked_and_persisted(db_target):
    listener = RecordingListener()
    db, service = await _service(db_target, listener)
    table = await _open(service, pile=10)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    with pytest.raises(IllegalAction) as err:
        await service.act(table.id, "a", 0, "t.1")
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        await service.act(table.id, "stranger", 0, "t.1")
    with pytest.raises(IllegalAction):
        await service.act(table.id, "h", 0, "t9")  # forged action text
    await service.act(table.id, "h", 0, "t.2")
    with pytest.raises(TableError) as err:  # the same click again: stale, applied once
        await service.act(table.id, "h", 0, "t.2")
    assert err.value.code == "stale"
    assert table.state.pile == 8
    rows = await service.repo.actions(table.id)
    assert [(r.version, r.seat, r.action) for r in rows] == [(1, "h", "t.2")]
    assert (await service.repo.get(table.id)).version == 1
    assert ("game", 1, "h", False) in listener.calls
    await service.close()
    await db.close()


async def test_simultaneous_clicks_apply_once(db_target):
    db, service = await _service(db_target)
    table = await _open(service, pile=10)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    results = await asyncio.gather(
        *(service.act(table.id, "h", 0, "t.1") for _ in range(5)), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(
        isinstance(r, TableError) and r.code == "stale" for r in results if isinstance(r, Exception)
    )
    assert table.state.pile == 9
    await service.close()
    await db.close()


async def test_computer_game_finishes_records_standings_and_replays(db_target):
    db, service = await _service(db_target)
    table = await _open(service)
    await service.lobby.add_cpu(table.id, "h", "easy")
    await service.lobby.start(table.id, "h")
    while table.record.status == "playing":
        await computer_idle(service, table.id)
        if "h" in TOY.to_act(table.state):
            await service.act(table.id, "h", table.version, "t.1")
    assert table.record.status == "finished"
    assert service.registry.find(table.id) is None
    replayed = await service.replays.replay(table.id)
    assert replayed == table.state
    board = await StandingsRepo(db).leaderboard("g", "toy")
    assert [(r.user_id, r.played) for r in board] == [("h", 1)]  # computers have no standings
    await service.close()
    await db.close()


async def test_turn_timer_plays_then_replaces_after_three(db_target):
    listener = RecordingListener()
    db, service = await _service(db_target, listener, turn_timeout_seconds=3600)
    table = await _open(service, pile=40)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    for _ in range(6):  # h and a time out alternately, three times each
        seat = table.state.seats[table.state.turn]
        assert await service.timers.expire_turn(table.id) == [seat]
    assert ("replaced", "h") in listener.calls and ("replaced", "a") in listener.calls
    assert all(s.is_cpu for s in table.record.seats)
    rows = await service.repo.actions(table.id)
    assert len(rows) >= 6 and all(r.by_timer for r in rows[:6])
    await _wait_finished(service, table)  # both seats are computers now and finish the game
    await service.close()
    await db.close()


async def test_an_action_resets_the_timeout_count(db_target):
    db, service = await _service(db_target, turn_timeout_seconds=3600)
    table = await _open(service, pile=40)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    for _ in range(2):
        await service.timers.expire_turn(table.id)  # h times out
        await service.act(table.id, "a", table.version, "t.1")  # a plays
    await service.act(table.id, "h", table.version, "t.1")  # h plays: count back to 0
    await service.act(table.id, "a", table.version, "t.1")
    await service.timers.expire_turn(table.id)
    assert not table.seat("h").is_cpu
    assert table.record.meta["timeouts"]["h"] == 1
    await service.close()
    await db.close()


async def test_stale_timer_does_nothing(db_target):
    db, service = await _service(db_target, turn_timeout_seconds=3600)
    table = await _open(service, pile=40)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.start(table.id, "h")
    await service.act(table.id, "h", 0, "t.1")
    assert await service.timers.expire_turn(table.id, version=0) == []
    assert table.version == 1
    await service.close()
    await db.close()


async def test_restart_rebuilds_tables_and_finishes_like_an_uninterrupted_run(tmp_path):
    async def run(path, interrupt_at):
        db, service = await _service(path)
        table = await _open(service, pile=30)
        for _ in range(3):
            await service.lobby.add_cpu(table.id, "h", "easy")
        await service.lobby.leave(table.id, "h")  # would cancel: no humans left
        assert table.record.status == "cancelled"
        table = await open_lobby(service, "toy", host=("h", "H"), seed="s2", options={"pile": 30})
        for _ in range(3):
            await service.lobby.add_cpu(table.id, "h", "easy")
        await service.lobby.start(table.id, "h")
        moves = 0
        while table.record.status == "playing":
            await computer_idle(service, table.id)
            if "h" in TOY.to_act(table.state):
                if moves == interrupt_at:
                    break
                await service.act(table.id, "h", table.version, "t.1")
                moves += 1
        if table.record.status == "playing":
            await service.close()
            await db.close()
            db, service = await _service(path)  # a new process on the same file
            [table] = await service.load()
            while table.record.status == "playing":
                await computer_idle(service, table.id)
                if "h" in TOY.to_act(table.state):
                    await service.act(table.id, "h", table.version, "t.1")
        actions = [(r.seat, r.action) for r in await service.repo.actions(table.id)]
        state = table.state
        await service.close()
        await db.close()
        return state, actions

    uninterrupted = await run(tmp_path / "a.db", interrupt_at=-1)
    interrupted = await run(tmp_path / "b.db", interrupt_at=2)
    assert interrupted == uninterrupted


async def test_rematch_seats_everyone_in_the_games_rematch_order(db_target):
    db, service = await _service(db_target)
    table = await _open(service, pile=5)
    await service.lobby.join(table.id, "a", "Ana")
    await service.lobby.add_cpu(table.id, "h", "easy")
    await service.lobby.start(table.id, "h")
    with pytest.raises(TableError):  # still playing
        await service.lobby.rematch(table.id, "a")
    while table.record.status == "playing":
        await computer_idle(service, table.id)
        for seat in ("h", "a"):
            if table.record.status == "playing" and seat in TOY.to_act(table.state):
                await service.act(table.id, seat, table.version, "t.1")
    with pytest.raises(TableError) as err:
        await service.lobby.rematch(table.id, "stranger")
    assert err.value.code == "not_seated"
    again = await service.lobby.rematch(table.id, "a")
    assert again.record.status == "lobby" and again.record.host_id == "a"
    assert [s.id for s in again.record.seats] == TOY.rematch_seats(table.state)
    assert again.record.options == table.record.options
    await service.close()
    await db.close()


def _imports(path):
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_the_table_service_imports_no_discord():
    from pathlib import Path

    import bot.service

    package = Path(bot.service.__file__).parent
    modules = sorted(package.glob("*.py"))
    assert modules
    for module in modules:
        found = [
            m
            for m in _imports(module)
            if m == "discord" or m.startswith(("discord.", "bot.ui", "bot.cogs"))
        ]
        assert not found, f"{module.name} imports {found}"


def test_cogs_and_ui_touch_no_lock_or_repository_and_only_storage_writes_sql():
    import re
    from pathlib import Path

    import bot

    root = Path(bot.__file__).parent
    sql = re.compile(r"execute\(|\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b")
    internals = re.compile(r"\.repo\b|\.lock\b")
    adapters = {*root.glob("cogs/**/*.py"), *root.glob("ui/**/*.py")}
    for module in sorted(root.glob("**/*.py")):
        for number, line in enumerate(module.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{module.relative_to(root)}:{number}: {line}"
            assert not sql.search(line), where
            if module in adapters:
                assert not internals.search(line), where
