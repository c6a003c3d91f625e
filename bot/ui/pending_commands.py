"""Slash commands and lobby clicks under way, in the intent log (``storage/intents.py``), so a
restart can answer one a killed bot left "thinking".

A command (or a seat or Triple Triad button click that may answer "thinking": ``may_think`` in
``bot/ui/items.py``; never a lobby press or a Triad pick, answered by an update or a deferred
update of the message clicked) is recorded before its handler runs (so before any
acknowledgement), as an intent of no table (``COMMAND_TABLE``) whose action is the command's
name (``CLICK`` for a click); it is settled once the handler returns, whatever it answered.
Game actions record their own intents (``bot/cogs/play.py``). After a crash, an open one whose
original response is still the "thinking" placeholder gets a follow-up saying the bot
restarted before finishing it (``bot/ui/recovery.py``): answered, never left thinking. The wait for the write is capped like
a click's (``RECORD_WITHIN``), so a slow disk never costs the 3 s answer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import discord

from bot.service import TableService
from bot.ui.feedback import user_locale
from bot.ui.tokens import token_birth
from storage import Intent, StorageUnavailable
from storage.intents import Ack, written_within

log = logging.getLogger(__name__)

COMMAND_TABLE = 0  # an intent of this table is a slash command or a click, not a move
CLICK = "@click"  # the action of a recorded click
# A "Ver mi mano" press: acknowledged with a deferred update of the table, its hand follows as
# an ephemeral follow-up; a restart in between sends that follow-up (``bot/ui/recovery.py``).
HAND = "@hand"
RECORD_WITHIN = 1.0  # seconds a command waits for its record before its handler runs
RECORDED = (discord.InteractionType.application_command, discord.InteractionType.component)


def is_command(intent: Intent) -> bool:
    return intent.table_id == COMMAND_TABLE


def intent_of(
    interaction: discord.Interaction,
    table_id: int,
    version: int | None,
    action: str,
    ack: Ack,
    origin: str,
) -> Intent:
    """What ``interaction`` asks, as the intent stored before it is answered (a move of
    ``table_id`` at ``version``, or a command of ``COMMAND_TABLE``); ``created_at``: when its
    token began to live, read as the token store reads it (``tokens.token_birth``, on the
    wall clock a restart measures its age by)."""
    return Intent(
        interaction_id=str(interaction.id),
        application_id=str(interaction.application_id),
        token=interaction.token,
        table_id=table_id,
        seat=str(interaction.user.id),
        version=version,
        action=action,
        locale=user_locale(interaction),
        created_at=token_birth(interaction, time.time()),
        ack=ack,
        origin=origin,
    )


class PendingCommands:
    def __init__(self, tables: Callable[[], TableService | None]) -> None:
        self._tables = tables
        self._recorded: set[int] = set()  # interactions recorded and not settled yet

    async def record(self, interaction: discord.Interaction, action: str | None = None) -> None:
        tables = self._tables()
        kind = interaction.type
        if tables is None or interaction.id in self._recorded or kind not in RECORDED:
            return  # autocomplete is answered at once, with no "thinking"
        if action is not None:
            pass
        elif kind is discord.InteractionType.component:
            action = CLICK
        else:
            command = interaction.command
            action = "/" + (command.qualified_name if command is not None else "?")
        intent = intent_of(
            interaction, COMMAND_TABLE, None, action, "thinking", tables.intents.origin
        )
        self._recorded.add(interaction.id)
        write = tables.intents.start(intent)  # queued now; awaited itself (the ack's turns)
        write.add_done_callback(_log_failure)
        await written_within(write, RECORD_WITHIN)

    async def settle(self, interaction: discord.Interaction) -> None:
        """The handler returned: it is answered (or its error was)."""
        tables = self._tables()
        if tables is None or interaction.id not in self._recorded:
            return
        self._recorded.discard(interaction.id)
        try:
            await tables.intents.settle(str(interaction.id))
        except StorageUnavailable:  # at worst a restart checks it once more
            log.warning("could not settle command %s: database unavailable", interaction.id)
        except Exception:
            log.exception("could not settle command %s", interaction.id)


def _log_failure(write: asyncio.Future[None]) -> None:
    if write.cancelled() or write.exception() is None:
        return
    if isinstance(write.exception(), StorageUnavailable):
        log.warning("could not record a command: the database is unavailable")
    else:
        log.error("could not record a command", exc_info=write.exception())
