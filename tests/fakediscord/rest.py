"""REST handlers for everything but interactions: login, gateway discovery, commands, channels,
messages, DMs, guilds, users."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import errors as E
from .errors import DiscordError, json_response
from .model import Channel, Message

if TYPE_CHECKING:
    from .server import Ctx, FakeDiscord


class Rest:
    def __init__(self, fake: FakeDiscord):
        self.fake = fake

    def register(self, route) -> None:
        route("GET", "/users/@me", self.get_me)
        route("GET", "/users/{user_id}", self.get_user)
        route("POST", "/users/@me/channels", self.create_dm)
        route("GET", "/oauth2/applications/@me", self.get_application)
        route("GET", "/applications/@me", self.get_application)
        route("GET", "/gateway", self.get_gateway)
        route("GET", "/gateway/bot", self.get_gateway_bot)
        route("GET", "/applications/{application_id}/commands", self.get_commands)
        route("PUT", "/applications/{application_id}/commands", self.put_commands)
        route("POST", "/applications/{application_id}/commands", self.post_command)
        route("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands)
        route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands)
        route(
            "POST", "/applications/{application_id}/guilds/{guild_id}/commands", self.post_command
        )
        route("GET", "/channels/{channel_id}", self.get_channel)
        route("GET", "/channels/{channel_id}/messages", self.get_messages)
        route("POST", "/channels/{channel_id}/messages", self.create_message)
        route("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        route("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        route("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        route("GET", "/guilds/{guild_id}", self.get_guild)
        route("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        route("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)

    # --- login and gateway -----------------------------------------------------------------------

    async def get_me(self, ctx: Ctx) -> web.Response:
        return json_response(
            {**self.fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "bot": True}
        )

    async def get_user(self, ctx: Ctx) -> web.Response:
        user = self.fake.users.get(_int(ctx.params["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def get_application(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        return json_response(
            {
                "id": str(fake.application_id),
                "name": fake.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": fake.owner.payload(),
                "team": None,
                "flags": 0,
                "bot": fake.bot_user.payload(),
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(fake.guilds),
            }
        )

    async def get_gateway(self, ctx: Ctx) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, ctx: Ctx) -> web.Response:
        return json_response(
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    # --- commands --------------------------------------------------------------------------------

    def _command_scope(self, ctx: Ctx) -> int | None:
        if _int(ctx.params["application_id"]) != self.fake.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        if "guild_id" not in ctx.params:
            return None
        guild_id = _int(ctx.params["guild_id"])
        if not any(g.id == guild_id for g in self.fake.guilds):
            raise DiscordError(403, 50001, "Missing Access")
        return guild_id

    async def get_commands(self, ctx: Ctx) -> web.Response:
        return json_response(self.fake.commands.get(self._command_scope(ctx), []))

    async def put_commands(self, ctx: Ctx) -> web.Response:
        return json_response(self.fake.store_commands(self._command_scope(ctx), ctx.body or []))

    async def post_command(self, ctx: Ctx) -> web.Response:
        scope = self._command_scope(ctx)
        others = [c for c in self.fake.commands.get(scope, []) if c["name"] != ctx.body["name"]]
        stored = self.fake.store_commands(scope, [*others, ctx.body])
        return json_response(stored[-1], status=201)

    # --- channels and messages -------------------------------------------------------------------

    def _channel(self, ctx: Ctx) -> Channel:
        channel = self.fake.channels.get(_int(ctx.params["channel_id"]))
        if channel is None or channel.deleted:
            raise E.unknown_channel()
        return channel

    def _message(self, ctx: Ctx, channel: Channel) -> Message:
        msg = self.fake.messages.get(_int(ctx.params["message_id"]))
        # Ephemeral messages exist only through their interaction's webhook.
        if msg is None or msg.channel is not channel or msg.deleted or msg.visible_to is not None:
            raise E.unknown_message()
        return msg

    async def get_channel(self, ctx: Ctx) -> web.Response:
        return json_response(self._channel(ctx).payload())

    async def get_messages(self, ctx: Ctx) -> web.Response:
        channel = self._channel(ctx)
        msgs = [m for m in self.fake.channel_messages(channel)]
        if "before" in ctx.query:
            msgs = [m for m in msgs if m.id < int(ctx.query["before"])]
        if "after" in ctx.query:
            msgs = [m for m in msgs if m.id > int(ctx.query["after"])]
        limit = int(ctx.query.get("limit", 50))
        newest_first = list(reversed(msgs))[:limit]
        return json_response([m.payload() for m in newest_first])

    async def get_message(self, ctx: Ctx) -> web.Response:
        channel = self._channel(ctx)
        return json_response(self._message(ctx, channel).payload())

    async def create_message(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        channel = self._channel(ctx)
        if channel.is_dm:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise E.cannot_dm()
        elif not channel.bot_can_send:
            raise E.missing_permissions()
        fake.threads.check_post(channel)
        body = ctx.body or {}
        _require_something(body, ctx.files)
        msg = fake.new_message(channel, fake.bot_user)
        fake.apply_message_body(
            msg, {**body, "flags": (body.get("flags") or 0) & ~64}, ctx.files, edit=False
        )
        fake.announce_message(msg)
        fake._bump()
        return json_response(msg.payload())

    async def edit_message(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        channel = self._channel(ctx)
        msg = self._message(ctx, channel)
        if msg.author is not fake.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        fake.threads.check_edit(msg)
        fake.apply_message_body(msg, ctx.body or {}, ctx.files, edit=True)
        fake.announce_message(msg, "MESSAGE_UPDATE")
        fake._bump()
        return json_response(msg.payload())

    async def delete_message(self, ctx: Ctx) -> web.Response:
        channel = self._channel(ctx)
        msg = self._message(ctx, channel)
        self.fake.delete_message(msg)
        return web.Response(status=204)

    async def create_dm(self, ctx: Ctx) -> web.Response:
        body = ctx.body or {}
        user = self.fake.users.get(_int(body.get("recipient_id")))
        if user is None or user.bot:
            raise E.invalid_form_body(
                [E.SchemaError(("recipient_id",), "USER_NOT_FOUND", "Unknown user")]
            )
        return json_response(self.fake.dm_channel(user).payload())

    # --- guilds ----------------------------------------------------------------------------------

    def _guild(self, ctx: Ctx):
        guild_id = _int(ctx.params["guild_id"])
        for guild in self.fake.guilds:
            if guild.id == guild_id:
                return guild
        raise DiscordError(404, 10004, "Unknown Guild")

    async def get_guild(self, ctx: Ctx) -> web.Response:
        data = self._guild(ctx).payload()
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
        ):
            data.pop(key, None)
        return json_response(data)

    async def get_guild_channels(self, ctx: Ctx) -> web.Response:
        return json_response([c.payload() for c in self._guild(ctx).channels])

    async def get_member(self, ctx: Ctx) -> web.Response:
        member = self._guild(ctx).members.get(_int(ctx.params["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.payload())


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _require_something(body: dict[str, Any], files: list[Any]) -> None:
    if not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or body.get("sticker_ids")
        or body.get("poll")
        or files
    ):
        raise DiscordError(400, 50006, "Cannot send an empty message")
