"""A message to send or edit: content, embeds, files, components, and the image it shows.

``view`` is a Components V2 card (``bot.ui.v2.CardLayout``: what discord.py's senders read of a
view, built without its view objects; no content nor embeds then, and an edit sends them
cleared, which also turns a classic message into a V2 one). ``image`` is the picture still to
draw (``bot.ui.rendering``); the V2 gallery already points at ``attachment://<filename>`` and
whoever sends the payload draws and attaches it first (``bot.ui.messages.finish``, which also
gives the gallery item its alt text). ``keep_image`` makes an edit leave the message's
attachment as it is (nothing uploaded): the message already shows that very image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.ui import v2
from bot.ui.http_gate import answer_kind
from bot.ui.rendering import ImageRequest


@dataclass
class Payload:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)
    view: v2.CardLayout | None = None
    image: ImageRequest | None = None
    keep_image: bool = False

    def _v2_content(self) -> None:
        """A Components V2 message has no ``content``: a note set on a V2 payload (e.g. "the
        table moved on") is shown under its title instead, once."""
        if self.content and self.view is not None and self.view.has_components_v2():
            v2.add_notice(self.view, self.content)
            self.content = None

    def send_kwargs(self) -> dict[str, Any]:
        self._v2_content()
        kwargs: dict[str, Any] = {"embeds": self.embeds, "files": self.files}
        if self.content:
            kwargs["content"] = self.content
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        self._v2_content()
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds, "view": self.view}
        if not self.keep_image:
            kwargs["attachments"] = self.files
        return kwargs


# ----- edits whose answer nobody reads ----------------------------------------------------------
# discord.py's ``edit`` calls parse Discord's answer into a full ``Message`` (its author, embeds,
# attachments, components…) that the table's views throw away: a tenth of the bot's CPU per move
# (issue 29, ``bench/profile_move.py``). These send the same request through the same session,
# gate and pacer (``bot/ui/http_gate.py`` wraps that session) and keep the view bookkeeping, but
# leave the answer as JSON. Errors are discord.py's own (``HTTPException``, ``NotFound``…).
async def edit_message(partial: discord.PartialMessage, kwargs: dict[str, Any]) -> None:
    """``partial.edit(**kwargs)`` with the bot token, without parsing the edited message."""
    state = partial._state
    view = kwargs.get("view", MISSING)
    if view is not MISSING:
        state.prevent_view_updates_for(partial.id)
    with handle_message_parameters(
        **_edit_parameters(kwargs), previous_allowed_mentions=state.allowed_mentions
    ) as params:
        await state.http.edit_message(partial.channel.id, partial.id, params=params)
    _keep_view(state, view, partial.id)


async def edit_followup(
    interaction: discord.Interaction,
    message_id: int,
    kwargs: dict[str, Any],
    *,
    ref: int | str | None = None,
) -> None:
    """``interaction.followup.edit_message(message_id, **kwargs)`` without parsing the edited
    message; ``ref`` names it in the request instead (``"@original"``)."""
    state = interaction._state
    http = state.http
    view = kwargs.get("view", MISSING)
    with handle_message_parameters(
        **_edit_parameters(kwargs), previous_allowed_mentions=state.allowed_mentions
    ) as params:
        await async_context.get().edit_webhook_message(
            interaction.application_id,
            interaction.token,
            message_id if ref is None else ref,  # type: ignore[arg-type]  # "@original"
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            thread_id=None,
            # the components sent are respected whenever the edit carries some (None clears)
            with_components=view is not MISSING,
        )
    _keep_view(state, view, message_id)


_EDITABLE = ("content", "embeds", "attachments", "view", "allowed_mentions")


def _edit_parameters(kwargs: dict[str, Any]) -> dict[str, Any]:
    unknown = set(kwargs) - set(_EDITABLE)
    if unknown:
        raise TypeError(f"not an edit of content, embeds, attachments or view: {sorted(unknown)}")
    return {name: kwargs.get(name, MISSING) for name in _EDITABLE}


def _keep_view(state: Any, view: Any, message_id: int) -> None:
    """What discord.py does after an edit: a live view that routes clicks is kept for it."""
    if view and view is not MISSING and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message_id)


# ----- interaction callbacks whose answer nobody reads ------------------------------------------
# discord.py asks every interaction callback ``with_response=1``: Discord then answers an update
# of the clicked message (type 7) or its deferral (type 6) with that whole message, which
# discord.py parses into an ``InteractionMessage`` that nobody reads (the bot has the clicked
# message; ``InteractionResponse.edit_message`` and ``defer`` are awaited for their success).
# Without the parameter Discord answers 204 No Content: nothing to receive nor parse (issue 29,
# ~1 callback per move). discord.py's internals used here (re-check on upgrade): the default
# adapter of ``async_context`` (the ContextVar's default instance, never ``set`` by the bot),
# its ``request`` (kept: the bucket lock, 429 and 5xx retries, the errors) and what
# ``InteractionCallbackResponse`` reads of the answer (``interaction.id``, the rest optional).
_UNREAD_TYPES = frozenset({6, 7})
_UNREAD_KINDS = frozenset({"update", "deferred"})  # their ``http_gate.answer_kind``


def callbacks_unread(adapter: AsyncWebhookAdapter | None = None) -> None:
    """Send ``adapter``'s (default: discord.py's) update and deferred-update callbacks without
    asking for Discord's answer; every other callback as discord.py sends it."""
    target: Any = adapter if adapter is not None else async_context.get()
    if getattr(target, "_mesa_callbacks_unread", False):
        return
    ask_answer = target.create_interaction_response

    def create_interaction_response(
        interaction_id: int,
        token: str,
        *,
        session: Any,
        proxy: str | None = None,
        proxy_auth: Any = None,
        params: MultipartParameters,
    ) -> Any:
        if not _answer_unread(params):
            return ask_answer(
                interaction_id,
                token,
                session=session,
                proxy=proxy,
                proxy_auth=proxy_auth,
                params=params,
            )
        route = Route(
            "POST",
            "/interactions/{webhook_id}/{webhook_token}/callback",
            webhook_id=interaction_id,
            webhook_token=token,
        )
        sent = target.request(
            route,
            session=session,
            proxy=proxy,
            proxy_auth=proxy_auth,
            payload=None if params.files else params.payload,
            multipart=params.multipart if params.files else None,
            files=params.files or None,
        )
        return _unread_answer(sent, interaction_id)

    target.create_interaction_response = create_interaction_response
    target._mesa_callbacks_unread = True


def _answer_unread(params: MultipartParameters) -> bool:
    """Whether a callback is an update (7) or a deferred update (6), from discord.py's
    parameters: its JSON payload, or the ``payload_json`` part of a callback with files (whose
    kind ``http_gate.answer_kind`` reads off the JSON text)."""
    if params.payload is not None:
        return params.payload.get("type") in _UNREAD_TYPES
    for part in params.multipart or ():
        if part.get("name") == "payload_json":
            return answer_kind(part.get("value")) in _UNREAD_KINDS
    return False


async def _unread_answer(sent: Any, interaction_id: int) -> dict[str, Any]:
    """What ``InteractionCallbackResponse`` needs of an answer nobody reads: the callback
    was accepted (an error raised as discord.py raises it), for this interaction."""
    await sent
    return {"interaction": {"id": str(interaction_id)}}
