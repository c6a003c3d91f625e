"""Issue 29: the bot's own requests through an interaction token (``bot/ui/payload.py``: a token
edit, a click's update or deferred update) leave on the wire as discord.py's do: the same
method, URL, content type and body bytes (a multipart body's boundary aside), sent by the
session under the HTTP gate (exempt routes, not paced) and timed as the gate would. The one
difference by design: a callback asks no ``with_response`` (nobody reads the answer)."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any
from urllib.parse import quote

import discord
import pytest
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    interaction_message_response_params,
    interaction_response_params,
)
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

from bot import metrics
from bot.ui import payload as sending
from bot.ui import token_wire, v2
from bot.ui.http_gate import GatedSession

BASE = "http://127.0.0.1:9/api/v10"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
MESSAGE = {
    "id": "2",
    "channel_id": "3",
    "type": 0,
    "content": "",
    "flags": 32768,
    "author": {"id": "1", "username": "Mesa", "discriminator": "0", "bot": True},
    "components": [],
    "attachments": [],
    "embeds": [],
    "timestamp": "2026-12-05T00:00:00+00:00",
    "tts": False,
    "mention_everyone": False,
    "mentions": [],
    "mention_roles": [],
    "pinned": False,
}
CLICK: dict[str, Any] = {
    "id": str(1_300_000_000_000_000_000),
    "application_id": "1",
    "type": 3,
    "token": "aW50ZXJhY3Rpb246MTQ0qfa-IVL_mu3xCD.x",
    "version": 1,
    "attachment_size_limit": 10_485_760,
    "channel_id": "3",
    "data": {"custom_id": "x", "component_type": 2},
    "message": MESSAGE,
    "user": {"id": "7", "username": "p", "discriminator": "0"},
}


class _Whole:
    """An answer's body that has arrived whole (aiohttp's ``StreamReader`` at its end)."""

    def is_eof(self) -> bool:
        return True


class _Answer:
    def __init__(self, status: int, body: bytes, **headers: str) -> None:
        self.status = status
        self.reason = "OK"
        self._body = body
        headers["Content-Type"] = "application/json"
        self.headers = CIMultiDictProxy(CIMultiDict(headers))
        self.content = _Whole()

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str = "utf-8") -> str:
        return self._body.decode(encoding)


class _Sent:
    def __init__(self, answer: _Answer) -> None:
        self._answer = answer

    async def __aenter__(self) -> _Answer:
        return self._answer

    async def __aexit__(self, *exc: object) -> None:
        return None


class Wire:
    """The session under the gate: notes each request as it would go out, answers as Discord
    does (an edit with the message, a callback with 204 or, asked, its answer)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def request(self, method: str, url: Any, **kwargs: Any) -> _Sent:
        full = URL(str(url))
        if kwargs.get("params"):
            full = full.update_query(kwargs["params"])
        headers = dict(kwargs.get("headers") or {})
        data = kwargs.get("data")
        self.sent.append(
            {
                "method": method,
                "url": str(full),
                "type": headers.get("Content-Type"),
                "body": data.encode() if isinstance(data, str) else data,
            }
        )
        if "/callback" not in str(url):
            return _Sent(_Answer(200, json.dumps(MESSAGE).encode()))
        if full.query.get("with_response"):
            answer = {"interaction": {"id": CLICK["id"], "type": 3}, "resource": None}
            return _Sent(_Answer(200, json.dumps(answer).encode()))
        return _Sent(_Answer(204, b""))


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    monkeypatch.setattr(discord.http.Route, "BASE", BASE)
    return Wire()


def _click(wire: Wire) -> discord.Interaction:
    client = discord.Client(intents=discord.Intents.none())
    state: Any = client._connection
    state.http._HTTPClient__session = GatedSession(wire, pacer=lambda: None)  # type: ignore[arg-type,return-value]
    return discord.Interaction(data=CLICK, state=state)


def _card() -> v2.CardLayout:
    return v2.card_view(v2.Card(title="Mesa", colour=v2.LOBBY, text="the table", image="t.png"))


def _unbounded(request: dict[str, Any]) -> dict[str, Any]:
    """A request with its multipart boundary (random per body) named alike."""
    kind = request["type"] or ""
    if "boundary=" not in kind:
        return request
    boundary = kind.split("boundary=", 1)[1]
    return {
        **request,
        "type": kind.replace(boundary, "B"),
        "body": request["body"].replace(boundary.encode(), b"B"),
    }


@pytest.mark.parametrize("image", [False, True])
async def test_a_token_edit_leaves_as_discord_py_s_edit_of_that_message(wire, image):
    """``edit_followup`` of the clicked message (``@original``) and of a follow-up, as the
    views send them, against discord.py's ``followup.edit_message`` of the same message."""
    interaction = _click(wire)

    def kwargs() -> dict[str, Any]:
        files = [discord.File(io.BytesIO(PNG), "t.png", description="a table")] if image else []
        return {"content": None, "embeds": [], "view": _card(), "attachments": files}

    await interaction.followup.edit_message(5, **kwargs())  # type: ignore[arg-type]
    await sending.edit_followup(interaction, 5, kwargs())
    await interaction.followup.edit_message("@original", **kwargs())  # type: ignore[arg-type]
    await sending.edit_followup(interaction, 2, kwargs(), ref="@original")

    theirs, ours, theirs_original, ours_original = (_unbounded(r) for r in wire.sent)
    assert ours == theirs
    assert ours_original == theirs_original
    assert ours["method"] == "PATCH"
    assert ours["url"] == f"{BASE}/webhooks/1/{CLICK['token']}/messages/5?with_components=1"
    assert ours_original["url"].endswith("/messages/@original?with_components=1")
    if image:
        assert ours["type"] == "multipart/form-data; boundary=B"
        assert PNG in ours["body"] and b'name="files[0]"; filename="t.png"' in ours["body"]
    else:
        assert ours["type"] == "application/json"
        assert json.loads(ours["body"])["components"][0]["type"] == v2.CONTAINER


@pytest.mark.parametrize("shape", ["the view", "with a PNG", "keeps its image", "no view"])
async def test_a_click_s_update_leaves_as_discord_py_s_edit_message(wire, shape):
    """``update_clicked`` (session 30) sends what ``interaction.response.edit_message`` sends,
    through the same adapter: the same callback, byte for byte, for every shape of
    ``Payload.edit_kwargs``; the response is then done, and a second answer refused."""

    def kwargs() -> dict[str, Any]:
        made: dict[str, Any] = {"content": None, "embeds": [], "view": _card()}
        if shape == "with a PNG":
            made["attachments"] = [discord.File(io.BytesIO(PNG), "t.png", description="x")]
        elif shape == "the view":
            made["attachments"] = []
        elif shape == "no view":
            made.update(content="the table moved on", view=None, attachments=[])
        return made

    theirs_click, ours_click = _click(wire), _click(wire)
    await theirs_click.response.edit_message(**kwargs())
    await sending.update_clicked(ours_click, kwargs())

    theirs, ours = (_unbounded(r) for r in wire.sent)
    assert ours == theirs
    assert f"/interactions/{CLICK['id']}/{CLICK['token']}/callback" in ours["url"]
    body = ours["body"] if shape != "with a PNG" else ours["body"].split(b"\r\n\r\n")[1]
    assert json.loads(body.split(b"\r\n")[0])["type"] == 7
    for click in (theirs_click, ours_click):
        assert click.response.is_done()
        assert click.response.type is discord.InteractionResponseType.message_update
    with pytest.raises(discord.InteractionResponded):
        await sending.update_clicked(ours_click, kwargs())
    assert len(wire.sent) == 2


async def test_a_token_edit_is_timed_as_the_gate_times_a_webhook_request(wire):
    interaction = _click(wire)
    before = metrics.histograms["http_webhook"].count
    await sending.edit_followup(interaction, 2, {"view": _card()}, ref="@original")
    assert metrics.histograms["http_webhook"].count == before + 1


@pytest.mark.parametrize("answer", ["update", "update with a PNG", "deferred"])
async def test_a_click_s_answer_leaves_as_discord_py_s_but_asks_no_answer(wire, answer):
    """The callback of an update (7) or a deferred update (6), built by discord.py's
    ``InteractionResponse`` code, sent by discord.py's adapter and by ``callbacks_unread``'s:
    the same request, less ``with_response``."""
    interaction = _click(wire)
    files = [discord.File(io.BytesIO(PNG), "t.png")] if answer == "update with a PNG" else []
    if answer == "deferred":
        params = interaction_response_params(6)  # what ``defer`` of a component sends
        params_again = interaction_response_params(6)
    else:
        params = interaction_message_response_params(
            type=7, view=_card(), attachments=files, previous_allowed_mentions=None
        )
        again = [discord.File(io.BytesIO(PNG), "t.png")] if files else []
        params_again = interaction_message_response_params(
            type=7, view=_card(), attachments=again, previous_allowed_mentions=None
        )
    theirs_adapter, ours_adapter = AsyncWebhookAdapter(), AsyncWebhookAdapter()
    sending.callbacks_unread(ours_adapter)
    before = metrics.histograms["http_callback"].count
    for adapter, sent in ((theirs_adapter, params), (ours_adapter, params_again)):
        with sent:
            await adapter.create_interaction_response(
                interaction.id, interaction.token, session=interaction._session, params=sent
            )

    theirs, ours = (_unbounded(r) for r in wire.sent)
    assert (
        theirs["url"]
        == f"{BASE}/interactions/{CLICK['id']}/{CLICK['token']}/callback?with_response=1"
    )
    assert ours == {**theirs, "url": theirs["url"].removesuffix("?with_response=1")}
    assert metrics.histograms["http_callback"].count == before + 2  # the gate's and ours


@pytest.mark.parametrize("answer", ["message", "message with a PNG", "thinking"])
async def test_a_click_s_other_answers_leave_as_discord_py_s_and_their_answer_is_read(
    wire, answer, monkeypatch
):
    """A message (4) or "thinking" (5), built by discord.py's ``InteractionResponse`` code,
    sent by discord.py's adapter and by ``callbacks_unread``'s (``send``): the same request,
    ``with_response`` asked alike, and the same answer handed back to discord.py."""
    interaction = _click(wire)

    def params() -> Any:
        if answer == "thinking":
            return interaction_response_params(5)
        files = [discord.File(io.BytesIO(PNG), "t.png")] if answer.endswith("PNG") else []
        return interaction_message_response_params(
            type=4,
            content="hi",
            view=_card(),
            files=files,
            flags=discord.MessageFlags(ephemeral=True),
            previous_allowed_mentions=None,
        )

    theirs_adapter, ours_adapter = AsyncWebhookAdapter(), AsyncWebhookAdapter()
    sending.callbacks_unread(ours_adapter)
    lean = sending.send
    read: list[bool] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        read.append(kwargs["read"])
        return lean(*args, **kwargs)

    monkeypatch.setattr(sending, "send", counted)
    before = metrics.histograms["http_callback"].count
    answers = []
    for adapter in (theirs_adapter, ours_adapter):
        with params() as sent:
            answers.append(
                await adapter.create_interaction_response(
                    interaction.id, interaction.token, session=interaction._session, params=sent
                )
            )
    theirs, ours = (_unbounded(r) for r in wire.sent)
    assert (
        theirs["url"]
        == f"{BASE}/interactions/{CLICK['id']}/{CLICK['token']}/callback?with_response=1"
    )
    assert ours == theirs
    assert (
        answers[0]
        == answers[1]
        == {"interaction": {"id": CLICK["id"], "type": 3}, "resource": None}
    )
    assert read == [True]  # ours went the lean way, its answer read
    assert metrics.histograms["http_callback"].count == before + 2  # the gate's and ours


async def test_a_refused_token_edit_raises_discord_py_s_error(wire, monkeypatch):
    interaction = _click(wire)
    gone = {"message": "Unknown Message", "code": 10008}
    monkeypatch.setattr(
        wire, "request", lambda *a, **k: _Sent(_Answer(404, json.dumps(gone).encode()))
    )
    with pytest.raises(discord.NotFound) as raised:
        await sending.edit_followup(interaction, 2, {"view": _card()}, ref="@original")
    assert raised.value.code == 10008


async def test_a_spent_bucket_holds_the_token_s_next_edit_until_it_resets(wire, monkeypatch):
    """Discord says a token's bucket is spent (``X-RateLimit-Remaining: 0``): its next request
    waits ``Reset-After`` (discord.py's ``AsyncDeferredLock``), a token edit's as well. A
    callback's bucket serves one request: nothing waits after it."""
    interaction = _click(wire)
    answered = wire.request

    def spent(method: str, url: Any, **kwargs: Any) -> _Sent:
        answered(method, url, **kwargs)
        body = json.dumps(MESSAGE).encode() if "/callback" not in str(url) else b""
        status = 200 if body else 204
        headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.25"}
        return _Sent(_Answer(status, body, **headers))

    monkeypatch.setattr(wire, "request", spent)
    real_sleep = asyncio.sleep
    reset = asyncio.Event()
    waits: list[float] = []

    async def waited(delay: float) -> None:
        waits.append(delay)
        await reset.wait()

    monkeypatch.setattr(sending.asyncio, "sleep", waited)

    async def edit() -> None:
        await sending.edit_followup(interaction, 2, {"view": _card()}, ref="@original")

    first = asyncio.create_task(edit())
    second = asyncio.create_task(edit())
    for _ in range(50):  # loop turns, not time: the second stays queued however many pass
        await real_sleep(0)
    assert waits == [0.25]  # the first edit holds the bucket for its reset
    assert len(wire.sent) == 1  # the second has not gone
    reset.set()
    await asyncio.gather(first, second)
    assert len(wire.sent) == 2

    waits.clear()
    sending.callbacks_unread(adapter := AsyncWebhookAdapter())
    with interaction_response_params(6) as params:
        await adapter.create_interaction_response(
            interaction.id, interaction.token, session=interaction._session, params=params
        )
    assert waits == [] and len(wire.sent) == 3


@pytest.mark.parametrize(
    "token",
    [
        CLICK["token"],
        "aW50ZXJhY3Rpb246MTQ0qfa-IVL_mu3xCD" * 6,
        "a~b.c_d-e",
        "",
        "a b",
        "a/b",
        "a%2Fb",
        "a+b=",
        "ñandú",
        "tab\there",
        "x" * 300 + "?",
    ],
)
def test_a_token_in_a_url_is_quoted_as_urllib_quotes_it(token: str):
    assert sending.quoted(token) == quote(token, safe="")


_EDITS = [
    {"content": None, "embeds": [], "view": "card", "attachments": []},
    {"content": None, "embeds": [], "view": "card", "attachments": "png"},
    {"content": None, "embeds": [], "view": "card"},
    {"content": "a note", "embeds": ["embed"], "view": None, "attachments": "png"},
    {"content": 7, "view": "classic"},
    {"embeds": ["embed", "embed"], "allowed_mentions": "users"},
    {"view": "card", "attachments": ["kept", "png"], "allowed_mentions": "none"},
    {},
]


@pytest.mark.parametrize("edit", _EDITS)
@pytest.mark.parametrize("previous", [None, "everyone"])
def test_an_edit_s_parameters_are_discord_py_s(edit, previous):
    """``payload.edit_parameters`` builds what ``handle_message_parameters`` builds of the same
    edit: the same payload, key for key and in order (the JSON text alike), the same parts."""
    from discord.http import handle_message_parameters

    def made(name: Any) -> Any:
        if name == "card":
            return _card()
        if name == "classic":
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="b", custom_id="b"))
            return view
        if name == "png":
            return [discord.File(io.BytesIO(PNG), "t.png", description="a table")]
        if name == "embed":
            return discord.Embed(title="t", description="d")
        if name == "kept":
            return _KeptAttachment()
        if name in ("users", "none", "everyone"):
            return {
                "users": discord.AllowedMentions(users=True, everyone=False),
                "none": discord.AllowedMentions.none(),
                "everyone": discord.AllowedMentions(everyone=True),
            }[name]
        if isinstance(name, list):
            listed: list[Any] = []
            for part in name:
                item = made(part)
                listed += item if isinstance(item, list) else [item]
            return listed
        return name

    def kwargs() -> dict[str, Any]:
        return {key: made(value) for key, value in edit.items()}

    before = made(previous)
    with handle_message_parameters(**kwargs(), previous_allowed_mentions=before) as theirs:
        their_payload = theirs.payload
        their_parts = [{**p, "value": _read(p["value"])} for p in theirs.multipart]
        their_files = len(theirs.files or [])
    with sending.edit_parameters(kwargs(), before) as ours:
        our_parts = [{**p, "value": _read(p["value"])} for p in ours.multipart]
        assert len(ours.files) == their_files
    assert ours.payload == their_payload
    if their_payload is not None:
        assert json.dumps(ours.payload) == json.dumps(their_payload)  # the keys' order too
    assert our_parts == their_parts
    assert bool(our_parts) == ("png" in str(edit))


class _KeptAttachment:
    """An attachment the message keeps (what both builders read of one: ``to_dict``)."""

    def to_dict(self) -> dict[str, Any]:
        return {"id": "9", "filename": "old.png"}


def _read(value: Any) -> Any:
    return value if isinstance(value, str) else value.read()


@pytest.mark.parametrize(
    "base",
    [
        "https://discord.com/api/v10",
        "http://127.0.0.1:9/api/v10",
        "http://127.0.0.1:9",
        "http://h/api/",
        "HTTP://Discord.COM/api/v10",
        "http://h/api?x=1",
        "http://user@h/api",
    ],
)
def test_a_target_splits_its_url_as_yarl_reads_it(base: str):
    """``token_wire.target`` (a token request's URL without yarl, issue 29): the origin's key
    and the request line's path that ``URL(base + path, encoded=True)`` gives, whatever the
    base's shape (one yarl reads otherwise is left to yarl)."""
    path = "/webhooks/1/aW50ZXJh-_.~tok/messages/@original?with_components=1"
    expected = URL(base + path, encoded=True)
    made = token_wire.target(base, path)
    if isinstance(made, token_wire.Target):
        assert made.key == (expected.scheme, expected.raw_authority)
        assert made.path_qs == expected.raw_path_qs
        assert made.url() == expected and str(made) == str(expected)
    else:
        assert made == expected
    if base.startswith(("https://discord.com", "http://127.0.0.1")):
        assert isinstance(made, token_wire.Target)  # Discord's API root takes the short way
