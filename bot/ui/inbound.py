"""A gateway INTERACTION_CREATE, parsed lean (issue 29).

discord.py builds a whole ``discord.Message`` out of every click's ``message`` (its author,
attachments, embeds and every container, text and button of a Components V2 tree): ~70 % of
the ``Interaction`` it builds per click, and nearly none of it is read. Here the interaction
is discord.py's own, built from the event without its message, and its ``message`` a
``LazyMessage``: id, flags and channel at once (what a click's path reads), the rest built by
discord.py's own ``Message.__init__`` from the same payload on the first read of anything
else. The clicked component itself is found in that payload, and the event parsed and
dispatched, beside the items it reaches (``bot/ui/items.py``: ``InteractionParser``).
discord.py internals used (re-check on upgrade): ``_get_or_create_unavailable_guild``, that
``Interaction._from_data`` builds its message from ``data["message"]`` alone and upgrades its
guild; ``tests/bot/test_inbound.py`` compares every interaction kind with discord.py's own.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.flags import MessageFlags

_OWN_SLOTS = frozenset({"_payload", "_guild_fallback", "_built"})


class LazyMessage(discord.Message):
    """An interaction's message: id, flags and channel read from its payload at once,
    everything else built by ``discord.Message.__init__`` when first read (and then the guild
    discord.py's interaction would have given it). Nothing is set on it before that read but
    what discord.py itself sets (a referenced message it builds is one of these too)."""

    __slots__ = ("_payload", "_guild_fallback", "_built")

    def __init__(
        self,
        *,
        state: Any,
        channel: Any,
        data: Any,
        guild: discord.Guild | None = None,
    ) -> None:
        self._built = False
        self._payload = data
        self._guild_fallback = guild
        self._state = state
        self.channel = channel
        self.id = int(data["id"])
        self.flags = MessageFlags._from_value(data.get("flags", 0))

    @property
    def payload(self) -> dict[str, Any]:
        """The message as Discord sent it (read only)."""
        return self._payload

    def __getattr__(self, name: str) -> Any:
        # only reached for what is not set yet: build it all once, then read as usual
        if name in _OWN_SLOTS or name.startswith("__") or self._built:
            raise AttributeError(name)
        self._build()
        return object.__getattribute__(self, name)

    def _build(self) -> None:
        self._built = True
        discord.Message.__init__(self, state=self._state, channel=self.channel, data=self._payload)
        guild, self._guild_fallback = self._guild_fallback, None
        if guild is not None and self.guild is None:
            self.guild = guild  # as ``Interaction._from_data`` upgrades its message's guild


def message_payload(message: discord.Message | None) -> dict[str, Any] | None:
    """The payload of a lazily built message (None for any other message)."""
    return message.payload if isinstance(message, LazyMessage) else None


def lean_interaction(data: Any, state: Any) -> discord.Interaction[Any]:
    """discord.py's ``Interaction`` of ``data``, its message a ``LazyMessage``."""
    raw_message = data.get("message")
    if raw_message is None:
        return discord.Interaction(data=data, state=state)
    rest = data.copy()
    del rest["message"]
    interaction: discord.Interaction[Any] = discord.Interaction(data=rest, state=state)
    guild = None
    guild_id = interaction.guild_id
    if guild_id:  # the guild ``Interaction._from_data`` gave its message
        guild = state._get_guild(guild_id) or getattr(interaction.user, "guild", None)
        if guild is None:
            guild = state._get_or_create_unavailable_guild(guild_id, data=rest.get("guild"))
    interaction.message = LazyMessage(
        state=state, channel=interaction.channel, data=raw_message, guild=guild
    )
    return interaction
