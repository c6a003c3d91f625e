"""Per-guild settings: one JSON document per guild (its model is the bot's)."""

from __future__ import annotations

import json
from typing import Any

from storage.db import Database


class GuildSettingsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, guild_id: str) -> dict[str, Any]:
        row = await self.db.fetchone(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return dict(json.loads(row["settings"])) if row else {}

    async def put(self, guild_id: str, settings: dict[str, Any]) -> None:
        text = json.dumps(settings, sort_keys=True)
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            (guild_id, text),
        )
