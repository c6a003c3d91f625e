"""Issue 29, the collector's pauses: discord.py's interaction and its response refer to each
other, a cycle that kept every click (its parsed message, components, users) alive until a
collection walked it, and, frozen while a token hook held it (``bot/ops/collector.py``),
until the thaw. Once a click is answered its handler (``bot/ui/items._dispatch``) breaks
that cycle, so reference counting frees the click as soon as nobody holds it. Checked with
the collector off: what only a collection could free stays."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.ui import items
from tests.e2e.test_unread_callbacks import _click_seen_by_the_bot, _posted


class Probe:
    """Put in a click's ``extras``: it lives exactly as long as the interaction."""


class Click(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"unread:click"):
    """A button answered in place, or refused unanswered (``answer`` False)."""

    answer = True

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="go", custom_id="unread:click"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> Click:
        return cls()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return self.answer

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="after", view=None)


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _dispatched(
    fake_discord: Any, mesa: Any, answer: bool
) -> tuple[weakref.ref[Probe], int, int]:
    """A click on a message of the bot, dispatched as the bot dispatches its table buttons:
    a weak reference to what lives as long as its interaction, which nobody holds after, the
    message clicked and the interaction's id."""
    message_id = await _posted(mesa, fake_discord)
    interaction = _click_seen_by_the_bot(fake_discord, mesa.bot, message_id)
    probe = Probe()
    interaction.extras["probe"] = probe
    Click.answer = answer
    try:
        match = Click.__discord_ui_compiled_template__.fullmatch("unread:click")
        await items._dispatch(2, Click, interaction, "unread:click", match)
    finally:
        Click.answer = True
    assert interaction.response.is_done() is answer
    return weakref.ref(probe), message_id, interaction.id


async def test_an_answered_click_is_freed_without_a_collection(fake_discord, mesa, collector_off):
    alive, message_id, _ = await _dispatched(fake_discord, mesa, answer=True)

    assert alive() is None
    assert fake_discord.message(message_id).content == "after"
    fake_discord.assert_no_violations()


async def test_an_unanswered_click_keeps_its_cycle_until_a_collection(
    fake_discord, mesa, collector_off
):
    """The control: left unanswered (nothing may break what a later answer needs), the click
    is discord.py's cycle, freed by the collector only."""
    alive, message_id, interaction_id = await _dispatched(fake_discord, mesa, answer=False)

    assert fake_discord.message(message_id).content == "before"
    assert alive() is not None
    gc.collect()
    assert alive() is None
    # answered at last, as Discord asks of every click
    again = discord.Interaction(
        data=fake_discord.interactions.payload(fake_discord.interactions.all[interaction_id]),
        state=mesa.bot._connection,
    )
    await again.response.defer()
    fake_discord.assert_no_violations()
