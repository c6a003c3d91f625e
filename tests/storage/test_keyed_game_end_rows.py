"""Migration 0014 (issue 29): the rows a game's end writes and the presented rows are each kept in
their primary key's b-tree (WITHOUT ROWID), their other indexes as they were, and a database
migrated from 0013 keeps every row and what the keys, checks and foreign keys do."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage.migrations import migration_scripts
from storage.sqlite import _configure, migrate

KEYED = 14
# table -> its b-trees after 0014: its key's (the table) and its other indexes
TREES = {
    "standings": ["standings", "standings_board"],
    "ratings": ["ratings", "ratings_board"],
    "rating_changes": ["rating_changes", "rating_changes_user"],
    "game_players": ["game_players"],
    "player_stats": ["player_stats", "player_stats_board"],
    "card_collections": ["card_collections"],
    "card_stakes": ["card_stakes", "card_stakes_user"],
    "presented": ["presented"],
}


def _at(path: Path, last: int) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    _configure(conn)
    for number, script in migration_scripts("sqlite")[:last]:
        conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    return conn


def _b_trees(conn: sqlite3.Connection, table: str) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE tbl_name = ? AND type IN ('table', 'index')",
        (table,),
    ).fetchall()
    return sorted(name for (name,) in rows)


def test_each_game_end_row_is_one_b_tree_and_keeps_its_indexes(tmp_path):
    before = _at(tmp_path / "before.db", KEYED - 1)
    for table, trees in TREES.items():
        assert _b_trees(before, table) == sorted([*trees, f"sqlite_autoindex_{table}_1"])
    after = _at(tmp_path / "after.db", KEYED)
    for table, trees in TREES.items():
        assert _b_trees(after, table) == sorted(trees)
        assert (
            "WITHOUT ROWID"
            in after.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
        )


ROWS = {
    "standings": [("g", "u1", "triad", 3, 2, 10, 0, 1010.5), ("g", "u2", "triad", 3, 1, 4, 0, 990)],
    "ratings": [("g", "triad", "u1", 25.0, 8.1, 0.7, 3), ("*", "triad", "u1", 25.1, 8.0, 1.1, 3)],
    "rating_changes": [(7, "g", "triad", "u1", 25.0, 8.1, 0.7)],
    "game_players": [(7, "u1"), (7, "u2")],
    "player_stats": [("g", "u1", "triad", "captures", 12)],
    "card_collections": [("u1", "triad", "c001", 2), ("u2", "triad", "c002", 1)],
    "card_stakes": [(7, "u1", "triad", "c001", 1)],
    "presented": [(7, "", "m1", 3, '{"digest": "d"}'), (7, "u1", "m2", 3, "{}")],
}


def _fill(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO tables (id, guild_id, channel_id, game, status, host_id, locale, options,"
        " seats, seed, version) VALUES (7, 'g', 'c', 'triad', 'finished', 'u1', 'es', '{}',"
        " '[]', 's', 3)"
    )
    conn.execute(
        "INSERT INTO finished_games (table_id, seq, guild_id, game, engine, outcome, rated)"
        " VALUES (7, 1, 'g', 'triad', '1', '{}', 'rated')"
    )
    for table, rows in ROWS.items():
        places = ", ".join("?" * len(rows[0]))
        conn.executemany(f"INSERT INTO {table} VALUES ({places})", rows)


def _everything(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    return {
        table: sorted(tuple(r) for r in conn.execute(f"SELECT * FROM {table}").fetchall())
        for table in ROWS
    }


def test_a_database_at_0013_keeps_its_rows_and_constraints(tmp_path):
    conn = _at(tmp_path / "old.db", KEYED - 1)
    _fill(conn)
    rows = _everything(conn)
    assert rows == {t: sorted(r) for t, r in ROWS.items()}
    assert migrate(conn) == len(migration_scripts("sqlite"))
    assert _everything(conn) == rows
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    for table, [first, *_] in ROWS.items():  # one row per key
        places = ", ".join("?" * len(first))
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(f"INSERT INTO {table} VALUES ({places})", first)
    with pytest.raises(sqlite3.IntegrityError):  # the checks
        conn.execute("UPDATE card_collections SET count = -1 WHERE user_id = 'u1'")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE standings SET played = -1 WHERE user_id = 'u1'")
    with pytest.raises(sqlite3.IntegrityError):  # a stake of a table that does not exist
        conn.execute("INSERT INTO card_stakes VALUES (8, 'u1', 'triad', 'c009', 1)")
    # the finished game's rows go with it, its table's stakes with the table
    conn.execute("DELETE FROM finished_games WHERE table_id = 7")
    assert conn.execute("SELECT COUNT(*) FROM rating_changes").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM game_players").fetchone()[0] == 0
    conn.execute("DELETE FROM tables WHERE id = 7")
    assert conn.execute("SELECT COUNT(*) FROM card_stakes").fetchone()[0] == 0
