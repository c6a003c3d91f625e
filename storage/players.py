"""Players: display name, preferred locale, whether their DMs are known to be closed, and whether
they play from the tables' ephemeral hands rather than their DMs."""

from __future__ import annotations

from storage.db import Database
from storage.sql import Transaction


class PlayersRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    def written(self, user_id: str, name: str, locale: str | None = None) -> bool:
        """Whether this process wrote this name (and locale, when given) for the player lately
        (``Database.players_written``: people met lately; False for the others)."""
        known = self.db.players_written.get(user_id)
        return known is not None and known[0] == name and (locale is None or known[1] == locale)

    async def upsert(self, user_id: str, name: str, locale: str | None = None) -> None:
        """Keep a player's name and locale. Called on every click, so a call that would change
        nothing this process has already written costs no transaction at all: a move is then
        the move's one transaction, not two."""
        if self.written(user_id, name, locale):
            return
        known = self.db.players_written.get(user_id)
        await self.db.execute(
            "INSERT INTO players (user_id, name, locale) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " locale = COALESCE(excluded.locale, players.locale)",
            (user_id, name, locale),
        )
        kept = locale if locale is not None else (known[1] if known else None)
        self.db.players_written[user_id] = (name, kept)

    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        await self.db.execute(
            "UPDATE players SET dms_closed = ?, dms_failures = 0, dms_retry_at = NULL"
            " WHERE user_id = ?",
            (int(closed), user_id),
        )

    async def dm_failed(self, user_id: str, retry_at: float) -> int:
        """A DM was refused (closed): keep the mark, count the failure, try again at
        ``retry_at`` (unix seconds). Returns the failures in a row."""

        def unit(conn: Transaction) -> int:
            conn.execute(
                "INSERT INTO players (user_id, name, dms_closed, dms_failures, dms_retry_at)"
                " VALUES (?, ?, 1, 1, ?) ON CONFLICT (user_id) DO UPDATE SET dms_closed = 1,"
                " dms_failures = players.dms_failures + 1, dms_retry_at = excluded.dms_retry_at",
                (user_id, user_id, retry_at),
            )
            row = conn.execute(
                "SELECT dms_failures FROM players WHERE user_id = ?", (user_id,)
            ).fetchone()
            return int(row[0]) if row else 1

        return await self.db.write(unit)

    async def dms_state(self, user_id: str) -> tuple[bool, float | None, int]:
        """(DMs marked closed, when to try again, failures in a row)."""
        row = await self.db.fetchone(
            "SELECT dms_closed, dms_retry_at, dms_failures FROM players WHERE user_id = ?",
            (user_id,),
        )
        if not row:
            return False, None, 0
        return bool(row[0]), row[1], int(row[2] or 0)

    async def dms_closed(self, user_id: str) -> bool:
        row = await self.db.fetchone("SELECT dms_closed FROM players WHERE user_id = ?", (user_id,))
        return bool(row and row[0])

    async def plays_from_tables(self, user_id: str) -> bool:
        """Whether the player's last move was made from a table's ephemeral hand (channel play:
        no DM hand at any table) rather than a DM hand."""
        row = await self.db.fetchone(
            "SELECT plays_from_tables FROM players WHERE user_id = ?", (user_id,)
        )
        return bool(row and row[0])

    async def play_place(self, user_id: str) -> bool | None:
        """Where the player plays: True from the tables, False from their DMs, None when the
        bot does not know yet (they never chose, nor played from either place)."""
        row = await self.db.fetchone(
            "SELECT plays_from_tables, place_known FROM players WHERE user_id = ?", (user_id,)
        )
        if not row or not (row[0] or row[1]):
            return None
        return bool(row[0])

    async def set_plays_from_tables(self, user_id: str, tables: bool) -> None:
        """Keep where the player plays (their place is known from now on)."""
        await self.db.execute(
            "INSERT INTO players (user_id, name, plays_from_tables, place_known)"
            " VALUES (?, ?, ?, 1) ON CONFLICT (user_id) DO UPDATE SET"
            " plays_from_tables = excluded.plays_from_tables, place_known = 1",
            (user_id, user_id, int(tables)),
        )

    async def locale(self, user_id: str) -> str | None:
        """The locale a player last used, if known."""
        row = await self.db.fetchone("SELECT locale FROM players WHERE user_id = ?", (user_id,))
        return row[0] if row and row[0] else None
