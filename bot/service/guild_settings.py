"""Server settings (``/settings``): what a guild's new tables start with.

Persisted per guild as one JSON document (``storage/guild_settings.py``) and applied when a
table opens (``Lobby.open``): the language of its public messages, the seconds per turn,
the computer's delay, the game's default options (house rules) under the options typed at
``/play``, and the channels games may be opened in. ``global_board`` off keeps the guild's games
off the global board (read inside the final transaction, ``storage/ratings.py``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.errors import TableError
from storage import GLOBAL_BOARD_KEY, GuildSettingsRepo

SERVER_DEFAULTS = "server_defaults"  # table meta: the option names the settings filled in


class GuildSettings(BaseModel):
    locale: Literal["es", "en"] | None = None  # None: the guild's Discord language
    turn_seconds: int | None = Field(default=None, ge=30, le=900)
    cpu_delay_seconds: float | None = Field(default=None, ge=0, le=10)
    game_options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    channels: list[str] = Field(default_factory=list)  # empty: any channel
    global_board: bool = True
    threads: bool = True  # each table in a thread of its own where the bot can make one

    def for_new_table(
        self, game_key: str, channel_id: str, options: dict[str, Any], locale: str
    ) -> tuple[dict[str, Any], str, list[str]]:
        """(options, locale, the option names the settings filled) of a table opening in
        ``channel_id``; raises ``TableError("channel_not_allowed")`` elsewhere."""
        if self.channels and channel_id not in self.channels:
            raise TableError(
                "channel_not_allowed", channels=", ".join(f"<#{c}>" for c in self.channels)
            )
        defaults: dict[str, Any] = dict(self.game_options.get(game_key, {}))
        if self.turn_seconds is not None:
            defaults["turn_seconds"] = self.turn_seconds
        if self.cpu_delay_seconds is not None:
            defaults["cpu_delay_seconds"] = self.cpu_delay_seconds
        filled = sorted(k for k in defaults if options.get(k) is None)
        merged = {**defaults, **{k: v for k, v in options.items() if v is not None}}
        return merged, self.locale or locale, filled


assert "global_board" == GLOBAL_BOARD_KEY  # storage reads this very key


class GuildSettingsStore:
    """The settings of each guild, read through a small cache (one writer: this store)."""

    def __init__(self, repo: GuildSettingsRepo) -> None:
        self.repo = repo
        self._cache: dict[str, GuildSettings] = {}

    async def get(self, guild_id: str) -> GuildSettings:
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = GuildSettings.model_validate(await self.repo.get(guild_id))
            self._cache[guild_id] = cached
        return cached

    async def update(self, guild_id: str, **changes: Any) -> GuildSettings:
        current = await self.get(guild_id)
        new = GuildSettings.model_validate({**current.model_dump(), **changes})
        await self.repo.put(guild_id, new.model_dump(mode="json"))
        self._cache[guild_id] = new
        return new

    async def set_game_options(
        self, guild_id: str, game_key: str, options: dict[str, Any]
    ) -> GuildSettings:
        current = await self.get(guild_id)
        games = dict(current.game_options)
        if options:
            games[game_key] = options
        else:
            games.pop(game_key, None)
        return await self.update(guild_id, game_options=games)
