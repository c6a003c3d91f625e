"""FakeDiscord: an aiohttp server on 127.0.0.1 speaking Discord's REST API and gateway.

Every REST request goes through one pipeline: route -> injected fault -> body parsing ->
authorization -> OpenAPI + documented-limit validation -> handler. Invalid requests get Discord's
400 / 50035 answer and are recorded as violations (which fail the test unless taken).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import hdrs, web

from . import errors as E
from . import form_data, limits, ratelimit
from .errors import DiscordError, Violation, json_response
from .forgetting import Forgetting
from .gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS, Gateway, shard_of
from .installs import Installs
from .interactions import Interactions
from .message_index import MessageIndex
from .model import (
    DEFAULT_MEMBER_PERMISSIONS,
    Attachment,
    Channel,
    FakeClock,
    Guild,
    Member,
    Message,
    Role,
    Snowflakes,
    User,
)
from .rest import Rest
from .spec import OpenAPISpec, Operation, SchemaError, load_spec
from .threads import OldEditLimit, Threads, old_edits_exhausted

API_PREFIX = "/api/v10"
WAIT_AT_MOST = 10  # wait_until gives up after this many times its timeout, busy or not


@dataclass
class RequestRecord:
    method: str
    path: str
    template: str | None
    body: Any = None
    status: int | None = None
    files: list[str] = field(default_factory=list)
    kind: str = ""  # ratelimit.BOT (bound to the global limit), INTERACTION or ANONYMOUS


@dataclass
class UploadedFile:
    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class Ctx:
    """What a REST handler gets."""

    request: web.BaseRequest
    params: dict[str, str]
    body: Any
    files: list[UploadedFile]
    query: dict[str, str]


@dataclass
class Fault:
    """An injected failure for the next `remaining` requests matching method and route."""

    status: int
    method: str | None
    route: str | None  # a spec path template ("/channels/{channel_id}/messages") or a concrete path
    remaining: int
    retry_after: float = 0.0
    global_: bool = False
    via: bool = True
    hits: int = 0
    until: float | None = None  # time.monotonic(): a spell, every match fails until then

    def matches(self, method: str, path: str, template: str | None) -> bool:
        if self.until is not None and time.monotonic() >= self.until:
            return False
        if self.remaining <= 0:
            return False
        if self.method is not None and self.method != method:
            return False
        return self.route is None or self.route == template or self.route == path

    def response(self) -> web.Response:
        if self.status == 429:
            headers = {
                "Retry-After": str(max(1, int(self.retry_after + 0.999))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                "X-RateLimit-Scope": "global" if self.global_ else "user",
            }
            if self.global_:
                headers["X-RateLimit-Global"] = "true"
            if self.via:
                headers["Via"] = "1.1 google"
            body = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.global_,
                "code": 0,
            }
            return json_response(body, status=429, headers=headers)
        return web.Response(
            status=self.status, text=f"{self.status}: fake server error", content_type="text/plain"
        )


Handler = Callable[[Ctx], Awaitable[web.StreamResponse]]


class FakeDiscord:
    """A fake Discord for one test: one bot application, guilds, users, messages, interactions."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Mesa",
        guild_name: str = "Mesa Test",
        channels: tuple[str, ...] = ("general",),
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60,
        spec: OpenAPISpec | None = None,
        validate: bool = True,
        keep_history: bool = True,
        shard_count: int = 1,
        global_rate: int | None = ratelimit.GLOBAL_PER_SECOND,
        invalid_limit: int = ratelimit.INVALID_LIMIT,
        route_limits: bool = True,
        route_pace: float = 1.0,
        require_alt_text: bool = True,
        forget_after: float | None = None,
    ) -> None:
        self.spec = spec or load_spec()
        # Every image the bot uploads must carry alt text (the attachment's `description`):
        # Discord accepts one without it, but then a screen reader says only "image"
        # (issue 28 item 4). An image without one is a `missing_alt_text` violation.
        self.require_alt_text = require_alt_text
        # A load run turns these off: `validate=False` skips the OpenAPI walk (documented limits
        # are still checked); `keep_history=False` keeps no request log, no message versions and
        # no attachment bytes, so memory stays flat over a long run.
        self.validate = validate
        # What `GET /gateway/bot` recommends; an IDENTIFY with fewer shards is refused (4011).
        self.shard_count = shard_count
        self.keep_history = keep_history
        # A long load run: forget what is older than this many seconds (forgetting.py).
        self.forgetting = Forgetting(self, forget_after) if forget_after is not None else None
        self._forgetting_task: asyncio.Task[None] | None = None
        # Called with every RequestRecord once answered, and with every message created or
        # edited (ephemerals included) and its gateway event name.
        self.request_observers: list[Callable[[RequestRecord], None]] = []
        self.message_observers: list[Callable[[Message, str], None]] = []
        self.clock = FakeClock()
        # Discord's global limit on bot-token routes (`global_rate` per second, None: off) and
        # its invalid-request limit; `ratelimits.traffic` counts requests per kind of route.
        self.ratelimits = ratelimit.RateLimits(
            self.clock.now,
            global_rate=global_rate,
            invalid_limit=invalid_limit,
            route_limits=route_limits,
        )
        # Every per-route window `route_pace` times shorter, as many requests in each
        # (`RouteBuckets.quicken`): the pytest plugin's fixtures run tests at `TEST_PACE`.
        if route_pace != 1.0:
            self.ratelimits.routes.quicken(route_pace)
        self.ids = Snowflakes()
        self.token = token
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.bot_user = User(id=self.ids.next(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = User(id=self.ids.next(), name="owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}  # by recipient user id
        self.messages: dict[int, Message] = {}
        self.message_index = MessageIndex()  # `messages` by channel and by user
        self.commands: dict[int | None, list[dict[str, Any]]] = {
            None: []
        }  # by guild id (None: global)
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self.violations: list[Violation] = []
        self.requests: list[RequestRecord] = []
        self.faults: list[Fault] = []
        self.gateway = Gateway(self)
        self.interactions = Interactions(self)
        self.rest = Rest(self)
        self.threads = Threads(self)
        self.installs = Installs(self)  # user installs: installs.py
        self._fake_users: dict[str, Any] = {}
        self._changed = asyncio.Event()
        self._changed_at = time.monotonic()  # when the fake's state last changed
        self._runner: web.ServerRunner | None = None
        self.port: int | None = None
        # (method, pattern, literal segments, handler, (segments, first segment or None))
        self._routes: list[tuple[str, re.Pattern[str], int, Handler, tuple[int, str | None]]] = []
        self._routes_by_shape: dict[
            tuple[str, int, str], list[tuple[re.Pattern[str], Handler]]
        ] = {}
        self.rest.register(self._route)
        self.interactions.register(self._route)
        self.threads.register(self._route)
        self._routes.sort(key=lambda r: -r[2])
        self.guild = self.add_guild(guild_name, channels)
        self.channel = self.guild.channels[0]

    # --- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        # aiohttp's low-level server and a dispatch by prefix: the application's router and
        # its middleware chain cost every request more than the fake's own routing did.
        server = web.Server(self._serve, request_factory=_large_body_request, access_log=None)
        self._runner = web.ServerRunner(server, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        if self.forgetting is not None:
            self._forgetting_task = asyncio.create_task(self.forgetting.run())
        return self

    async def stop(self) -> None:
        if self._forgetting_task is not None:
            self._forgetting_task.cancel()
            self._forgetting_task = None
        self.interactions.cancel_timers()
        await self.gateway.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be."""
        return self.http_base + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` must be."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/resume-gateway"

    # --- the world -------------------------------------------------------------------------------

    def add_guild(
        self, name: str, channels: tuple[str, ...] = ("general",), *, shard: int | None = None
    ) -> Guild:
        """A new guild; ``shard``: one whose id routes it to that shard of ``shard_count``."""
        guild_id = self.ids.next()
        while shard is not None and shard_of(guild_id, self.shard_count) != shard:
            guild_id = self.ids.next()
        guild = Guild(id=guild_id, name=name, owner_id=self.owner.id, joined_at=self.clock.iso())
        guild.roles.append(
            Role(id=guild.id, name="@everyone", permissions=DEFAULT_MEMBER_PERMISSIONS)
        )
        for user in (self.owner, self.bot_user):
            guild.members[user.id] = Member(user=user, joined_at=self.clock.iso())
        self.guilds.append(guild)
        for channel_name in channels:
            self._new_guild_channel(guild, channel_name)
        self.commands.setdefault(guild.id, [])
        self.gateway.dispatch(
            "GUILD_CREATE", guild.payload(), intent=INTENT_GUILDS, guild_id=guild.id
        )
        self._bump()
        return guild

    def _new_guild_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            id=self.ids.next(), type=0, name=name, guild_id=guild.id, position=len(guild.channels)
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def add_channel(self, name: str, guild: Guild | None = None) -> Channel:
        guild = guild or self.guild
        channel = self._new_guild_channel(guild, name)
        self.gateway.dispatch(
            "CHANNEL_CREATE", channel.payload(), intent=INTENT_GUILDS, guild_id=guild.id
        )
        self._bump()
        return channel

    def add_role(self, name: str, permissions: int, guild: Guild | None = None) -> Role:
        guild = guild or self.guild
        role = Role(
            id=self.ids.next(), name=name, permissions=permissions, position=len(guild.roles)
        )
        guild.roles.append(role)
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            intent=INTENT_GUILDS,
            guild_id=guild.id,
        )
        return role

    def new_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        locale: str = "es-ES",
        guilds: list[Guild] | None = None,
    ) -> User:
        user = User(id=self.ids.next(), name=name, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        for guild in guilds if guilds is not None else [self.guild]:
            self.join(user, guild)
        return user

    def join(self, user: User, guild: Guild, roles: list[Role] = ()) -> Member:  # type: ignore[assignment]
        member = Member(user=user, joined_at=self.clock.iso(), roles=[r.id for r in roles])
        guild.members[user.id] = member
        self.gateway.dispatch(
            "GUILD_MEMBER_ADD",
            {**member.payload(), "guild_id": str(guild.id)},
            intent=INTENT_GUILD_MEMBERS,
            guild_id=guild.id,
        )
        self._bump()
        return member

    def user(self, name: str, *, dms_open: bool = True, locale: str = "es-ES"):
        """The test API for a user (created and made a member of the default guild on first use)."""
        from .users import FakeUser

        existing = self._fake_users.get(name)
        if existing is None:
            existing = FakeUser(self, self.new_user(name, dms_open=dms_open, locale=locale))
            self._fake_users[name] = existing
        return existing

    def fake_users(self) -> list[Any]:
        """The test API's users made so far (``user(name)``)."""
        return list(self._fake_users.values())

    def dm_channel(self, user: User) -> Channel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.ids.next(), type=1, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def resolve_channel(self, channel: Channel | int | str | None) -> Channel:
        if channel is None:
            return self.channel
        if isinstance(channel, Channel):
            return channel
        if isinstance(channel, int):
            return self.channels[channel]
        for guild in self.guilds:
            for c in guild.channels:
                if c.name == channel.lstrip("#"):
                    return c
        raise LookupError(f"no channel {channel!r}")

    def guild_of(self, channel: Channel) -> Guild | None:
        for guild in self.guilds:
            if guild.id == channel.guild_id:
                return guild
        return self.installs.guild_of(channel)  # a server without the bot (installs.py)

    # --- messages --------------------------------------------------------------------------------

    def channel_messages(self, channel: Channel | int | str | None = None) -> list[Message]:
        """The channel's messages as everyone sees them now (no ephemerals, no deleted), oldest first."""
        ch = self.resolve_channel(channel)
        if ch.deleted:
            return []
        return [
            m
            for m in self.message_index.in_channel(ch.id)
            if m.channel is ch and not m.deleted and m.visible_to is None
        ]

    def last_message(self, channel: Channel | int | str | None = None) -> Message | None:
        msgs = self.channel_messages(channel)
        return msgs[-1] if msgs else None

    def message(self, message_id: int) -> Message:
        return self.messages[message_id]

    def new_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        msg = Message(
            id=self.ids.next(),
            channel=channel,
            author=author,
            timestamp=self.clock.iso(),
            created_at=self.clock.now(),
            touched_at=self.clock.now(),
            **fields,
        )
        self.messages[msg.id] = msg
        self.message_index.add(msg)
        self.threads.message_posted(msg)
        return msg

    def announce_message(self, msg: Message, event: str = "MESSAGE_CREATE") -> None:
        for observe in self.message_observers:
            observe(msg, event)
        if msg.visible_to is not None or self.installs.bot_absent(msg.channel):
            return  # ephemeral messages, and places without the bot, never reach the gateway
        from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES

        intent = INTENT_DIRECT_MESSAGES if msg.channel.is_dm else INTENT_GUILD_MESSAGES
        data = msg.payload()
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        self.gateway.dispatch(event, data, intent=intent, guild_id=msg.guild_id)

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """A moderator archives (and maybe locks) a thread (see threads.py)."""
        self.threads.archive(thread, locked=locked)

    def delete_thread(self, thread: Channel) -> None:
        """A moderator deletes a thread: THREAD_DELETE; its messages are gone (404 / 10003)."""
        self.threads.delete_thread(thread)

    def threads_of(self, channel: Channel | int | str | None = None) -> list[Channel]:
        """The existing threads started in a channel, oldest first."""
        return self.threads.threads_of(self.resolve_channel(channel))

    def refuse_old_edits(self, count: int | None = None, channel: Channel | None = None) -> None:
        """Edits of messages older than one hour answer 429 / 30046 (``count`` times; None:
        every time; only in ``channel`` if given) on the bot-token and webhook edit routes."""
        self.threads.refuse_old_edits(count, channel)

    def delete_message(self, message: Message) -> None:
        """Delete a message as a moderator would: the bot's later edits get 404 / 10008."""
        message.deleted = True
        if message.visible_to is None:
            from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES

            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            intent = INTENT_DIRECT_MESSAGES if message.channel.is_dm else INTENT_GUILD_MESSAGES
            self.gateway.dispatch("MESSAGE_DELETE", data, intent=intent, guild_id=message.guild_id)
        self._bump()

    def apply_message_body(
        self, msg: Message, body: dict[str, Any], files: list[UploadedFile], *, edit: bool
    ) -> None:
        """Set content/embeds/components/attachments/flags of `msg` from a create or edit body."""
        msg.touched_at = self.clock.now()
        msg.revision += 1
        if edit:
            if self.keep_history:
                msg.versions.append(msg.snapshot())
            msg.edited_timestamp = self.clock.iso()
            self.interactions.message_edited(msg)
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = [{"type": "rich", **e} for e in body["embeds"] or []]
        if "components" in body:
            msg.components = _number_components(body["components"] or [])
        if body.get("flags") is not None:
            keep = limits.FLAG_EPHEMERAL | limits.FLAG_LOADING
            settable = (
                4 | limits.FLAG_COMPONENTS_V2 | (0 if edit else 4096)
            )  # suppress embeds/notifications
            msg.flags = (msg.flags & keep) | (body["flags"] & settable)
        by_index = {f.index: f for f in files}
        # A Components V2 gallery item / thumbnail description is its image's alt text too
        # (read only for uploads: most edits carry none).
        shown_alt = limits.media_descriptions(msg.components) if files else {}
        new_attachments: list[Attachment]
        if "attachments" in body and body["attachments"] is not None:
            existing = {a.id: a for a in msg.attachments}
            new_attachments = []
            for spec in body["attachments"]:
                ref = int(spec["id"])
                if ref in by_index:
                    upload = by_index.pop(ref)
                    new_attachments.append(
                        self._attachment(
                            msg,
                            upload,
                            spec.get("description") or shown_alt.get(upload.filename),
                        )
                    )
                elif ref in existing:
                    new_attachments.append(existing[ref])
                else:
                    raise E.invalid_form_body(
                        [
                            SchemaError(
                                ("attachments",),
                                "ATTACHMENT_NOT_FOUND",
                                f"Unknown attachment {ref}",
                            )
                        ]
                    )
        else:
            new_attachments = list(msg.attachments) if edit else []
        for upload in sorted(by_index.values(), key=lambda f: f.index):
            new_attachments.append(self._attachment(msg, upload, shown_alt.get(upload.filename)))
        msg.attachments = new_attachments

    def _attachment(
        self, msg: Message, upload: UploadedFile, description: str | None
    ) -> Attachment:
        att_id = self.ids.next()
        attachment = Attachment(
            id=att_id,
            filename=upload.filename,
            data=upload.data if self.keep_history else b"",
            content_type=upload.content_type
            if upload.content_type not in ("", "application/octet-stream")
            else Attachment.guess_type(upload.filename),
            description=description,
            url=f"{self.http_base}/attachments/{msg.channel.id}/{att_id}/{upload.filename}",
        )
        if (
            self.require_alt_text
            and attachment.content_type.startswith("image/")
            and not (description or "").strip()
        ):
            self.violate(
                "missing_alt_text",
                f"image {upload.filename!r} sent without a description (alt text)",
            )
        return attachment

    # --- commands --------------------------------------------------------------------------------

    def store_commands(
        self, guild_id: int | None, commands: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        stored = []
        for command in commands:
            kind = command.get("type", 1)
            key = (guild_id, kind, command["name"])
            cid = self._command_ids.setdefault(key, self.ids.next())
            data = {
                "id": str(cid),
                "application_id": str(self.application_id),
                "version": str(self.ids.next()),
                "type": kind,
                "name": command["name"],
                "description": command.get("description") or "",
                "options": command.get("options") or [],
                "default_member_permissions": command.get("default_member_permissions"),
                "nsfw": bool(command.get("nsfw")),
                "contexts": command.get("contexts"),
                "integration_types": command.get("integration_types") or [0],
                "name_localizations": command.get("name_localizations"),
                "description_localizations": command.get("description_localizations"),
                "dm_permission": command.get("dm_permission", True),
            }
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            stored.append(data)
        self.commands[guild_id] = stored
        self._bump()
        return stored

    def find_command(self, name: str, guild: Guild | None) -> dict[str, Any]:
        """A chat-input command as the bot synced it: the guild's first, then the global ones."""
        scopes: list[int | None] = ([guild.id] if guild is not None else []) + [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["type"] == 1 and command["name"] == name:
                    if scope is None and guild is None and not _usable_in_dm(command):
                        continue
                    return command
        synced = {scope: [c["name"] for c in cmds] for scope, cmds in self.commands.items()}
        raise LookupError(f"no synced slash command /{name} usable here; synced: {synced}")

    # --- faults ----------------------------------------------------------------------------------

    def rate_limit(
        self,
        route: str | None = None,
        *,
        method: str | None = None,
        count: int = 1,
        retry_after: float = 0.05,
        global_: bool = False,
        via: bool = True,
    ) -> Fault:
        """Answer the next `count` matching requests with 429 (JSON `retry_after`, `Via` unless via=False)."""
        fault = Fault(429, method, route, count, retry_after=retry_after, global_=global_, via=via)
        self.faults.append(fault)
        return fault

    def fail(
        self,
        route: str | None = None,
        *,
        method: str | None = None,
        count: int = 1,
        status: int = 500,
    ) -> Fault:
        """Answer the next `count` matching requests with a server error."""
        fault = Fault(status, method, route, count)
        self.faults.append(fault)
        return fault

    def fail_for(
        self,
        seconds: float,
        route: str | None = None,
        *,
        method: str | None = None,
        status: int = 503,
    ) -> Fault:
        """A spell of server errors: every matching request fails with ``status`` for
        ``seconds`` (Discord's REST having a bad few minutes)."""
        fault = Fault(status, method, route, 1 << 62, until=time.monotonic() + seconds)
        self.faults.append(fault)
        return fault

    async def gateway_outage(self, seconds: float, *, resumable: bool = True) -> None:
        """The gateway goes away for ``seconds``: every connection is closed and new ones are
        refused (HTTP 503 at the handshake) until then. ``resumable=False``: Discord also lost
        the sessions, so the bot must IDENTIFY again (INVALID_SESSION on its RESUME)."""
        await self.gateway.outage(seconds, resumable=resumable)

    async def close_gateway(self, code: int = 4000, *, shard_id: int = 0) -> None:
        """Close the bot's gateway connection (4000: unknown error, the bot must RESUME)."""
        await self.gateway.close(code, shard_id=shard_id)

    def shard_of(self, guild: Guild) -> int:
        """The shard (of ``shard_count``) Discord routes ``guild``'s events to."""
        return shard_of(guild.id, self.shard_count)

    async def wait_until_shards_connected(
        self, shard_ids: list[int] | range, timeout: float = 30.0
    ) -> None:
        await self.wait_until(
            lambda: all(self.gateway.shard_connected(i) for i in shard_ids),
            timeout=timeout,
            what=f"gateway connections of shards {list(shard_ids)}",
        )

    def hold_resumes(self) -> asyncio.Event:
        """Make the gateway hold every RESUME until the returned event is set (events dispatched
        meanwhile are queued and replayed), so a test can act while the bot is disconnected."""
        gate = asyncio.Event()
        self.gateway.resume_gate = gate
        return gate

    async def wait_for_resume(self, count: int = 1, timeout: float = 30.0) -> None:
        await self.wait_until(
            lambda: self.gateway.session is not None and self.gateway.session.resumes >= count,
            timeout=timeout,
            what=f"{count} gateway RESUME(s)",
        )

    def _take_fault(self, method: str, path: str, template: str | None) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path, template):
                fault.remaining -= 1
                fault.hits += 1
                return fault
        return None

    # --- clock, waiting, violations --------------------------------------------------------------

    def advance(self, seconds: float = 0.0, *, minutes: float = 0.0, hours: float = 0.0) -> None:
        """Move the fake's clock forward (interaction tokens expire 15 minutes after creation)."""
        self.clock.advance(seconds, minutes=minutes, hours=hours)
        self._bump()

    def _bump(self) -> None:
        """Wake everyone waiting on a condition about the fake's state."""
        self._changed_at = time.monotonic()
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float = 30.0, what: str = "condition"
    ) -> Any:
        """Wait until `predicate()` is truthy; return its value. Re-checked on every change of the
        fake's state, and every 20 ms for predicates about other state (the bot's).

        ``timeout`` bounds a hang, not a speed: it gives up once the fake has seen nothing
        change (no request, message, interaction or connection) for ``timeout`` seconds, or
        after ``WAIT_AT_MOST`` times ``timeout`` in all. A bot slowed down by a busy machine is
        waited for while it keeps working; a stuck one fails as soon as it goes quiet."""
        started = time.monotonic()
        while True:
            event = self._changed
            value = predicate()
            if value:
                return value
            now = time.monotonic()
            remaining = (
                min(max(started, self._changed_at) + timeout, started + WAIT_AT_MOST * timeout)
                - now
            )
            if remaining <= 0:
                raise TimeoutError(
                    f"fake Discord: timed out waiting for {what} ({now - started:.1f} s; "
                    f"{now - max(started, self._changed_at):.1f} s with no change, limit {timeout} s)"
                )
            try:
                await asyncio.wait_for(event.wait(), min(remaining, 0.02))
            except TimeoutError:
                pass

    async def wait_until_connected(self, timeout: float = 30.0) -> None:
        await self.wait_until(
            lambda: self.gateway.connected, timeout=timeout, what="the bot's gateway connection"
        )

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        channel: Channel | int | str | None = None,
        timeout: float = 30.0,
    ) -> Message:
        """The first channel message (existing or future) matching `predicate`."""
        ch = self.resolve_channel(channel)

        def find() -> Message | None:
            for msg in self.channel_messages(ch):
                if predicate is None or predicate(msg):
                    return msg
            return None

        return await self.wait_until(find, timeout=timeout, what=f"a message in #{ch.name}")

    def violate(self, kind: str, detail: str, **where: Any) -> Violation:
        violation = Violation(kind=kind, detail=detail, **where)
        self.violations.append(violation)
        self._bump()
        return violation

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return the recorded violations (of `kind`): a test that expects them takes them."""
        taken = [v for v in self.violations if kind is None or v.kind == kind]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def assert_no_violations(self) -> None:
        if self.violations:
            lines = "\n  ".join(str(v) for v in self.violations)
            raise AssertionError(
                f"fake Discord recorded {len(self.violations)} violation(s):\n  {lines}"
            )

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until every interaction was answered (or missed its deadline) and every deferred one
        got its content; record the ones that never will as violations (``timeout``: of quiet on
        the fake, as ``wait_until``'s; a hang bound, not a speed)."""
        await self.interactions.settle(timeout)

    # --- the REST pipeline -----------------------------------------------------------------------

    def _route(self, method: str, template: str, handler: Handler) -> None:
        parts = []
        heads: list[str | None] = []  # each segment's literal text, None for a parameter
        for seg in template.split("/"):
            m = re.fullmatch(r"\{(\w+)\}", seg)
            parts.append(f"(?P<{m.group(1)}>[^/]+)" if m else re.escape(seg))
            heads.append(None if m else seg)
        literal = sum(1 for seg in template.split("/") if seg and not seg.startswith("{"))
        shape = (len(heads), heads[1] if len(heads) > 1 else "")
        self._routes.append((method, re.compile("/".join(parts)), literal, handler, shape))
        self._routes_by_shape.clear()

    def _find_handler(self, method: str, path: str) -> tuple[Handler | None, dict[str, str]]:
        for regex, handler in self._route_candidates(method, path):
            m = regex.fullmatch(path)
            if m:
                return handler, m.groupdict()
        return None, {}

    def _route_candidates(self, method: str, path: str) -> list[tuple[re.Pattern[str], Handler]]:
        """The routes, in their order, that a path of this shape may match: the method's, with
        as many segments and the same first one (a parameter never holds a slash)."""
        segments = path.split("/")
        key = (method, len(segments), segments[1] if len(segments) > 1 else "")
        found = self._routes_by_shape.get(key)
        if found is None:
            found = self._routes_by_shape[key] = [
                (regex, handler)
                for route_method, regex, _, handler, (count, head) in self._routes
                if route_method == method
                and count == key[1]
                and (head == key[2] or (head is None and key[2] != ""))
            ]
        return found

    async def _serve(self, request: web.BaseRequest) -> web.StreamResponse:
        """Every HTTP request: the REST API, the gateway's websockets, the attachments."""
        path = request.path
        if path.startswith(API_PREFIX + "/"):
            return await self._handle_api(request, path[len(API_PREFIX) :])
        if path in ("/gateway", "/resume-gateway"):
            if request.method not in ("GET", "HEAD"):
                return web.Response(status=405)
            return await self.gateway.handle(request)
        found = _ATTACHMENT_PATH.fullmatch(path)
        if found is not None:
            if request.method not in ("GET", "HEAD"):
                return web.Response(status=405)
            return self._attachment_bytes(int(found.group(1)))
        return web.Response(status=404, text="404: Not Found")

    async def _handle_api(self, request: web.BaseRequest, path: str) -> web.StreamResponse:
        method = request.method
        op = self.spec.match(method, path)
        template = op.template if op else None
        kind = ratelimit.route_kind(path, request.headers.get("Authorization"))
        record = RequestRecord(method=method, path=path, template=template, kind=kind)
        if self.keep_history:
            self.requests.append(record)
        slot: ratelimit.Slot | None = None
        try:
            retry_after = self.ratelimits.admit(kind)
            # An injected fault answers before the route's bucket counts the request (a 5xx of
            # Discord's edge, a test's own 429 with its own headers): it carries no bucket state.
            fault = None if retry_after else self._take_fault(method, path, template)
            if not retry_after and fault is None:
                slot = self.ratelimits.route_slot(kind, method, template, path)
            if retry_after:
                response = self._over_global_limit(method, path, retry_after)
            elif fault is not None:
                response = fault.response()
            elif slot is not None and not slot.admitted:
                response = self._over_route_limit(method, path, slot)
            else:
                response = await self._process(request, method, path, op, record)
        except OldEditLimit:
            response = old_edits_exhausted()
        except DiscordError as exc:
            if exc.status == 400 and not exc.recorded:
                self.violate(
                    "bad_request",
                    f"{exc.code} {exc.message}",
                    method=method,
                    path=path,
                    body=record.body,
                )
            response = exc.response()
        if slot is not None and slot.admitted:
            response.headers.update(slot.headers)  # every answer carries its bucket's state
        record.status = response.status
        if self.ratelimits.answered(method, template, record.body, response.status):
            self.violate(
                "invalid_requests",
                f"{self.ratelimits.invalid_limit} invalid requests (401/403/429) within "
                f"{ratelimit.INVALID_WINDOW / 60:g} minutes: Cloudflare bans the bot's IP",
                method=method,
                path=path,
            )
        for observe in self.request_observers:
            observe(record)
        self._bump()
        return response

    def _over_global_limit(self, method: str, path: str, retry_after: float) -> web.Response:
        """Discord's global 429 for a bot-token request over the limit, recorded as a violation."""
        self.violate(
            "global_rate_limit",
            f"more than {self.ratelimits.global_rate} bot-token requests within 1 s "
            f"(Discord answers 429 global, retry after {retry_after:.3f} s)",
            method=method,
            path=path,
        )
        body, headers = ratelimit.global_429(retry_after)
        return web.Response(body=body, status=429, headers=headers)

    def _over_route_limit(self, method: str, path: str, slot: ratelimit.Slot) -> web.Response:
        """Discord's 429 (scope "user") for a request over its route's bucket, recorded as a
        violation: a bot that reads the `X-RateLimit-*` headers waits before it gets there."""
        limit = slot.limit
        self.violate(
            "route_rate_limit",
            f"more than {limit.limit} requests in {limit.period:g} s on bucket {slot.bucket!r} "
            f"({slot.major or 'no major parameter'}): Discord answers 429, scope user, retry "
            f"after {slot.retry_after:.3f} s",
            method=method,
            path=path,
        )
        body, headers = ratelimit.route_429(slot)
        return web.Response(body=body, status=429, headers=headers)

    async def _process(
        self,
        request: web.BaseRequest,
        method: str,
        path: str,
        op: Operation | None,
        record: RequestRecord,
    ) -> web.StreamResponse:
        body, raw, files, content_type = await _read_body(request)
        record.body = body
        record.files = [f.filename for f in files]
        handler, params = self._find_handler(method, path)
        if (
            not _is_token_route(path)
            and request.headers.get("Authorization") != f"Bot {self.token}"
        ):
            raise E.unauthorized()
        self.installs.check_bot_access(path)  # 403 / 50001 where the bot is not (installs.py)
        problems: list[SchemaError] = []
        if self.validate and op is not None and body is not None:
            problems += self.spec.validate(op, content_type, body, raw)
        if (
            op is not None
            and method in ("POST", "PUT", "PATCH")
            and body is None
            and op.body_required
        ):
            problems.append(SchemaError((), "BASE_TYPE_REQUIRED", "A request body is required"))
        problems += self._check_limits(op, params, body, files)
        if problems:
            self.violate(
                "invalid_body",
                "; ".join(
                    f"{'.'.join(map(str, p.path)) or '<body>'}: {p.code} {p.message[:120]}"
                    for p in problems
                ),
                method=method,
                path=path,
                body=body,
                errors=problems,
            )
            error = E.invalid_form_body(problems)
            error.recorded = True
            raise error
        if handler is None:
            self.violate(
                "unimplemented",
                "the fake does not implement this route",
                method=method,
                path=path,
                body=body,
            )
            raise DiscordError(404, 0, "404: Not Found")
        return await handler(
            Ctx(request=request, params=params, body=body, files=files, query=dict(request.query))
        )

    def _check_limits(
        self, op: Operation | None, params: dict[str, str], body: Any, files: list[UploadedFile]
    ) -> list[SchemaError]:
        if op is None:
            return []
        key = (op.method, op.template)
        problems = limits.check_files([len(f.data) for f in files])
        if key in _MESSAGE_BODIES:
            problems += limits.check_message(
                body,
                before=self._before(key, params),
                uploads=[f.filename for f in files],
            )
        elif key == (
            "POST",
            "/interactions/{interaction_id}/{interaction_token}/callback",
        ) and isinstance(body, dict):
            if body.get("type") == 9:
                problems += limits.check_modal(body.get("data"))
            else:
                inter = self.interactions.by_token.get(params.get("interaction_token", ""))
                clicked = inter.message if inter is not None else None
                problems += limits.check_callback(
                    body, before=_before(clicked) if clicked is not None else None
                )
        elif op.template.endswith("/commands") and op.method == "PUT":
            problems += limits.check_commands(body)
        elif op.template.endswith("/commands") and op.method == "POST":
            problems += limits.check_commands([body])
        return problems

    def _before(self, key: tuple[str, str], params: dict[str, str]) -> limits.Before | None:
        """The message an edit (or the answer that replaces a "thinking" placeholder) changes."""
        method, template = key
        message: Message | None = None
        if template.endswith("/@original"):
            inter = self.interactions.by_token.get(params.get("webhook_token", ""))
            message = inter.original if inter is not None else None
            if message is not None and message.loading:
                return None  # the placeholder is replaced, as a new message
        elif method == "PATCH" and params.get("message_id", "").isdigit():
            message = self.messages.get(int(params["message_id"]))
        return _before(message) if message is not None else None

    def _attachment_bytes(self, attachment_id: int) -> web.Response:
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == attachment_id:
                    return web.Response(body=att.data, headers={"Content-Type": att.content_type})
        return web.Response(status=404)


_ATTACHMENT_PATH = re.compile(r"/attachments/[^{}/]+/([^{}/]+)/[^{}/]+")
MAX_REQUEST_BYTES = 64 * 1024 * 1024  # Discord takes 25 MiB of files; the rest is the fake's slack


def _large_body_request(
    message: Any, payload: Any, protocol: Any, writer: Any, task: Any
) -> web.BaseRequest:
    """A request that may carry uploads (aiohttp's default reads at most 1 MiB of a body)."""
    return web.BaseRequest(
        message,
        payload,
        protocol,
        writer,
        task,
        asyncio.get_running_loop(),
        client_max_size=MAX_REQUEST_BYTES,
    )


_MESSAGE_BODIES = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}


def _before(message: Message) -> limits.Before:
    return limits.Before(
        flags=message.flags,
        content=message.content or "",
        embeds=len(message.embeds),
        attachments=tuple((a.id, a.filename) for a in message.attachments),
    )


def _is_token_route(path: str) -> bool:
    """Interaction callbacks and webhook-token routes carry no Authorization header."""
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


def _usable_in_dm(command: dict[str, Any]) -> bool:
    contexts = command.get("contexts")
    if contexts is not None:
        return 1 in contexts
    return command.get("dm_permission", True) is not False


def _number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Echo components as Discord does: same content, each with a numeric `id` (a component
    that has one keeps it, and still takes its number from the count)."""
    counter = [0]
    return [_numbered(c, counter) for c in components]


def _numbered(comp: Any, counter: list[int]) -> Any:
    # A plain function and a list for the count, not a closure over an iterator: every
    # component of every message created or edited comes here.
    if not isinstance(comp, dict):
        return comp
    out = dict(comp)
    counter[0] += 1
    if "id" not in out:
        out["id"] = counter[0]
    inner = out.get("components")
    if isinstance(inner, list):
        out["components"] = [_numbered(c, counter) for c in inner]
    child = out.get("accessory")
    if isinstance(child, dict):
        out["accessory"] = _numbered(child, counter)
    child = out.get("component")
    if isinstance(child, dict):
        out["component"] = _numbered(child, counter)
    return out


async def _read_body(request: web.BaseRequest) -> tuple[Any, bytes | None, list[UploadedFile], str]:
    """(decoded JSON body or multipart payload_json, its raw bytes, uploaded files, content type)."""
    header = request.headers.get(hdrs.CONTENT_TYPE, "")
    # The bot's uploads: their boundary differs each time, which aiohttp's cached
    # `content_type` parse misses (the e-mail parser, every time) (form_data.py).
    content_type = (
        form_data.FORM_DATA
        if form_data.plain_boundary(header) is not None
        else request.content_type
    )
    files: list[UploadedFile] = []
    if content_type == form_data.FORM_DATA:
        body: Any = None
        raw: bytes | None = None
        for part in await form_data.read_parts(request):
            name = part.name or ""
            if name == "payload_json":
                raw = part.data
                body = json.loads(raw)
            else:
                m = re.fullmatch(r"files\[(\d+)\]", name) or re.fullmatch(r"file(\d*)", name)
                index = int(m.group(1) or 0) if m else len(files)
                files.append(
                    UploadedFile(
                        index=index,
                        filename=part.filename or f"file{index}",
                        data=part.data,
                        content_type=part.content_type,
                    )
                )
        return body, raw, files, content_type
    raw = await request.read()
    if not raw:
        return None, None, files, content_type
    try:
        return json.loads(raw), raw, files, content_type
    except ValueError as exc:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from exc
