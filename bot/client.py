"""The Bot subclass: wiring of settings, storage, table service, presenters and cogs."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, cast

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.cogs import EXTENSIONS
from bot.i18n import normalise_locale, tr
from bot.i18n.commands import CatalogueTranslator
from bot.pipe_workers import PipeWorkers, create_workers
from bot.ports import CogHost
from bot.registry import load_games
from bot.service import ServiceConfig, Table, TableService
from bot.service.feed import ChangeFeed, NoFeed
from bot.service.followers import Followers
from bot.service.ratings import backfill
from bot.service.threads import TableHomes
from bot.settings import Settings
from bot.ui import http_gate
from bot.ui.alt_text import render_described
from bot.ui.feedback import answer_error, reply, user_locale
from bot.ui.items import release_answered, route_by_component
from bot.ui.listener import DiscordTableListener, ListenerFanOut
from bot.ui.outage import GatewayOutages
from bot.ui.pacer import RequestPacer, SharedBudget
from bot.ui.payload import callbacks_unread
from bot.ui.payload_memos import PayloadMemos
from bot.ui.pending_commands import PendingCommands
from bot.ui.presenter import GamePresenter, presenter_for
from bot.ui.recovery import Recovery
from bot.ui.rendering import Renderer, install
from bot.ui.spectate import SpectatorListener
from bot.ui.threads import TableThreads
from bot.ui.unrouted import UnroutedClicks
from bot.workers import RENDER_POOL, SEARCH_POOL, Workers, warm_up_games
from games.core import Game
from storage import (
    Database,
    PlayersRepo,
    RatingsRepo,
    StandingsRepo,
    TablesRepo,
    TableThreadsRepo,
    open_database,
)
from storage.kept import KeptAtMost, of_people

log = logging.getLogger(__name__)
# A second's bot-token calls leave in quarters (bot/ui/pacer.py): measured at 500 tables on a
# loaded host, a whole second's worth sent at once reached the fake Discord bunched with the
# next second's (one global 429 in the set-up).
PACER_SPREAD = 4
GLOBAL_LIMIT = 50  # Discord's bot-token requests per second


def point_at_endpoints(settings: Settings) -> None:
    """Aim discord.py at another Discord (a local fake in tests). Production sets neither."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class MesaTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Before any command: refused while the bot shuts down; the channel's table loaded
        (start-up loads tables lazily)."""
        bot = _bot(interaction)
        if bot.tables.closing:
            await reply(interaction, tr(user_locale(interaction), "error.restarting"))
            return False
        # Before any answer: a kill after "thinking" leaves a trace.
        await bot.pending_commands.record(interaction)
        if interaction.channel_id is not None:
            await bot.tables.registry.load_channel(str(interaction.channel_id))
        return True

    async def _call(self, interaction: discord.Interaction) -> None:
        """discord.py reads option values before any handler runs: one it cannot read (a user
        option holding no number) raises there, unanswered. Answered as a bad option instead."""
        try:
            await self._call_recorded(interaction)
        except (ValueError, TypeError, KeyError) as exc:
            if interaction.response.is_done():
                raise
            option = _bad_option(interaction)
            log.info("a command with a malformed option %s was refused: %s", option, exc)
            key = "error.no_member" if option is not None else "error.bad_option"
            await reply(interaction, tr(user_locale(interaction), key, option=option or "?"))

    async def _call_recorded(self, interaction: discord.Interaction) -> None:
        try:
            await super()._call(interaction)
        finally:
            await _bot(interaction).pending_commands.settle(interaction)
            release_answered(interaction)  # discord.py's cycle, as a click's (items.py)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one answer to a failed slash command (components use ``bot.ui.feedback.guard``):
        refusals in the user's language, a malformed option value (an id that is no member,
        not a number) said as such, anything else logged once and answered generically."""
        if isinstance(error, app_commands.TransformerError):
            option = _option_name(interaction, error)
            key = "error.no_member" if _is_member_option(error) else "error.bad_option"
            log.info("option %s of /%s refused: %r", option, interaction.command, error.value)
            await reply(interaction, tr(user_locale(interaction), key, option=option))
            return
        if isinstance(error, app_commands.CheckFailure) and not isinstance(
            error, app_commands.MissingPermissions | app_commands.BotMissingPermissions
        ):
            if interaction.response.is_done():
                return  # interaction_check answered it
        original = getattr(error, "original", error)
        await answer_error(interaction, original)


def _bot(interaction: discord.Interaction) -> MesaBot:
    """The bot the command came to (its tree is only ever a ``MesaBot``'s)."""
    return cast("MesaBot", interaction.client)


def _is_member_option(error: app_commands.TransformerError) -> bool:
    return error.type in (
        discord.AppCommandOptionType.user,
        discord.AppCommandOptionType.mentionable,
    )


def _options(interaction: discord.Interaction) -> list[dict[str, object]]:
    """Every option given (subcommands walked), as Discord sent it."""
    found = []
    stack: list[object] = [interaction.data or {}]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "name" in node and "value" in node:
                found.append(node)
            stack.extend(node.get("options") or [])
    return found


def _option_name(interaction: discord.Interaction, error: app_commands.TransformerError) -> str:
    """The name of the option whose value failed (the first that carries it)."""
    for option in _options(interaction):
        if str(option["value"]) == str(error.value):
            return str(option["name"])
    return str(error.value)[:40]


def _bad_option(interaction: discord.Interaction) -> str | None:
    """The name of a user/member/mentionable option whose value is no id (type 6 or 9)."""
    for option in _options(interaction):
        if option.get("type") in (6, 9) and not str(option["value"]).isdigit():
            return str(option["name"])
    return None


class MesaBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        games: Mapping[str, Game] | None = None,
        seed_factory: Callable[[], str] | None = None,
        start_workers: bool = False,
        **kwargs: Any,
    ) -> None:
        """``start_workers``: spawn the search workers (which warm up the games' computer
        players: ``bot.workers.warm_up_games``) at start-up, as ``python -m bot`` does, instead
        of on the first computer move (tests start many bots and rarely need them)."""
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
        memos = PayloadMemos()  # this bot's seat names and kept hands, its presenters' own
        self._presenters: dict[str, GamePresenter[Any, Any]] = {
            key: presenter_for(game, memos) for key, game in self.games.items()
        }
        self.db: Database | None = None
        self._budget: SharedBudget | None = None  # shard processes' one budget (PostgreSQL)
        self.listener = DiscordTableListener(
            self, RequestPacer(settings.request_budget(), spread=PACER_SPREAD)
        )
        self.listener.kit.public_every = settings.public_edit_every_seconds
        self.listener.kit.coalesce_share = settings.public_edit_coalesce_share
        self.listener.kit.dm_when_needed = settings.dm_views_when_needed
        self.listener.kit.anywhere.pause_after = settings.interaction_pause_seconds
        processes = settings.render_processes
        # Images get their own pool, so a render never queues behind a computer's search.
        # Its workers write each image's alt text too (off the event loop).
        self.renderer = Renderer(
            PipeWorkers(processes, name=RENDER_POOL, niceness=settings.worker_niceness)
            if processes != 0
            else None,
            job=render_described,
        )
        self._previous_renderer: Renderer | None = None
        # user -> their locale (DMs speak it), of the people met lately: a miss costs a read
        # of the players table (storage/kept.py)
        self._locales: KeptAtMost[str, str] = of_people()
        self.workers: Workers | None = None
        self._seed_factory = seed_factory  # tests fix seeds; production draws random ones
        self._start_workers = start_workers
        self.unrouted = UnroutedClicks()
        self.pending_commands = PendingCommands(lambda: getattr(self, "tables", None))
        self.recovery: Recovery | None = None
        # Discord away: turn timers suspended, and what fell behind shown again on return.
        self.outages = GatewayOutages(
            lambda: getattr(getattr(self, "tables", None), "timers", None), self._reshow
        )
        self._close_task: asyncio.Future[None] | None = None

    # ----- start-up -------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        # Every bot-token request, whoever makes it, passes the pacer when it is sent.
        http_gate.install(self.http, lambda: self.listener.pacer)
        # a click's item built from its component, its Interaction without a whole Message
        route_by_component(self, self._unrouted_click)
        callbacks_unread()  # an update's callback without Discord's copy of the message
        self.db = await open_database(
            self.settings.database, observe=metrics.observe, tuning=self.settings.pg_tuning()
        )
        self._previous_renderer = install(self.renderer)
        # Computer searches of the table service run in this pool.
        self.workers = create_workers(
            self.settings.worker_processes,
            warm_up_games,
            SEARCH_POOL,
            self.settings.worker_niceness,
        )
        if self._start_workers:
            self.workers.start()  # they warm up (compiled searches) while the bot connects
        self._lag_monitor = metrics.start_loop_lag_monitor(self.settings.loop_lag_interval_seconds)
        await self._share_the_budget()
        self.players = PlayersRepo(self.db)
        self.standings = StandingsRepo(self.db)
        self.ratings = RatingsRepo(self.db)
        feed = await self._change_feed()
        self.followers = Followers(self.db, feed)  # hears "stop following" from shard 0
        await self.followers.load()
        # Spectators' DMs, beside (not inside) the table messages' listener.
        self.spectators = SpectatorListener(self, self.followers, lambda: self.listener.pacer)
        # Each table's thread and its line in the channel (bot/ui/threads.py), beside them too.
        homes = TableHomes(TableThreadsRepo(self.db), TablesRepo(self.db), self._find_table)
        self.threads = TableThreads(self, homes, self.listener, lambda: self.listener.pacer)
        self.tables = TableService(
            self.db,
            self.games,
            ListenerFanOut(self.listener, [self.spectators, self.threads.lines]),
            ServiceConfig(
                turn_timeout_seconds=self.settings.turn_timeout_seconds,
                timeouts_before_replacement=self.settings.timeouts_before_replacement,
                cpu_delay_seconds=self.settings.cpu_delay_seconds,
                cpu_think_seconds=self.settings.cpu_think_seconds,
            ),
            seed_factory=self._seed_factory,
            think_clock=time.monotonic,
            workers=self.workers,
            feed=feed,
            owns=self._owns_guild_id,
            origin=self.settings.intent_origin(),
            held=self.listener.kit.anywhere.held,  # interaction-only tables without a token
            over_elsewhere=self.listener.over_elsewhere,
        )
        self.listener.kit.ends.subscribe(self.tables.sharing.forget_table)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tree.set_translator(CatalogueTranslator())
        await self._sync_commands()
        rated = await backfill(self.db, self.games, self.workers)  # games from before ratings
        if rated:
            log.info("recorded and rated %d games finished before ratings", rated)
        await self.tables.load(lazy=True)
        log.info(
            "indexed %d open tables (loaded on first use)", self.tables.registry.unloaded_count
        )
        # Clicks acknowledged before a crash are answered, tables shown behind are shown again:
        # in the background, so the bot serves at once.
        self.recovery = Recovery(self)
        self.recovery.start()
        # Tables a kill left on their way into a thread go on into it (or open inline), and the
        # thread archives it interrupted wait again.
        self._placing = asyncio.ensure_future(self.threads.resume(await homes.unplaced()))

    def _find_table(self, table_id: int) -> Table | None:
        return self.tables.registry.find(table_id)

    # ----- the gateway going away and coming back (bot/ui/outage.py) -------------------------
    async def on_disconnect(self) -> None:
        self.outages.disconnected()

    async def on_resumed(self) -> None:
        self.outages.connected(all(self.shard_status().values()))

    async def on_ready(self) -> None:  # also after a new IDENTIFY (a session Discord dropped)
        self.outages.connected(all(self.shard_status().values()))

    async def on_shard_ready(self, shard_id: int) -> None:
        self.outages.connected(all(self.shard_status().values()))

    async def _reshow(self) -> None:
        if self.recovery is not None:
            await self.recovery.represent()

    def _unrouted_click(self, interaction: discord.Interaction) -> None:
        """A component click no dynamic item took (``items.InteractionParser``, after its
        ``interaction`` event): if no live view handles it either (an id that no longer
        parses), it still gets an answer, in a task of its own. Found out at once: an
        ``on_interaction`` method cost every click a task only to find it routed (issue 29)."""
        if not UnroutedClicks.routed(self, interaction):
            answer = functools.partial(self.unrouted.answer_if_unrouted, self)
            self._schedule_event(answer, "on_interaction", interaction)

    async def _sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def _share_the_budget(self) -> None:
        """Shard processes of one bot token take their bot-token calls from one budget in
        PostgreSQL (``storage/token_budget.py``) instead of a static share each."""
        settings = self.settings
        shards, rate = settings.shards(), settings.global_requests_per_second
        if settings.database_url is None or shards is None or rate <= 0:
            return
        if settings.shard_count is None or len(shards) == settings.shard_count:
            return  # one process runs every shard: its own pacer is the whole budget
        from storage.token_budget import PgTokenBudget  # asyncpg: PostgreSQL only

        self._budget = PgTokenBudget(
            settings.database_url,
            rate,
            burst=max(1.0, GLOBAL_LIMIT - rate),
            fallback_per_second=settings.request_budget(),
        )
        await self._budget.start()
        self.listener.pacer = RequestPacer(rate, shared=self._budget, spread=PACER_SPREAD)

    async def close(self) -> None:
        """Graceful: new clicks are answered "restarting", moves under way finish and are
        shown, presentation state and intents are flushed, then Discord and the DB close.
        Called again meanwhile (discord.py's runner does), it waits for the same close."""
        if self._close_task is None:
            self._close_task = asyncio.ensure_future(self._close())
        await asyncio.shield(self._close_task)

    async def _close(self) -> None:
        started = time.perf_counter()
        if getattr(self, "tables", None) is not None:
            await self.tables.close(drain_seconds=3.0)
        if self.recovery is not None:
            await self.recovery.close()
        await self.outages.close()
        await self.listener.close(timeout=2.0)
        if getattr(self, "spectators", None) is not None:
            await self.spectators.close()
        if getattr(self, "followers", None) is not None:
            await self.followers.close()  # re-reads of other processes' changes, before the DB
        if getattr(self, "threads", None) is not None:
            await self.threads.close()
        await super().close()
        self.renderer.close()
        if self._previous_renderer is not None:
            install(self._previous_renderer)
            self._previous_renderer = None
        if getattr(self, "_lag_monitor", None) is not None:
            self._lag_monitor.cancel()
        if self.workers is not None:
            self.workers.shutdown()
        if self._budget is not None:
            await self._budget.close()
        if self.db is not None:
            await self.db.close()
            self.db = None
        log.info("closed in %.2f s", time.perf_counter() - started)

    # ----- shards ---------------------------------------------------------------------------
    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard Discord routes ``guild_id`` to (DMs: shard 0)."""
        shards = self.settings.shards()
        if shards is None or self.settings.shard_count is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.settings.shard_count
        return shard in shards

    def _owns_guild_id(self, guild_id: str | None) -> bool:
        return self.owns_guild(int(guild_id) if guild_id and guild_id.isdigit() else None)

    async def _change_feed(self) -> ChangeFeed:
        """How this process hears other processes' table changes: nothing to hear on SQLite
        (one process); LISTEN/NOTIFY on PostgreSQL."""
        url = self.settings.database_url
        if url is None:
            return NoFeed()
        from bot.service.pg_feed import PostgresFeed

        return PostgresFeed(url)

    def gateway_latencies(self) -> list[tuple[int, float]]:
        """(shard id, heartbeat latency in seconds) per gateway connection."""
        return [(0, self.latency)]

    def shard_status(self) -> dict[int, bool]:
        """Shard id -> its gateway connection is open."""
        ws = getattr(self, "ws", None)
        return {0: ws is not None and bool(ws.open)}

    def open_tables(self) -> int:
        tables = getattr(self, "tables", None)
        return 0 if tables is None else len(tables.registry.all()) + tables.registry.unloaded_count

    # ----- shared helpers for cogs and the listener -----------------------------------------
    def presenter(self, game_key: str) -> GamePresenter[Any, Any]:
        return self._presenters[game_key]

    async def remember(self, interaction: discord.Interaction) -> None:
        """Keep a player's name and locale (for DMs) and reopen DMs they may have reopened."""
        user_id, name = str(interaction.user.id), interaction.user.display_name
        locale = normalise_locale(str(interaction.locale))
        if self.players.written(user_id, name, locale):
            return  # nothing new: no write on every click
        await self.players.upsert(user_id, name, locale)
        self._locales[user_id] = locale

    async def locale_of(self, user_id: str) -> str:
        locale = self._locales.get(user_id)
        if locale is None:
            stored = await self.players.locale(user_id)
            locale = normalise_locale(stored or self.settings.default_locale)
            self._locales[user_id] = locale
        return locale


class ShardedMesaBot(MesaBot, commands.AutoShardedBot):
    """The same bot over several gateway connections: the shards its settings name (all of
    them, or this process's share when several processes split the shards)."""

    def gateway_latencies(self) -> list[tuple[int, float]]:
        return list(self.latencies)

    def shard_status(self) -> dict[int, bool]:
        return {shard_id: not shard.is_closed() for shard_id, shard in self.shards.items()}


def create_bot(settings: Settings, **kwargs: Any) -> MesaBot:
    """A ``MesaBot``, sharded (an ``AutoShardedBot`` for ``settings.shards()``) when
    ``SHARD_COUNT`` is set."""
    shards = settings.shards()
    if shards is None:
        return MesaBot(settings, **kwargs)
    return ShardedMesaBot(
        settings, shard_count=settings.shard_count, shard_ids=list(shards), **kwargs
    )


# The cogs are written against CogHost; this line makes mypy check MesaBot provides it.
_COG_HOST: type[CogHost] = MesaBot
