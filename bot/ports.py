"""What a cog needs from the bot: the table service, the presenters, settings, standings and
the command tree. Cogs depend on this Protocol, not on ``bot.client.MesaBot`` (which is one
implementation), so the client may import the cogs without a circle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.followers import Followers
from bot.settings import Settings
from bot.ui.host import TableHost
from bot.ui.presenter import GamePresenter
from bot.ui.spectate import SpectatorListener
from bot.ui.threads import TableThreads
from bot.workers import Workers
from games.core import Game
from storage import RatingsRepo, StandingsRepo


class CogHost(TableHost, Protocol):
    @property
    def settings(self) -> Settings: ...

    @property
    def games(self) -> Mapping[str, Game]: ...

    @property
    def standings(self) -> StandingsRepo: ...

    @property
    def ratings(self) -> RatingsRepo: ...

    @property
    def followers(self) -> Followers:
        """Who follows which table (spectators)."""

    @property
    def spectators(self) -> SpectatorListener:
        """What DMs followers the public view on each turn change."""

    @property
    def threads(self) -> TableThreads:
        """Each table's thread (bot/ui/threads.py)."""

    @property
    def workers(self) -> Workers | None:
        """The process pool for CPU-heavy work (replays, animated exports)."""

    async def locale_of(self, user_id: str) -> str: ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    def presenter(self, game_key: str) -> GamePresenter[Any, Any]: ...

    async def remember(self, interaction: discord.Interaction) -> None:
        """Keep the user's name and locale (for their DMs)."""

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...
