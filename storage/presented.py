"""What every message a table owns last showed: the public message (slot ``''``), each seat's
DM view (slot = the seat) and the turn mention (slot ``'@mention'``).

The presentation writes a row only after Discord accepted the edit, so a stored version is
never ahead of the screen; it may lag it (rows are written in batches), and then the start-up
simply shows that table again. On start-up ``behind`` lists the tables whose public message
shows an older version than the database holds (a process killed between commit and edit).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import orjson

from storage.db import Database
from storage.sql import Transaction, utc_now

PUBLIC = ""
MENTION = "@mention"


@dataclass(slots=True)
class Shown:
    """One message's stored row. A plain dataclass, not a pydantic model: the presentation
    makes one for every message it edits (issue 29: 3.8 -> 0.9 us each, ~2.5 per move), always
    from values of its own, so nothing needs validating."""

    table_id: int
    slot: str
    message_id: str | None = None
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)


_COLUMNS = 5  # table_id, slot, message_id, version, state
_MOST_ROWS = 32  # rows of one statement (SQLite takes 32,766 parameters)


@functools.lru_cache(maxsize=8)
def _upsert(rows: int) -> str:
    """The upsert of ``rows`` rows in one statement."""
    return (
        "INSERT INTO presented (table_id, slot, message_id, version, state) VALUES "
        + ", ".join(["(?, ?, ?, ?, ?)"] * rows)
        + " ON CONFLICT (table_id, slot) DO UPDATE SET message_id = excluded.message_id,"
        " version = excluded.version, state = excluded.state"
    )


def _state_json(state: dict[str, Any]) -> str:
    """``state`` as JSON text: by orjson (on the loop for each message edited, ~2.5 per move:
    5.5 -> 0.3 us), by ``json`` for what orjson refuses (an integer past 64 bits)."""
    try:
        return orjson.dumps(state).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(state)


def _chunk_sizes(rows: int) -> list[int]:
    """``rows`` as statements of 32, 16, ..., 1 rows (each size at most once but the first):
    few statements, and few statement texts for the statement caches."""
    sizes = [_MOST_ROWS] * (rows // _MOST_ROWS)
    size = _MOST_ROWS // 2
    rest = rows % _MOST_ROWS
    while rest:
        if rest >= size:
            sizes.append(size)
            rest -= size
        size //= 2
    return sizes


class PresentedRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(self, rows: list[Shown]) -> None:
        """Upsert ``rows`` in one write (of a slot given twice, the last row stands).

        A few multi-row statements, not one per row: SQLite's ``executemany`` steps once per
        row, and each step hands the GIL over, under load a wait for the event loop each
        (issue 29: 2.5 of the writer's 7.6 statements per move were these rows)."""
        if not rows:
            return
        by_slot = {(r.table_id, r.slot): r for r in rows}  # one statement may not hit a row twice
        values = [
            value
            for r in by_slot.values()
            for value in (r.table_id, r.slot, r.message_id, r.version, _state_json(r.state))
        ]
        statements = []
        start = 0
        for size in _chunk_sizes(len(by_slot)):
            end = start + size * _COLUMNS
            statements.append((_upsert(size), values[start:end]))
            start = end

        def unit(conn: Transaction) -> None:
            for sql, params in statements:
                conn.execute(sql, params)

        await self.db.submit(unit, statement=len(statements) == 1)

    async def of_table(self, table_id: int) -> dict[str, Shown]:
        rows = await self.db.fetchall(
            "SELECT table_id, slot, message_id, version, state FROM presented WHERE table_id = ?",
            (table_id,),
        )
        return {
            r["slot"]: Shown(
                table_id=r["table_id"],
                slot=r["slot"],
                message_id=r["message_id"],
                version=r["version"],
                state=json.loads(r["state"]),
            )
            for r in rows
        }

    async def behind(self, finished_since_days: float = 1.0) -> list[int]:
        """Tables (playing, or finished within ``finished_since_days``) whose public message
        shows an older version than stored, oldest change first."""
        rows = await self.db.fetchall(
            "SELECT t.id FROM tables t LEFT JOIN presented p ON p.table_id = t.id AND p.slot = ''"
            " WHERE (t.status = 'playing' OR (t.status = 'finished' AND t.updated_at >= ?))"
            " AND COALESCE(p.version, -1) < t.version ORDER BY t.updated_at",
            (utc_now(-timedelta(days=finished_since_days)),),
        )
        return [int(r[0]) for r in rows]

    async def forget(self, table_id: int) -> None:
        await self.db.execute("DELETE FROM presented WHERE table_id = ?", (table_id,))
