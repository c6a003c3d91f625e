"""The writer thread: one round trip per unit, all-or-nothing per unit (also inside a group
commit), version-guarded moves, and reads that never wait for a write."""

import asyncio
import sqlite3
import threading

import pytest

from storage import (
    CardNotHeld,
    CardTransfer,
    Intent,
    IntentsRepo,
    SeatInfo,
    StaleVersion,
    StandingDelta,
    TablesRepo,
    open_database,
)
from storage.checkpoints import WalCheckpoints
from storage.sql import INTEGRITY_ERRORS
from storage.sqlite import CHECKPOINT_PAGES
from tests.waiting import until

SEATS = [SeatInfo(id="1", name="Ana"), SeatInfo(id="2", name="Bea")]


async def _playing(db):
    repo = TablesRepo(db)
    record = await repo.create(
        guild_id="g",
        channel_id="c",
        game="triad",
        host_id="1",
        locale="es",
        options={},
        seats=SEATS,
        seed="s",
    )
    await repo.start(record.id, SEATS, '{"v": 0}', 0)
    return repo, await repo.get(record.id)


def _count(conn, sql, *params):
    return conn.execute(sql, params).fetchone()[0]


async def test_a_failing_unit_leaves_nothing_and_its_batch_mates_commit(db_target):
    db = await open_database(db_target)

    def good(conn):
        conn.execute("INSERT INTO players (user_id, name) VALUES ('ok', 'Ok')")
        return "done"

    def bad(conn):
        conn.execute("INSERT INTO players (user_id, name) VALUES ('half', 'Half')")
        raise RuntimeError("boom")

    # The writer is kept busy while both are queued, so they share one transaction (group
    # commit); then once more each alone.
    busy, release = threading.Event(), threading.Event()

    def hold(conn):
        busy.set()
        release.wait()

    blocker = asyncio.ensure_future(db.write(hold))
    await asyncio.to_thread(busy.wait)
    together = [asyncio.ensure_future(db.write(good)), asyncio.ensure_future(db.write(bad))]
    await asyncio.sleep(0)  # both queued (submitted when the futures start)
    transactions = db.write_stats.transactions
    release.set()
    await blocker
    results = await asyncio.gather(*together, return_exceptions=True)
    assert db.write_stats.transactions == transactions + 2  # the blocker's, then both in one
    assert results[0] == "done"
    assert isinstance(results[1], RuntimeError)
    assert isinstance(
        (await asyncio.gather(db.write(bad), return_exceptions=True))[0], RuntimeError
    )
    names = await db.write(lambda c: [r[0] for r in c.execute("SELECT user_id FROM players")])
    assert names == ["ok"]
    await db.close()


async def test_a_move_is_version_guarded_and_all_or_nothing(db_target):
    db = await open_database(db_target)
    repo, table = await _playing(db)
    await repo.record_action(table, seat="1", action="x", state_json='{"v": 1}', version=1)
    # A writer that started from version 0 again loses: nothing of it is written.
    with pytest.raises(StaleVersion):
        await repo.record_action(table, seat="2", action="y", state_json='{"v": 9}', version=1)
    fresh = await repo.get(table.id)
    assert (fresh.version, fresh.state) == (1, '{"v": 1}')
    assert [(a.version, a.action) for a in await repo.actions(table.id)] == [(1, "x")]

    # The final move fails in its last step (a staked card nobody holds): the action row,
    # the snapshot and the standings written before it are undone with it.
    with pytest.raises(CardNotHeld):
        await repo.record_action(
            fresh,
            seat="2",
            action="z",
            state_json='{"v": 2}',
            version=2,
            finished=True,
            standings=[StandingDelta(user_id="1", won=1)],
            transfers=[CardTransfer(card_id="c1", from_user="2", to_user="1")],
        )
    after = await repo.get(table.id)
    assert (after.version, after.status) == (1, "playing")
    assert len(await repo.actions(table.id)) == 1
    assert await db.write(lambda c: _count(c, "SELECT COUNT(*) FROM standings")) == 0
    await db.close()


async def test_reads_do_not_wait_for_a_write_in_progress(db_target):
    db = await open_database(db_target)
    repo, table = await _playing(db)
    inside, release = threading.Event(), threading.Event()

    def slow(conn):
        conn.execute("UPDATE tables SET version = 5 WHERE id = ?", (table.id,))
        inside.set()
        release.wait()

    write = asyncio.ensure_future(db.write(slow))
    await asyncio.to_thread(inside.wait)
    # The write holds the write lock (mid-transaction); a read still answers, with the last
    # committed data.
    assert (await repo.get(table.id)).version == 0
    release.set()
    await write
    assert (await repo.get(table.id)).version == 5
    await db.close()


async def test_the_read_connection_cannot_write(db_target):
    db = await open_database(db_target)
    with pytest.raises(Exception, match="readonly|read-only"):
        await db.fetchall("INSERT INTO players (user_id, name) VALUES ('x', 'X') RETURNING *")
    await db.close()


async def test_unchanged_player_upserts_cost_no_write(db_target):
    from storage import PlayersRepo

    db = await open_database(db_target)
    players = PlayersRepo(db)
    await players.upsert("1", "Ana", "es")
    before = db.write_stats.units
    for _ in range(5):
        await players.upsert("1", "Ana", "es")
        await players.upsert("1", "Ana")  # no locale given: nothing changes either
    assert db.write_stats.units == before
    await players.upsert("1", "Ana B", "es")
    assert db.write_stats.units == before + 1
    assert await players.locale("1") == "es"
    await db.close()


async def test_a_move_is_queued_when_asked_for_and_answered_by_the_writer_s_own_future(db_target):
    """Issue 25: no task around a move's write (its first step queued the unit a loop turn
    later, and its end woke the mover one turn after the commit): the unit is queued by the
    call itself, ahead of a write asked for after it."""
    db = await open_database(db_target)
    repo, table = await _playing(db)
    blocker, release = await _writer_held(db)
    move = repo.record_action(table, seat="1", action="x", state_json='{"v": 1}', version=1)
    assert isinstance(move, asyncio.Future)  # the writer's own, not a coroutine to run later
    seen = db.submit(
        lambda c: c.execute("SELECT version FROM tables WHERE id = ?", (table.id,)).fetchone()[0]
    )
    release.set()
    await blocker
    assert await move == {}
    assert await seen == 1  # the move was queued first
    await db.close()


async def _writer_held(db):
    """The writer thread held inside a unit until ``release`` is set: what is submitted
    meanwhile waits and then shares one transaction. (The holding unit's future, ``release``.)"""
    busy, release = threading.Event(), threading.Event()

    def hold(conn):
        busy.set()
        release.wait()

    blocker = db.submit(hold)
    await asyncio.to_thread(busy.wait)
    return blocker, release


async def _held(db, units):
    """``units`` submitted while the writer is held, so they share one transaction; their
    futures and the callbacks the writer thread handed the loop meanwhile."""
    loop = asyncio.get_running_loop()
    handed = []
    plain = loop.call_soon_threadsafe

    def counted(callback, *args, **kwargs):
        handed.append(callback)
        return plain(callback, *args, **kwargs)

    blocker, release = await _writer_held(db)
    futures = [db.submit(unit) for unit in units]
    loop.call_soon_threadsafe = counted
    try:
        release.set()
        await blocker
        results = await asyncio.gather(*futures, return_exceptions=True)
    finally:
        del loop.call_soon_threadsafe
    return results, handed


async def test_a_group_commit_answers_its_callers_in_one_callback_to_the_loop(db_target):
    """Issue 29: each callback handed to the loop costs the writer thread a GIL hand-over and
    wakes the loop: a batch is answered with one, in the order it was queued."""
    db = await open_database(db_target)
    order = []

    def unit(n):
        def insert(conn):
            conn.execute("INSERT INTO players (user_id, name) VALUES (?, 'P')", (f"p{n}",))
            return n

        return insert

    transactions = db.write_stats.transactions
    results, handed = await _held(db, [unit(n) for n in range(5)])
    assert results == [0, 1, 2, 3, 4]
    assert db.write_stats.transactions == transactions + 2  # the blocker's, then the five
    assert len(handed) == 2  # the blocker's, then the five answered together (not five)
    futures = [db.submit(unit(n)) for n in range(5, 8)]
    for n, future in zip(range(5, 8), futures, strict=True):
        future.add_done_callback(lambda f, n=n: order.append(n))
    await asyncio.gather(*futures)
    assert order == [5, 6, 7]
    await db.close()


async def test_a_sqlite_batch_without_a_failure_runs_no_savepoints(tmp_path):
    """Optimistic on SQLite too (PostgreSQL's writer was already): savepoints only when a unit
    of the batch raised (then the batch runs again, each unit in its own), two statements fewer
    per unit otherwise; a failing unit still leaves nothing and its batch mates commit."""
    db = await open_database(tmp_path / "s.db")
    statements = []
    await db._writer.submit(
        lambda conn: conn.set_trace_callback(statements.append), transactional=False
    )

    def insert(name):
        return lambda conn: conn.execute(
            "INSERT INTO players (user_id, name) VALUES (?, 'P')", (name,)
        )

    def bad(conn):
        conn.execute("INSERT INTO players (user_id, name) VALUES ('half', 'P')")
        raise RuntimeError("boom")

    results, _ = await _held(db, [insert("a"), insert("b"), insert("c")])
    assert not any(isinstance(r, BaseException) for r in results)
    assert sum("SAVEPOINT" in s for s in statements) == 0
    assert sum(s.startswith("INSERT INTO players") for s in statements) == 3
    results, _ = await _held(db, [insert("d"), bad, insert("e")])
    assert isinstance(results[1], RuntimeError)
    assert sum("SAVEPOINT" in s for s in statements) == 3  # the rerun: one per unit
    names = await db.fetchall("SELECT user_id FROM players ORDER BY user_id")
    assert [r[0] for r in names] == ["a", "b", "c", "d", "e"]
    await db.close()


async def test_a_caller_cancelled_before_its_batch_commits_leaves_its_batch_mates_answered(
    db_target,
):
    """One callback answers a whole batch: a future its caller cancelled meanwhile is skipped
    (its unit still commits) and the ones queued after it are answered."""
    db = await open_database(db_target)

    def insert(name):
        return lambda conn: conn.execute(
            "INSERT INTO players (user_id, name) VALUES (?, 'P') RETURNING user_id", (name,)
        ).fetchone()[0]

    blocker, release = await _writer_held(db)
    first, second, third = (db.submit(insert(n)) for n in ("a", "b", "c"))
    first.cancel()
    release.set()
    await blocker
    assert await asyncio.wait_for(asyncio.gather(second, third), 30) == ["b", "c"]
    names = await db.fetchall("SELECT user_id FROM players ORDER BY user_id")
    assert [r[0] for r in names] == ["a", "b", "c"]  # the cancelled caller's unit committed
    await db.close()


def _intent(table, n):
    return Intent(
        interaction_id=str(1_450_000_000_000_000_000 + n),  # a snowflake
        application_id="app",
        token="tok",
        table_id=table.id,
        seat="1",
        version=table.version,
        action="x",
        locale="es",
        created_at=1000.0 + n,
    )


async def test_a_click_s_intent_written_with_its_move_in_one_batch_costs_one_statement(db_target):
    """Issue 29: the move marks its click's intent done by writing it whole, so the click's
    own write of it, in the same batch, is not run; if the batch meets a failure every unit
    runs (a refused move leaves the intent written, not done)."""
    db = await open_database(db_target)
    repo, table = await _playing(db)
    intents = IntentsRepo(db)
    statements = []
    if db.dialect == "sqlite":
        await db._writer.submit(
            lambda conn: conn.set_trace_callback(statements.append), transactional=False
        )
    blocker, release = await _writer_held(db)
    click = _intent(table, 1)
    started = intents.start(click)
    move = repo.record_action(
        table, seat="1", action="x", state_json='{"v": 1}', version=1, intent=click
    )
    release.set()
    await blocker
    assert await started is None  # answered with the batch that wrote it
    assert await move == {}
    if db.dialect == "sqlite":
        assert sum(s.startswith("INSERT INTO intents") for s in statements) == 1
    # the same with a move that loses its version guard (it starts from version 0 again):
    # both units run (savepoints)
    blocker, release = await _writer_held(db)
    refused = _intent(table, 2)
    started = intents.start(refused)
    stale = repo.record_action(
        table, seat="1", action="y", state_json='{"v": 9}', version=1, intent=refused
    )
    release.set()
    await blocker
    await started
    with pytest.raises(StaleVersion):
        await stale
    rows = await db.fetchall(
        "SELECT CAST(interaction_id AS TEXT), token, table_id, version, done FROM intents"
        " ORDER BY 1"
    )
    assert [tuple(r) for r in rows] == [
        ("1450000000000000001", "tok", table.id, 0, 1),
        ("1450000000000000002", "tok", table.id, 0, 0),
    ]
    await db.close()


async def test_the_writer_times_a_batch_s_wait_its_transaction_and_its_hand_over(db_target):
    """Issue 29: a move's persist is the writer's queue, its transaction and the hand-over to
    the loop: each batch observes the three (``db_queue``, ``db_write``, ``db_handback``), so a
    bench can tell which one its persist p99 is made of."""
    seen = []
    db = await open_database(db_target, observe=lambda name, ms: seen.append((name, ms)))
    blocker, release = await _writer_held(db)
    held = [db.submit(lambda conn: None) for _ in range(3)]
    seen.clear()
    release.set()
    await blocker
    await asyncio.gather(*held)
    # the blocker's batch written and handed over, then the three's queued, written, handed
    # over (the writer thread and the loop observe in either order meanwhile)
    assert sorted(name for name, _ in seen) == [
        "db_handback",
        "db_handback",
        "db_queue",
        "db_write",
        "db_write",
    ]
    assert all(ms >= 0 for _, ms in seen)
    await db.close()


async def test_a_lone_statement_is_its_own_transaction(db_target):
    """Issue 29: a write of one statement alone in its batch (``Database.execute``) runs
    without BEGIN and COMMIT on SQLite (a statement is a transaction of its own there): all or
    nothing still, its changed rows counted; beside other units it joins their transaction."""
    db = await open_database(db_target)
    await db.write(
        lambda conn: conn.executemany(
            "INSERT INTO players (user_id, name) VALUES (?, 'P')", [("a",), ("b",)]
        )
    )
    statements = []
    if db.dialect == "sqlite":
        await db._writer.submit(
            lambda conn: conn.set_trace_callback(statements.append), transactional=False
        )
    assert await db.execute("UPDATE players SET name = 'Q' WHERE user_id <> ?", ("none",)) == 2
    with pytest.raises(Exception) as refused:  # the second row would take the first's id
        await db.execute("UPDATE players SET user_id = 'same'")
    assert isinstance(refused.value, INTEGRITY_ERRORS)
    rows = await db.fetchall("SELECT user_id, name FROM players ORDER BY user_id")
    assert [tuple(r) for r in rows] == [("a", "Q"), ("b", "Q")]  # nothing of it stands
    if db.dialect == "sqlite":
        assert not any(s.startswith(("BEGIN", "COMMIT", "ROLLBACK")) for s in statements)
    blocker, release = await _writer_held(db)
    together = [
        asyncio.ensure_future(db.execute("UPDATE players SET name = 'R' WHERE user_id = 'a'")),
        db.submit(lambda conn: conn.execute("UPDATE players SET name = 'R' WHERE user_id = 'b'")),
    ]
    release.set()
    await blocker
    await asyncio.gather(*together)
    if db.dialect == "sqlite":
        assert sum(s.startswith("BEGIN") for s in statements) == 2  # the blocker's, the pair's
    rows = await db.fetchall("SELECT name FROM players ORDER BY user_id")
    assert [r[0] for r in rows] == ["R", "R"]
    await db.close()


async def test_the_sqlite_writer_checkpoints_by_itself_only_as_a_backstop(tmp_path):
    """Issue 29: the checkpoint thread copies the log (storage/checkpoints.py); the writer's
    own automatic checkpoint only bounds the log should that thread fall behind, far above the
    ~7,500 frames a pass finds at 1,000 busy tables."""
    db = await open_database(tmp_path / "c.db")
    pages = await db._writer.submit(
        lambda conn: conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0],
        transactional=False,
    )
    assert pages == CHECKPOINT_PAGES >= 4 * 10_000
    assert isinstance(db._writer.housekeeping, WalCheckpoints)
    await db.close()


async def _fill_log(db, rows):
    for n in range(rows):
        await db.execute("INSERT INTO players (user_id, name) VALUES (?, ?)", (f"u{n}", "x" * 3000))


def _log_frames(path):
    """Frames the write-ahead log holds now (a PASSIVE checkpoint's report; it copies them)."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        return conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    finally:
        conn.close()


async def test_a_checkpoint_pass_does_not_wait_for_the_writer_s_transaction(tmp_path):
    """The checkpoint thread's pass copies every committed frame while the writer is inside a
    transaction of its own (holding the write lock): a PASSIVE checkpoint takes no lock a
    writer holds, so the writer never waits for it nor it for the writer."""
    path = tmp_path / "c.db"
    db = await open_database(path)
    await _fill_log(db, 50)
    blocker, release = await _writer_held(db)  # inside BEGIN IMMEDIATE, uncommitted
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        busy, frames, copied = await asyncio.to_thread(
            lambda: conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        )
        conn.close()
        assert (busy, copied) == (0, frames) and frames >= 50
    finally:
        release.set()
        await blocker
    await db.close()


async def test_after_a_pass_the_writer_copies_the_rest_and_the_log_starts_over(tmp_path):
    """A pass copies the log but what is written while it runs; the writer, at its next batch's
    end, copies that rest (not the whole log again), so its next transaction writes the log
    from its start instead of growing it. A reader's snapshot stands for the writes the pass
    missed: a checkpoint copies no frame past an open read."""
    path = tmp_path / "c.db"
    db = await open_database(path)
    checkpoints = db._writer.housekeeping
    checkpoints.every = 3600.0  # no pass of the thread's own during the test
    await _fill_log(db, 60)
    reader = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM players").fetchone()  # its snapshot: the 60 rows
    await db.execute("UPDATE players SET name = 'y' WHERE user_id = 'u1'")  # past the snapshot
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    await asyncio.to_thread(checkpoints.run_pass, conn)
    conn.close()
    reader.execute("COMMIT")
    reader.close()
    assert checkpoints.stats.passes == 1 and checkpoints.stats.frames >= 60
    await db.execute("UPDATE players SET name = 'z' WHERE user_id = 'u2'")  # then the writer's copy
    await db.execute("UPDATE players SET name = 'w' WHERE user_id = 'u3'")  # the log restarts
    assert checkpoints.stats.writer_passes == 1
    assert 0 < checkpoints.stats.writer_frames < 10  # the two updates' frames, not the log's
    assert _log_frames(path) < 10
    await db.close()


async def test_a_short_log_after_a_pass_costs_the_writer_nothing(tmp_path):
    path = tmp_path / "c.db"
    db = await open_database(path)
    checkpoints = db._writer.housekeeping
    checkpoints.every = 3600.0
    checkpoints.least_frames = 1_000
    await _fill_log(db, 5)
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    await asyncio.to_thread(checkpoints.run_pass, conn)
    conn.close()
    await db.execute("UPDATE players SET name = 'y' WHERE user_id = 'u1'")
    await db.execute("UPDATE players SET name = 'z' WHERE user_id = 'u2'")
    assert (checkpoints.stats.passes, checkpoints.stats.writer_passes) == (1, 0)
    await db.close()


async def test_the_checkpoint_thread_passes_on_its_own_until_stopped(tmp_path):
    path = tmp_path / "c.db"
    db = await open_database(path)
    await _fill_log(db, 20)

    def connect():
        return sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)

    checkpoints = WalCheckpoints(connect, every=0.01)
    checkpoints.start()
    await until(lambda: checkpoints.stats.passes > 0, "a pass of the checkpoint thread")
    await asyncio.to_thread(checkpoints.stop)
    assert not checkpoints._thread.is_alive()
    assert checkpoints.stats.frames >= 20
    await db.close()
    assert not db._writer.housekeeping._thread.is_alive()  # the writer's stops with it
