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

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import aiohttp
import discord
import orjson
from discord.http import MultipartParameters, Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import AsyncDeferredLock, AsyncWebhookAdapter, async_context

from bot.ui import v2
from bot.ui.http_gate import answer_kind
from bot.ui.rendering import ImageRequest

log = logging.getLogger(__name__)


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
        await _webhook_edit(
            interaction,
            message_id if ref is None else ref,
            params,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            # the components sent are respected whenever the edit carries some (None clears)
            with_components=view is not MISSING,
        )
    _keep_view(state, view, message_id)


# The edit of a message through an interaction token, as ``AsyncWebhookAdapter.
# edit_webhook_message`` sends it (the same URL, query, body, bucket lock, 429 / 5xx retries and
# errors: ``AsyncWebhookAdapter.request``'s), minus the work it does for an answer the views do
# not read: a ``Route`` and a query built per call, the body serialised to a ``str`` and encoded
# again, the answer decoded and parsed as JSON (here only when it is an error). Two or three
# edits per move (issue 29). discord.py's internals used (re-check on upgrade): ``Route.BASE``,
# the adapter's per-(webhook id, token) locks ``_locks`` and ``AsyncDeferredLock``,
# ``utils._parse_ratelimit_header``, ``FormData(quote_fields=False)`` for a multipart body.
_JSON_TYPE = "application/json"


async def _webhook_edit(
    interaction: discord.Interaction,
    message: int | str,
    params: MultipartParameters,
    *,
    session: Any,
    proxy: str | None,
    proxy_auth: Any,
    with_components: bool,
) -> None:
    application_id, token = interaction.application_id, interaction.token
    url = (
        f"{Route.BASE}/webhooks/{application_id}/{quote(token, safe='')}/messages/{message}"
        f"?with_components={int(with_components)}"
    )
    adapter: Any = async_context.get()
    bucket = (application_id, token)  # discord.py's bucket of the same route
    lock = adapter._locks.get(bucket)
    if lock is None:
        adapter._locks[bucket] = lock = asyncio.Lock()
    body = None if params.payload is None else orjson.dumps(params.payload)
    files = params.files or []
    response: Any = None
    answer: Any = None
    async with AsyncDeferredLock(lock) as deferred:
        for attempt in range(5):
            for file in files:
                file.reset(seek=attempt)
            data: Any = body
            headers = {"Content-Type": _JSON_TYPE} if body is not None else {}
            if params.multipart:
                data = aiohttp.FormData(quote_fields=False)
                for part in params.multipart:
                    data.add_field(**part)
            try:
                async with session.request(
                    "PATCH", url, data=data, headers=headers, proxy=proxy, proxy_auth=proxy_auth
                ) as response:
                    raw = await response.read()  # read whole: the connection is kept alive
                    status = response.status
                    if status != 429 and response.headers.get("X-Ratelimit-Remaining") == "0":
                        deferred.delay_by(discord.utils._parse_ratelimit_header(response))
                    if 300 > status >= 200:
                        return
                    answer = _answer(response, raw)
                    if status == 429:
                        if not response.headers.get("Via"):
                            raise discord.HTTPException(response, answer)
                        retry_after = float(answer["retry_after"])
                        log.warning(
                            "Webhook ID %s is rate limited. Retrying in %.2f seconds.",
                            application_id,
                            retry_after,
                        )
                        await asyncio.sleep(retry_after)
                        continue
                    if status >= 500:
                        await asyncio.sleep(1 + attempt * 2)
                        continue
                    if status == 403:
                        raise discord.Forbidden(response, answer)
                    if status == 404:
                        raise discord.NotFound(response, answer)
                    raise discord.HTTPException(response, answer)
            except OSError as exc:
                if attempt < 4 and exc.errno in (54, 10054):
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                raise
    if response is not None and response.status >= 500:
        raise discord.DiscordServerError(response, answer)
    raise discord.HTTPException(response, answer)


def _answer(response: Any, raw: bytes) -> Any:
    """An error's answer as discord.py reads it (``json_or_text``): JSON, else the text."""
    text = raw.decode("utf-8", errors="replace")
    if response.headers.get("content-type") == _JSON_TYPE:
        return orjson.loads(text)
    return text


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
