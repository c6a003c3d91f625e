"""Threads in the fake Discord: start one (from a message or not), post in it, archive, lock,
rename and delete it, as a bot or as a moderator; and the rules Discord enforces around them.

Rules (Discord's documentation, "Threads" and "Start Thread from Message / without Message"):
- threads start only in a guild text channel: never in a DM, never inside another thread
  (400 / 50024 "Cannot execute action on this channel type");
- starting a public thread needs CREATE_PUBLIC_THREADS in the parent (403 / 50013), posting in
  one needs SEND_MESSAGES_IN_THREADS (not SEND_MESSAGES; 403 / 50013);
- a thread started from a message has the message's id; a message starts at most one thread
  (400 / 160004); a thread started without a message leaves a THREAD_CREATED (type 18) system
  message in the parent channel;
- this fake implements public threads (type 11) only: asking for another type is a violation;
- posting in an archived thread unarchives it, unless it is locked (400 / 50083); edits in an
  archived thread are refused (400 / 50083); a deleted thread is 404 / 10003;
- gateway: THREAD_CREATE (``newly_created``), THREAD_UPDATE, THREAD_DELETE; GUILD_CREATE lists
  the guild's active threads;
- 30046: Discord limits edits of messages older than one hour ("Maximum number of edits to
  messages older than 1 hour reached. Try again later."), answered 429 with code 30046 and no
  ``Via`` header (discord.py raises it as an HTTPException instead of retrying). The limit is not
  published: a test turns it on with ``fake.refuse_old_edits()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import errors as E
from .errors import DiscordError, json_response
from .model import (
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    MANAGE_THREADS,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    Message,
)

if TYPE_CHECKING:
    from .server import Ctx, FakeDiscord

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
THREAD_CREATED = 18  # message type of the parent's "X started a thread" line
OLD_MESSAGE_SECONDS = 3600.0


def wrong_channel_type() -> DiscordError:
    return DiscordError(400, 50024, "Cannot execute action on this channel type")


def thread_archived() -> DiscordError:
    return DiscordError(400, 50083, "Thread is archived")


def thread_already_created() -> DiscordError:
    return DiscordError(400, 160004, "A thread has already been created for this message")


def old_edits_exhausted() -> web.Response:
    return json_response(
        {
            "message": "Maximum number of edits to messages older than 1 hour reached."
            " Try again later.",
            "code": 30046,
        },
        status=429,
    )


class OldEditLimit(Exception):
    """Raised by ``Threads.check_edit``: answer with ``old_edits_exhausted()``."""


class Threads:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        # How many more edits of hour-old messages to refuse with 30046 (None: every one).
        self._refuse_old_edits: int | None = 0
        self._old_edits_in: Channel | None = None  # only there (None: everywhere)
        self.threads_by_message: dict[int, Channel] = {}

    def register(self, route) -> None:
        route("POST", "/channels/{channel_id}/threads", self.start_without_message)
        route(
            "POST", "/channels/{channel_id}/messages/{message_id}/threads", self.start_from_message
        )
        route("PATCH", "/channels/{channel_id}", self.modify)
        route("DELETE", "/channels/{channel_id}", self.delete_route)

    # --- test API ----------------------------------------------------------------------------

    def refuse_old_edits(self, count: int | None = None, channel: Channel | None = None) -> None:
        """From now on, edits of messages older than one hour (fake clock) answer 429 / 30046:
        ``count`` of them, or every one (None); only in ``channel`` if given."""
        self._refuse_old_edits = count
        self._old_edits_in = channel

    def archive(self, thread: Channel, *, locked: bool = False) -> None:
        """A moderator archives (and maybe locks) ``thread``."""
        thread.archived = True
        thread.locked = locked
        thread.archive_timestamp = self.fake.clock.iso()
        self._announce_update(thread)

    def delete_thread(self, thread: Channel) -> None:
        """A moderator deletes ``thread``: its messages go with it, THREAD_DELETE is sent."""
        from .gateway import INTENT_GUILDS

        thread.deleted = True
        self._forget(thread)
        assert thread.parent is not None
        self.fake.gateway.dispatch(
            "THREAD_DELETE",
            {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "parent_id": str(thread.parent.id),
                "type": thread.type,
            },
            intent=INTENT_GUILDS,
            guild_id=thread.guild_id,
        )
        self.fake._bump()

    def threads_of(self, channel: Channel) -> list[Channel]:
        """The threads started in ``channel`` that still exist, oldest first."""
        return [
            c
            for c in self.fake.channels.values()
            if c.is_thread and c.parent is channel and not c.deleted
        ]

    # --- rules other routes apply ------------------------------------------------------------

    def bot_permissions(self, channel: Channel) -> int:
        guild = self.fake.guild_of(channel)
        if guild is None:
            return 0
        return guild.permissions_of(self.fake.bot_user) & ~channel.denied()

    def check_post(self, channel: Channel) -> None:
        """A bot message into ``channel`` (a thread): deleted, locked, permission; an archived
        thread that is not locked is unarchived by the post."""
        if not channel.is_thread:
            return
        if channel.deleted:
            raise E.unknown_channel()
        if not self.bot_permissions(channel) & SEND_MESSAGES_IN_THREADS:
            raise E.missing_permissions()
        if channel.archived:
            if channel.locked and not self.bot_permissions(channel) & MANAGE_THREADS:
                raise thread_archived()
            channel.archived = False
            self._announce_update(channel)

    def check_edit(self, msg: Message) -> None:
        """An edit of ``msg``: refused in an archived or deleted thread; 30046 when turned on and
        the message is over an hour old."""
        channel = msg.channel
        if channel.is_thread:
            if channel.deleted:
                raise E.unknown_channel()
            if channel.archived:
                raise thread_archived()
        if (
            self._refuse_old_edits != 0
            and (self._old_edits_in is None or channel is self._old_edits_in)
            and self.fake.clock.now() - msg.created_at >= OLD_MESSAGE_SECONDS
        ):
            if self._refuse_old_edits is not None:
                self._refuse_old_edits -= 1
            raise OldEditLimit

    def message_posted(self, msg: Message) -> None:
        if msg.channel.is_thread:
            msg.channel.message_count += 1

    # --- routes ------------------------------------------------------------------------------

    def _parent(self, ctx: Ctx) -> Channel:
        channel = self.fake.channels.get(_int(ctx.params["channel_id"]))
        if channel is None or channel.deleted:
            raise E.unknown_channel()
        if channel.type != GUILD_TEXT:
            raise wrong_channel_type()  # no thread in a DM or inside a thread
        if not self.bot_permissions(channel) & CREATE_PUBLIC_THREADS:
            raise E.missing_permissions()
        return channel

    def _body(self, ctx: Ctx) -> tuple[str, int]:
        body = ctx.body or {}
        duration = body.get("auto_archive_duration") or 1440
        if duration not in ARCHIVE_DURATIONS:
            raise E.invalid_form_body([])
        return str(body.get("name") or ""), int(duration)

    async def start_without_message(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        body = ctx.body or {}
        if body.get("type", 12) != PUBLIC_THREAD:
            fake.violate(
                "unimplemented",
                "the fake implements public threads (type 11) only; Discord's default is 12",
                method="POST",
                path=ctx.request.path,
                body=body,
            )
            raise DiscordError(404, 0, "404: Not Found")
        parent = self._parent(ctx)
        name, duration = self._body(ctx)
        thread = self._new_thread(parent, fake.ids.next(), name, duration)
        line = fake.new_message(parent, fake.bot_user, content=name, type=THREAD_CREATED)
        fake.announce_message(line)
        fake._bump()
        return json_response(thread.payload(), status=201)

    async def start_from_message(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        parent = self._parent(ctx)
        msg = fake.messages.get(_int(ctx.params["message_id"]))
        if msg is None or msg.channel is not parent or msg.deleted or msg.visible_to is not None:
            raise E.unknown_message()
        if msg.id in self.threads_by_message:
            raise thread_already_created()
        name, duration = self._body(ctx)
        thread = self._new_thread(parent, msg.id, name, duration)
        self.threads_by_message[msg.id] = thread
        fake._bump()
        return json_response(thread.payload(), status=201)

    async def modify(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        channel = fake.channels.get(_int(ctx.params["channel_id"]))
        if channel is None or channel.deleted:
            raise E.unknown_channel()
        body = ctx.body or {}
        if not channel.is_thread:
            if channel.is_dm:
                raise wrong_channel_type()
            if "name" in body:
                channel.name = body["name"]
            return json_response(channel.payload())
        manage = bool(self.bot_permissions(channel) & MANAGE_THREADS)
        if not manage and channel.owner_id != fake.bot_user.id:
            raise E.missing_permissions()
        if channel.locked and not manage:
            raise thread_archived()
        if "locked" in body and not manage:
            raise E.missing_permissions()
        if "name" in body:
            channel.name = body["name"]
        if "auto_archive_duration" in body:
            if body["auto_archive_duration"] not in ARCHIVE_DURATIONS:
                raise E.invalid_form_body([])
            channel.auto_archive_duration = body["auto_archive_duration"]
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if "archived" in body:
            channel.archived = bool(body["archived"])
            channel.archive_timestamp = fake.clock.iso()
        self._announce_update(channel)
        return json_response(channel.payload())

    async def delete_route(self, ctx: Ctx) -> web.Response:
        channel = self.fake.channels.get(_int(ctx.params["channel_id"]))
        if channel is None or channel.deleted:
            raise E.unknown_channel()
        if not channel.is_thread:
            raise DiscordError(403, 50013, "Missing Permissions")  # the fake's bot never may
        if not self.bot_permissions(channel) & MANAGE_THREADS:
            raise E.missing_permissions()
        payload = channel.payload()
        self.delete_thread(channel)
        return json_response(payload)

    # --- helpers -----------------------------------------------------------------------------

    def _new_thread(self, parent: Channel, thread_id: int, name: str, duration: int) -> Channel:
        from .gateway import INTENT_GUILDS

        fake = self.fake
        now = fake.clock.iso()
        thread = Channel(
            id=thread_id,
            type=PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent=parent,
            owner_id=fake.bot_user.id,
            auto_archive_duration=duration,
            archive_timestamp=now,
            create_timestamp=now,
        )
        fake.channels[thread.id] = thread
        guild = fake.guild_of(parent)
        assert guild is not None
        guild.threads.append(thread)
        fake.gateway.dispatch(
            "THREAD_CREATE",
            {**thread.payload(), "newly_created": True},
            intent=INTENT_GUILDS,
            guild_id=thread.guild_id,
        )
        return thread

    def _forget(self, thread: Channel) -> None:
        guild = self.fake.guild_of(thread)
        if guild is not None and thread in guild.threads:
            guild.threads.remove(thread)

    def _announce_update(self, thread: Channel) -> None:
        from .gateway import INTENT_GUILDS

        guild = self.fake.guild_of(thread)
        if guild is not None:
            if thread.archived:
                self._forget(thread)
            elif thread not in guild.threads and not thread.deleted:
                guild.threads.append(thread)
        self.fake.gateway.dispatch(
            "THREAD_UPDATE", thread.payload(), intent=INTENT_GUILDS, guild_id=thread.guild_id
        )
        self.fake._bump()


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1
