"""A gateway INTERACTION_CREATE, parsed lean (issue 29).

discord.py builds a whole ``discord.Message`` out of every click's ``message`` (its author,
attachments, embeds and every container, text and button of a Components V2 tree): ~70 % of
the ``Interaction`` it builds per click, and nearly none of it is read. Here the interaction
is discord.py's own, built from the event without its message, and its ``message`` a
``LazyMessage``: id, flags and channel at once (what a click's path reads), the rest built by
discord.py's own ``Message.__init__`` from the same payload on the first read of anything
else. The clicked component itself is found in that payload, and the event parsed and
dispatched, beside the items it reaches (``bot/ui/items.py``: ``InteractionParser``).
Session 31: the interaction is set slot by slot here as ``Interaction.__init__`` and
``_from_data`` set it, not built by them from a copy of the event without its message and
person: they read the message, the member or user and the guild locale by raising and catching
a ``KeyError`` when the key is absent (two per guild click, three per DM click). Callgrind, one
build hot: a DM click 61,780 -> 51,680 instructions, a guild click 82,832 -> 72,664.
discord.py internals used (re-check on upgrade): what ``Interaction.__init__`` and
``_from_data`` set (``tests/bot/test_inbound.py`` compares every slot and every interaction
kind with discord.py's own), ``_get_or_create_unavailable_guild``, ``_threaded_channel_factory``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.app_commands.installs import AppCommandContext
from discord.channel import _threaded_channel_factory
from discord.enums import InteractionType, Locale, try_enum
from discord.flags import MessageFlags
from discord.sku import Entitlement
from discord.utils import MISSING, _get_as_snowflake

log = logging.getLogger(__name__)

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
_ABSENT: Any = object()  # a key the event leaves out


class LeanInteractions:
    """Interactions of one connection state, lean: each one discord.py's own, but its message a
    ``LazyMessage``, and the person who clicked and, in a DM, its channel not built again when
    the same payload came before: the member (of a cached
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
        """discord.py's ``Interaction`` of the event ``data``: what ``Interaction.__init__``
        and ``_from_data`` set, set here the same way (``tests/bot/test_inbound.py`` compares
        every slot with discord.py's own), but its message a ``LazyMessage``, its person and
        a DM's channel kept, and no ``KeyError`` raised for a key the event leaves out:
        discord.py reads the message, the member or user and the guild locale so, raising
        and catching two (a guild's click) or three (a DM's) per click."""
        state = self._state
        client = state._get_client()
        interaction: Any = discord.Interaction.__new__(discord.Interaction)
        # ``Interaction.__init__``
        interaction._state = state
        interaction._client = client
        interaction._session = state.http._HTTPClient__session
        interaction._original_response = None
        interaction._baton = MISSING
        interaction.extras = {}
        interaction.command_failed = False
        # ``Interaction._from_data``
        interaction.id = int(data["id"])
        interaction.type = try_enum(InteractionType, data["type"])
        interaction.data = data.get("data")
        interaction.token = data["token"]
        interaction.version = data["version"]
        guild_id = _get_as_snowflake(data, "guild_id")
        interaction.guild_id = guild_id
        interaction.application_id = int(data["application_id"])
        interaction.entitlement_sku_ids = [int(x) for x in data.get("entitlement_skus", []) or []]
        interaction.entitlements = [Entitlement(state, x) for x in data.get("entitlements", [])]
        interaction.filesize_limit = data["attachment_size_limit"]
        interaction._integration_owners = {
            int(k): int(v) for k, v in data.get("authorizing_integration_owners", {}).items()
        }
        context = data.get("context", _ABSENT)
        interaction.context = (
            AppCommandContext() if context is _ABSENT else AppCommandContext._from_value([context])
        )
        interaction.locale = try_enum(Locale, data.get("locale", "en-US"))
        guild_locale = data.get("guild_locale", _ABSENT)
        interaction.guild_locale = (
            None if guild_locale is _ABSENT else try_enum(Locale, guild_locale)
        )
        guild = None
        kept_guild = False  # one the connection keeps: its members are kept here too
        if guild_id:
            guild = state._guilds.get(guild_id)
            kept_guild = guild is not None
            if guild is None:
                guild = state._get_or_create_unavailable_guild(guild_id, data=data.get("guild"))
            if guild.me is None and client.user is not None:
                guild._add_member(
                    discord.Member._from_client_user(user=client.user, guild=guild, state=state)
                )
        channel = self._channel(data.get("channel", {}), guild, client.user)
        interaction.channel = channel
        raw_message = data.get("message")
        # (and then its guild, as ``_from_data`` upgrades its message's guild)
        interaction.message = (
            None
            if raw_message is None
            else LazyMessage(state=state, channel=channel, data=raw_message, guild=guild)
        )
        interaction.user = MISSING
        interaction._permissions = 0
        interaction._app_permissions = int(data.get("app_permissions", 0))
        if guild is not None:
            member = data.get("member")
            if member is not None:
                user = (
                    self._member(guild, member)
                    if kept_guild
                    else discord.Member(state=state, guild=guild, data=member)
                )
                interaction.user = user
                interaction._permissions = user._permissions or 0
        else:
            person = data.get("user")
            if person is not None:
                interaction.user = self._user(person)
        return interaction

    def _member(self, guild: discord.Guild, payload: Any) -> discord.Member:
        """The member built of this very payload in this guild, else a new one (kept)."""
        key: tuple[int | None, str] = (guild.id, payload["user"]["id"])
        kept = self._people.get(key)
        if kept is not None and kept[0] == payload and kept[1].guild is guild:
            return kept[1]
        member = discord.Member(state=self._state, guild=guild, data=payload)
        _kept(self._people, key, (payload, member), self._keep)
        return member

    def _user(self, payload: Any) -> discord.User:
        """The user built of this very payload, else a new one (kept)."""
        key: tuple[int | None, str] = (None, payload["id"])
        kept = self._people.get(key)
        if kept is not None and kept[0] == payload:
            return kept[1]
        user = discord.User(state=self._state, data=payload)
        _kept(self._people, key, (payload, user), self._keep)
        return user

    def _channel(self, raw: Any, guild: discord.Guild | None, me: Any) -> Any:
        """``_from_data``'s channel: the guild's own, else one built of the payload; a DM's
        (or group DM's) kept while its payload is the same, for the bot's user as it is now
        (a new login makes a new one)."""
        channel_id = _get_as_snowflake(raw, "id")
        channel = None
        if channel_id is not None and guild is not None:
            channel = guild._resolve_channel(channel_id)
        raw_type = raw.get("type")
        if channel is not None or raw_type is None:
            return channel
        state = self._state
        in_dm = guild is None and raw_type in _DM_TYPES
        if in_dm:
            kept = self._channels.get(raw.get("id"))
            if kept is not None and kept[0] == raw and kept[1].me is me:
                return kept[1]
        factory, channel_type = _threaded_channel_factory(raw_type)
        if factory is None:
            log.info("Unknown channel type %s for channel ID %s.", raw_type, raw.get("id"))
            return None
        if channel_type in (discord.ChannelType.group, discord.ChannelType.private):
            channel = factory(me=me, data=raw, state=state)
            if in_dm:
                _kept(self._channels, raw["id"], (raw, channel), self._keep)
            return channel
        if guild is not None:
            return factory(guild=guild, state=state, data=raw)
        return None


def _kept(kept: dict[Any, Any], key: Any, value: Any, at_most: int) -> None:
    kept.pop(key, None)
    if len(kept) >= at_most:
        del kept[next(iter(kept))]  # the longest kept
    kept[key] = value
