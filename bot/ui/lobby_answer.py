"""The ``/play`` answer that is its table's lobby (issue 25): an inline table's lobby is posted as
the command's own response (an interaction callback, outside the bot token's global limit)
instead of a bot-token message, and the command's token edits it from then on (while fresh).

Persist before show holds as before: ``/play`` stores the lobby, then the listener shows it; the
first post of a lobby in the channel the ``/play`` came from is that response. A ``/play`` whose
lobby is not ready ``ANSWER_WITHIN`` seconds after it arrived is acknowledged as before (an
ephemeral "thinking", so a refusal stays private) and its lobby is posted with the bot token. A
refused ``/play`` (busy channel, bad options) is answered privately: the response is claimed
only by a lobby ready to show. A restart between the response and storing its message id posts
the lobby again at start-up (``registry.unshown_lobbies``), as it did after a bot-token post.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

import discord

from bot import metrics
from bot.service import Table
from bot.ui.items import acknowledged_meanwhile
from bot.ui.messages import finish
from bot.ui.payload import Payload
from bot.ui.tokens import Tokens

log = logging.getLogger(__name__)

ANSWER_WITHIN = 2.0  # seconds: Discord gives up on an unanswered command after 3
PRESS_WITHIN = 0.05  # seconds: a lobby or set-up press answered in place (the play cog's budget)
T = TypeVar("T")


class LobbyAnswer:
    """One ``/play`` whose response may still be its lobby."""

    def __init__(self, interaction: discord.Interaction, *, only: bool = False) -> None:
        """``only``: the lobby can be shown by this interaction alone (an interaction-only
        place, ``bot/ui/anywhere.py``): a late one is acknowledged publicly, and the lobby
        then edits that acknowledgement (``@original``) instead of a bot-token post."""
        self.interaction = interaction
        self.message_id: int | None = None  # the lobby it answered with
        self._claimed = False
        self.only = only
        self.deferred = False  # acknowledged publicly ("thinking"): the lobby edits @original
        self.followup = False  # a press answered already (a rematch): the lobby follows it up
        self._acknowledging: asyncio.Task[None] | None = None  # the late "thinking" under way
        # A follow-up that must not be the command's first (which would take the place of
        # its ephemeral "thinking", ephemeral itself): posted once this is done.
        self.after: asyncio.Future[None] | None = None
        self.settled: asyncio.Future[None] | None = None  # done once its lobby was posted

    def claim(self) -> bool:
        """Take the one response (the lobby, or the acknowledgement): True for the first taker."""
        if self._claimed or self.interaction.response.is_done():
            return False
        self._claimed = True
        return True

    async def post_line(
        self, text: str, mentions: discord.AllowedMentions
    ) -> discord.Message | None:
        """Answer with ``text``, a thread's line in the channel (the thread starts from it);
        None when the response is taken (then the line is posted with the bot token)."""
        if not self.claim():
            return None
        try:
            response = await self.interaction.response.send_message(
                content=text, allowed_mentions=mentions
            )
        except discord.HTTPException as exc:
            log.info("a thread's line could not answer its command (%s)", exc.code)
            return None
        message = response.resource
        if not isinstance(message, discord.InteractionMessage):
            message = await self.interaction.original_response()
        self.message_id = message.id
        metrics.count("lobby_answer.line")
        return message

    async def acknowledge_late(self, within: float = ANSWER_WITHIN) -> None:
        """No lobby ``within`` seconds: "thinking" (ephemeral), the lobby follows by bot token."""
        await asyncio.sleep(within)
        if self.claim():
            metrics.count("lobby_answer.late")
            # Its own task: a lobby ready while it is sent waits for it (``acknowledged``),
            # and the command's end cancelling this wait does not cut the request short.
            self._acknowledging = asyncio.ensure_future(self._defer())
            await asyncio.shield(self._acknowledging)

    async def _defer(self) -> None:
        await self.interaction.response.defer(ephemeral=not self.only, thinking=True)
        self.deferred = self.only

    async def acknowledged(self) -> None:
        """Returns once the late acknowledgement under way, if any, was sent (or failed), and
        the command's own first answer when the lobby is to follow it (``after``)."""
        if self._acknowledging is not None:
            await asyncio.gather(asyncio.shield(self._acknowledging), return_exceptions=True)
        if self.after is not None:
            await asyncio.wait({self.after})


class LobbyAnswers:
    """The ``/play`` commands under way whose response may be their lobby, by channel (an
    inline table is the only open one of its channel)."""

    def __init__(self, tokens: Tokens) -> None:
        self._tokens = tokens
        self._waiting: dict[str, LobbyAnswer] = {}

    def expect(
        self, channel_id: str, interaction: discord.Interaction, *, only: bool = False
    ) -> LobbyAnswer:
        answer = self._waiting[channel_id] = LobbyAnswer(interaction, only=only)
        return answer

    def forget(self, channel_id: str, answer: LobbyAnswer) -> None:
        if self._waiting.get(channel_id) is answer:
            del self._waiting[channel_id]

    def waiting(self, table: Table) -> bool:
        """Whether ``table``'s first post may be the response of the ``/play`` that opened it."""
        record = table.record
        answer = self._waiting.get(record.channel_id)
        return (
            answer is not None
            and record.status == "lobby"
            and record.parent_channel_id is None
            and not record.message_id
            and (answer.deferred or answer.followup or not answer.interaction.response.is_done())
        )

    async def followed(self, table: Table) -> None:
        """Returns once ``table``'s first post may go: at once, unless it is to follow up a
        command whose own answer is not out yet (``LobbyAnswer.after``); its payload is built
        after this, so it shows every change made meanwhile (one post, no edit after it)."""
        answer = self._waiting.get(table.record.channel_id)
        if answer is not None and answer.after is not None and self.waiting(table):
            await asyncio.wait({answer.after})

    async def post(self, table: Table, payload: Payload) -> discord.Message | None:
        """Post ``table``'s lobby as the response of the ``/play`` that opened it, if that one
        is still unanswered; None: post it with the bot token."""
        record = table.record
        answer = self._waiting.get(record.channel_id)
        if answer is None:
            return None
        # Claimed by the late acknowledgement still under way: the lobby then edits it (or,
        # acknowledged privately, goes by bot token), never lost between the two.
        await answer.acknowledged()
        if self._waiting.get(record.channel_id) is not answer or not self.waiting(table):
            return None
        if answer.deferred or answer.followup:
            try:
                return await self._answer_later(table, answer, payload)
            finally:
                if answer.settled is not None and not answer.settled.done():
                    answer.settled.set_result(None)
        if not answer.claim():
            return None
        del self._waiting[record.channel_id]
        interaction = answer.interaction
        try:
            response = await interaction.response.send_message(**payload.send_kwargs())
        except discord.HTTPException as exc:
            log.info(
                "the lobby of table %s could not answer the command that opened it (%s)",
                table.id,
                exc.code,
            )
            await _reattach(payload)  # for the bot token's post
            return None
        message = response.resource
        if not isinstance(message, discord.InteractionMessage):
            message = await interaction.original_response()  # (webhook route: no bot token)
        return self._answered(table, answer, message, "posted")

    async def _answer_later(
        self, table: Table, answer: LobbyAnswer, payload: Payload
    ) -> discord.Message | None:
        """The lobby as the command's public acknowledgement (``deferred``: edited into it) or
        as a public follow-up of the press that asked for it (``followup``)."""
        del self._waiting[table.record.channel_id]
        interaction = answer.interaction
        message: discord.Message
        try:
            if answer.deferred:
                message = await interaction.edit_original_response(**payload.edit_kwargs())
            else:
                message = await interaction.followup.send(wait=True, **payload.send_kwargs())
        except discord.HTTPException as exc:
            what = "edit its command's answer" if answer.deferred else "follow up its press"
            log.info("the lobby of table %s could not %s (%s)", table.id, what, exc.code)
            await _reattach(payload)  # for the bot token's post
            return None
        how, followup = ("edited", False) if answer.deferred else ("followed_up", True)
        return self._answered(table, answer, message, how, followup=followup)

    def expect_followup(self, channel_id: str, interaction: discord.Interaction) -> LobbyAnswer:
        """A press answered already (a rematch in an interaction-only place): the lobby it
        opens is posted as its public follow-up, which its token then edits."""
        answer = self.expect(channel_id, interaction, only=True)
        answer.followup = True
        return answer

    def _answered(
        self,
        table: Table,
        answer: LobbyAnswer,
        message: discord.Message,
        how: str,
        *,
        followup: bool = False,
    ) -> discord.Message:
        """``message`` (the command's response, or its press's ``followup``) shows ``table``'s
        lobby: its token edits it from now on."""
        answer.message_id = message.id
        self._tokens.offer(
            ("public", table.id),
            answer.interaction,
            message.id,
            followup=message.id if followup else None,
        )
        metrics.count(f"lobby_answer.{how}")
        return message

    def expect_followup_after(
        self, channel_id: str, interaction: discord.Interaction
    ) -> LobbyAnswer:
        """A command acknowledged privately ("thinking", ephemeral: Triple Triad's ``/play``,
        whose answer is the host's picker): the lobby it opens is its public follow-up, posted
        once ``answer.after`` is done (the command's own answer sent: the first follow-up would
        take the ephemeral placeholder's place), and its token edits the lobby from then on,
        outside the bot token's limit (issue 29: 8 bot-token edits of each such lobby)."""
        answer = self.expect_followup(channel_id, interaction)
        loop = asyncio.get_running_loop()
        answer.after, answer.settled = loop.create_future(), loop.create_future()
        return answer

    def expect_deferred(self, channel_id: str, interaction: discord.Interaction) -> LobbyAnswer:
        """A command acknowledged publicly at once (Triple Triad's ``/play`` in an
        interaction-only place): the lobby it opens edits that acknowledgement."""
        answer = self.expect(channel_id, interaction, only=True)
        answer.deferred = answer._claimed = True
        return answer


async def _reattach(payload: Payload) -> None:
    """A failed request closed the payload's files: attached again for the bot's post."""
    payload.files = []
    if payload.image is not None:
        await finish(payload)


def answer_within(configured_ms: int | None) -> float:
    """Seconds a press may wait to be answered in place (settings' ``answer_in_place_ms``)."""
    return PRESS_WITHIN if configured_ms is None else configured_ms / 1000


async def acknowledged_by(
    interaction: discord.Interaction, deadline: float, change: Awaitable[T]
) -> T:
    """``change``'s result; if it is not over by ``deadline`` (loop time), the press is
    acknowledged meanwhile with a deferred update (Discord gives up after 3 s), from the
    timer's own loop turn. No intent is written first: a deferred update shows nothing a
    restart would have to finish (the change is stored with its effect, or refused)."""
    return await acknowledged_meanwhile(interaction, deadline, change, lambda: _defer(interaction))


async def _defer(interaction: discord.Interaction) -> None:
    metrics.count("why.defer_lobby_slow")
    await interaction.response.defer()
