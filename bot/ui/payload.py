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
import io
import logging
import re
import time
import uuid
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import discord
import orjson
from discord.http import MultipartParameters, Route
from discord.utils import MISSING
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from yarl import URL

from bot.ui import http_gate, v2
from bot.ui.rendering import ImageRequest
from bot.ui.token_wire import JSON_HEADERS, Answer, Target, target

log = logging.getLogger(__name__)


class BufferFile(discord.File):
    """An attachment of bytes in memory that leaves no reference cycle once closed.

    ``discord.File`` hides its buffer's ``close`` while a request may resend it, and its
    ``close`` puts the buffer's own bound ``close`` back on the buffer as an attribute: buffer
    -> its ``__dict__`` -> bound method -> buffer, one cycle holding each image's bytes per
    attachment sent (``bench/gc_census.py``: ``_io.BytesIO`` and ``builtin_function_or_method``
    among the garbage; with ``collector.FreezeAfterCollections``, a cycle still alive at a
    freeze stays until the thaw). Here, beside the payload that carries it: a click's path
    passes no module more (``tests/e2e/test_click_path.py``)."""

    __slots__ = ()

    def __init__(self, data: bytes, *, filename: str, description: str | None = None) -> None:
        super().__init__(io.BytesIO(data), filename=filename, description=description)

    def close(self) -> None:
        super().close()
        # the class's own ``close`` again, instead of a bound copy of it the buffer refers to
        vars(self.fp).pop("close", None)


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
# leave the answer unread (``bot_send``, ``send``). Errors are discord.py's own
# (``HTTPException``, ``NotFound``…).
async def edit_message(partial: discord.PartialMessage, kwargs: dict[str, Any]) -> None:
    """``partial.edit(**kwargs)`` with the bot token, without parsing the edited message."""
    state = partial._state
    view = kwargs.get("view", MISSING)
    if view is not MISSING:
        state.prevent_view_updates_for(partial.id)
    route = Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=partial.channel.id,
        message_id=partial.id,
    )
    with edit_parameters(kwargs, state.allowed_mentions) as params:
        await bot_send(state.http, route, params)  # discord.py's ``http.edit_message``, lean
    _keep_view(state, view, partial.id)


def edit_followup(
    interaction: discord.Interaction,
    message_id: int,
    kwargs: dict[str, Any],
    *,
    ref: int | str | None = None,
) -> Coroutine[Any, Any, None]:
    """``interaction.followup.edit_message(message_id, **kwargs)`` without parsing the edited
    message; ``ref`` names it in the request instead (``"@original"``). The request of
    ``AsyncWebhookAdapter.edit_webhook_message``: its URL, query and bucket (``send``).
    Awaited by its caller as a coroutine function's call is: the request's body is built now
    and ``send``'s own coroutine returned, with nothing of this function's left on the chain a
    token edit's answer wakes (issue 29), unless files are to be closed or a view kept after it
    (``_after_edit``)."""
    state = interaction._state
    http = state.http
    view = kwargs.get("view", MISSING)
    application_id, token = interaction.application_id, interaction.token
    message = message_id if ref is None else ref
    # the components sent are respected whenever the edit carries some (None clears)
    url = token_url(
        f"/webhooks/{application_id}/{quoted(token)}/messages/{message}"
        f"?with_components={int(view is not MISSING)}"
    )
    params = edit_parameters(kwargs, state.allowed_mentions)
    sent = send(
        "PATCH",
        url,
        (application_id, token),
        params,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
    )
    if params.files or _kept(view):
        return _after_edit(sent, params, state, view, message_id)
    return sent


async def _after_edit(
    sent: Coroutine[Any, Any, None],
    params: MultipartParameters,
    state: Any,
    view: Any,
    message_id: int,
) -> None:
    """An edit's request, then what discord.py does after it: its files closed (also when it
    failed), the view kept (``_keep_view``)."""
    with params:
        await sent
    _keep_view(state, view, message_id)


async def update_clicked(interaction: discord.Interaction, kwargs: dict[str, Any]) -> None:
    """``interaction.response.edit_message(**kwargs)`` (the clicked message updated: the
    acknowledgement and the edit in one callback, type 7) with the parameters written as an
    edit's (``update_parameters``), and without the ``InteractionCallbackResponse`` nobody
    reads: the same request through the same adapter (``callbacks_unread``), the same
    bookkeeping (the response done, the view kept), the same errors (session 30: ~1 per move,
    discord.py's general parameters and the answer object ~3.5 µs of it in a hot loop)."""
    response = interaction.response
    if response._response_type:
        raise discord.InteractionResponded(interaction)
    if interaction.type not in _UPDATABLE:
        return  # (discord.py's ``edit_message`` does nothing then either)
    message = interaction.message
    message_id = message.id if message is not None else None
    state = interaction._state
    view = kwargs.get("view", MISSING)
    if view is not MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    http = state.http
    # (its files are left open, as discord.py leaves them: a caller may send them again)
    await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=update_parameters(kwargs, state.allowed_mentions),
    )
    response._response_type = discord.InteractionResponseType.message_update
    if message_id is not None:
        _keep_view(state, view, message_id)


_UPDATABLE = (discord.InteractionType.component, discord.InteractionType.modal_submit)
_EDITABLE = frozenset({"content", "embeds", "attachments", "view", "allowed_mentions"})
_V2_FLAGS = discord.MessageFlags(components_v2=True).value


def edit_parameters(
    kwargs: dict[str, Any], previous_allowed_mentions: discord.AllowedMentions | None
) -> MultipartParameters:
    """``handle_message_parameters(**kwargs, previous_allowed_mentions=…)`` of an edit (of
    ``content``, ``embeds``, ``view``, ``attachments``, ``allowed_mentions``; whatever is
    absent is left as it is): the same payload, key for key and in its order, and the same
    multipart parts, built without the general function's two dozen parameters and a
    ``MessageFlags`` per call (~11 -> ~4 µs an edit, issue 29). Byte-equal to discord.py's:
    ``tests/bot/test_token_wire.py``, ``tests/bot/test_token_transport.py``."""
    payload: dict[str, Any] = {}
    files = _edited_fields(kwargs, previous_allowed_mentions, payload, tts_first=False)
    if not files:
        return _parameters(payload, [], files)
    return _parameters(None, _parts(payload, files), files)


def update_parameters(
    kwargs: dict[str, Any], previous_allowed_mentions: discord.AllowedMentions | None
) -> MultipartParameters:
    """``interaction_message_response_params(type=7, **kwargs, previous_allowed_mentions=…)``
    of an update of the clicked message (what ``InteractionResponse.edit_message`` sends; the
    same fields as ``edit_parameters``): the same payload key for key, and the same parts."""
    data: dict[str, Any] = {}
    files = _edited_fields(kwargs, previous_allowed_mentions, data, tts_first=True)
    payload = {"type": _UPDATE_MESSAGE, "data": data}
    if not files:
        return _parameters(payload, [], files)
    return _parameters(None, _parts(payload, files), files)


def _parameters(
    payload: dict[str, Any] | None, multipart: list[dict[str, Any]], files: list[discord.File]
) -> MultipartParameters:
    """``MultipartParameters(payload, multipart, files)``, a named tuple made as a tuple: its
    generated ``__new__`` (a Python call) was ~0.6 us of every edit and update (issue 29)."""
    return tuple.__new__(MultipartParameters, (payload, multipart, files))


_UPDATE_MESSAGE = discord.InteractionResponseType.message_update.value  # 7


def _edited_fields(
    kwargs: dict[str, Any],
    previous_allowed_mentions: discord.AllowedMentions | None,
    payload: dict[str, Any],
    *,
    tts_first: bool,
) -> list[discord.File]:
    """The fields of an edit (``edit_parameters``) written into ``payload`` in discord.py's
    order (``tts`` first in an interaction's answer, after the components in an edit); the
    files to upload."""
    if not kwargs.keys() <= _EDITABLE:  # (``issuperset`` of a dict made a set of its keys)
        unknown = sorted(set(kwargs) - _EDITABLE)
        raise TypeError(f"not an edit of content, embeds, attachments or view: {unknown}")
    if tts_first:
        payload["tts"] = False
    embeds = kwargs.get("embeds", MISSING)
    if embeds is not MISSING:
        if len(embeds) > 10:
            raise ValueError("embeds has a maximum of 10 elements.")
        payload["embeds"] = [e.to_dict() for e in embeds] if embeds else []
    content = kwargs.get("content", MISSING)
    if content is not MISSING:
        payload["content"] = str(content) if content is not None else None
    view = kwargs.get("view", MISSING)
    v2_flags = False
    if view is not MISSING:
        if view is not None:
            payload["components"] = view.to_components()
            v2_flags = view.has_components_v2()
        else:
            payload["components"] = []
    if not tts_first:
        payload["tts"] = False
    if v2_flags:
        payload["flags"] = _V2_FLAGS
    allowed_mentions = kwargs.get("allowed_mentions")  # (absent: None, not MISSING's __bool__)
    if allowed_mentions:
        if previous_allowed_mentions is not None:
            allowed_mentions = previous_allowed_mentions.merge(allowed_mentions)
        payload["allowed_mentions"] = allowed_mentions.to_dict()
    elif previous_allowed_mentions is not None:
        payload["allowed_mentions"] = previous_allowed_mentions.to_dict()
    attachments = kwargs.get("attachments", MISSING)
    files: list[discord.File] = []
    if attachments is not MISSING:
        listed: list[dict[str, Any]] = []
        for attachment in attachments:
            if isinstance(attachment, discord.File):
                listed.append(attachment.to_dict(len(files)))
                files.append(attachment)
            else:
                listed.append(attachment.to_dict())
        payload["attachments"] = listed
    return files


def _parts(payload: dict[str, Any], files: list[discord.File]) -> list[dict[str, Any]]:
    """A body with files: its JSON and each file, as discord.py's parts."""
    multipart: list[dict[str, Any]] = [
        {"name": "payload_json", "value": orjson.dumps(payload).decode()}
    ]
    for index, file in enumerate(files):
        multipart.append(
            {
                "name": f"files[{index}]",
                "value": file.fp,
                "filename": file.filename,
                "content_type": "application/octet-stream",
            }
        )
    return multipart


def _keep_view(state: Any, view: Any, message_id: int) -> None:
    """What discord.py does after an edit: a live view that routes clicks is kept for it."""
    if _kept(view):
        state.store_view(view, message_id)


def _kept(view: Any) -> bool:
    """Whether an edit's view is one discord.py keeps (``_keep_view``): never a card's."""
    return bool(
        view
        and view is not MISSING
        and type(view) is not v2.CardLayout  # (it is finished and not dispatchable)
        and not view.is_finished()
        and view.is_dispatchable()
    )


# ----- requests through an interaction token whose answer nobody reads --------------------------
# Issue 29: the views' edits of their messages (``edit_followup``) and a click's update or
# deferred update (``callbacks_unread``), two to four per move. Session 30: a click answered
# in place with its view (``update_clicked``) has its update's fields written as an edit's,
# not by discord.py's general ``interaction_message_response_params``.
#
# ``send`` sends such a request as discord.py's ``AsyncWebhookAdapter.request`` does (the same
# URL and body, the same per-(id, token) bucket lock and its delay after a bucket's last
# request, the same 429 / 5xx retries, the same errors), minus the work it does for an answer
# nobody reads: a ``Route`` and a query built per call, the JSON body serialised to a ``str`` and
# encoded again, a multipart body built by ``aiohttp.FormData`` part by part (its boundary from
# ``uuid4``: a system call per request), the answer decoded and parsed as JSON (here only an
# error's), the gate's parse of an exempt route, and a lock for a callback's one-use bucket.
# discord.py internals used (re-check on upgrade): ``Route.BASE``, the adapter's ``_locks``
# (held as ``AsyncDeferredLock`` holds them: sleep, then release), ``utils.
# _parse_ratelimit_header``, the parts of ``MultipartParameters.multipart`` (``name``,
# ``value``, ``filename``, ``content_type``), the default adapter of ``async_context`` (never
# ``set`` by the bot) and what
# ``InteractionCallbackResponse`` reads of a callback's answer (``interaction.id``).
JSON_TYPE = "application/json"
# A multipart body's boundary: random once per process, then made unique by the clock's
# nanoseconds (aiohttp draws a ``uuid4`` per body).
_BOUNDARY_BASE = f"mesa{uuid.uuid4().hex}"


def token_url(path: str) -> Target | URL:
    """The URL of ``path`` (its token already quoted: ``quoted``; a query, if any, plain
    ``name=value``) on Discord's API, parsed once: neither aiohttp nor the gate parses it
    again (~12 µs of each request). A path with nothing quoted (Discord's tokens are URL-safe)
    is taken as it is, split without yarl (``token_wire.target``: ``URL(…, encoded=True)``'s
    parts); one with escapes is normalised as aiohttp would (yarl unquotes what a path may
    hold plain, e.g. ``%3A``): the same request line either way."""
    if "%" in path:
        return URL(f"{Route.BASE}{path}")
    return target(Route.BASE, path)


# What ``quote(…, safe="")`` leaves as it is (RFC 3986's unreserved characters). Discord's
# interaction tokens hold nothing else: checked at once (``quote`` took ~3 µs of every token
# request to find nothing to quote in a ~200-character token).
_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]*")


def quoted(token: str) -> str:
    """``token`` as a URL's path segment: ``quote(token, safe="")``."""
    return token if _UNRESERVED.fullmatch(token) else quote(token, safe="")


async def send(
    method: str,
    url: URL | Target,
    bucket: tuple[Any, str],
    params: MultipartParameters,
    *,
    session: Any,
    proxy: str | None = None,
    proxy_auth: Any = None,
    callback: bool = False,
    read: bool = False,
) -> Any:
    """``method url`` with ``params``' body through an interaction token, the answer unread (see
    above; ``read``: a success's answer returned as discord.py's ``json_or_text`` reads it, else
    None), as ``AsyncWebhookAdapter.request`` sends it: 429s (``Via``: Discord's own) and 5xx
    waited out and sent again, up to five times; an error raised as discord.py raises it.
    ``bucket`` is discord.py's bucket of the route: (its webhook id, its token), whose lock
    discord.py's own requests of that token share, held across the tries and, when Discord
    said the bucket is spent, until it is not. A ``callback``'s bucket, (the interaction, its
    token), serves this one request (an interaction is answered once): no lock, and no wait
    after it for a next request (discord.py holds its caller that long). The route is exempt
    from the global limit: straight to the session under the gate (on the gate's wire, its
    whole answer awaited: ``http_gate.exempt_exchange``), timed here as the gate would
    (``http_gate.answered``; a callback's ``http_gate.callback_sent``)."""
    lock: asyncio.Lock | None = None
    if not callback:
        locks = async_context.get()._locks
        lock = locks.get(bucket)
        if lock is None:
            locks[bucket] = lock = asyncio.Lock()
        await lock.acquire()
    delay: float | None = None
    try:
        body = None if params.payload is None else orjson.dumps(params.payload)
        files = params.files or []
        kind = "callback" if callback else "webhook"
        # the gate's wire when it carries the request: awaited, no ``async with`` around it
        wire = http_gate.exempt_wire(session, proxy)
        response: Any = None
        answer: Any = None
        for attempt in range(5):
            for file in files:
                file.reset(seek=attempt)
            data: Any = body
            headers: Mapping[str, str] = JSON_HEADERS if body is not None else {}
            if params.multipart:
                data, content_type = multipart(params.multipart)
                headers = {"Content-Type": content_type}
            start = time.perf_counter()
            if callback:
                http_gate.callback_sent(
                    http_gate.made_at(int(bucket[0])), _callback_kind(params), start
                )
            try:
                if wire is not None:  # its whole answer, read already (``token_wire``)
                    response = await http_gate.exempt_exchange(
                        session, wire, method, url, data, headers
                    )
                    http_gate.answered(kind, start)
                    raw = response.body
                else:
                    async with http_gate.exempt_request(
                        session,
                        method,
                        url,
                        data=data,
                        headers=headers,
                        proxy=proxy,
                        proxy_auth=proxy_auth,
                    ) as response:
                        http_gate.answered(kind, start)
                        if 300 > response.status >= 200 and not read and response.content.is_eof():
                            raw = b""  # arrived whole: its connection is back in the pool
                        else:
                            raw = await response.read()  # read whole: the connection is kept
            except OSError as exc:
                if attempt < 4 and exc.errno in (54, 10054):
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                raise
            status = response.status
            if (
                lock is not None
                and status != 429
                and _header(response, "X-Ratelimit-Remaining") == "0"
            ):
                delay = discord.utils._parse_ratelimit_header(response)
            if 300 > status >= 200:
                # nobody reads it unless ``read`` (reading it was ~5 % of a request)
                return _answer(response, raw) if read else None
            answer = _answer(response, raw)
            if status == 429:
                if not response.headers.get("Via"):
                    raise discord.HTTPException(response, answer)
                pause = float(answer["retry_after"])
                log.warning(
                    "Webhook ID %s is rate limited. Retrying in %.2f seconds.", bucket[0], pause
                )
            elif status >= 500:
                pause = 1 + attempt * 2
            elif status == 403:
                raise discord.Forbidden(response, answer)
            elif status == 404:
                raise discord.NotFound(response, answer)
            else:
                raise discord.HTTPException(response, answer)
            # waited out once the answer is released: outside the request's guard against a
            # hang (``http_gate.Overdue``), as aiohttp's own timer ended with the answer
            await asyncio.sleep(pause)
        if response is not None and response.status >= 500:
            raise discord.DiscordServerError(response, answer)
        raise discord.HTTPException(response, answer)
    finally:
        if lock is not None:
            if delay:
                await asyncio.sleep(delay)  # the bucket is spent: its next request waits
            lock.release()


def _header(response: Any, name: str) -> str | None:
    """Header ``name`` of an answer: the wire's looked up alone (``token_wire.Answer.header``),
    aiohttp's from its headers."""
    if type(response) is Answer:
        return response.header(name)
    return response.headers.get(name)


def _callback_kind(params: MultipartParameters) -> str:
    """A callback's kind in the timings (``http_gate.answer_kind`` of its body, read off the
    parameters instead): a body with files is ``files``."""
    if params.multipart:
        return "files"
    payload = params.payload
    return http_gate.answer_kind_of(payload.get("type") if payload is not None else None)


def _answer(response: Any, raw: bytes) -> Any:
    """An error's answer as discord.py reads it (``json_or_text``): JSON, else the text."""
    text = raw.decode("utf-8", errors="replace")
    if _header(response, "content-type") == JSON_TYPE:
        return orjson.loads(text)
    return text


def multipart(parts: list[dict[str, Any]]) -> tuple[bytes, str]:
    """discord.py's multipart parts (``payload_json`` and the files) as one
    ``multipart/form-data`` body and its content type: the parts ``aiohttp.FormData(
    quote_fields=False)`` writes, written at once."""
    boundary = f"{_BOUNDARY_BASE}{time.perf_counter_ns():x}"
    dash = f"--{boundary}\r\n".encode()
    chunks: list[bytes] = []
    for part in parts:
        value = part["value"]
        if isinstance(value, str):
            content = value.encode()
            kind = part.get("content_type") or "text/plain; charset=utf-8"
        else:
            content = value if isinstance(value, bytes) else value.read()
            kind = part.get("content_type") or "application/octet-stream"
        disposition = f'form-data; name="{_escaped(part["name"])}"'
        if part.get("filename") is not None:
            disposition += f'; filename="{_escaped(part["filename"])}"'
        chunks += [
            dash,
            f"Content-Type: {kind}\r\nContent-Disposition: {disposition}\r\n\r\n".encode(),
            content,
            b"\r\n",
        ]
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def _escaped(text: str) -> str:
    """A form field's name or file name inside its quotes (aiohttp's ``quote_fields=False``)."""
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


# ----- interaction callbacks whose answer nobody reads ------------------------------------------
# discord.py asks every interaction callback ``with_response=1``: Discord then answers an update
# of the clicked message (type 7) or its deferral (type 6) with that whole message, which
# discord.py parses into an ``InteractionMessage`` that nobody reads (the bot has the clicked
# message; ``InteractionResponse.edit_message`` and ``defer`` are awaited for their success).
# Without the parameter Discord answers 204 No Content: nothing to receive nor parse. Every
# other callback (a message, 4; "thinking", 5; a modal, 9) still asks it and has its answer read
# as discord.py reads it, but goes the same lean way (``send``: through the gate's wire, not
# aiohttp, and no bucket lock for its one-use bucket).
_UNREAD_TYPES = frozenset({6, 7})
_UNREAD_KINDS = frozenset({"update", "deferred"})  # their ``http_gate.answer_kind``


def callbacks_unread(adapter: AsyncWebhookAdapter | None = None) -> None:
    """Send ``adapter``'s (default: discord.py's) update and deferred-update callbacks without
    asking for Discord's answer, every other callback with it, all through ``send``."""
    target: Any = adapter if adapter is not None else async_context.get()
    if getattr(target, "_mesa_callbacks_unread", False):
        return

    def create_interaction_response(
        interaction_id: int,
        token: str,
        *,
        session: Any,
        proxy: str | None = None,
        proxy_auth: Any = None,
        params: MultipartParameters,
    ) -> Any:
        path = f"/interactions/{interaction_id}/{quoted(token)}/callback"
        if not _answer_unread(params):
            # a message (4), "thinking" (5), a modal (9)…: its answer is read (the message it
            # made: ``InteractionCallbackResponse``), the request sent as discord.py's is
            # (``with_response``), on the same lean path as the others
            return send(
                "POST",
                token_url(f"{path}?with_response=1"),
                (interaction_id, token),
                params,
                session=session,
                proxy=proxy,
                proxy_auth=proxy_auth,
                callback=True,
                read=True,
            )
        sent = send(
            "POST",
            token_url(path),
            (interaction_id, token),
            params,
            session=session,
            proxy=proxy,
            proxy_auth=proxy_auth,
            callback=True,
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
            return http_gate.answer_kind(part.get("value")) in _UNREAD_KINDS
    return False


async def _unread_answer(sent: Any, interaction_id: int) -> dict[str, Any]:
    """What ``InteractionCallbackResponse`` needs of an answer nobody reads: the callback
    was accepted (an error raised as discord.py raises it), for this interaction."""
    await sent
    return {"interaction": {"id": str(interaction_id)}}


# ----- bot-token requests whose answer nobody reads ---------------------------------------------
# Issue 29: a table's public edit once its table token aged out (every edit of a DM-played
# table's public message after 14 minutes), a DM hand's without a fresh token (``edit_message``).
#
# ``bot_send`` sends such a request as discord.py's ``HTTPClient.request`` does: its route's
# bucket (discord.py's own ``_buckets`` by ``_bucket_hashes``, shared with its requests of the
# same route and major parameters: the ``X-RateLimit-*`` headers read into it, the bucket's hash
# learnt, a spent bucket waited out), the wait behind a global 429, ``Authorization: Bot …`` and
# discord.py's User-Agent, 429s (``Via``: Discord's own; a global one stops every request until
# its ``retry_after``) and 500/502/504/524 waited out and sent again up to five times, a reset
# connection retried, errors raised as discord.py raises them (``NotFound``, ``Forbidden``,
# ``DiscordServerError``, ``HTTPException``, ``RateLimited``); through the gate as before (the
# pacer's turn and count, a global 429 pausing it: ``http_gate._GatedRequest``) and its wire.
# Minus the work it does for an answer nobody reads: the edited message's JSON decoded and
# parsed, aiohttp's ``FormData`` built per try (and read back into bytes by the gate), the URL
# as a string split by the gate and parsed again by yarl, the answer's headers made a multidict.
# discord.py internals used (re-check on upgrade): ``HTTPClient``'s ``_HTTPClient__session``,
# ``_bucket_hashes``, ``_buckets``, ``get_ratelimit``, ``_global_over``, ``user_agent``,
# ``use_clock``, ``max_ratelimit_timeout``; ``Route.key``, ``major_parameters``, ``url``; and
# ``Ratelimit`` as an ``async with`` and its ``update``, ``remaining``.
_RETRIED_STATUSES = frozenset({500, 502, 504, 524})  # discord.py's unconditional retries


async def bot_send(http: Any, route: Route, params: MultipartParameters) -> None:
    """``http.request(route, …)`` of ``params``' body (``json=params.payload``, or ``files`` and
    ``form``: discord.py's ``edit_message``), its answer unread (see above)."""
    route_key = route.key
    bucket_hash = http._bucket_hashes.get(route_key)
    major = route.major_parameters
    key = f"{route_key if bucket_hash is None else bucket_hash}:{major}"
    ratelimit = http.get_ratelimit(key)
    headers: dict[str, str] = {"User-Agent": http.user_agent}
    if http.token is not None:
        headers["Authorization"] = "Bot " + http.token
    extra: dict[str, Any] = {}
    if http.proxy is not None:
        extra["proxy"] = http.proxy
    if http.proxy_auth is not None:
        extra["proxy_auth"] = http.proxy_auth
    session = http._HTTPClient__session
    url: Any = token_url(route.url[len(Route.BASE) :]) if route.url.startswith(Route.BASE) else None
    if url is None or (type(url) is Target and not isinstance(session, http_gate.GatedSession)):
        url = route.url  # (aiohttp's own session parses it)
    body = None if params.payload is None else orjson.dumps(params.payload)
    files = params.files or []
    if not http._global_over.is_set():
        await http._global_over.wait()  # a global 429 is being waited out
    response: Any = None
    answer: Any = None
    async with ratelimit:
        for tries in range(5):
            for file in files:
                file.reset(seek=tries)
            data: Any = body
            if params.multipart:
                data, headers["Content-Type"] = multipart(params.multipart)
            elif body is not None:
                headers["Content-Type"] = JSON_TYPE
            try:
                async with session.request(
                    route.method, url, data=data, headers=headers, **extra
                ) as response:
                    status = response.status
                    _bucket_learnt(http, route, response, ratelimit, bucket_hash, key)
                    if 300 > status >= 200 and response.content.is_eof():
                        return  # arrived whole: its connection is back in the pool already
                    raw = await response.read()  # read whole: the connection is kept alive
                    if 300 > status >= 200:
                        return
                    answer = _answer(response, raw)
            except OSError as exc:
                if tries < 4 and exc.errno in (54, 10054):  # reset by the peer
                    await asyncio.sleep(1 + tries * 2)
                    continue
                raise
            # waited out once the answer is released (``send``: outside the request's guard)
            if status == 429:
                await _rate_limited(http, route, response, answer)
                continue
            if status in _RETRIED_STATUSES:
                await asyncio.sleep(1 + tries * 2)
                continue
            if status == 403:
                raise discord.Forbidden(response, answer)
            if status == 404:
                raise discord.NotFound(response, answer)
            if status >= 500:
                raise discord.DiscordServerError(response, answer)
            raise discord.HTTPException(response, answer)
    if response is None:  # (every try ended in a reset connection, the last one raised)
        raise RuntimeError("Unreachable code in HTTP handling")
    if response.status >= 500:
        raise discord.DiscordServerError(response, answer)
    raise discord.HTTPException(response, answer)


def _bucket_learnt(
    http: Any, route: Route, response: Any, ratelimit: Any, bucket_hash: str | None, key: str
) -> None:
    """What discord.py learns of an answer's rate-limit headers: the route's bucket hash (the
    bucket filed under it) and, but on a 429, the bucket's limit, remaining and reset."""
    discord_hash = _header(response, "X-Ratelimit-Bucket")
    if discord_hash is not None and bucket_hash != discord_hash:
        route_key = route.key
        if bucket_hash is not None:  # the hash changed (a sub-limit, or the limit did)
            http._bucket_hashes[route_key] = discord_hash
            http._buckets[f"{discord_hash}:{route.major_parameters}"] = ratelimit
            http._buckets.pop(key, None)
        elif route_key not in http._bucket_hashes:
            http._bucket_hashes[route_key] = discord_hash
            http._buckets[f"{discord_hash}:{route.major_parameters}"] = ratelimit
    if response.status != 429 and _header(response, "X-Ratelimit-Remaining") is not None:
        ratelimit.update(response, use_clock=http.use_clock)


async def _rate_limited(http: Any, route: Route, response: Any, answer: Any) -> None:
    """A 429: Discord's own (``Via``) waited out, a global one holding every request behind
    ``http._global_over`` meanwhile; a Cloudflare ban raised, and a wait over the client's
    ``max_ratelimit_timeout`` too (``RateLimited``), as discord.py does."""
    if not _header(response, "Via") or isinstance(answer, str):
        raise discord.HTTPException(response, answer)  # banned by Cloudflare, most likely
    retry_after = float(answer["retry_after"])
    if http.max_ratelimit_timeout and retry_after > http.max_ratelimit_timeout:
        raise discord.RateLimited(retry_after)
    log.warning(
        "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
        route.method,
        route.url,
        retry_after,
    )
    is_global = bool(answer.get("global", False))
    if is_global:
        log.warning("Global rate limit has been hit. Retrying in %.2f seconds.", retry_after)
        http._global_over.clear()
    try:
        await asyncio.sleep(retry_after)
    finally:
        if is_global:
            http._global_over.set()
