"""Migration 0015 (issue 29): SQLite keys the intents by their snowflake (a rowid table), so a
new intent is appended to the b-tree's end without splitting its last pages, and a database
migrated from 0014 keeps every intent a click can still be answered by."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import Intent, IntentsRepo, open_database
from storage.intents import mark_done
from storage.migrations import migration_scripts
from storage.sqlite import _configure, migrate

BY_SNOWFLAKE = 15
FIRST = 1_450_000_000_000_000_000  # a snowflake of 2026


def _at(path: Path, last: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    _configure(conn)
    for number, script in migration_scripts("sqlite")[:last]:
        conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    return conn


def _intent(interaction_id: str, n: int = 0, origin: str = "") -> Intent:
    return Intent(
        interaction_id=interaction_id,
        application_id="a",
        token="t" * 160,  # as long as Discord's
        table_id=7,
        seat="310000000000000001",
        version=n,
        action="play 3 x",
        locale="es",
        created_at=1000.0 + n,
        origin=origin,
    )


def _log_frames(conn: sqlite3.Connection, path: Path) -> int:
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    return (Path(f"{path}-wal").stat().st_size - 32) // (page + 24)


def _pages_per_intent(path: Path, last: int, clicks: int = 300) -> float:
    """The log's frames per intent, each marked done by its own move's transaction."""
    conn = _at(path, last)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for n in range(clicks):
        conn.execute("BEGIN IMMEDIATE")
        mark_done(conn, _intent(str(FIRST + n), n))
        conn.execute("COMMIT")
    frames = _log_frames(conn, path)
    conn.close()
    return frames / clicks


def test_an_intent_is_appended_without_splitting_the_last_pages(tmp_path):
    # keyed by their text, a full last page was shared out over three pages, all written
    assert _pages_per_intent(tmp_path / "text.db", BY_SNOWFLAKE - 1) > 1.5
    # keyed by the snowflake, a full last page is left as it is: a new page is started, written
    # with the parent and the file's header (its size); 1.15 measured
    assert _pages_per_intent(tmp_path / "snowflake.db", BY_SNOWFLAKE) < 1.25


def test_the_intents_are_one_rowid_b_tree_keyed_by_the_snowflake(tmp_path):
    conn = _at(tmp_path / "db.db", BY_SNOWFLAKE)
    trees = conn.execute(
        "SELECT name FROM sqlite_master WHERE tbl_name = 'intents' AND type IN ('table', 'index')"
    ).fetchall()
    assert trees == [("intents",)]
    key = [r for r in conn.execute("PRAGMA table_info(intents)") if r[5]]
    assert [(r[1], r[2]) for r in key] == [("interaction_id", "INTEGER")]
    # the text the repository passes is the key: a look-up by it is the rowid's search
    plan = conn.execute(
        "EXPLAIN QUERY PLAN UPDATE intents SET done = 1 WHERE interaction_id = ?", (str(FIRST),)
    ).fetchall()
    assert "USING INTEGER PRIMARY KEY" in plan[0][3]


def test_a_database_at_0014_keeps_its_snowflakes_intents(tmp_path):
    path = tmp_path / "old.db"
    conn = _at(path, BY_SNOWFLAKE - 1)
    rows = [
        (str(FIRST + 2), "a", "t2", 7, "h", 1, "p 1", "es", "thinking", 12.5, 1, 0, "shard-1"),
        (str(FIRST + 1), "a", "t1", 7, "h", None, "p 2", "en", "update", 11.5, 0, 1, ""),
        ("i1", "a", "t", 7, "h", 1, "p 1", "es", "update", 10.5, 0, 0, ""),  # a test's, dropped
        ("0123", "a", "t", 7, "h", 1, "p 1", "es", "update", 10.5, 0, 0, ""),  # not as it reads
    ]
    conn.executemany(f"INSERT INTO intents VALUES ({', '.join('?' * 13)})", rows)
    assert migrate(conn) == len(migration_scripts("sqlite"))
    kept = conn.execute(
        "SELECT CAST(interaction_id AS TEXT), application_id, token, table_id, seat, version,"
        " action, locale, ack, created_at, done, answered, origin FROM intents ORDER BY 1"
    ).fetchall()
    assert kept == [rows[1], rows[0]]
    with pytest.raises(sqlite3.IntegrityError):  # one intent per interaction
        conn.execute(
            "INSERT INTO intents (interaction_id, application_id, token, table_id, seat,"
            " action, locale, created_at) VALUES (?, 'a', 't', 7, 'h', 'x', 'es', 1)",
            (str(FIRST + 2),),
        )
    with pytest.raises(sqlite3.IntegrityError):  # a key that is not a snowflake's digits
        conn.execute(
            "INSERT INTO intents (interaction_id, application_id, token, table_id, seat,"
            " action, locale, created_at) VALUES ('i2', 'a', 't', 7, 'h', 'x', 'es', 1)"
        )
    conn.close()


async def test_the_repository_reads_back_the_ids_it_wrote(db_target):
    """Both backends: an intent recorded, marked done by its move, settled or answered is found
    by its id as the text Discord gives."""
    db = await open_database(db_target)
    repo = IntentsRepo(db, origin="shard-0")
    ids = [str(FIRST + n) for n in range(4)]
    for n, interaction_id in enumerate(ids):
        await repo.record(_intent(interaction_id, n, "shard-0"))
    await db.write(lambda conn: mark_done(conn, _intent(ids[1], 1, "shard-0")))
    await repo.settle(ids[2])
    await repo.mark_answered([ids[3]])
    await db.write(lambda conn: mark_done(conn, _intent(ids[3], 3, "shard-0")))  # (stays one)
    unanswered = await repo.unanswered()
    assert [(i.interaction_id, i.done) for i in unanswered] == [(ids[0], False), (ids[1], True)]
    assert unanswered[0] == _intent(ids[0], 0, "shard-0")
    await db.close()
