"""End-to-end fixtures: the fake Discord and the real Mesa bot on a temporary database.

``MESA_E2E_BACKEND=postgres`` runs the suite's bots on PostgreSQL (a fresh database per
``Mesa`` harness, on the session's server: embedded, or ``MESA_TEST_POSTGRES_URL``); the default
``sqlite`` keeps a temporary SQLite file. Tests that start ``python -m bot`` themselves or pick a
backend on purpose keep theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import ClassVar

import discord.gateway
import discord.http
import pytest

from tests.fakediscord.pytest_plugin import discord_pace, fake_discord  # noqa: F401
from tests.fakediscord.server import FakeDiscord
from tests.pg_server import PostgresServer
from tests.waiting import within_guard

DEFAULT_SEED = "e2e-seed-0001"
READY_WITHIN = 60.0  # seconds: a hang bound for the bot's start (a busy machine is slow)
BACKEND_ENV = "MESA_E2E_BACKEND"
BACKENDS = ("sqlite", "postgres")


def e2e_backend() -> str:
    backend = os.environ.get(BACKEND_ENV, "sqlite").strip().lower() or "sqlite"
    if backend not in BACKENDS:
        raise pytest.UsageError(f"{BACKEND_ENV}={backend!r}: use one of {', '.join(BACKENDS)}")
    return backend


class Mesa:
    """The Mesa bot running on the fake Discord; `restart()` keeps the same database."""

    # Set for the session by ``MESA_E2E_BACKEND=postgres``: each harness gets a database there.
    postgres: ClassVar[PostgresServer | None] = None
    created: ClassVar[list[str]] = []

    def __init__(self, fake: FakeDiscord, db_path: Path, **settings) -> None:
        self.fake = fake
        self.db_path = db_path
        if self.postgres is not None and "database_url" not in settings:
            settings["database_url"] = self.postgres.create_database()
            self.created.append(settings["database_url"])
        self.database_url: str | None = settings.get("database_url")
        # Public tables and DM hands shown at every change (tests follow each version;
        # coalescing has its own test, tests/e2e/test_coalescing.py)
        self.settings_overrides = {
            "public_edit_every_seconds": 0,
            "dm_views_when_needed": False,  # every DM hand at Start (tests/e2e/test_dm_lazy.py)
            **settings,
        }
        self.seed = DEFAULT_SEED
        self.bot = None
        self._task: asyncio.Task | None = None
        self.starts = 0

    def settings(self):
        from bot.settings import Settings

        return Settings(
            _env_file=None,
            discord_token=self.fake.token,
            database_path=self.db_path,
            discord_api_base=self.fake.api_base,
            discord_gateway_url=self.fake.gateway_url,
            cpu_delay_seconds=0,
            **self.settings_overrides,
        )

    async def start(self) -> None:
        from bot.client import MesaBot, point_at_endpoints

        settings = self.settings()
        point_at_endpoints(settings)  # the bot's own start-up path
        # Deterministic table seeds, so a game's course is known in advance.
        bot = MesaBot(settings, guild_ready_timeout=0.05, seed_factory=lambda: self.seed)
        await bot.login(self.fake.token)
        self._task = asyncio.create_task(bot.connect(reconnect=True), name="mesa-bot")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, self._task}, timeout=READY_WITHIN, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self._task in done:
                self._task.result()
            raise TimeoutError("Mesa did not become ready on the fake Discord")
        self.bot = bot
        self.starts += 1

    async def stop(self) -> None:
        if self.bot is None:
            return
        await self.fake.settle()
        await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await within_guard(self._task)
        self.bot = None
        self._task = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()


@pytest.fixture(scope="session", autouse=True)
def e2e_database(request: pytest.FixtureRequest) -> Iterator[str]:
    """The backend of the suite's bots (``MESA_E2E_BACKEND``)."""
    backend = e2e_backend()
    if backend == "sqlite":
        yield backend
        return
    server: PostgresServer = request.getfixturevalue("pg_server")
    Mesa.postgres = server
    try:
        yield backend
    finally:
        Mesa.postgres = None
        for url in Mesa.created:
            with contextlib.suppress(Exception):
                server.drop_database(url)
        Mesa.created.clear()


@pytest.fixture
async def mesa(fake_discord, tmp_path) -> AsyncIterator[Mesa]:  # noqa: F811
    """Mesa on the plugin's fake (its per-route windows at the tests' pace, `discord_pace`)."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    harness = Mesa(fake_discord, tmp_path / "mesa.db")
    try:
        await harness.start()
        yield harness
    finally:
        await harness.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
