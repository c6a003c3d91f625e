"""What a person has been told once (``user_notices``): a note said on their first command of a
kind and never again, on any process (the row is the memory, not the process)."""

from __future__ import annotations

from storage.db import Database
from storage.sql import Transaction


class NoticesRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def first_time(self, user_id: str, notice: str) -> bool:
        """Mark ``notice`` told to ``user_id``; True exactly once per (user, notice), even when
        two commands of the same person arrive together (the insert decides)."""

        def unit(conn: Transaction) -> bool:
            row = conn.execute(
                "INSERT INTO user_notices (user_id, notice) VALUES (?, ?)"
                " ON CONFLICT (user_id, notice) DO NOTHING RETURNING user_id",
                (user_id, notice),
            ).fetchone()
            return row is not None

        return await self.db.write(unit)

    async def told(self, user_id: str, notice: str) -> bool:
        row = await self.db.fetchone(
            "SELECT 1 FROM user_notices WHERE user_id = ? AND notice = ?", (user_id, notice)
        )
        return row is not None
