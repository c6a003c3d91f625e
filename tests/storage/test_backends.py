"""What holds across processes, on both backends: two Database objects on one database stand
for two bot processes (each its own writer and reads)."""

import asyncio

import pytest

from storage import FinishedGame, SeatInfo, StaleVersion, StandingDelta, TablesRepo, open_database
from storage.postgres import _translate

SEATS = [SeatInfo(id="a", name="A"), SeatInfo(id="b", name="B")]


async def _playing(repo, channel):
    record = await repo.create(
        guild_id="g",
        channel_id=channel,
        game="triad",
        host_id="a",
        locale="es",
        options={},
        seats=SEATS,
        seed="s",
    )
    await repo.start(record.id, SEATS, '{"v": 0}', 0)
    return await repo.get(record.id)


async def test_two_processes_moving_at_one_version_one_wins(db_target):
    first, second = await open_database(db_target), await open_database(db_target)
    try:
        table = await _playing(TablesRepo(first), "c")
        mine, theirs = table, await TablesRepo(second).get(table.id)
        for round_ in range(1, 6):
            results = await asyncio.gather(
                TablesRepo(first).record_action(
                    mine, seat="a", action=f"a{round_}", state_json='{"by": "a"}', version=round_
                ),
                TablesRepo(second).record_action(
                    theirs, seat="b", action=f"b{round_}", state_json='{"by": "b"}', version=round_
                ),
                return_exceptions=True,
            )
            # the winner's result: the rating changes of a finished game, none here
            assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "dict"]
            assert {} in results
            mine = await TablesRepo(first).get(table.id)
            theirs = await TablesRepo(second).get(table.id)
            assert mine.version == theirs.version == round_
        actions = await TablesRepo(second).actions(table.id)
        assert [a.version for a in actions] == [1, 2, 3, 4, 5]
        with pytest.raises(StaleVersion):  # a writer still at an old version loses
            await TablesRepo(first).record_action(
                table, seat="a", action="late", state_json="{}", version=1
            )
    finally:
        await first.close()
        await second.close()


async def test_games_finishing_in_two_processes_at_once_all_land_in_order(db_target):
    """The finish sequence number and the ratings are read then written: the processes take
    turns (``Transaction.lock``), so no finish is lost or numbered twice."""
    dbs = [await open_database(db_target), await open_database(db_target)]
    try:
        tables = [await _playing(TablesRepo(dbs[0]), f"c{i}") for i in range(8)]

        def rate(teams, ranks):
            return [[(mu + 1, sigma) for mu, sigma in team] for team in teams]

        async def finish(i, table):
            await TablesRepo(dbs[i % 2]).record_action(
                table,
                seat="a",
                action="end",
                state_json="{}",
                version=1,
                finished=True,
                # Players of their own: no row in common that would make the two wait anyway.
                standings=[StandingDelta(user_id=f"a{i}", won=1), StandingDelta(user_id=f"b{i}")],
                finished_game=FinishedGame(
                    table_id=table.id,
                    guild_id="g",
                    game="triad",
                    engine="1",
                    outcome={},
                    players=[f"a{i}", f"b{i}"],
                    teams=[[f"a{i}"], [f"b{i}"]],
                    ranks=[0, 1],
                ),
                rate=rate,
            )

        await asyncio.gather(*(finish(i, t) for i, t in enumerate(tables)))
        rows = await dbs[1].fetchall("SELECT seq FROM finished_games ORDER BY seq")
        assert [r["seq"] for r in rows] == list(range(1, 9))
        ratings = await dbs[0].fetchall("SELECT games, mu FROM ratings WHERE scope = 'g'")
        assert [(r["games"], r["mu"]) for r in ratings] == [(1, 26.0)] * 16  # each rated once
        won = await dbs[1].fetchone("SELECT SUM(played), SUM(won) FROM standings")
        assert (won[0], won[1]) == (16, 8)
    finally:
        for db in dbs:
            await db.close()


def test_placeholders_become_numbered_outside_quoted_text():
    text, rows = _translate("SELECT '?' AS q, x FROM t WHERE a = ? AND b IN (?, ?)")
    assert text == "SELECT '?' AS q, x FROM t WHERE a = $1 AND b IN ($2, $3)"
    assert rows
    assert _translate("UPDATE t SET a = ? WHERE b = ?") == (
        "UPDATE t SET a = $1 WHERE b = $2",
        False,
    )
    assert _translate("INSERT INTO t (a) VALUES (?) RETURNING *")[1]


async def test_postgres_connections_dropped_by_the_server_are_opened_again(pg_server, pg_url):
    db = await open_database(pg_url)
    try:
        repo = TablesRepo(db)
        table = await _playing(repo, "c")
        pg_server.terminate_connections(pg_url)  # what a server restart does to them
        await repo.record_action(table, seat="a", action="x", state_json="{}", version=1)
        assert (await repo.get(table.id)).version == 1
    finally:
        await db.close()


async def test_a_number_given_for_a_text_column_is_stored_as_its_text(db_target):
    """As SQLite's column affinity does; PostgreSQL's driver would refuse it otherwise."""
    from storage import PlayersRepo

    db = await open_database(db_target)
    try:
        await PlayersRepo(db).upsert(1234, "Ana", "es")  # type: ignore[arg-type]
        assert await PlayersRepo(db).locale("1234") == "es"
        assert await PlayersRepo(db).locale(1234) == "es"  # type: ignore[arg-type]
    finally:
        await db.close()


async def test_postgres_a_connection_lost_mid_transaction_fails_that_write_only(pg_url):
    db = await open_database(pg_url)
    try:

        def lose_the_connection(conn):
            conn.execute("INSERT INTO players (user_id, name) VALUES ('lost', 'Lost')")
            conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")

        with pytest.raises(Exception):  # noqa: B017 - whichever error the driver raises
            await db.write(lose_the_connection)
        await db.write(
            lambda conn: conn.execute("INSERT INTO players (user_id, name) VALUES ('ok', 'Ok')")
        )
        rows = await db.fetchall("SELECT user_id FROM players ORDER BY user_id")
        assert [r["user_id"] for r in rows] == ["ok"]
    finally:
        await db.close()


def test_a_sqlite_bot_loads_neither_asyncpg_nor_the_metrics_libraries(tmp_path):
    """The embedded default needs no PostgreSQL driver and no Prometheus client: they are
    imported only when DATABASE_URL / METRICS_PORT ask for them."""
    import subprocess
    import sys

    probe = (
        "import asyncio, sys\n"
        "import bot.__main__, bot.client\n"
        "from storage import open_database\n"
        "async def main():\n"
        f"    db = await open_database({str(tmp_path / 'b.db')!r})\n"
        "    await db.close()\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in ('asyncpg', 'prometheus_client') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


async def test_postgres_statement_and_lock_timeouts_apply_to_writes_and_reads(pg_url):
    """DATABASE_STATEMENT_TIMEOUT_MS / DATABASE_LOCK_TIMEOUT_MS: a runaway statement is
    cancelled and a write waiting on another process's lock gives up, each failing only its
    own transaction; reads carry the same limits."""
    import asyncpg

    from storage.sql import PgTuning

    tuning = PgTuning(statement_timeout_ms=300, lock_timeout_ms=200, read_connections=2)
    db = await open_database(pg_url, tuning=tuning)
    holder = await asyncpg.connect(pg_url)
    try:
        assert (await db.fetchone("SHOW statement_timeout"))[0] == "300ms"
        assert (await db.fetchone("SHOW lock_timeout"))[0] == "200ms"
        assert db.reads.pool.get_max_size() == 2
        with pytest.raises(asyncpg.QueryCanceledError):
            await db.write(lambda conn: conn.execute("SELECT pg_sleep(30)"))
        async with holder.transaction():  # another process holds the key
            await holder.execute("SELECT pg_advisory_xact_lock(hashtextextended('k', 0))")
            with pytest.raises(asyncpg.LockNotAvailableError):
                await db.write(lambda conn: conn.lock("k"))
        await db.write(lambda conn: conn.lock("k"))  # released: the writer goes on
        with pytest.raises(asyncpg.QueryCanceledError):
            await db.fetchone("SELECT pg_sleep(30)")
    finally:
        await holder.close()
        await db.close()
