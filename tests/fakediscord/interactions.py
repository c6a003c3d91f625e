"""Interactions: creating them (INTERACTION_CREATE), the 3-second rule, callbacks, the 15-minute
token, the original response and follow-ups."""

from __future__ import annotations

import asyncio
import functools
import random
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import errors as E
from .errors import DiscordError, Violation, json_response
from .limits import FLAG_COMPONENTS_V2, FLAG_EPHEMERAL, FLAG_LOADING
from .model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CB_AUTOCOMPLETE,
    CB_DEFER,
    CB_DEFER_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Channel,
    Interaction,
    Message,
    Modal,
    User,
)
from .rest import _int, _require_something

if TYPE_CHECKING:
    from .server import Ctx, FakeDiscord, UploadedFile

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
TYPE_NAMES = {
    APPLICATION_COMMAND: "slash command",
    MESSAGE_COMPONENT: "component",
    AUTOCOMPLETE: "autocomplete",
    MODAL_SUBMIT: "modal submit",
}
CALLBACK_NAMES = {
    4: "message",
    5: "defer",
    6: "deferred update",
    7: "update message",
    8: "autocomplete result",
    9: "modal",
}


def allowed_callbacks(inter: Interaction) -> set[int]:
    if inter.type == APPLICATION_COMMAND:
        return {CB_MESSAGE, CB_DEFER, CB_MODAL}
    if inter.type == MESSAGE_COMPONENT:
        return {CB_MESSAGE, CB_DEFER, CB_DEFER_UPDATE, CB_UPDATE, CB_MODAL}
    if inter.type == AUTOCOMPLETE:
        return {CB_AUTOCOMPLETE}
    if inter.type == MODAL_SUBMIT:
        return {CB_MESSAGE, CB_DEFER} | (
            {CB_DEFER_UPDATE, CB_UPDATE} if inter.message is not None else set()
        )
    return set()


def describe(inter: Interaction) -> str:
    what = TYPE_NAMES.get(inter.type, f"type {inter.type}")
    if inter.command_name:
        what += f" /{inter.command_name}"
    elif inter.data.get("custom_id"):
        what += f" {inter.data['custom_id']!r}"
    return f"{what} by {inter.user.name} (interaction {inter.id})"


class Interactions:
    def __init__(self, fake: FakeDiscord):
        self.fake = fake
        self.all: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._violation_of: dict[int, Violation] = {}
        # Deferred updates (type 6) waiting for their message to change, by message id.
        self._awaiting_edit: dict[int, list[Interaction]] = {}
        # A token's secret part: a fake needs unguessable-looking tokens, not secure ones
        # (os.urandom per token was a visible share of a load run's driver).
        self._secrets = random.Random()
        self.forgotten_through = 0  # the newest interaction id forgotten (forgetting.py)

    def register(self, route) -> None:
        route("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self.callback)
        route("POST", "/webhooks/{webhook_id}/{webhook_token}", self.followup)
        route(
            "GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self.get_message
        )
        route(
            "PATCH",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            self.edit_message,
        )
        route(
            "DELETE",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            self.delete_message,
        )

    # --- creation --------------------------------------------------------------------------------

    def create(
        self,
        *,
        user: User,
        type: int,
        channel: Channel,
        data: dict[str, Any],
        message: Message | None = None,
        command_name: str | None = None,
        message_payload: dict[str, Any] | None = None,
    ) -> Interaction:
        fake = self.fake
        inter_id = fake.ids.made_at(fake.clock.utcnow())  # its token's life starts now
        inter = Interaction(
            id=inter_id,
            token=f"fake-interaction-{inter_id}-{self._secrets.getrandbits(128):032x}",
            type=type,
            user=user,
            channel=channel,
            guild=fake.guild_of(channel),
            data=data,
            created_real=time.monotonic(),
            created_fake=fake.clock.now(),
            message=message,
            command_name=command_name,
            message_payload=message_payload,
        )
        self.all[inter.id] = inter
        self.by_token[inter.token] = inter
        if message is not None:
            message.touched_at = fake.clock.now()
        fake.gateway.dispatch(
            "INTERACTION_CREATE",
            self.payload(inter),
            guild_id=inter.guild.id if inter.guild is not None else None,
            on_written=functools.partial(_dispatched, inter),
        )
        loop = asyncio.get_running_loop()
        self._timers[inter.id] = loop.call_later(
            fake.interaction_deadline, self._deadline_passed, inter
        )
        fake._bump()
        return inter

    def payload(self, inter: Interaction) -> dict[str, Any]:
        fake = self.fake
        data: dict[str, Any] = {
            "id": str(inter.id),
            "application_id": str(fake.application_id),
            "type": inter.type,
            "data": inter.data,
            "token": inter.token,
            "version": 1,
            "channel_id": str(inter.channel.id),
            "channel": inter.channel.payload(),
            "locale": inter.user.locale,
            "entitlements": [],
            "authorizing_integration_owners": inter.integration_owners(),
            "context": 0 if inter.guild is not None else 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        guild = inter.guild
        if guild is not None:
            member = guild.members[inter.user.id]
            data["guild_id"] = str(guild.id)
            data["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            data["guild_locale"] = guild.locale
            data["member"] = {
                **member.payload(),
                "permissions": str(guild.permissions_of(inter.user)),
            }
            data["app_permissions"] = str(
                guild.permissions_of(fake.bot_user) & ~inter.channel.denied()
            )
        else:
            data["user"] = inter.user.payload()
            data["app_permissions"] = str((1 << 11) | (1 << 14) | (1 << 15) | (1 << 16))
        if inter.message_payload is not None:
            data["message"] = inter.message_payload
        elif inter.message is not None:
            data["message"] = inter.message.payload()
        fake.installs.shape(inter, data)  # context and owners where the bot is not (installs.py)
        return data

    # --- deadlines -------------------------------------------------------------------------------

    def _deadline_passed(self, inter: Interaction) -> None:
        self._timers.pop(inter.id, None)
        if inter.callback_type is None and not inter.failed:
            inter.failed = True
            self._violation_of[inter.id] = self.fake.violate(
                "unanswered",
                f"{describe(inter)} was not answered within {self.fake.interaction_deadline:g} s "
                "(the user sees 'This interaction failed')",
            )

    def _late(self, inter: Interaction, elapsed: float) -> None:
        note = (
            f"the bot answered after {elapsed:.2f} s (limit {self.fake.interaction_deadline:g} s)"
        )
        violation = self._violation_of.get(inter.id)
        if violation is not None:
            violation.kind = "late_response"
            violation.detail += f"; {note}"
        else:
            inter.failed = True
            self._violation_of[inter.id] = self.fake.violate(
                "late_response", f"{describe(inter)}: {note}"
            )
        self.fake._bump()

    def forget(self, inter: Interaction) -> None:
        """Drop an answered interaction past its token's life (forgetting.py), and its
        references to messages: a message and its interaction then make no reference cycle."""
        del self.all[inter.id]
        self.by_token.pop(inter.token, None)
        timer = self._timers.pop(inter.id, None)
        if timer is not None:
            timer.cancel()
        self._violation_of.pop(inter.id, None)
        if inter.original is not None:
            waiting = self._awaiting_edit.get(inter.original.id)
            if waiting is not None and inter in waiting:
                waiting.remove(inter)
                if not waiting:
                    del self._awaiting_edit[inter.original.id]
        inter.original = inter.message = inter.modal = inter.result = None
        inter.message_payload = None
        inter.followups = []
        self.forgotten_through = max(self.forgotten_through, inter.id)

    def _forgotten(self, token: str) -> bool:
        """A token of an interaction forgotten (so expired): its id is in it."""
        parts = token.split("-")
        return len(parts) == 4 and parts[2].isdigit() and int(parts[2]) <= self.forgotten_through

    def cancel_timers(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _pending(self) -> list[Interaction]:
        return [
            i
            for i in self.all.values()
            if not i.failed
            and (i.callback_type is None or (i.callback_type == CB_DEFER and not i.completed))
        ]

    async def settle(self, timeout: float) -> None:
        try:
            await self.fake.wait_until(
                lambda: not self._pending(), timeout=timeout, what="pending interactions"
            )
        except TimeoutError:
            pass
        for inter in self._pending():
            if inter.callback_type is None:
                timer = self._timers.pop(inter.id, None)
                if timer is not None:
                    timer.cancel()
                self._deadline_passed(inter)
            else:
                inter.failed = True
                self.fake.violate(
                    "deferred_never_completed",
                    f"{describe(inter)} was deferred and never got its content",
                )

    def _complete(self, inter: Interaction, result: Any) -> None:
        if not inter.completed:
            inter.completed = True
            inter.result = result
        self.fake._bump()

    def message_edited(self, msg: Message) -> None:
        """A deferred update (type 6) is complete once its message changes, by any route."""
        for inter in self._awaiting_edit.pop(msg.id, ()):
            if inter.original is msg and not inter.completed:
                self._complete(inter, msg)

    # --- the callback ----------------------------------------------------------------------------

    async def callback(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        inter = self.all.get(_int(ctx.params["interaction_id"]))
        if inter is None or inter.token != ctx.params["interaction_token"]:
            fake.violate(
                "unknown_interaction",
                "callback for an interaction that does not exist",
                method="POST",
                path=ctx.request.path,
            )
            raise E.unknown_interaction()
        elapsed = time.monotonic() - inter.created_real
        if inter.callback_type is not None:
            fake.violate(
                "already_acknowledged",
                f"{describe(inter)} was answered twice",
                method="POST",
                path=ctx.request.path,
                body=ctx.body,
            )
            error = DiscordError(400, 40060, "Interaction has already been acknowledged.")
            error.recorded = True
            raise error
        if inter.failed or elapsed > fake.interaction_deadline:
            self._late(inter, elapsed)
            raise E.unknown_interaction()
        body = ctx.body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in allowed_callbacks(inter):
            fake.violate(
                "invalid_callback",
                f"callback type {kind} is not allowed for a {describe(inter)}",
                method="POST",
                path=ctx.request.path,
                body=body,
            )
            error = DiscordError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_CALLBACK_TYPE_INVALID",
                                "message": "Invalid callback type",
                            }
                        ]
                    }
                },
            )
            error.recorded = True
            raise error
        if kind == CB_MESSAGE:
            _require_something(data, ctx.files)
        if kind == CB_UPDATE and (inter.message is None or inter.message.deleted):
            raise E.unknown_message()

        timer = self._timers.pop(inter.id, None)
        if timer is not None:
            timer.cancel()
        inter.callback_type = kind
        inter.answered_after = elapsed
        message: Message | None = None
        if kind == CB_MESSAGE:
            message = self._new_response_message(inter, data, ctx.files, loading=False)
            inter.original = message
            self._complete(inter, message)
        elif kind == CB_DEFER:
            message = self._new_response_message(
                inter, {"flags": data.get("flags")}, [], loading=True
            )
            inter.original = message
        elif kind == CB_DEFER_UPDATE:
            inter.original = inter.message
            if inter.message is not None:
                self._awaiting_edit.setdefault(inter.message.id, []).append(inter)
        elif kind == CB_UPDATE:
            assert inter.message is not None
            message = inter.message
            fake.apply_message_body(message, data, ctx.files, edit=True)
            fake.announce_message(message, "MESSAGE_UPDATE")
            inter.original = message
            self._complete(inter, message)
        elif kind == CB_MODAL:
            inter.modal = Modal(
                custom_id=data["custom_id"],
                title=data["title"],
                components=data["components"],
                user=inter.user,
                interaction=inter,
            )
            self._complete(inter, inter.modal)
        elif kind == CB_AUTOCOMPLETE:
            inter.autocomplete_choices = list(data.get("choices") or [])
            self._complete(inter, inter.autocomplete_choices)
        fake._bump()

        if ctx.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": kind == CB_DEFER,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": message.payload()}
        return json_response(answer)

    def _new_response_message(
        self, inter: Interaction, data: dict[str, Any], files: list[UploadedFile], *, loading: bool
    ) -> Message:
        fake = self.fake
        msg = fake.new_message(
            inter.channel,
            fake.bot_user,
            webhook_id=fake.application_id,
            interaction=inter,
            type=20 if inter.type == APPLICATION_COMMAND and inter.original is None else 0,
        )
        fake.apply_message_body(msg, data, files, edit=False)
        if (data.get("flags") or 0) & FLAG_EPHEMERAL or fake.installs.forces_ephemeral(inter):
            msg.flags |= FLAG_EPHEMERAL
            fake.message_index.shown_only_to(msg, inter.user)
        if loading:
            msg.flags |= FLAG_LOADING
        fake.announce_message(msg)
        return msg

    # --- webhook routes: the original response and follow-ups -------------------------------------

    def _interaction_for(self, ctx: Ctx) -> Interaction:
        fake = self.fake
        token = ctx.params["webhook_token"]
        inter = self.by_token.get(token)
        if _int(ctx.params["webhook_id"]) != fake.application_id:
            raise E.unknown_webhook()
        if inter is None:
            raise E.invalid_webhook_token() if self._forgotten(token) else E.unknown_webhook()
        if fake.clock.now() - inter.created_fake > fake.token_lifetime:
            raise E.invalid_webhook_token()
        return inter

    def _webhook_message(self, ctx: Ctx, inter: Interaction) -> Message:
        ref = ctx.params["message_id"]
        if ref == "@original":
            msg = inter.original
            if msg is None:
                self.fake.violate(
                    "no_original_response",
                    f"{describe(inter)}: the original response was used before the interaction was answered",
                    method=ctx.request.method,
                    path=ctx.request.path,
                )
                raise E.unknown_message()
        else:
            msg = self.fake.messages.get(_int(ref))
            if msg is None or (msg is not inter.original and msg not in inter.followups):
                raise E.unknown_message()
        if msg.deleted:
            raise E.unknown_message()
        return msg

    async def followup(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        inter = self._interaction_for(ctx)
        body = ctx.body or {}
        if inter.callback_type is None:
            fake.violate(
                "followup_before_response",
                f"{describe(inter)}: follow-up sent before the interaction was answered",
                method="POST",
                path=ctx.request.path,
                body=body,
            )
            raise E.unknown_webhook()
        _require_something(body, ctx.files)
        original = inter.original
        if (
            inter.callback_type == CB_DEFER
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # The first follow-up after a "thinking" defer replaces the placeholder (which keeps its ephemerality).
            msg = original
            # Its flags stay the placeholder's, but the answer may make it a Components V2 one.
            replacing = {k: v for k, v in body.items() if k != "flags"}
            if isinstance(body.get("flags"), int) and body["flags"] & FLAG_COMPONENTS_V2:
                replacing["flags"] = FLAG_COMPONENTS_V2
            fake.apply_message_body(msg, replacing, ctx.files, edit=False)
            msg.flags &= ~FLAG_LOADING
            fake.announce_message(msg, "MESSAGE_UPDATE")
        else:
            msg = self._new_response_message(inter, body, ctx.files, loading=False)
            inter.followups.append(msg)
        self._complete(inter, msg)
        if ctx.query.get("wait") in ("1", "true", "True"):
            return json_response(msg.payload())
        return web.Response(status=204)

    async def get_message(self, ctx: Ctx) -> web.Response:
        inter = self._interaction_for(ctx)
        return json_response(self._webhook_message(ctx, inter).payload())

    async def edit_message(self, ctx: Ctx) -> web.Response:
        fake = self.fake
        inter = self._interaction_for(ctx)
        msg = self._webhook_message(ctx, inter)
        was_loading = msg.loading
        if not was_loading:
            fake.threads.check_edit(msg)
        fake.apply_message_body(msg, ctx.body or {}, ctx.files, edit=not was_loading)
        msg.flags &= ~FLAG_LOADING
        fake.announce_message(msg, "MESSAGE_UPDATE")
        if msg is inter.original:
            self._complete(inter, msg)
        return json_response(msg.payload())

    async def delete_message(self, ctx: Ctx) -> web.Response:
        inter = self._interaction_for(ctx)
        msg = self._webhook_message(ctx, inter)
        self.fake.delete_message(msg)
        if msg is inter.original:
            self._complete(inter, None)
        return web.Response(status=204)


def _dispatched(inter: Interaction) -> None:
    inter.dispatched_real = time.monotonic()
