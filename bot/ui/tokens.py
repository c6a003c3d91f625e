"""The freshest interaction token that may edit a message, kept per message a table owns.

Discord exempts interaction webhooks (``/webhooks/{app}/{token}/…``) from the bot token's
global rate limit for the 15 minutes an interaction token lives. A component interaction
answered with a deferred update (type 6) or an update (type 7) may edit the message the
component sits on (its ``@original``); its follow-ups, which it may edit too, may be ephemeral.
So each message a table owns (the public table, each player's DM hand, each ephemeral hand)
keeps the newest such token here and is edited through it while it is under ``LIFETIME``
seconds old; the bot token is used only when none is fresh.

Tokens are secrets: they live in memory only (a restart forgets them: the bot token edits
until the next click), are never logged, and are dropped once expired or refused (401 50027
"Invalid Webhook Token", 404 10008 "Unknown Message"): that one edit falls back to the bot
token.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.ui import payload as sending

# An interaction token edits its messages for 15 minutes; stop using it a minute before.
LIFETIME = 14 * 60.0
PRUNE_EVERY = 256  # offers between two sweeps of the expired hooks


def token_birth(interaction: discord.Interaction, now: float) -> float:
    """When ``interaction``'s token began to live, on the clock ``now`` was read from (this
    holder's, or the wall clock of a stored intent: ``bot/ui/pending_commands.intent_of``):
    Discord made it at its id's time (``created_at``), seconds before a loaded bot gets to it;
    never later than ``now`` (a clock a little behind Discord's), at most ``LIFETIME`` before.
    Its age read off the snowflake's milliseconds and the wall clock as floats, as
    ``utcnow() - created_at`` reads it with two datetimes and a timedelta (issue 29: 2-3 per
    click; 1.4 -> 0.4 us)."""
    made = ((interaction.id >> 22) + discord.utils.DISCORD_EPOCH) / 1000
    age = time.time() - made
    return now - min(max(age, 0.0), LIFETIME)


@dataclass
class Hook:
    """An interaction whose token may edit one message: its ``@original`` (``followup`` None)
    or one of its follow-ups, until ``until`` (the holder's clock)."""

    interaction: discord.Interaction
    message_id: int
    until: float
    followup: int | None = None

    async def edit(self, kwargs: dict[str, Any]) -> None:
        # the edited message is not read back: not parsed either (``bot/ui/payload.py``)
        message_id, ref = self.target
        await sending.edit_followup(self.interaction, message_id, kwargs, ref=ref)

    @property
    def target(self) -> tuple[int, int | str | None]:
        """The message id and the name of it in the request (``payload.edit_followup``): its
        ``@original``, or the follow-up by its id."""
        if self.followup is None:
            return self.message_id, "@original"
        return self.followup, None

    async def delete(self) -> None:
        if self.followup is None:
            await self.interaction.delete_original_response()
        else:
            await self.interaction.followup.delete_message(self.followup)


# What sending through an interaction's token reads of it (``payload.edit_followup``, its
# ``followup``, ``delete_original_response``, ``created_at``).
_TOKEN_SLOTS = ("id", "type", "application_id", "token", "version", "_state", "_client", "_session")
# Left empty: the click's own data (the clicked message's payload a ``LazyMessage`` keeps, the
# clicker, the options: ~9 KB of its gateway event, ``bench/memory_census.py``), which a hook
# would otherwise keep for its token's 14 minutes (~2 hooks a table: ~17 MB at 1,000 tables).
_LEFT_OUT = ("message", "data", "user", "channel", "guild_id", "_original_response")


def token_only(interaction: discord.Interaction) -> discord.Interaction:
    """A copy of ``interaction`` that sends through its token and holds nothing of its click.
    A stand-in that is no ``discord.Interaction`` (tests' mocks) is kept as it is."""
    if type(interaction) is not discord.Interaction:
        return interaction
    lean = object.__new__(discord.Interaction)
    for name in _TOKEN_SLOTS:
        setattr(lean, name, getattr(interaction, name))
    for name in _LEFT_OUT:
        setattr(lean, name, None)
    return lean


def answered_on_message(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` was answered so that its ``@original`` is the message its
    component sits on (a deferred update or an update of that message)."""
    kind = interaction.response.type
    return interaction.message is not None and kind in (
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    )


class Tokens:
    """The freshest hook of each message a holder edits, by key (any hashable)."""

    def __init__(
        self, clock: Callable[[], float], on_offer: Callable[[Any], None] | None = None
    ) -> None:
        self.clock = clock
        self._hooks: dict[Any, Hook] = {}
        self._offers = 0
        # Told the key of each hook kept: a message waiting for the bot token's turn (its
        # coalescing window) goes out through the fresh token at once (``ViewKit``).
        self.on_offer = on_offer

    def offer(
        self,
        key: Any,
        interaction: discord.Interaction,
        message_id: int,
        *,
        followup: int | None = None,
        received: float | None = None,
    ) -> None:
        """``interaction`` may edit ``message_id`` (as its original, or its ``followup``): keep
        it for ``key`` if it is newer than the hook kept. Its token lives from ``received``
        (this holder's clock), by default from when Discord made the interaction."""
        start = self.arrival(interaction) if received is None else received
        self._offers += 1
        if self._offers % PRUNE_EVERY == 0:
            self.prune()
        old = self._hooks.get(key)
        if old is not None and old.message_id == message_id and old.until > start + LIFETIME:
            return
        self._hooks[key] = Hook(token_only(interaction), message_id, start + LIFETIME, followup)
        if self.on_offer is not None:
            self.on_offer(key)

    def arrival(self, interaction: discord.Interaction) -> float:
        """When ``interaction``'s token began to live, on this holder's clock."""
        return token_birth(interaction, self.clock())

    def fresh(self, key: Any, message_id: int | None) -> Hook | None:
        """The hook of ``key`` that may still edit ``message_id``; an expired one, or one of
        another message, is dropped."""
        hook = self._hooks.get(key)
        if hook is None:
            return None
        if self.clock() >= hook.until or (message_id is not None and hook.message_id != message_id):
            del self._hooks[key]
            return None
        return hook

    def prune(self) -> None:
        """Forget every expired hook: a token is kept only while it may be used."""
        now = self.clock()
        for key in [k for k, hook in self._hooks.items() if now >= hook.until]:
            del self._hooks[key]

    def carry(self, key: Any, to: Any) -> None:
        """``key``'s hook, if still fresh, is ``to``'s from now on (``key`` has none): its
        token may still post follow-ups where it was used."""
        hook = self._hooks.pop(key, None)
        if hook is not None and self.clock() < hook.until:
            self._hooks[to] = hook

    def drop(self, key: Any, hook: Hook | None = None) -> None:
        """Forget ``key``'s hook (only if it is still ``hook``, when given)."""
        if hook is None or self._hooks.get(key) is hook:
            self._hooks.pop(key, None)

    def forget(self, match: Callable[[Any], bool]) -> None:
        """Forget every hook whose key ``match``es (a closed table's)."""
        for key in [k for k in self._hooks if match(k)]:
            del self._hooks[key]

    def __len__(self) -> int:
        return len(self._hooks)
