"""A database's schema as text, one line per object, in a fixed order: what two databases
compare by (``test_one_source_migrations.py``).

SQLite: every ``sqlite_master`` row (SQLite keeps each CREATE statement's text as written).
PostgreSQL: the catalogue as PostgreSQL itself prints it — columns (type, null, default,
identity), constraints, indexes, functions, views, triggers and sequences of the ``public``
schema.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg

_POSTGRES = {
    "column": """SELECT table_name, ordinal_position, column_name, data_type, is_nullable,
        column_default, is_identity, identity_generation
        FROM information_schema.columns WHERE table_schema = 'public'
        ORDER BY table_name, ordinal_position""",
    "constraint": """SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
        FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2""",
    "index": """SELECT tablename, indexname, indexdef FROM pg_indexes
        WHERE schemaname = 'public' ORDER BY 1, 2""",
    "function": """SELECT proname, pg_get_functiondef(oid) FROM pg_proc
        WHERE pronamespace = 'public'::regnamespace ORDER BY 1""",
    "view": """SELECT viewname, definition FROM pg_views WHERE schemaname = 'public'
        ORDER BY 1""",
    "trigger": """SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger
        WHERE NOT tgisinternal ORDER BY 1, 2""",
    "sequence": """SELECT sequencename, data_type::text, start_value, increment_by, max_value
        FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1""",
}


def sqlite_schema(conn: sqlite3.Connection) -> str:
    rows = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    ).fetchall()
    return "".join(f"{_line(row)}\n" for row in rows)


async def postgres_schema(conn: asyncpg.Connection) -> str:
    lines = []
    for kind, sql in _POSTGRES.items():
        lines += [f"{kind} {_line(tuple(row))}\n" for row in await conn.fetch(sql)]
    return "".join(lines)


def _line(row: tuple[Any, ...]) -> str:
    return " | ".join(repr(value) for value in row)
