"""Payloads built for real games respect Discord's limits and offer only legal actions."""

import random

import discord
import pytest

from bot.i18n import translator
from bot.registry import load_games
from bot.service import ServiceConfig, TableService
from bot.ui.messages import lobby_payload, private_payload, public_payload
from bot.ui.presenter import presenter_for
from storage import open_database
from tests.bot.test_tables import RecordingListener
from tests.fakediscord import limits
from tests.message_text import clickable, components_of

GAMES = load_games()


def _check_limits(payload, allowed_actions=None):
    """What Discord checks of the message (the fake's own rules: Components V2 or classic), and
    that only legal actions are offered."""
    data = components_of(payload)
    body = {"components": data}
    if is_v2_view(payload):
        body["flags"] = limits.FLAG_COMPONENTS_V2
    else:
        body["embeds"] = [e.to_dict() for e in payload.embeds]
    uploads = [payload.image.filename] if payload.image is not None else []
    assert limits.check_message(body, uploads=uploads) == []
    for c in clickable(payload):
        if c["type"] == 3:
            for o in c["options"]:
                if allowed_actions is not None and c["custom_id"].startswith("ts:"):
                    assert o["value"] in allowed_actions  # (draft selects carry parts)
        elif allowed_actions is not None and c["custom_id"].startswith("t:"):
            assert c["custom_id"].split(":", 3)[3] in allowed_actions


def is_v2_view(payload) -> bool:
    return payload.view is not None and payload.view.has_components_v2() and not payload.embeds


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize(
    ("locale", "db_target"),
    # Both locales; the games' persistence (every move, the end's standings) on both backends.
    [("es", "sqlite"), ("en", "sqlite"), ("es", "postgres")],
    indirect=["db_target"],
)
async def test_payloads_of_random_games(db_target, key, locale):
    db = await open_database(db_target)
    service = TableService(db, GAMES, RecordingListener(), ServiceConfig(cpu_delay_seconds=0))
    game = GAMES[key]
    presenter = presenter_for(game)
    tr = translator(locale)
    table = await service.lobby.open(
        guild_id="g",
        channel_id="c",
        game_key=key,
        host_id="1",
        host_name="Ana",
        locale=locale,
        seed=f"msg-{key}",
    )
    for i in range(2, game.min_players + 1):
        await service.lobby.join(table.id, str(i), f"P{i}")
    _check_limits(lobby_payload(table, service, tr))
    assert is_v2_view(lobby_payload(table, service, tr))
    await service.lobby.start(table.id, "1")
    rng = random.Random(7)
    for _ in range(80):
        if table.record.status != "playing":
            break
        public = public_payload(table, presenter, service, tr)
        _check_limits(public)
        assert is_v2_view(public)
        for seat in table.state.seats:
            legal = {a.encode() for a in game.legal_actions(table.state, seat)}
            private = private_payload(table, presenter, seat, tr)
            _check_limits(private, legal)
            assert is_v2_view(private)
        to_act = sorted(game.to_act(table.state))
        seat = to_act[0]
        action = rng.choice(game.legal_actions(table.state, seat))
        await service.act(table.id, seat, table.version, action.encode())
    await service.close()
    await db.close()


def test_large_hands_are_paged():
    from bot.ui.layout import Choice, build_layout

    choices = [Choice(action=f"p:{i}", label=f"card {i}", group="play") for i in range(130)]
    first = build_layout(choices, table_id=1, version=3, rows=4)
    assert first.pages == 2 and len(first.items) == 4
    second = build_layout(choices, table_id=1, version=3, rows=4, page=1)
    seen = {o.value for page in (first, second) for item in page.items for o in item.item.options}
    assert seen == {c.action for c in choices}
    few = build_layout(choices[:7], table_id=1, version=3)
    assert all(isinstance(i.item, discord.ui.Button) for i in few.items)


# ----- the dynamic items and the one error guard ----------------------------------------------
ITEM_SAMPLES = [
    ("ActionButton", (7, 3, "p.r5"), "t:7:3:p.r5"),
    ("ActionSelect", (7, 3, "play", 1), "ts:7:3:play:1"),
    ("HandButton", (7,), "h:7:0"),
    ("HandButton", (7, 2), "h:7:2"),
    ("LobbyButton", (7, "join"), "l:7:join"),
    ("LobbyRemoveSelect", (7,), "lr:7"),
    ("DraftButton", (7, 3, "p1"), "d:7:3:p1"),
    ("DraftSelect", (7, 3, "s.0"), "ds:7:3:s.0"),
    ("ModalButton", (7, 3, "arrange"), "mo:7:3:arrange"),
]


@pytest.mark.parametrize(("name", "fields", "custom_id"), ITEM_SAMPLES)
async def test_every_item_writes_and_parses_its_custom_id(name, fields, custom_id):
    from bot.ui import items

    cls = getattr(items, name)
    item = cls(*fields)
    assert item.custom_id == custom_id
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    parsed = await cls.from_custom_id(None, item.item, match)
    assert parsed.custom_id == custom_id
    assert [getattr(parsed, f) for f in cls.id_format.names][: len(fields)] == list(fields)


def test_an_item_whose_fields_differ_from_its_format_is_refused_at_definition():
    from bot.ui import ids
    from bot.ui.items import TableButton

    with pytest.raises(TypeError):

        class Wrong(TableButton, template=ids.ACTION_BUTTON):  # no ``action`` field
            version: int


class _Response:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, **kwargs) -> None:
        self.sent.append(kwargs)


class _Interaction:
    def __init__(self, locale: str) -> None:
        self.id = 1
        self.locale = locale
        self.response = _Response()


async def _failing(exc: Exception) -> None:
    raise exc


async def test_the_guard_answers_refusals_in_the_users_language_and_logs_only_the_unexpected(
    caplog,
):
    from bot.errors import TableError
    from bot.ui.feedback import guard

    refused = _Interaction("en-US")
    await guard(refused, _failing(TableError("not_seated")))
    assert refused.response.sent == [
        {"ephemeral": True, "content": translator("en")("error.not_seated")}
    ]
    assert not caplog.records
    broken = _Interaction("es-ES")
    await guard(broken, _failing(RuntimeError("bug")))
    assert broken.response.sent[0]["content"] == translator("es")("error.unexpected")
    assert [r.levelname for r in caplog.records] == ["ERROR"]
