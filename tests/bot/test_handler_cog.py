"""``items.handler_cog``: the cog a table item hands its click to, found by name and asked of
its ``game_key`` (not ``isinstance`` on the runtime-checkable Protocol: ~16 µs per click); a
missing cog, or one that handles no table items, is a wiring bug (LookupError)."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest
from discord.ext import commands

from bot.ui.items import handler_cog


class PlayCog(commands.Cog):
    def game_key(self, table_id: int) -> str | None:
        return "amapatolli" if table_id == 1 else None


class LobbyCog(commands.Cog):  # handles no table items
    pass


async def test_a_loaded_handler_is_found_and_others_are_wiring_bugs():
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await bot.add_cog(PlayCog())
    await bot.add_cog(LobbyCog())
    click = SimpleNamespace(client=bot)
    cog = handler_cog(click, "PlayCog")
    assert cog is bot.get_cog("PlayCog") and cog.game_key(1) == "amapatolli"
    with pytest.raises(LookupError, match="LobbyCog"):
        handler_cog(click, "LobbyCog")
    with pytest.raises(LookupError, match="SeatsCog"):
        handler_cog(click, "SeatsCog")
    with pytest.raises(LookupError):
        handler_cog(SimpleNamespace(client=object()), "PlayCog")  # not a commands.Bot
