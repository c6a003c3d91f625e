"""Migration 0013 (issue 29): a move's action row and its click's intent are each written into
one b-tree (WITHOUT ROWID; ``intents_open`` gone), and a database migrated from 0012 keeps every
row and what the foreign keys and constraints do."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.migrations import migration_scripts
from storage.sqlite import _configure

LEAN = 13


def _at(path: Path, last: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    _configure(conn)
    _migrate_to(conn, last)
    return conn


def _migrate_to(conn: sqlite3.Connection, last: int) -> None:
    for number, script in migration_scripts("sqlite")[:last]:
        if number > conn.execute("PRAGMA user_version").fetchone()[0]:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )


def _b_trees(conn: sqlite3.Connection, table: str) -> list[str]:
    """The b-trees a row of ``table`` is written into: the table's own (unless WITHOUT ROWID,
    where the primary key's is the table) and its indexes'."""
    rows = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE tbl_name = ? AND type IN ('table', 'index')",
        (table,),
    ).fetchall()
    return sorted(name for _, name in rows)


def test_a_move_s_action_and_intent_are_one_b_tree_each(tmp_path):
    before = _at(tmp_path / "before.db", LEAN - 1)
    assert _b_trees(before, "actions") == ["actions", "sqlite_autoindex_actions_1"]
    assert _b_trees(before, "intents") == [
        "intents",
        "intents_open",
        "sqlite_autoindex_intents_1",
    ]
    after = _at(tmp_path / "after.db", LEAN)
    assert _b_trees(after, "actions") == ["actions"]
    assert _b_trees(after, "intents") == ["intents"]


def _fill(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO tables (id, guild_id, channel_id, game, status, host_id, locale, options,"
        " seats, seed, version) VALUES (7, 'g', 'c', 'triad', 'playing', 'h', 'es', '{}', '[]',"
        " 's', 2)"
    )
    conn.executemany(
        "INSERT INTO actions (table_id, version, seat, action, by_timer) VALUES (7, ?, ?, ?, ?)",
        [(1, "h", "p 1", 0), (2, "a", "p 2", 1)],
    )
    conn.execute(
        "INSERT INTO intents (interaction_id, application_id, token, table_id, seat, version,"
        " action, locale, ack, created_at, done, answered, origin)"
        " VALUES ('i1', 'a', 't', 7, 'h', 1, 'p 1', 'es', 'thinking', 12.5, 1, 0, 'shard-1')"
    )


def test_a_database_at_0012_keeps_its_rows_and_constraints(tmp_path):
    conn = _at(tmp_path / "old.db", LEAN - 1)
    _fill(conn)
    actions = conn.execute("SELECT * FROM actions ORDER BY version").fetchall()
    intents = conn.execute("SELECT * FROM intents").fetchall()
    # (to 0013 only: 0015 keys the intents by their snowflake, which 'i1' is not)
    _migrate_to(conn, LEAN)
    assert conn.execute("SELECT * FROM actions ORDER BY version").fetchall() == actions
    assert conn.execute("SELECT * FROM intents").fetchall() == intents
    with pytest.raises(sqlite3.IntegrityError):  # one action per version
        conn.execute(
            "INSERT INTO actions (table_id, version, seat, action) VALUES (7, 2, 'h', 'x')"
        )
    with pytest.raises(sqlite3.IntegrityError):  # one intent per interaction
        conn.execute(
            "INSERT INTO intents (interaction_id, application_id, token, table_id, seat,"
            " action, locale, created_at) VALUES ('i1', 'a', 't', 7, 'h', 'x', 'es', 1)"
        )
    with pytest.raises(sqlite3.IntegrityError):  # an action of a table that does not exist
        conn.execute(
            "INSERT INTO actions (table_id, version, seat, action) VALUES (8, 1, 'h', 'x')"
        )
    conn.execute("DELETE FROM tables WHERE id = 7")  # its actions go with it
    assert conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 0
