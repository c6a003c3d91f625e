"""A gateway INTERACTION_CREATE parsed lean (``bot/ui/inbound.py``, ``items.InteractionParser``,
issue 29): the interaction is discord.py's own but for its message, built only when something
past its id, flags and channel is read, and then equal to the one discord.py builds; a click
finds its component in the message's payload; every interaction kind still takes
discord.py's path."""

from __future__ import annotations

import copy
from typing import Any

import discord
import pytest

from bot.ui import items
from bot.ui.inbound import LazyMessage, LeanInteractions, message_payload

BOT_ID = "1300000000000000001"
GUILD_ID = "5"
USER = {
    "id": "1300000000000001000",
    "username": "alice",
    "discriminator": "0",
    "global_name": "Alice",
    "avatar": None,
    "public_flags": 0,
}
MEMBER = {
    "user": USER,
    "roles": [],
    "nick": None,
    "avatar": None,
    "joined_at": "2026-01-01T00:00:00+00:00",
    "deaf": False,
    "mute": False,
    "flags": 0,
    "pending": False,
    "permissions": "2248473465835073",
}
TEXT = {
    "id": "1300000000000000003",
    "type": 0,
    "guild_id": GUILD_ID,
    "name": "mesa",
    "position": 0,
    "permission_overwrites": [],
    "topic": None,
    "nsfw": False,
    "last_message_id": None,
    "rate_limit_per_user": 0,
    "parent_id": None,
    "flags": 0,
}
THREAD = {
    "id": "1300000000000000055",
    "type": 11,
    "guild_id": GUILD_ID,
    "parent_id": TEXT["id"],
    "name": "mesa #1",
    "owner_id": BOT_ID,
    "flags": 0,
    "last_message_id": None,
    "rate_limit_per_user": 0,
    "message_count": 3,
    "member_count": 1,
    "thread_metadata": {
        "archived": False,
        "auto_archive_duration": 1440,
        "archive_timestamp": "2026-12-05T00:00:00.000000+00:00",
        "locked": False,
    },
}
DM = {"id": "1300000000000000066", "type": 1, "recipients": [USER]}
GROUP_DM = {"id": "1300000000000000067", "type": 3, "recipients": [USER], "name": None}


def _button(custom_id: str, label: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": label, "custom_id": custom_id}


def _components() -> list[dict[str, Any]]:
    """A Components V2 tree: a container holding a section whose accessory is a button, a
    text, a gallery and a row of buttons; a row with a menu."""
    return [
        {
            "type": 17,
            "components": [
                {
                    "type": 9,
                    "components": [{"type": 10, "content": "Mesa"}],
                    "accessory": _button("probe:1:rules", "Reglas"),
                },
                {"type": 10, "content": "Tu turno"},
                {"type": 12, "items": [{"media": {"url": "attachment://table.png"}}]},
                {
                    "type": 1,
                    "components": [_button("probe:2:a", "5 rojo"), _button("probe:2:b", "7 azul")],
                },
            ],
        },
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": "probe:3:menu",
                    "options": [{"label": "uno", "value": "1"}, {"label": "dos", "value": "2"}],
                    "min_values": 1,
                    "max_values": 1,
                }
            ],
        },
    ]


def _message(channel_id: str, flags: int = 32768, **extra: Any) -> dict[str, Any]:
    return {
        "id": "1300000000000000002",
        "channel_id": channel_id,
        "type": 0,
        "content": "",
        "flags": flags,
        "author": {
            "id": BOT_ID,
            "username": "Mesa",
            "discriminator": "0",
            "avatar": None,
            "bot": True,
        },
        "components": _components(),
        "attachments": [
            {
                "id": "1300000000000000009",
                "filename": "table.png",
                "size": 8000,
                "url": "https://cdn.discordapp.com/attachments/3/9/table.png",
                "proxy_url": "https://media.discordapp.net/attachments/3/9/table.png",
            }
        ],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": "2026-12-05T00:00:00.000000+00:00",
        "edited_timestamp": None,
        **extra,
    }


def _event(
    kind: int = 3,
    *,
    channel: dict[str, Any] = TEXT,
    guild_id: str | None = GUILD_ID,
    data: dict[str, Any] | None = None,
    message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    event: dict[str, Any] = {
        "id": "1300000000000100000",
        "application_id": BOT_ID,
        "type": kind,
        "data": data if data is not None else {"custom_id": "probe:2:a", "component_type": 2},
        "token": "fake-interaction-token",
        "version": 1,
        "channel_id": channel["id"],
        "channel": channel,
        "locale": "es-ES",
        "entitlements": [],
        "authorizing_integration_owners": {"0": GUILD_ID} if guild_id else {"1": USER["id"]},
        "context": 0 if guild_id else 1,
        "attachment_size_limit": 10485760,
        "app_permissions": "2248473465835073",
    }
    if guild_id is not None:
        event["guild_id"] = guild_id
        event["guild"] = {"id": guild_id, "locale": "es-ES", "features": []}
        event["guild_locale"] = "es-ES"
        event["member"] = MEMBER
    else:
        event["user"] = USER
    if message is not None:
        event["message"] = message
    return event


REPLY = _message(TEXT["id"], content="older")  # a message this one answers
KINDS = {
    "a table's button": _event(message=_message(TEXT["id"])),
    "a menu": _event(
        data={"custom_id": "probe:3:menu", "component_type": 3, "values": ["2"]},
        message=_message(TEXT["id"]),
    ),
    "a thread's button": _event(channel=THREAD, message=_message(THREAD["id"])),
    "an ephemeral hand": _event(
        message=_message(
            TEXT["id"],
            flags=32768 | 64,
            interaction_metadata={"id": "1300000000000000077", "type": 3, "user": USER},
        )
    ),
    "a DM hand": _event(channel=DM, guild_id=None, message=_message(DM["id"])),
    "a group DM's table": _event(channel=GROUP_DM, guild_id=None, message=_message(GROUP_DM["id"])),
    "a guild the bot is not in (user install)": _event(
        guild_id="77", channel={**TEXT, "guild_id": "77"}, message=_message(TEXT["id"])
    ),
    "a reply with its referenced message": _event(
        message=_message(
            TEXT["id"],
            message_reference={"message_id": REPLY["id"], "channel_id": TEXT["id"]},
            referenced_message=REPLY,
        )
    ),
    "a modal submitted from a message": _event(
        5,
        data={"custom_id": "probe:modal", "components": []},
        message=_message(TEXT["id"]),
    ),
    "a slash command": _event(2, data={"id": "88", "name": "tables", "type": 1}),
}


@pytest.fixture
async def client():
    intents = discord.Intents.none()
    intents.guilds = True  # as the bot's
    made = discord.Client(intents=intents)
    state: Any = made._connection
    me = {"id": BOT_ID, "username": "Mesa", "discriminator": "0", "avatar": None, "bot": True}
    state.user = discord.ClientUser(state=state, data=me)
    guild = {"id": GUILD_ID, "name": "Mesa", "features": [], "roles": [], "emojis": []}
    state._add_guild(discord.Guild(data=guild, state=state))
    yield made
    await made.close()


def _message_facts(message: discord.Message) -> dict[str, Any]:
    """What a reader of a message sees, comparable between two builds of it."""
    reference = message.reference
    return {
        "id": message.id,
        "flags": message.flags.value,
        "type": message.type,
        "content": message.content,
        "channel": (type(message.channel).__name__, message.channel.id),
        "guild": message.guild.id if message.guild is not None else None,
        "author": (type(message.author).__name__, message.author.id, message.author.bot),
        "components": [component.to_dict() for component in message.components],
        "attachments": [(a.id, a.filename, a.url) for a in message.attachments],
        "embeds": message.embeds,
        "metadata": message.interaction_metadata.id if message.interaction_metadata else None,
        "reference": reference.message_id if reference is not None else None,
        "resolved": _message_facts(reference.resolved)  # type: ignore[arg-type]
        if reference is not None and isinstance(reference.resolved, discord.Message)
        else None,
        "jump_url": message.jump_url,
        "created_at": message.created_at,
        "edited_at": message.edited_at,
    }


def _interaction_facts(interaction: discord.Interaction) -> dict[str, Any]:
    user = interaction.user
    channel = interaction.channel
    return {
        "id": interaction.id,
        "type": interaction.type,
        "data": interaction.data,
        "guild_id": interaction.guild_id,
        "guild": interaction.guild.id if interaction.guild is not None else None,
        "channel": (type(channel).__name__, channel.id) if channel is not None else None,
        "user": (type(user).__name__, user.id, user.display_name),
        "locale": (interaction.locale, interaction.guild_locale),
        "context": repr(interaction.context),
        "permissions": (interaction.permissions.value, interaction.app_permissions.value),
        "owners": interaction._integration_owners,
        "message": interaction.message is not None,
    }


@pytest.mark.parametrize("kind", sorted(KINDS))
async def test_the_lean_interaction_reads_as_discord_pys_own(client, kind):
    state: Any = client._connection
    event = KINDS[kind]
    theirs = discord.Interaction(data=copy.deepcopy(event), state=state)
    lean = LeanInteractions(state)
    first = lean.build(copy.deepcopy(event))
    ours = lean.build(copy.deepcopy(event))  # the person (and a DM's channel) kept from the first
    assert _interaction_facts(first) == _interaction_facts(theirs)
    assert _interaction_facts(ours) == _interaction_facts(theirs)
    if theirs.message is None:
        assert ours.message is None
        return
    message = ours.message
    assert isinstance(message, LazyMessage) and isinstance(message, discord.Message)
    assert not message._built
    assert (message.id, message.flags.value) == (theirs.message.id, theirs.message.flags.value)
    assert message.channel is ours.channel
    assert not message._built  # id, flags and channel: nothing built
    assert _message_facts(message) == _message_facts(theirs.message)
    assert message._built
    assert message == theirs.message and hash(message) == hash(theirs.message)


@pytest.mark.parametrize("kind", sorted(KINDS))
async def test_the_lean_interaction_sets_every_slot_discord_py_sets_alike(client, kind):
    """Every slot of discord.py's ``Interaction`` that its constructor sets is set on the
    lean one (a slot a discord.py upgrade adds fails here), each to an equal value but for
    the objects built of the event (compared by their facts above)."""
    state: Any = client._connection
    event = KINDS[kind]
    theirs = discord.Interaction(data=copy.deepcopy(event), state=state)
    ours = LeanInteractions(state).build(copy.deepcopy(event))
    assert type(ours) is discord.Interaction
    built_of_event = {"message", "user", "channel", "entitlements", "context"}
    for name in discord.Interaction.__slots__:
        assert hasattr(ours, name) == hasattr(theirs, name), name
        if hasattr(theirs, name) and name not in built_of_event:
            mine, its = getattr(ours, name), getattr(theirs, name)
            assert mine is its or mine == its, name  # (``MISSING`` equals nothing)
    assert ours.context.to_array() == theirs.context.to_array()
    assert ours.entitlements == theirs.entitlements == []
    assert ours.user is not discord.utils.MISSING


async def test_an_event_without_member_user_or_locales_builds_as_discord_py_s(client):
    """Keys an event may leave out (discord.py reads them by catching a ``KeyError``): no
    person, no context, no locales, no message."""
    state: Any = client._connection
    for guild_id in (GUILD_ID, None):
        event = _event(2, guild_id=guild_id, data={"id": "88", "name": "tables", "type": 1})
        for key in ("member", "user", "context", "locale", "guild_locale"):
            event.pop(key, None)
        theirs = discord.Interaction(data=copy.deepcopy(event), state=state)
        ours = LeanInteractions(state).build(copy.deepcopy(event))
        assert ours.user is theirs.user is discord.utils.MISSING
        assert ours.message is theirs.message is None
        assert (ours.locale, ours.guild_locale) == (theirs.locale, theirs.guild_locale)
        assert ours.context.to_array() == theirs.context.to_array()
        assert ours._permissions == theirs._permissions == 0


async def test_a_message_read_past_its_id_is_built_once_with_its_interaction_s_guild(client):
    state: Any = client._connection
    ours = LeanInteractions(state).build(copy.deepcopy(KINDS["a table's button"]))
    message = ours.message
    assert isinstance(message, LazyMessage)
    assert message.flags.ephemeral is False and not message._built
    assert message.guild is ours.guild  # built now, as discord.py upgrades its guild
    assert message._built
    components = message.components
    assert message.components is components  # not built again
    with pytest.raises(AttributeError):
        message.no_such_attribute  # noqa: B018
    assert message_payload(message) is not None and message_payload(None) is None


async def test_a_person_and_a_dm_channel_are_kept_while_their_payload_is_the_same(client):
    """discord.py builds the clicker's member (or user) and a DM's channel afresh per event:
    the same payload gives the same object again; one that changed in anything (a new nick,
    other permissions) is built anew; a guild rebuilt (after an outage) gets its own member."""
    state: Any = client._connection
    lean = LeanInteractions(state, keep=2)
    first = lean.build(copy.deepcopy(KINDS["a table's button"]))
    again = lean.build(copy.deepcopy(KINDS["a menu"]))
    assert again.user is first.user and isinstance(again.user, discord.Member)
    renamed = copy.deepcopy(KINDS["a table's button"])
    renamed["member"]["nick"] = "Ali"
    other = lean.build(renamed)
    assert other.user is not first.user and other.user.display_name == "Ali"
    assert lean.build(copy.deepcopy(renamed)).user is other.user
    fewer = copy.deepcopy(renamed)
    fewer["member"]["permissions"] = "0"
    assert lean.build(fewer).permissions.value == 0  # what discord.py gives: the payload's
    dm = lean.build(copy.deepcopy(KINDS["a DM hand"]))
    dm_again = lean.build(copy.deepcopy(KINDS["a DM hand"]))
    assert dm_again.user is dm.user and isinstance(dm.user, discord.User)
    assert dm_again.channel is dm.channel and isinstance(dm.channel, discord.DMChannel)
    assert dm_again.message is not None and dm_again.message.channel is dm.channel
    me = {"id": BOT_ID, "username": "Mesa", "discriminator": "0", "avatar": None, "bot": True}
    state.user = discord.ClientUser(state=state, data=me)  # logged in again
    relogged = lean.build(copy.deepcopy(KINDS["a DM hand"]))
    assert relogged.channel is not dm.channel and relogged.channel.me is state.user
    # a guild made again (a GUILD_CREATE after an outage): its member is made again too
    guild = {"id": GUILD_ID, "name": "Mesa", "features": [], "roles": [], "emojis": []}
    state._add_guild(discord.Guild(data=guild, state=state))
    rebuilt = lean.build(copy.deepcopy(renamed))
    assert rebuilt.user is not other.user and rebuilt.user.guild is state._get_guild(int(GUILD_ID))
    assert len(lean._people) <= 2  # kept at most ``keep``


@pytest.mark.parametrize(
    ("component_type", "custom_id", "label"),
    [
        (2, "probe:1:rules", "Reglas"),  # a section's accessory
        (2, "probe:2:b", "7 azul"),  # a row inside a container
        (3, "probe:3:menu", None),  # a menu in a row
    ],
)
async def test_the_clicked_component_is_found_in_the_payload_as_in_the_built_message(
    client, component_type, custom_id, label
):
    state: Any = client._connection
    payload = _message(TEXT["id"])
    built = discord.Message(state=state, channel=None, data=copy.deepcopy(payload))  # type: ignore[arg-type]
    found = items._clicked_in(payload["components"], component_type, custom_id)
    expected = items._clicked(built.components, component_type, custom_id)
    assert found is not None and expected is not None
    assert found.to_dict() == expected.to_dict()
    assert getattr(found, "label", None) == label
    assert items._clicked_in(payload["components"], 3, "probe:2:b") is None  # type and id both


class Probe(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe:(?P<n>\d+):(?P<op>\w+)"
):
    """A dynamic item that records what its click saw."""

    seen: list[tuple[str, str | None, int, bool]] = []

    def __init__(self, op: str, label: str | None) -> None:
        super().__init__(discord.ui.Button(custom_id=f"probe:0:{op}", label=label))
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):  # type: ignore[override]
        return cls(match["op"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        message = interaction.message
        assert isinstance(message, LazyMessage)
        Probe.seen.append((self.op, self.item.label, message.id, message._built))


async def test_a_click_reaches_its_item_with_its_component_and_no_message_built(client):
    unrouted: list[discord.Interaction] = []
    dispatched: list[tuple[str, Any]] = []
    client.add_dynamic_items(Probe)
    items.route_by_component(client, unrouted.append)
    state: Any = client._connection
    state.dispatch = lambda name, *args: dispatched.append((name, args[0]))
    Probe.seen.clear()
    state.parsers["INTERACTION_CREATE"](copy.deepcopy(KINDS["a DM hand"]))
    assert Probe.seen == [("a", "5 rojo", 1300000000000000002, False)]
    assert [name for name, _ in dispatched] == ["interaction"]
    assert unrouted == []  # a dynamic item took it
    interaction = dispatched[0][1]
    assert isinstance(interaction.message, LazyMessage) and not interaction.message._built


async def test_a_click_nothing_routes_goes_to_unrouted_after_its_event(client):
    unrouted: list[discord.Interaction] = []
    dispatched: list[str] = []
    client.add_dynamic_items(Probe)
    items.route_by_component(client, lambda i: unrouted.append(i) or dispatched.append("unrouted"))
    state: Any = client._connection
    state.dispatch = lambda name, *args: dispatched.append(name)
    event = _event(data={"custom_id": "gone:7", "component_type": 2}, message=_message(TEXT["id"]))
    state.parsers["INTERACTION_CREATE"](event)
    assert dispatched == ["interaction", "unrouted"]
    assert unrouted[0].data["custom_id"] == "gone:7"  # type: ignore[index]


@pytest.mark.parametrize("kind", [1, 2, 4, 5, 99])  # ping, command, autocomplete, modal, unknown
async def test_every_other_interaction_type_takes_discord_pys_path(client, kind):
    """No command tree: commands and autocompletes go nowhere, as in discord.py; a modal goes
    to the modal store; every one is dispatched as an ``interaction`` event, none is
    'unrouted'."""
    unrouted: list[discord.Interaction] = []
    modals: list[str] = []
    dispatched: list[discord.Interaction] = []
    items.route_by_component(client, unrouted.append)
    state: Any = client._connection
    state.dispatch = lambda name, *args: dispatched.append(args[0])
    state._view_store.dispatch_modal = lambda custom_id, *args: modals.append(custom_id)
    data = {"custom_id": "probe:modal", "components": []} if kind == 5 else {"id": "1", "name": "x"}
    state.parsers["INTERACTION_CREATE"](_event(kind, data=data, message=_message(TEXT["id"])))
    assert len(dispatched) == 1 and dispatched[0].type.value == kind
    assert dispatched[0].message is not None and dispatched[0].message.id == 1300000000000000002
    assert modals == (["probe:modal"] if kind == 5 else [])
    assert unrouted == []
