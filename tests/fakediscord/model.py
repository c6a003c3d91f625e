"""The fake Discord's world: users, guilds, channels, messages, interactions, modals, and its clock.

Objects here are plain data with `payload()` methods producing what Discord would send.
"""

from __future__ import annotations

import datetime as dt
import itertools
import mimetypes
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .limits import FLAG_EPHEMERAL, FLAG_LOADING, SELECT_TYPES, walk_components

DISCORD_EPOCH_MS = 1420070400000
# Ids start at 2026-01-01T00:00:00Z so snowflake timestamps look like real ones; one id per millisecond.
_FIRST_ID_MS = 1767225600000 - DISCORD_EPOCH_MS

SEND_MESSAGES = 1 << 11
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
# What a guild grants the bot for tables in threads (Discord's own default @everyone has both;
# the fake's does not, so a test opts in: `guild.everyone.permissions |= THREAD_PERMISSIONS`).
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
# VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS
DEFAULT_MEMBER_PERMISSIONS = (
    (1 << 10) | SEND_MESSAGES | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
)
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 51) - 1

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Interaction callback types
CB_MESSAGE, CB_DEFER, CB_DEFER_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9


class Snowflakes:
    """Monotonic, unique, realistic snowflake ids."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        return (_FIRST_ID_MS + next(self._counter)) << 22

    def made_at(self, when: dt.datetime) -> int:
        """An id whose timestamp is ``when``, as Discord's are: an interaction's id says when
        Discord made it, which is when its token's 15 minutes began (``Interaction.created_at``).
        Its low bits (the counter's) never collide with ``next``'s, whose low bits are zero."""
        ms = int(when.timestamp() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


class FakeClock:
    """The fake's clock: real elapsed time plus whatever a test advanced it by."""

    def __init__(self) -> None:
        self._start_real = time.monotonic()
        self._start_wall = dt.datetime.now(dt.UTC)
        self._offset = 0.0

    def now(self) -> float:
        """Seconds on the fake's clock (monotonic)."""
        return time.monotonic() - self._start_real + self._offset

    def utcnow(self) -> dt.datetime:
        return self._start_wall + dt.timedelta(seconds=self.now())

    def iso(self) -> str:
        return self.utcnow().isoformat()

    def advance(self, seconds: float = 0.0, *, minutes: float = 0.0, hours: float = 0.0) -> None:
        self._offset += seconds + 60.0 * minutes + 3600.0 * hours


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "es-ES"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    joined_at: str
    roles: list[int] = field(default_factory=list)
    nick: str | None = None

    def payload(self) -> dict[str, Any]:
        return {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }


GUILD_TEXT, DM, PUBLIC_THREAD = 0, 1, 11
THREAD_TYPES = frozenset({10, 11, 12})


@dataclass(eq=False)
class Channel:
    id: int
    type: int  # 0 guild text, 1 DM, 11 public thread
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    recipient: User | None = None  # DM channels
    bot_can_send: bool = True
    # Permissions a channel overwrite takes from the bot here (e.g. CREATE_PUBLIC_THREADS); a
    # thread inherits its parent's.
    bot_denied: int = 0
    # Threads only: the channel it lives in, who made it, its metadata.
    parent: Channel | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = ""
    create_timestamp: str = ""
    deleted: bool = False
    message_count: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def denied(self) -> int:
        own = self.bot_denied
        return own | (self.parent.denied() if self.parent is not None else 0)

    def payload(self) -> dict[str, Any]:
        if self.is_thread:
            assert self.parent is not None
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "flags": 0,
                "message_count": self.message_count,
                "member_count": 1,
                "total_message_sent": self.message_count,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                    "create_timestamp": self.create_timestamp,
                },
            }
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    joined_at: str
    locale: str = "es-ES"
    channels: list[Channel] = field(default_factory=list)
    threads: list[Channel] = field(default_factory=list)  # active (not archived, not deleted)
    roles: list[Role] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    def channel_named(self, name: str) -> Channel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise LookupError(f"no channel #{name} in guild {self.name!r}")

    def permissions_of(self, user: User) -> int:
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        total = self.everyone.permissions
        if member is not None:
            for role in self.roles:
                if role.id in member.roles:
                    total |= role.permissions
        if total & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return total

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles],
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels],
            "threads": [t.payload() for t in self.threads],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    @staticmethod
    def guess_type(filename: str) -> str:
        return mimetypes.guess_type(filename)[0] or "application/octet-stream"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: dict[str, Any] | None
    raw: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Select:
    custom_id: str
    type: int
    options: list[dict[str, Any]]
    min_values: int
    max_values: int
    placeholder: str | None
    disabled: bool
    raw: dict[str, Any] = field(repr=False)

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]

    @property
    def labels(self) -> list[str]:
        return [o["label"] for o in self.options]


@dataclass(eq=False)
class Message:
    """A message as it is now (edits update it in place; `versions` keeps earlier states)."""

    id: int
    channel: Channel
    author: User
    timestamp: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_timestamp: str | None = None
    visible_to: User | None = None  # set for ephemeral messages
    interaction: Interaction | None = None  # the interaction this message answers
    webhook_id: int | None = None
    deleted: bool = False
    versions: list[dict[str, Any]] = field(default_factory=list)
    created_at: float = 0.0  # on the fake's clock (the one-hour edit rule)
    # On the fake's clock: when it was last created, changed or clicked (forgetting.py)
    touched_at: float = 0.0
    revision: int = 0  # how many times its content was set (a reader's cache key)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild_id

    def visible_for(self, user: User) -> bool:
        if self.deleted or self.channel.deleted:
            return False
        if self.visible_to is not None:
            return self.visible_to is user
        if self.channel.is_dm:
            return self.channel.recipient is user
        return True

    def components_flat(self) -> Iterator[dict[str, Any]]:
        for _, comp in walk_components(self.components):
            yield comp

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                label=c.get("label"),
                custom_id=c.get("custom_id"),
                style=c.get("style", 1),
                disabled=bool(c.get("disabled")),
                url=c.get("url"),
                emoji=c.get("emoji"),
                raw=c,
            )
            for c in self.components_flat()
            if c.get("type") == 2
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                custom_id=c["custom_id"],
                type=c["type"],
                options=list(c.get("options") or []),
                min_values=c.get("min_values", 1),
                max_values=c.get("max_values", 1),
                placeholder=c.get("placeholder"),
                disabled=bool(c.get("disabled")),
                raw=c,
            )
            for c in self.components_flat()
            if c.get("type") in SELECT_TYPES
        ]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        matches = [
            b
            for b in self.buttons
            if (label is None or b.label == label)
            and (custom_id is None or b.custom_id == custom_id)
        ]
        if len(matches) != 1:
            have = [(b.label, b.custom_id) for b in self.buttons]
            raise LookupError(
                f"{len(matches)} buttons match label={label!r} custom_id={custom_id!r} on message {self.id}; has {have}"
            )
        return matches[0]

    @property
    def text(self) -> str:
        """Content plus every embed's visible text (titles, descriptions, fields, footers), for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append((embed.get("author") or {}).get("name") or "")
            parts.append(embed.get("title") or "")
            parts.append(embed.get("description") or "")
            for f in embed.get("fields") or ():
                parts.append(f.get("name") or "")
                parts.append(f.get("value") or "")
            parts.append((embed.get("footer") or {}).get("text") or "")
        for comp in self.components_flat():
            if comp.get("type") == 10:  # components v2 text display
                parts.append(comp.get("content") or "")
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            inter = self.interaction
            data["interaction_metadata"] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": inter.user.payload(),
                "authorizing_integration_owners": inter.integration_owners(),
            }
            if inter.type == APPLICATION_COMMAND:
                data["interaction_metadata"]["name"] = inter.command_name
        return data

    def __repr__(self) -> str:
        where = (
            "ephemeral"
            if self.ephemeral
            else ("DM" if self.channel.is_dm else f"#{self.channel.name}")
        )
        return f"<Message {self.id} {where} {self.text[:60]!r} buttons={[b.label for b in self.buttons]}>"


@dataclass(eq=False)
class Modal:
    """A modal the bot opened for a user (callback type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    user: User
    interaction: Interaction
    submitted: bool = False

    @property
    def inputs(self) -> list[dict[str, Any]]:
        """Its fields: text inputs (type 4) and selects, in order."""
        return [
            c for _, c in walk_components(self.components) if c.get("type") in {4, *SELECT_TYPES}
        ]


@dataclass(eq=False)
class Interaction:
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    data: dict[str, Any]
    created_real: float  # time.monotonic(): the 3-second rule runs on real time
    created_fake: float  # the fake's clock: the 15-minute token lifetime runs on it
    message: Message | None = None  # the message a component belonged to
    message_payload: dict[str, Any] | None = (
        None  # what INTERACTION_CREATE carries instead (forgeries)
    )
    command_name: str | None = None
    callback_type: int | None = None
    answered_after: float | None = None  # real seconds between creation and the callback
    # time.monotonic() when its INTERACTION_CREATE was handed to the bot's socket: creation
    # -> written is the fake's own queueing (its loop busy with the simulated players)
    dispatched_real: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: Modal | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    completed: bool = False  # a deferred response got its content (or was not deferred)
    result: Any = None  # what awaiting the interaction's handle returns
    failed: bool = False  # not answered within the deadline
    ephemeral: bool = False

    def integration_owners(self) -> dict[str, str]:
        if self.guild is not None:
            return {"0": str(self.guild.id)}
        return {"1": str(self.user.id)}
