"""Fuzzing the bot through the fake Discord (issue 27): every slash command with options drawn
from its synced schema (what Discord itself lets through: the declared types, choices and
bounds, any text) and clicks on every custom_id family with forged parts (what a modified client
or a stale message can send). Each input is one interaction against the real bot; what is
checked is that every one is answered and the bot logs no traceback.

The bot runs on its own event loop in a thread (``LiveBot``) so that hypothesis drives it from a
plain test function; ``tests/e2e/test_fuzz.py`` runs a bounded number of inputs,
``bench/fuzz.py`` ten thousand and more.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import strategies as st

from tests.fakediscord.pytest_plugin import TEST_PACE
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.users import FakeUser, RawValue

T = TypeVar("T")

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
# Every custom_id family the bot routes (bot/ui/ids.py, bot/ui/triad/items.py, other items).
FAMILIES = ("t", "ts", "l", "lr", "h", "d", "ds", "mo", "s", "tt", "tts", "tk", "x", "")
OPS = (
    "join", "leave", "cpu", "start", "cancel", "rematch", "rules", "rejoin", "accept",
    "decline", "cards", "clr", "ok", "pg0", "pg9", "add0", "rm3", "add999",
)  # fmt: skip
ARG = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=0, max_size=24)


class TracebackCounter(logging.Handler):
    """Counts log records that carry a traceback (or are ERROR or worse)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.records.append(record)


@dataclass
class FuzzStats:
    sent: int = 0
    answered: int = 0
    unanswered: list[str] = field(default_factory=list)
    refused_by_fake: int = 0  # inputs Discord itself would not send (not counted as sent)


class LiveBot:
    """The fake Discord and the Mesa bot on an event loop of their own (a thread)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="fuzz-bot", daemon=True)
        self.fake: FakeDiscord | None = None
        self.mesa: Any = None
        self.users: list[FakeUser] = []
        self.table_ids: list[int] = []
        self.messages: list[Any] = []
        self.stats = FuzzStats()
        self.tracebacks = TracebackCounter()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result(timeout)

    def start(self) -> None:
        import discord.gateway
        import discord.http

        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        self._thread.start()
        self.run(self._start(), timeout=180)
        logging.getLogger().addHandler(self.tracebacks)

    async def _start(self) -> None:
        from tests.e2e.amapatolli_driver import start_game
        from tests.e2e.conftest import Mesa

        self.fake = fake = FakeDiscord(route_pace=TEST_PACE)  # the tests' pace, as fake_discord
        await fake.start()
        self.mesa = Mesa(fake, self.folder / "fuzz.db")
        await self.mesa.start()
        self.users = [fake.user(n) for n in ("ana", "beto", "cris", "dani")]
        # A game in progress and a lobby: real table ids, versions and messages to aim at.
        table = await start_game(fake, self.users[:3], seed="fuzz-seed")
        self.table_ids = [table.table_id]
        self.messages = [table.public()]
        other = fake.add_channel("fuzz-lobby")
        reply = await (await self.users[3].slash("play triad", channel=other))
        self.messages.append(reply)

    def stop(self) -> None:
        logging.getLogger().removeHandler(self.tracebacks)
        try:
            self.run(self._stop(), timeout=60)
        finally:
            import discord.gateway
            import discord.http

            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=10)
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved

    async def _stop(self) -> None:
        if self.mesa is not None:
            await self.mesa.stop()
        if self.fake is not None:
            await self.fake.stop()

    # ----- one input ----------------------------------------------------------------------
    def slash(self, user: int, command: str, options: dict[str, Any]) -> None:
        self.run(self._interact(self._slash(user, command, options), f"/{command} {options}"))

    def click(self, user: int, message: int, custom_id: str, select: list[str] | None) -> None:
        self.run(self._interact(self._click(user, message, custom_id, select), custom_id))

    async def _slash(self, user: int, command: str, options: dict[str, Any]) -> Any:
        return await self.users[user].slash(command, **options)

    async def _click(
        self, user: int, message: int, custom_id: str, select: list[str] | None
    ) -> Any:
        msg = self.messages[message % len(self.messages)]
        if select is None:
            return await self.users[user].forge_click(msg, custom_id)
        return await self.users[user].forge_click(
            msg, custom_id, component_type=3, values=select or ["0"]
        )

    async def _interact(self, start: Coroutine[Any, Any, Any], what: str) -> None:
        assert self.fake is not None
        try:
            handle = await start
        except (TypeError, ValueError, LookupError, PermissionError):
            self.stats.refused_by_fake += 1  # Discord would not send it
            return
        self.stats.sent += 1
        inter = handle.interaction
        await self.fake.wait_until(
            lambda: inter.callback_type is not None or inter.failed,
            timeout=self.fake.interaction_deadline + 5,
            what=f"the answer to {what}",
        )
        if inter.callback_type is None:
            self.stats.unanswered.append(what)
            return
        if inter.callback_type == 5:  # "thinking": its follow-up must come
            try:
                await handle.response(timeout=60)
            except AssertionError:
                self.stats.unanswered.append(f"{what} (thinking never completed)")
                return
        self.stats.answered += 1

    def settle(self) -> list[str]:
        """Every interaction answered; the fake's violations (their kinds and details)."""
        assert self.fake is not None
        self.run(self.fake.settle(timeout=30))
        return [str(v) for v in self.fake.violations]


# ----- strategies -------------------------------------------------------------------------
def option_value(option: dict[str, Any], users: list[FakeUser]) -> st.SearchStrategy[Any]:
    kind = option["type"]
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    if kind == STRING:
        return st.text(
            min_size=option.get("min_length", 0), max_size=min(option.get("max_length", 100), 100)
        )
    if kind in (INTEGER, NUMBER):
        low, high = option.get("min_value", -(2**53)), option.get("max_value", 2**53)
        ints = st.integers(min_value=int(low), max_value=int(high))
        return ints if kind == INTEGER else st.one_of(ints, st.floats(low, high))
    if kind == BOOLEAN:
        return st.booleans()
    if kind in (USER, MENTIONABLE):  # a member, or an id that is nobody here
        return st.one_of(
            st.sampled_from(users), st.integers(1, 2**63 - 1).map(lambda n: RawValue(str(n)))
        )
    return st.nothing()


def commands(fake: FakeDiscord) -> list[tuple[str, list[dict[str, Any]]]]:
    """(invocation, its options) for every synced chat command and subcommand."""
    found: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(prefix: str, node: dict[str, Any]) -> None:
        options = node.get("options") or []
        subs = [o for o in options if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not subs:
            found.append((prefix, options))
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub)

    for command in fake.commands.get(None, []):
        if command["type"] == 1:
            walk(command["name"], command)
    return found


@st.composite
def slash_inputs(draw: st.DrawFn, bot: LiveBot) -> tuple[int, str, dict[str, Any]]:
    assert bot.fake is not None
    invocation, options = draw(st.sampled_from(commands(bot.fake)))
    chosen: dict[str, Any] = {}
    for option in options:
        if option.get("required") or draw(st.booleans()):
            value = draw(option_value(option, bot.users))
            chosen[option["name"]] = value
    return draw(st.integers(0, len(bot.users) - 1)), invocation, chosen


@st.composite
def custom_ids(draw: st.DrawFn, bot: LiveBot) -> tuple[int, int, str, list[str] | None]:
    family = draw(st.sampled_from(FAMILIES))
    table = draw(
        st.one_of(
            st.sampled_from(bot.table_ids), st.integers(0, 10**6), ARG.map(lambda s: s or "0")
        )
    )
    parts = [family, str(table)]
    for _ in range(draw(st.integers(0, 3))):
        parts.append(draw(st.one_of(st.sampled_from(OPS), ARG, st.integers(-5, 500).map(str))))
    custom_id = ":".join(parts)[:100] or "x"
    select = draw(st.one_of(st.none(), st.lists(ARG.map(lambda s: s or "v"), max_size=3)))
    return (
        draw(st.integers(0, len(bot.users) - 1)),
        draw(st.integers(0, 10)),
        custom_id,
        select,
    )
