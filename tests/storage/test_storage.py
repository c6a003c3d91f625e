import re
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from storage import (
    ChannelBusy,
    PlayersRepo,
    SeatInfo,
    StaleVersion,
    StandingDelta,
    StandingsRepo,
    TablesRepo,
    open_database,
)
from storage.db import migration_scripts
from storage.sql import timestamp, utc_now

SEATS = [SeatInfo(id="1", name="Ana"), SeatInfo(id="cpu1", name="CPU", cpu_level="easy")]


async def _new_table(repo, channel="c1"):
    return await repo.create(
        guild_id="g",
        channel_id=channel,
        game="amapatolli",
        host_id="1",
        locale="es",
        options={"hand_size": 7},
        seats=SEATS,
        seed="s",
    )


async def test_migrates_empty_database_and_reopens(db_target):
    db = await open_database(db_target)
    assert await db.schema_version() == len(migration_scripts(db.dialect))
    repo = TablesRepo(db)
    lobby = await _new_table(repo, "c1")
    playing = await _new_table(repo, "c2")
    await repo.start(playing.id, SEATS, '{"x": 1}', 0)
    done = await _new_table(repo, "c3")
    await repo.close(done.id, "cancelled")
    await db.close()

    db = await open_database(db_target)  # reopening runs no migration twice
    assert await db.schema_version() == len(migration_scripts(db.dialect))
    open_tables = await TablesRepo(db).open_tables()
    assert [(t.id, t.status) for t in open_tables] == [(lobby.id, "lobby"), (playing.id, "playing")]
    assert open_tables[1].state == '{"x": 1}'
    assert open_tables[0].seats == SEATS and open_tables[0].options == {"hand_size": 7}
    await db.close()


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path):
    db = await open_database(tmp_path / "bot.db")
    assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
    assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
    await db.close()


async def test_postgres_keeps_its_schema_version_in_a_table(pg_url):
    db = await open_database(pg_url)
    rows = await db.fetchall("SELECT version FROM schema_version ORDER BY version")
    assert [r["version"] for r in rows] == [n for n, _ in migration_scripts("postgres")]
    await db.close()


def test_both_backends_have_the_same_migrations():
    sqlite, postgres = migration_scripts("sqlite"), migration_scripts("postgres")
    assert [n for n, _ in sqlite] == [n for n, _ in postgres] == list(range(1, len(sqlite) + 1))
    assert len(sqlite) >= 4


async def test_one_open_table_per_channel(db_target):
    db = await open_database(db_target)
    repo = TablesRepo(db)
    first = await _new_table(repo)
    with pytest.raises(ChannelBusy):
        await _new_table(repo)
    await repo.close(first.id)
    await _new_table(repo)  # free again once the first one closed
    await db.close()


async def test_action_and_snapshot_are_one_transaction(db_target):
    db = await open_database(db_target)
    repo = TablesRepo(db)
    table = await _new_table(repo)
    await repo.start(table.id, SEATS, "{}", 0)
    table = await repo.get(table.id)
    await repo.record_action(table, seat="1", action="p1", state_json='{"v": 1}', version=1)
    # A writer that started from the old version loses: neither its row nor its snapshot land.
    with pytest.raises(StaleVersion):
        await repo.record_action(table, seat="1", action="p2", state_json='{"v": 2}', version=2)
    assert [a.action for a in await repo.actions(table.id)] == ["p1"]
    fresh = await repo.get(table.id)
    assert (fresh.state, fresh.version) == ('{"v": 1}', 1)
    # Finishing writes the standings in the same transaction.
    await repo.record_action(
        fresh,
        seat="1",
        action="p3",
        state_json='{"v": 2}',
        version=2,
        finished=True,
        standings=[StandingDelta(user_id="1", won=1, points=12), StandingDelta(user_id="2")],
    )
    assert (await repo.get(table.id)).status == "finished"
    board = await StandingsRepo(db).leaderboard("g", "amapatolli")
    assert [(r.user_id, r.played, r.won, r.points) for r in board] == [
        ("1", 1, 1, 12),
        ("2", 1, 0, 0),
    ]
    await db.close()


async def test_a_move_writes_seats_and_meta_only_when_given_and_the_status_only_at_the_end(
    db_target,
):
    """A move's UPDATE writes the seats and meta it is given (a timer's move changed them in
    memory: a seat handed to the computer, its timeouts) and leaves the stored ones alone when
    given none (a person's move that changed neither: no JSON made or written for nothing),
    and sets the status only when the game ended (issue 29: a column set is rewritten with
    every index on it)."""
    db = await open_database(db_target)
    repo = TablesRepo(db)
    table = await _new_table(repo)
    await repo.start(table.id, SEATS, "{}", 0, meta={"setup": 1})
    table = await repo.get(table.id)
    statements = []
    if db.dialect == "sqlite":
        await db._writer.submit(
            lambda conn: conn.set_trace_callback(statements.append), transactional=False
        )
    played_by_cpu = [SEATS[0].model_copy(update={"cpu_level": "easy"}), SEATS[1]]
    timer_meta = {"setup": 1, "timeouts": {"1": 1}}
    await repo.record_action(
        table,
        seat="1",
        action="a",
        state_json='{"v": 1}',
        version=1,
        by_timer=True,
        seats=played_by_cpu,
        meta=timer_meta,
        wake_at=123.5,
    )
    table.version, table.seats, table.meta = 1, played_by_cpu, timer_meta
    stored = await repo.get(table.id)
    assert (stored.state, stored.version, stored.meta, stored.seats, stored.status) == (
        '{"v": 1}',
        1,
        timer_meta,
        played_by_cpu,
        "playing",
    )
    wake = await db.fetchone("SELECT wake_at FROM tables WHERE id = ?", (table.id,))
    assert wake[0] == 123.5
    # Neither given: the record in memory says otherwise, the stored ones stay.
    table.seats, table.meta = SEATS, {"in memory only": True}
    await repo.record_action(table, seat="2", action="b", state_json='{"v": 2}', version=2)
    table.version = 2
    stored = await repo.get(table.id)
    assert (stored.state, stored.version, stored.meta, stored.seats) == (
        '{"v": 2}',
        2,
        timer_meta,
        played_by_cpu,
    )
    await repo.record_action(
        table,
        seat="1",
        action="c",
        state_json='{"v": 3}',
        version=3,
        meta={"setup": 1},
        finished=True,
        wake_at=9.0,
    )
    stored = await repo.get(table.id)
    assert (stored.version, stored.status, stored.meta) == (3, "finished", {"setup": 1})
    wake = await db.fetchone("SELECT wake_at FROM tables WHERE id = ?", (table.id,))
    assert wake[0] is None  # a finished table wakes no more
    if db.dialect == "sqlite":
        moves = [s.split(" WHERE ")[0] for s in statements if s.startswith("UPDATE tables")]
        assert len(moves) == 3
        assert "seats" in moves[0] and "meta" in moves[0] and "status" not in moves[0]
        assert not any(column in moves[1] for column in ("seats", "meta", "status"))
        assert "meta" in moves[2] and "seats" not in moves[2] and "status" in moves[2]
    await db.close()


async def test_no_index_holds_a_column_every_move_writes(db_target):
    """A move's UPDATE (state, version, wake_at, updated_at) updates no index of ``tables``: an
    index on such a column is rewritten on every move (issue 29: ``tables_wake``, read by no
    query), and on PostgreSQL it also rules out the row's HOT update."""
    db = await open_database(db_target)
    if db.dialect == "sqlite":
        sql = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tables'"
    else:
        sql = "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'tables'"
    definitions = {name: text for name, text in await db.fetchall(sql) if text}
    assert {"tables_open", "tables_one_active_per_channel"} <= set(definitions)
    on_moved_columns = {
        name
        for name, text in definitions.items()
        if re.search(r"\b(state|version|wake_at|updated_at)\b", text)
    }
    assert on_moved_columns == set()
    await db.close()


async def test_standings_accumulate_and_total(db_target):
    db = await open_database(db_target)
    repo = StandingsRepo(db)
    await repo.add("g", "amapatolli", [StandingDelta(user_id="a", won=1, points=5)])
    await repo.add("g", "amapatolli", [StandingDelta(user_id="a", points=3)])
    await repo.add("g", "chupate2", [StandingDelta(user_id="a", won=1, points=50)])
    await repo.add("other", "chupate2", [StandingDelta(user_id="a", won=1)])
    rows = await repo.of_user("g", "a")
    assert [(r.game, r.played, r.won, r.points) for r in rows] == [
        ("amapatolli", 2, 1, 8),
        ("chupate2", 1, 1, 50),
    ]
    total = await repo.leaderboard("g")
    assert [(r.played, r.won, r.points) for r in total] == [(3, 2, 58)]
    await db.close()


async def test_players(db_target):
    db = await open_database(db_target)
    players = PlayersRepo(db)
    await players.upsert("1", "Ana", "es")
    assert not await players.dms_closed("1")
    await players.set_dms_closed("1", True)
    await players.upsert("1", "Ana B.")
    assert await players.dms_closed("1")
    assert await players.locale("1") == "es"  # an upsert without a locale keeps the last one
    assert await players.locale("2") is None
    await db.close()


def test_utc_now_is_the_stored_text_of_now_and_of_an_offset():
    """``utc_now`` made from the clock's seconds (issue 29: one per move) is the text
    ``timestamp`` makes of the same moment, SQLite's ``strftime('%Y-%m-%dT%H:%M:%fZ')``."""
    form = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
    with closing(sqlite3.connect(":memory:")) as conn:
        (sqlite_now,) = conn.execute("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')").fetchone()
    assert form.match(sqlite_now)
    for offset in (timedelta(0), -timedelta(days=1, milliseconds=250), timedelta(seconds=0.5)):
        before = timestamp(datetime.now(UTC) + offset)
        now = utc_now(offset)
        after = timestamp(datetime.now(UTC) + offset)
        assert form.match(now)
        assert before <= now <= after
