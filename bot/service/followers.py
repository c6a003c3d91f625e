"""Spectators: who follows which table (kept in memory, persisted for restarts), and the DM that
shows each of them the table."""

from __future__ import annotations

from storage import Database, FollowersRepo


class Followers:
    def __init__(self, db: Database) -> None:
        self.repo = FollowersRepo(db)
        self._by_table: dict[int, dict[str, str | None]] = {}  # follower -> DM message id
        self._loaded = False

    async def load(self) -> None:
        if not self._loaded:
            self._by_table = await self.repo.all()
            self._loaded = True

    def of(self, table_id: int) -> dict[str, str | None]:
        return dict(self._by_table.get(table_id, {}))

    def follows(self, table_id: int, user_id: str) -> bool:
        return user_id in self._by_table.get(table_id, {})

    async def follow(self, table_id: int, user_id: str) -> bool:
        """Start following; False when already following."""
        if self.follows(table_id, user_id):
            return False
        await self.repo.add(table_id, user_id)
        self._by_table.setdefault(table_id, {})[user_id] = None
        return True

    async def stop(self, table_id: int, user_id: str) -> bool:
        """Stop following; False when not following."""
        if not self.follows(table_id, user_id):
            return False
        await self.repo.remove(table_id, user_id)
        followers = self._by_table.get(table_id, {})
        followers.pop(user_id, None)
        if not followers:
            self._by_table.pop(table_id, None)
        return True

    async def set_message(self, table_id: int, user_id: str, message_id: str | None) -> None:
        if self.follows(table_id, user_id):
            self._by_table[table_id][user_id] = message_id
            await self.repo.set_message(table_id, user_id, message_id)

    def forget_table(self, table_id: int) -> None:
        """The table ended: its rows go with it (nothing more will be shown)."""
        self._by_table.pop(table_id, None)
