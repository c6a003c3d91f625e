"""Tables that live on interaction tokens alone (issue 30.1): opened where the bot may not post
(a group DM, a server without the bot: ``bot/places.py``), so every bot-token call about their
channel would be refused (403 50001) and none is ever made.

There the public table is the ``/play`` response, edited through the freshest token of any
click on it (``bot/ui/tokens.py``); hands are the table's ephemeral "Ver mi mano" (never a DM);
notices and turn pings are follow-ups of a fresh table token. A table with no fresh token is
*paused*: its computer moves and turn timers stop (``ServiceContext.held``). Just before its
last token stops being usable (``pause_after`` seconds after the click that gave it: 14 minutes,
a setting so tests take seconds) that token edits the table to say it is paused; any press of
its buttons gives a fresh token, which shows the table as it is and resumes it. After a restart
no token is known: such a table is paused until the next press.

Active play must not pause: a player moving from their ephemeral hand never presses the table's
buttons, so its token ages. When such a click arrives and the table's token is within
``MOVE_SHARE`` of ``pause_after`` of its pause (or the table is paused already), that click
*carries* the table: its token posts the table anew as a public follow-up, which becomes the
table (its message id stored, its token editing it from then on), and the old message, while a
token still may edit it, becomes a short pointer without buttons. So a table pauses only when
nobody clicked on it at all for ``pause_after`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import discord

from bot import metrics
from bot.i18n import translator
from bot.service import Table
from bot.ui.messages import finish, lobby_payload, public_payload
from bot.ui.tokens import LIFETIME, Hook, Tokens
from bot.ui.v2 import UNTIMED

log = logging.getLogger(__name__)

# A click on a player's own view moves the table when its pause is nearer than this share of
# ``pause_after`` (7 of 14 minutes): at most one new message per half token life of play.
MOVE_SHARE = 0.5


def public_key(table_id: int) -> tuple[str, int]:
    """The key of a table's public message in the kit's ``Tokens``."""
    return ("public", table_id)


class Kit(Protocol):
    """What it needs of the listener's kit (``bot/ui/view_kit.ViewKit``)."""

    bot: Any
    tokens: Tokens
    represent: Callable[[Table], Awaitable[None]]

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]: ...


class InteractionOnlyTables:
    """Pauses and resumes the interaction-only tables, and speaks in their channel through
    their tokens."""

    def __init__(self, kit: Kit, pause_after: float = LIFETIME) -> None:
        self.k = kit
        self.pause_after = pause_after
        # table id -> its pending pause: the tables running on a fresh token; any other
        # interaction-only table is paused (or not clicked since this process started)
        self._timers: dict[int, asyncio.Task[None]] = {}
        # how near its pause a table is carried by a player's click (None: MOVE_SHARE of
        # pause_after); a test moves it rather than a clock
        self.carry_within: float | None = None
        self._due: dict[int, float] = {}  # table id -> when its pause is due (the kit's clock)
        # table id -> a click (and when it came) whose token posts the table anew
        self._carriers: dict[int, tuple[discord.Interaction, float]] = {}
        # table id -> the token that said it is paused: it may still turn that message into a
        # pointer when a player's click posts the table anew (until it expires)
        self._paused_by: dict[int, Hook] = {}

    # ----- what a table is ------------------------------------------------------------------
    def fresh(self, table: Table) -> Hook | None:
        return self.k.tokens.fresh(public_key(table.id), None)

    def held(self, table: Table) -> bool:
        """An interaction-only table with no fresh token: nothing may move it on by itself
        (``ServiceContext.held``)."""
        return table.interaction_only and (
            table.id not in self._timers or self.fresh(table) is None
        )

    # ----- tokens come and go -----------------------------------------------------------------
    def offered(self, table: Table) -> None:
        """A click on ``table``'s public message gave a fresh token: its pause is due
        ``pause_after`` seconds from now; a paused table resumes (shown as it is, its timers
        and computer moves running again)."""
        if not table.interaction_only:
            return
        hook = self.fresh(table)
        if hook is None:
            return
        self._paused_by.pop(table.id, None)  # its own token edits it from now on
        old = self._timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        self._timers[table.id] = asyncio.get_running_loop().create_task(
            self._pause_later(table, hook), name=f"pause-{table.id}"
        )
        self._due[table.id] = self.k.tokens.clock() + self.pause_after
        if old is None and table.record.status == "playing":  # it was paused
            metrics.count("anywhere.resumed")
            log.info("table %s resumed by a press", table.id)
            self.k.spawn(self._resume(table))

    # ----- a player's own click carries the table -------------------------------------------
    def carry(self, table: Table, interaction: discord.Interaction) -> None:
        """A click on a player's own view of ``table`` (their ephemeral hand), answered: when
        the table's pause is near (or it is paused), that click's token posts it anew
        (``moving``, by the public slot's worker), and the game goes on without a pause."""
        if not table.interaction_only or table.record.status != "playing":
            return
        if not interaction.response.is_done() or table.id in self._carriers:
            return
        now = self.k.tokens.clock()
        due = self._due.get(table.id)
        if (
            table.id in self._timers
            and self.fresh(table) is not None
            and due is not None
            and due - now > self._carry_within()
        ):
            return
        self._carriers[table.id] = (interaction, now)
        metrics.count("anywhere.carried")
        self.k.spawn(self._show(table))

    async def _show(self, table: Table) -> None:
        await self.k.represent(table)  # the public slot's worker posts it (``moving``)

    def _carry_within(self) -> float:
        if self.carry_within is not None:
            return self.carry_within
        return self.pause_after * MOVE_SHARE

    def moving(self, table: Table) -> tuple[discord.Interaction, float] | None:
        """The click whose token posts ``table`` anew, if one is waiting: kept until it did
        (``moved``) or failed (``carried``), so no second click carries it meanwhile."""
        return self._carriers.get(table.id)

    def carried(self, table: Table) -> None:
        """The carrying click is done with (posted, or refused)."""
        self._carriers.pop(table.id, None)

    def editor(self, table: Table) -> Hook | None:
        """A token that may still edit ``table``'s message: its fresh one, or the one that
        said it is paused while it lives."""
        hook = self.fresh(table)
        if hook is None:
            hook = self._paused_by.get(table.id)
            if hook is not None and self.k.tokens.clock() >= hook.until:
                hook = None
        return hook

    async def moved(self, table: Table, old: Hook | None, v2: bool) -> None:
        """``table`` was posted anew (its new message's token is offered already): its pause
        is due ``pause_after`` from now (a paused one resumes), and the old message, while a
        token may still edit it, becomes a pointer without buttons."""
        self._paused_by.pop(table.id, None)
        self.offered(table)
        self.carried(table)
        if old is None:
            return
        tr = translator(table.record.locale)
        text = tr("anywhere.moved")
        kwargs: dict[str, Any]
        if v2:  # a Components V2 message stays one: its text is a component
            view = discord.ui.LayoutView(timeout=UNTIMED)
            view.add_item(discord.ui.TextDisplay(text))
            kwargs = {"view": view, "attachments": []}
        else:
            kwargs = {"content": text, "embeds": [], "view": None, "attachments": []}
        try:
            await old.edit(kwargs)
        except discord.HTTPException as exc:  # its buttons answer a press sensibly anyway
            log.info("table %s: its old message kept (%s %s)", table.id, exc.status, exc.code)

    async def _resume(self, table: Table) -> None:
        await self.k.represent(table)
        service = self.k.bot.tables
        if table.record.status == "playing" and table.state is not None:
            service.timers.restart(table)
            if service.cpu.pending(table):
                service.cpu.kick(table)

    async def _pause_later(self, table: Table, hook: Hook) -> None:
        try:
            await asyncio.sleep(self.pause_after)
        except asyncio.CancelledError:
            return
        if self._timers.get(table.id) is not asyncio.current_task():
            return  # a fresher token took over (it brings its own pause)
        if table.record.status != "playing":
            del self._timers[table.id]
            return  # a lobby has nothing to pause; a finished table nothing to resume
        await self._say_paused(table, hook)

    async def _say_paused(self, table: Table, hook: Hook) -> None:
        """Edit the table, with its last token, to say it is paused; then hold it.

        The token is taken from the public slot first (nothing else edits the table through
        it), and the notice shows the table as it is when it is sent: a move that lands while
        it is prepared makes it prepared again, and a click that carried the table on
        meanwhile (``moved``) makes it moot; so the pause never shows an older state."""
        self.pause(table)
        self.k.tokens.drop(public_key(table.id))
        self._paused_by[table.id] = hook
        for _ in range(8):
            version = table.version
            payload = self._paused_payload(table)
            try:
                await finish(payload)  # its image attached afresh (the message may show none)
                if self._paused_by.get(table.id) is not hook:
                    return  # carried on or resumed meanwhile: the table is elsewhere or live
                if table.version != version:
                    continue  # a move landed meanwhile: the notice shows it
                await hook.edit(payload.edit_kwargs())
                metrics.count("anywhere.paused")
            except discord.HTTPException as exc:  # (the token is never logged)
                log.info(
                    "table %s: could not show its pause (%s %s)", table.id, exc.status, exc.code
                )
            finally:
                if payload.view is not None:
                    payload.view.stop()
            return

    def _paused_payload(self, table: Table) -> Any:
        tr = translator(table.record.locale)
        if table.state is None:
            payload = lobby_payload(table, self.k.bot.tables, tr)
        else:
            presenter = self.k.bot.presenter(table.game.key)
            payload = public_payload(table, presenter, self.k.bot.tables, tr)
        payload.content = tr("anywhere.paused")
        return payload

    def pause(self, table: Table) -> None:
        """Hold ``table`` (no fresh token is left, or none could edit it): its timer and
        computer moves stop until a press resumes it."""
        task = self._timers.pop(table.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        service = self.k.bot.tables
        service.timers.cancel(table.id)
        service.cpu.cancel(table.id)
        log.info("table %s paused: no fresh interaction token", table.id)

    def forget(self, table_id: int) -> None:
        """The table closed or ended: nothing to pause or resume."""
        task = self._timers.pop(table_id, None)
        if task is not None:
            task.cancel()
        self._due.pop(table_id, None)
        self._carriers.pop(table_id, None)
        self._paused_by.pop(table_id, None)

    # ----- speaking in the channel ------------------------------------------------------------
    async def follow_up(self, table: Table, content: str) -> None:
        """A notice in ``table``'s channel: a follow-up of a fresh table token (never the bot
        token); dropped when none is fresh (the table shows what matters)."""
        hook = self.fresh(table)
        if hook is None:
            log.info("table %s: a notice dropped (no fresh token)", table.id)
            return
        try:
            await hook.interaction.followup.send(
                content=content, allowed_mentions=discord.AllowedMentions(users=True)
            )
        except discord.HTTPException as exc:
            log.info("table %s: a notice was refused (%s %s)", table.id, exc.status, exc.code)
            self.k.tokens.drop(public_key(table.id), hook)

    async def close(self) -> None:
        tasks = list(self._timers.values())
        self._timers.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
