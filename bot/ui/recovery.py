"""Start-up after a crash: answer every click acknowledged before it, show every table again
whose messages are behind the database.

1. Intents (``storage/intents.py``): a click acknowledged whose move had not committed is
   played now, if still legal at the version the player saw; every open intent younger than its
   interaction token gets its final answer by a follow-up ("your move was applied", "the table
   moved on", "the game ended"), so no click is left "thinking". A slash command the dead bot
   (or lobby click) left "thinking" (``bot/ui/pending_commands.py``) is told the bot restarted
   before finishing it.
2. Re-presentation (``storage/presented.py``, ``bot/ui/shown.py``): every table whose public
   message shows an older version than stored (killed between commit and edit), finished games
   included, is shown again: the public message first, then the DM views whose view changed.
   Paced (``PACE_SECONDS`` between tables: about the global request pacer's rate, which
   spaces the edits themselves) so a long outage does not load every table at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

import discord

from bot.errors import TableError
from bot.i18n import command_path, tr
from bot.service import Table
from bot.ui.feedback import error_text
from bot.ui.host import TableHost
from bot.ui.pending_commands import CLICK, HAND, is_command
from games.core import IllegalAction
from storage import Intent
from storage.intents import TOKEN_LIFETIME

log = logging.getLogger(__name__)

PACE_SECONDS = 0.025
TOKEN_MARGIN = 30.0  # seconds: a token this close to expiry is not relied on
# Seconds between two prunings of the intent log. Each is one writer transaction that every
# click's intent queues behind: every 10 minutes at 1,000 busy tables it deleted ~132,000 rows
# (7,370 pages, ~0.1 s of the writer's CPU on a quiet machine); every minute a tenth of that.
PRUNE_EVERY = 60.0
PRUNE_MARGIN = 60.0


class RecoveryHost(TableHost, Protocol):
    @property
    def _connection(self) -> Any: ...


class Recovery:
    def __init__(self, bot: RecoveryHost) -> None:
        self.bot = bot
        # Intents from before this process are the dead bot's; later ones are this process's
        # own clicks and commands under way (a recovery slowed by a busy start-up still finds
        # them unanswered: answering them would race their own handler).
        self.started_at = time.time()
        self._task: asyncio.Task[None] | None = None
        self.resolved: dict[str, int] = {}  # outcome -> intents (tests, logs)
        self.represented = 0
        self.done = asyncio.Event()  # every open intent answered
        self.shown_again = asyncio.Event()  # every table behind at start-up handed to the listener

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run(), name="recovery")

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def run(self) -> None:
        try:
            await self.resolve_intents()
            log.info("recovery: intents %s", self.resolved)
            self.done.set()
            await self.represent()
            log.info("recovery: %d tables shown again", self.represented)
            self.shown_again.set()
            while True:  # the intent log keeps only what a token could still answer
                await self.bot.tables.intents.prune(time.time() - TOKEN_LIFETIME - PRUNE_MARGIN)
                await asyncio.sleep(PRUNE_EVERY)
        except Exception:  # one table never stops the others
            log.exception("recovery after restart failed")
        finally:
            self.done.set()
            self.shown_again.set()

    # ----- 1. intents ---------------------------------------------------------------------
    async def resolve_intents(self) -> None:
        repo = self.bot.tables.intents
        now = time.time()
        stale: list[Intent] = []
        live: list[Intent] = []
        for intent in await repo.unanswered():
            if intent.created_at >= self.started_at:
                continue  # this process's own, under way
            fresh = now - intent.created_at < TOKEN_LIFETIME - TOKEN_MARGIN
            (live if fresh else stale).append(intent)
        # Committed clicks acknowledged by a deferred update need nothing more (the
        # re-presentation shows their result): marked in one write.
        shown = [i for i in live if i.done and i.ack == "update"]
        await repo.mark_answered([i.interaction_id for i in stale + shown])
        if shown:
            self.resolved["already_done"] = len(shown)
        for intent in live:
            if intent.done and intent.ack == "update":
                continue
            outcome = await self._resolve(intent)
            self.resolved[outcome] = self.resolved.get(outcome, 0) + 1
            await repo.mark_answered([intent.interaction_id])

    async def _resolve(self, intent: Intent) -> str:
        if is_command(intent):
            return await self._resolve_command(intent)
        if intent.done:
            if intent.ack == "thinking":  # committed, but the "thinking" was never completed
                await self._answer(intent, tr(intent.locale, "recovery.applied"))
                return "answered"
            return "already_done"  # a deferred update: the re-presentation shows the result
        key, reason = "recovery.applied", ""
        try:
            await self.bot.tables.act(
                intent.table_id, intent.seat, intent.version, intent.action, intent=intent
            )
            outcome = "applied"
        except TableError as exc:
            if exc.code == "stale":
                key, outcome = "recovery.moved_on", "moved_on"
            elif exc.code in ("not_playing", "no_table", "table_gone"):
                key, outcome = "recovery.ended", "ended"
            else:
                key, outcome = "recovery.refused", "refused"
                reason = error_text(exc, intent.locale)
        except IllegalAction as exc:
            table = self.bot.tables.registry.find(intent.table_id)
            key, outcome = "recovery.refused", "refused"
            reason = error_text(exc, intent.locale, table.game.key if table else None)
        except Exception:  # one table never stops the others
            log.exception("intent %s could not be played", intent.interaction_id)
            key, outcome = "recovery.refused", "failed"
            reason = tr(intent.locale, "error.unexpected")
        await self._answer(intent, tr(intent.locale, key, reason=reason))
        return outcome

    async def _resolve_command(self, intent: Intent) -> str:
        """A slash command the dead bot had not finished: answered if it still shows "thinking"
        (one answered before the crash, or never acknowledged, is left as it is)."""
        try:
            original = await self._webhook(intent).fetch_message(
                "@original"  # type: ignore[arg-type]  # the interaction's own response
            )
        except discord.HTTPException:
            return "command_unanswerable"  # never acknowledged: Discord showed it failed
        if intent.action == HAND:  # the table's deferred update: its hand never followed
            await self._answer(intent, tr(intent.locale, "recovery.click"))
            return "command_restarted"
        if not original.flags.loading:
            return "command_answered"
        if intent.action == CLICK:
            text = tr(intent.locale, "recovery.click")
        else:
            # stored as the command's qualified name: shown as the reader's client names it
            command = command_path(intent.action, intent.locale)
            text = tr(intent.locale, "recovery.command", command=command)
        await self._answer(intent, text)
        return "command_restarted"

    def _webhook(self, intent: Intent) -> discord.Webhook:
        return discord.Webhook.from_state(
            data={"id": int(intent.application_id), "type": 3, "token": intent.token},
            state=self.bot._connection,  # as discord.py's Interaction.followup
        )

    async def _answer(self, intent: Intent, text: str) -> None:
        """The interaction's final answer: a follow-up (it replaces a "thinking" placeholder)."""
        webhook = self._webhook(intent)
        try:
            await webhook.send(content=text, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("intent %s could not be answered: %s", intent.interaction_id, exc)

    # ----- 2. re-presentation ---------------------------------------------------------------
    async def represent(self) -> None:
        for (
            lobby
        ) in await self.bot.tables.registry.unshown_lobbies():  # e.g. a rematch cut by a kill
            await self.bot.listener.lobby_changed(lobby)
            self.represented += 1
            await asyncio.sleep(PACE_SECONDS)
        behind = await self.bot.tables.presented.behind()
        for table_id in behind:
            table = await self._table(table_id)
            if table is not None:
                await self.bot.listener.represent(table)
                self.represented += 1
            await asyncio.sleep(PACE_SECONDS)

    async def _table(self, table_id: int) -> Table | None:
        try:
            table = await self.bot.tables.registry.ensure(table_id)
            if table is None:  # finished: its result is shown from storage
                table = await self.bot.tables.registry.finished_table(table_id)
        except Exception:  # one table never stops the others
            log.exception("table %s could not be shown again", table_id)
            return None
        if table is None or table.state is None or not table.record.message_id:
            return None
        if not self.bot.tables.sharing.owns(table.record.guild_id):
            return None  # another process runs its guild's shard and shows it
        return table
