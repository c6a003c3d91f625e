"""Where an interaction happens (issue 30.1): the place is read from the payload Discord sends."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import discord

from bot.places import USE_EXTERNAL_APPS, PlaceKind, place_of

TEXT, DM, GROUP_DM = 0, 1, 3  # Discord channel types


@dataclass
class _Interaction:
    guild_id: int | None
    channel_id: int | None
    channel_type: int | None
    _integration_owners: dict[int, int] = field(default_factory=dict)
    permission_bits: int = 0

    @property
    def channel(self) -> SimpleNamespace | None:
        if self.channel_type is None:
            return None
        return SimpleNamespace(type=discord.ChannelType(self.channel_type))

    @property
    def permissions(self) -> discord.Permissions:
        return discord.Permissions(self.permission_bits)


def test_a_server_that_added_the_bot_is_a_full_place() -> None:
    place = place_of(_Interaction(10, 20, TEXT, {0: 10, 1: 5}))
    assert place.kind is PlaceKind.SERVER
    assert place.bot_can_post and not place.interaction_only
    assert place.scope == "10"


def test_a_payload_without_owners_is_the_bot_s_own_server() -> None:
    assert place_of(_Interaction(10, 20, TEXT)).kind is PlaceKind.SERVER


def test_a_server_without_the_bot_lives_on_interactions() -> None:
    place = place_of(_Interaction(10, 20, TEXT, {1: 5}, USE_EXTERNAL_APPS))
    assert place.kind is PlaceKind.SERVER_WITHOUT_BOT
    assert place.interaction_only and not place.forced_ephemeral
    assert place.scope == "10"
    forbidden = place_of(_Interaction(10, 20, TEXT, {1: 5}, 0))
    assert forbidden.forced_ephemeral


def test_a_group_dm_has_its_own_scope() -> None:
    place = place_of(_Interaction(None, 30, GROUP_DM, {1: 5}))
    assert place.kind is PlaceKind.GROUP_DM
    assert place.interaction_only
    assert place.scope == "channel:30"


def test_the_bot_s_dm_may_be_posted_to() -> None:
    place = place_of(_Interaction(None, 40, DM, {1: 5}))
    assert place.kind is PlaceKind.BOT_DM
    assert place.bot_can_post
    assert place.scope == "channel:40"


def test_an_interaction_s_place_is_read_once_and_shared() -> None:
    """The check, the command and the listeners of one ``/play`` share one reading: kept in
    the interaction's ``extras`` (discord.py's per-interaction dict)."""
    reads = []

    @dataclass
    class _Counted(_Interaction):
        extras: dict = field(default_factory=dict)

        @property
        def channel(self) -> SimpleNamespace | None:
            reads.append(1)
            return super().channel

    interaction = _Counted(None, 30, GROUP_DM, {1: 5})
    first = place_of(interaction)
    assert place_of(interaction) is first and len(reads) == 1
    assert first.kind is PlaceKind.GROUP_DM
    other = _Counted(None, 31, DM)
    assert place_of(other).kind is PlaceKind.BOT_DM  # each interaction its own
    assert place_of(_Interaction(None, 30, GROUP_DM)).kind is PlaceKind.GROUP_DM  # no extras
