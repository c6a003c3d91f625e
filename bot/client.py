"""The Bot subclass: wiring of settings, storage, table service, presenters and cogs."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.cogs import EXTENSIONS
from bot.i18n import normalise_locale
from bot.i18n.commands import CatalogueTranslator
from bot.ports import CogHost
from bot.registry import load_games
from bot.service import ServiceConfig, TableService
from bot.service.followers import Followers
from bot.service.listeners import ListenerFanOut
from bot.service.ratings import backfill
from bot.settings import Settings
from bot.ui.feedback import answer_error
from bot.ui.listener import DiscordTableListener
from bot.ui.presenter import GamePresenter, presenter_for
from bot.ui.rendering import Renderer, install
from bot.ui.spectate import SpectatorListener
from bot.workers import Workers, create_workers
from games.core import Game
from storage import Database, PlayersRepo, RatingsRepo, StandingsRepo, open_database

log = logging.getLogger(__name__)


def point_at_endpoints(settings: Settings) -> None:
    """Aim discord.py at another Discord (a local fake in tests). Production sets neither."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class MesaTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one answer to a failed slash command (components use ``bot.ui.feedback.guard``):
        refusals in the user's language, anything else logged once and answered generically."""
        original = getattr(error, "original", error)
        await answer_error(interaction, original)


class MesaBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        games: Mapping[str, Game] | None = None,
        seed_factory: Callable[[], str] | None = None,
        **kwargs: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=MesaTree,
            help_command=None,
            **kwargs,
        )
        self.settings = settings
        self.games: Mapping[str, Game] = games if games is not None else load_games()
        self._presenters: dict[str, GamePresenter[Any, Any]] = {
            key: presenter_for(game) for key, game in self.games.items()
        }
        self.db: Database | None = None
        self.listener = DiscordTableListener(self)
        processes = settings.render_processes
        # Images get their own pool, so a render never queues behind a computer's search.
        self.renderer = Renderer(Workers(processes) if processes != 0 else None)
        self._previous_renderer: Renderer | None = None
        # user -> (display name, locale) as last stored: a click writes only when they change
        self._known: dict[str, tuple[str, str]] = {}
        self._locales: dict[str, str] = {}
        self.workers: Workers | None = None
        self._seed_factory = seed_factory  # tests fix seeds; production draws random ones

    # ----- start-up -------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        self.db = await open_database(self.settings.database_path, observe=metrics.observe)
        self._previous_renderer = install(self.renderer)
        # Computer searches of the table service run in this pool.
        self.workers = create_workers(self.settings.worker_processes)
        self._lag_monitor = metrics.start_loop_lag_monitor(self.settings.loop_lag_interval_seconds)
        self.players = PlayersRepo(self.db)
        self.standings = StandingsRepo(self.db)
        self.ratings = RatingsRepo(self.db)
        self.followers = Followers(self.db)
        await self.followers.load()
        # Spectators' DMs, beside (not inside) the table messages' listener.
        self.spectators = SpectatorListener(self, self.followers)
        self.tables = TableService(
            self.db,
            self.games,
            ListenerFanOut(self.listener, [self.spectators]),
            ServiceConfig(
                turn_timeout_seconds=self.settings.turn_timeout_seconds,
                timeouts_before_replacement=self.settings.timeouts_before_replacement,
                cpu_delay_seconds=self.settings.cpu_delay_seconds,
                cpu_think_seconds=self.settings.cpu_think_seconds,
            ),
            seed_factory=self._seed_factory,
            ai_kwargs=lambda game, seconds: self.presenter(game.key).ai_kwargs(seconds),
            workers=self.workers,
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tree.set_translator(CatalogueTranslator())
        await self._sync_commands()
        rated = await backfill(self.db, self.games, self.workers)  # games from before ratings
        if rated:
            log.info("recorded and rated %d games finished before ratings", rated)
        reloaded = await self.tables.load()
        log.info("reloaded %d open tables", len(reloaded))

    async def _sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def close(self) -> None:
        if getattr(self, "tables", None) is not None:
            await self.tables.close()
        await self.listener.close()
        if getattr(self, "spectators", None) is not None:
            await self.spectators.close()
        await super().close()
        self.renderer.close()
        if self._previous_renderer is not None:
            install(self._previous_renderer)
            self._previous_renderer = None
        if getattr(self, "_lag_monitor", None) is not None:
            self._lag_monitor.cancel()
        if self.workers is not None:
            self.workers.shutdown()
        if self.db is not None:
            await self.db.close()
            self.db = None

    # ----- shared helpers for cogs and the listener -----------------------------------------
    def presenter(self, game_key: str) -> GamePresenter[Any, Any]:
        return self._presenters[game_key]

    async def remember(self, interaction: discord.Interaction) -> None:
        """Keep a player's name and locale (for DMs) and reopen DMs they may have reopened."""
        user = interaction.user
        known = (user.display_name, normalise_locale(str(interaction.locale)))
        if self._known.get(str(user.id)) == known:
            return  # nothing new: no write on every click
        await self.players.upsert(str(user.id), *known)
        self._known[str(user.id)] = known
        self._locales[str(user.id)] = known[1]

    async def locale_of(self, user_id: str) -> str:
        locale = self._locales.get(user_id)
        if locale is None:
            stored = await self.players.locale(user_id)
            locale = normalise_locale(stored or self.settings.default_locale)
            self._locales[user_id] = locale
        return locale


# The cogs are written against CogHost; this line makes mypy check MesaBot provides it.
_COG_HOST: type[CogHost] = MesaBot
