"""Spectators following a table: who, and the DM that shows them the table."""

from __future__ import annotations

from storage.db import Database


class FollowersRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, table_id: int, user_id: str) -> bool:
        """Follow; False when already following (whichever process recorded it)."""
        added = await self.db.execute(
            "INSERT INTO followers (table_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (table_id, user_id),
        )
        return added == 1

    async def remove(self, table_id: int, user_id: str) -> bool:
        """Stop following; False when not following."""
        removed = await self.db.execute(
            "DELETE FROM followers WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        return removed == 1

    async def of_table(self, table_id: int) -> dict[str, str | None]:
        """{follower: DM message id} of one table still open (empty once it ended)."""
        rows = await self.db.fetchall(
            "SELECT f.user_id, f.message_id FROM followers f JOIN tables t ON t.id = f.table_id"
            " WHERE f.table_id = ? AND t.status IN ('lobby', 'playing')",
            (table_id,),
        )
        return {r["user_id"]: r["message_id"] for r in rows}

    async def set_message(self, table_id: int, user_id: str, message_id: str | None) -> None:
        await self.db.execute(
            "UPDATE followers SET message_id = ? WHERE table_id = ? AND user_id = ?",
            (message_id, table_id, user_id),
        )

    async def all(self) -> dict[int, dict[str, str | None]]:
        """table id -> {follower: DM message id} of tables still open."""
        rows = await self.db.fetchall(
            "SELECT f.table_id, f.user_id, f.message_id FROM followers f JOIN tables t"
            " ON t.id = f.table_id WHERE t.status IN ('lobby', 'playing')"
        )
        found: dict[int, dict[str, str | None]] = {}
        for r in rows:
            found.setdefault(r["table_id"], {})[r["user_id"]] = r["message_id"]
        return found
