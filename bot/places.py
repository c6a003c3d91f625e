"""Where an interaction happens, and what the bot may do there (issue 30.1).

Discord lets people install the app to their own account and use its commands where the bot
itself is absent: in group DMs and in servers that never added it. There the app can only
answer interactions — any bot-token call about that channel is refused (403 50001) — so a
table there lives on interaction tokens alone. This module reads the interaction's
``context`` and ``authorizing_integration_owners`` once and names the place; everything that
must behave differently asks the :class:`Place`, never the raw payload.

Standings, ratings and history are kept per *scope*: a server's id (with or without the bot:
it is the same community), or the channel of a group DM / DM (``channel:<id>``), so nothing
leaks between places.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

GUILD_INSTALL_OWNER = 0  # authorizing_integration_owners key of a server install
USER_INSTALL_OWNER = 1  # ... and of a user install
_GROUP_DM_CHANNEL_TYPE = 3  # Discord's channel type of a group DM
USE_EXTERNAL_APPS = 1 << 50
# The key of a table's stored ``meta`` saying it lives on interaction tokens alone (it was
# opened where the bot may not post): kept with the table, so a restart keeps it so.
INTERACTION_ONLY = "interaction_only"


class PlaceKind(Enum):
    """The four places a command can come from."""

    SERVER = "server"  # a server that added the bot: everything works
    SERVER_WITHOUT_BOT = "server_without_bot"  # a user-installed app in a server without the bot
    GROUP_DM = "group_dm"  # a group DM (the bot is never a member)
    BOT_DM = "bot_dm"  # a DM with the bot itself


@dataclass(frozen=True, slots=True)
class Place:
    """One place: its kind, ids, and what follows from them."""

    kind: PlaceKind
    channel_id: int
    guild_id: int | None
    external_apps_allowed: bool = True

    @property
    def bot_can_post(self) -> bool:
        """Whether bot-token calls about this channel are allowed (else 403 50001)."""
        return self.kind in (PlaceKind.SERVER, PlaceKind.BOT_DM)

    @property
    def interaction_only(self) -> bool:
        """Whether a table here must live on interaction tokens alone."""
        return not self.bot_can_post

    @property
    def forced_ephemeral(self) -> bool:
        """Whether Discord turns every response here ephemeral (the server disallows
        external apps for this member), so nothing public can be shown."""
        return self.kind is PlaceKind.SERVER_WITHOUT_BOT and not self.external_apps_allowed

    @property
    def scope(self) -> str:
        """The key standings, ratings and history are kept under (stored as ``guild_id``)."""
        if self.guild_id is not None:
            return str(self.guild_id)
        return f"channel:{self.channel_id}"


class _Permissions(Protocol):
    @property
    def value(self) -> int: ...


class _Channel(Protocol):
    @property
    def type(self) -> object: ...


class InteractionLike(Protocol):
    """What :func:`place_of` reads from a ``discord.Interaction``."""

    @property
    def guild_id(self) -> int | None: ...

    @property
    def channel_id(self) -> int | None: ...

    @property
    def channel(self) -> _Channel | None: ...

    @property
    def _integration_owners(self) -> Mapping[int, int | str]: ...  # discord.py: Snowflake

    @property
    def permissions(self) -> _Permissions: ...


_EXTRAS_KEY = "mesa.place"  # where an interaction's place is kept once read (its ``extras``)


def place_of(interaction: InteractionLike) -> Place:
    """The place an interaction comes from, read from its payload once: kept in the
    interaction's ``extras`` (discord.py's per-interaction dict), so the check, the command
    and the listeners of one ``/play`` share one reading (handlers that hold it pass it on)."""
    extras = getattr(interaction, "extras", None)
    if isinstance(extras, dict):
        place = extras.get(_EXTRAS_KEY)
        if not isinstance(place, Place):
            place = extras[_EXTRAS_KEY] = read_place(interaction)
        return place
    return read_place(interaction)


def read_place(interaction: InteractionLike) -> Place:
    """Name the place an interaction comes from.

    The bot is present in a server exactly when the server's own install authorised the
    interaction (owner key ``0`` equal to the server's id) — discord.py's
    ``is_guild_integration``; a payload without owners (the bot's own servers in older
    payloads and tests) is a server with the bot. Without a server, a group DM is told from
    the bot's own DM by the channel's type.
    """
    channel_id = interaction.channel_id or 0
    guild_id = interaction.guild_id
    if guild_id is None:
        if _channel_type(interaction) == _GROUP_DM_CHANNEL_TYPE:
            return Place(PlaceKind.GROUP_DM, channel_id, None)
        return Place(PlaceKind.BOT_DM, channel_id, None)
    owners = interaction._integration_owners
    server_install = owners.get(GUILD_INSTALL_OWNER)
    if owners and (server_install is None or int(server_install) != guild_id):
        allowed = bool(interaction.permissions.value & USE_EXTERNAL_APPS)
        return Place(PlaceKind.SERVER_WITHOUT_BOT, channel_id, guild_id, allowed)
    return Place(PlaceKind.SERVER, channel_id, guild_id)


def _channel_type(interaction: InteractionLike) -> int | None:
    """The channel's Discord type number. The channel's type is read rather than the
    interaction's ``context``: discord.py 2.7 reads that 0-based value as if it were 1-based
    (``AppCommandContext._from_value``), so a group DM's context comes out as ``dm_channel``."""
    channel = interaction.channel
    if channel is None:
        return None
    kind = channel.type
    value = getattr(kind, "value", kind)
    return value if isinstance(value, int) else None
