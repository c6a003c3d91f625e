"""Players: display name, preferred locale and whether their DMs are known to be closed."""

from __future__ import annotations

from storage.db import Database


class PlayersRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(self, user_id: str, name: str, locale: str | None = None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, name, locale) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
                " locale = COALESCE(excluded.locale, players.locale)",
                (user_id, name, locale),
            )

    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE players SET dms_closed = ? WHERE user_id = ?", (int(closed), user_id)
            )

    async def dms_closed(self, user_id: str) -> bool:
        async with self.db.conn.execute(
            "SELECT dms_closed FROM players WHERE user_id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        return bool(row and row[0])

    async def locale(self, user_id: str) -> str | None:
        """The locale a player last used, if known."""
        async with self.db.conn.execute(
            "SELECT locale FROM players WHERE user_id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row and row[0] else None
