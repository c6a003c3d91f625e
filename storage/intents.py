"""Intents: a click on a game action acknowledged before its move committed.

A click is recorded here before it is acknowledged (``record``) and marked done in the move's
own transaction (``mark_done`` inside ``TablesRepo.record_action``), so a process killed between
the two leaves an open intent. On start-up every open intent younger than its interaction token
is resolved: the move is tried again at the version the player saw, and the interaction gets
its final answer. ``answered`` is written in batches (an intent answered but not yet marked is
answered once more after a crash: a repeated result, never a lost one).
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from pydantic import BaseModel

from storage.db import Database
from storage.sql import Transaction

Ack = Literal["update", "thinking"]
TOKEN_LIFETIME = 15 * 60  # seconds an interaction token lives


class Intent(BaseModel):
    interaction_id: str  # a Discord snowflake's digits (SQLite keys the intents by its integer)
    application_id: str
    token: str
    table_id: int
    seat: str
    version: int | None
    action: str
    locale: str
    created_at: float
    ack: Ack = "update"
    done: bool = False
    # The process that recorded it (``IntentsRepo.origin``): its restarted self resolves it.
    origin: str = ""


_COLUMNS = (
    "interaction_id, application_id, token, table_id, seat, version, action, locale, ack,"
    " created_at, origin"
)
_PLACES = ", ".join("?" * len(_COLUMNS.split(",")))
# SQLite keeps the id as the integer it spells (the key of a rowid table, migration 0015); the
# model's is Discord's text
_READ = "CAST(interaction_id AS TEXT) AS interaction_id" + _COLUMNS.removeprefix("interaction_id")


def _values(intent: Intent) -> tuple[object, ...]:
    return (
        intent.interaction_id,
        intent.application_id,
        intent.token,
        intent.table_id,
        intent.seat,
        intent.version,
        intent.action,
        intent.locale,
        intent.ack,
        intent.created_at,
        intent.origin,
    )


def intent_key(intent: Intent) -> tuple[str, str]:
    """What names an intent's write to the writer (``IntentsRepo.start``'s unit, which a
    move's ``mark_done`` covers)."""
    return ("intent", intent.interaction_id)


# Each statement's text made once, not formatted at every click and move (then hashed anew
# by the statement caches, SQLite's and storage/postgres.py's): -2.2k instructions a call.
_RECORD = (
    f"INSERT INTO intents ({_COLUMNS}) VALUES ({_PLACES}) ON CONFLICT (interaction_id) DO NOTHING"
)
_RECORD_DONE = (
    f"INSERT INTO intents ({_COLUMNS}, done) VALUES ({_PLACES}, 1)"
    " ON CONFLICT (interaction_id) DO UPDATE SET done = 1"
)


def mark_done(conn: Transaction, intent: Intent) -> None:
    """Inside a move's unit: the intent exists and is done, whichever was written first."""
    conn.execute(_RECORD_DONE, _values(intent))


async def written_within(write: asyncio.Future[Any], seconds: float) -> None:
    """Wait at most ``seconds`` for ``write`` (``IntentsRepo.start``) to commit. Awaited itself,
    the waiter resumes in the loop's next turn after the writer hands the commit over (through
    ``asyncio.wait`` and a task around the write it took three turns more: the acknowledgement
    of every deferred click waited a loop lag for each). A write that takes longer goes on (its
    future is cancelled, not its unit); one that fails is its starter's to report."""
    if write.done():
        return
    try:
        async with asyncio.timeout(seconds):
            await write
    except TimeoutError:
        return
    except Exception:  # reported by the write's own done-callback
        return


class IntentsRepo:
    def __init__(self, db: Database, origin: str = "") -> None:
        """``origin`` names this process among those sharing the database (its shards): new
        intents carry it and ``unanswered`` returns only its own."""
        self.db = db
        self.origin = origin

    async def record(self, intent: Intent) -> None:
        """Before the acknowledgement. A move that committed first already wrote it (done)."""
        await self.start(intent)

    def start(self, intent: Intent) -> asyncio.Future[Any]:
        """``record``'s write queued now: the writer's future (``written_within`` waits for it).
        A move that marks it done in the same batch writes it whole (``mark_done``): then this
        unit is not run (``intent_key``; issue 29: one statement less per click)."""
        values = _values(intent)

        def unit(conn: Transaction) -> None:
            conn.execute(_RECORD, values)

        return self.db.submit(unit, key=intent_key(intent), statement=True)

    async def settle(self, interaction_id: str) -> None:
        """The click was refused and answered: nothing is left to resolve."""
        await self.db.execute(
            "UPDATE intents SET done = 1, answered = 1 WHERE interaction_id = ?", (interaction_id,)
        )

    async def mark_answered(self, interaction_ids: list[str]) -> None:
        if not interaction_ids:
            return
        rows = [(i,) for i in interaction_ids]
        await self.db.write(
            lambda conn: conn.executemany(
                "UPDATE intents SET answered = 1 WHERE interaction_id = ?", rows
            )
        )

    async def unanswered(self) -> list[Intent]:
        """Every intent of this origin not answered yet, oldest first."""
        return await self.db.models(
            Intent,
            f"SELECT {_READ}, done FROM intents WHERE answered = 0 AND origin = ?"
            " ORDER BY created_at",
            (self.origin,),
        )

    async def prune(self, before: float) -> None:
        """Forget intents created before ``before`` (unix seconds): once their token expired
        nothing can be answered any more."""
        await self.db.execute("DELETE FROM intents WHERE created_at < ?", (before,))
