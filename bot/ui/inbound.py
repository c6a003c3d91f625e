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


KEPT_AT_MOST = 4096  # people and DM channels kept per connection (~1-2 KB each)
_DM_TYPES = (1, 3)  # a DM, a group DM


class LeanInteractions:
    """Interactions of one connection state, lean: each one discord.py's own, built from the
    event without its message (a ``LazyMessage`` instead), and without the person who clicked
    and, in a DM, its channel when the same payload came before: the member (of a cached
    guild), user or DM channel discord.py built of it then is given again (discord.py builds
    them afresh per event: ~1/5 of an interaction). A payload that differs in anything (a
    new name, other permissions) is built anew and kept in place of the old."""

    def __init__(self, state: Any, keep: int = KEPT_AT_MOST) -> None:
        self._state = state
        self._keep = keep
        # (guild id or None, user or channel id as sent) -> (its payload, what was built)
        self._people: dict[tuple[int | None, str], tuple[Any, Any]] = {}
        self._channels: dict[str, tuple[Any, Any]] = {}

    def build(self, data: Any) -> discord.Interaction[Any]:
        state = self._state
        rest = data.copy()
        raw_message = rest.pop("message", None)
        guild = None
        guild_id = data.get("guild_id")
        if guild_id is not None:
            guild = state._get_guild(int(guild_id))
            person = rest.pop("member", None) if guild is not None else None
        else:
            person = rest.pop("user", None)
        raw_channel = data.get("channel")
        in_dm = (
            guild_id is None and raw_channel is not None and raw_channel.get("type") in _DM_TYPES
        )
        channel = self._kept_channel(raw_channel) if in_dm else None
        if channel is not None:
            del rest["channel"]  # (``_from_data`` then leaves ``channel`` None)
        interaction: discord.Interaction[Any] = discord.Interaction(data=rest, state=state)
        if channel is not None:
            interaction.channel = channel
        elif in_dm and interaction.channel is not None:
            _kept(self._channels, raw_channel["id"], (raw_channel, interaction.channel), self._keep)
        if person is not None:
            self._give_person(interaction, guild, person)
        if raw_message is not None:
            if guild_id is not None and guild is None:  # the guild ``_from_data`` made
                guild = getattr(interaction.user, "guild", None)
                if guild is None:
                    guild = state._get_or_create_unavailable_guild(
                        int(guild_id), data=rest.get("guild")
                    )
            interaction.message = LazyMessage(
                state=state, channel=interaction.channel, data=raw_message, guild=guild
            )
        return interaction

    def _give_person(
        self, interaction: discord.Interaction[Any], guild: discord.Guild | None, person: Any
    ) -> None:
        """What ``Interaction._from_data`` does with the member (or, in a DM, the user)."""
        if guild is not None:
            key: tuple[int | None, str] = (guild.id, person["user"]["id"])
        else:
            key = (None, person["id"])
        kept = self._people.get(key)
        if kept is not None and kept[0] == person and (guild is None or kept[1].guild is guild):
            user = kept[1]
        else:
            state = self._state
            if guild is not None:
                user = discord.Member(state=state, guild=guild, data=person)
            else:
                user = discord.User(state=state, data=person)
            _kept(self._people, key, (person, user), self._keep)
        interaction.user = user
        if guild is not None:
            interaction._permissions = user._permissions or 0

    def _kept_channel(self, raw: Any) -> Any:
        """The DM channel built of this very payload, for the bot's user as it is now (a new
        login makes a new one)."""
        kept = self._channels.get(raw.get("id"))
        if kept is None or kept[0] != raw or kept[1].me is not self._state.user:
            return None
        return kept[1]


def _kept(kept: dict[Any, Any], key: Any, value: Any, at_most: int) -> None:
    kept.pop(key, None)
    if len(kept) >= at_most:
        del kept[next(iter(kept))]  # the longest kept
    kept[key] = value
