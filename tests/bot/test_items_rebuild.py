"""A click rebuilds its dynamic item from the custom_id and the clicked component's look
(``bot.ui.items.FromCustomId``): table items and Triple Triad's ``/cards`` pages alike."""

from __future__ import annotations

import discord

from bot.ui.items import ActionButton, DraftSelect, FromCustomId
from bot.ui.triad.items import CardsPageButton


async def _rebuilt(made: discord.ui.DynamicItem):
    cls = type(made)
    match = cls.__discord_ui_compiled_template__.fullmatch(made.item.custom_id)
    assert match is not None, made.item.custom_id
    return await cls.from_custom_id(None, made.item, match)


async def test_a_table_button_comes_back_with_its_fields_and_look():
    made = ActionButton(7, 3, "p.r5a", label="5 rojo", style=discord.ButtonStyle.success)
    back = await _rebuilt(made)
    assert isinstance(back, ActionButton)
    assert (back.table_id, back.version, back.action) == (7, 3, "p.r5a")
    assert (back.item.label, back.item.style) == ("5 rojo", discord.ButtonStyle.success)


async def test_a_draft_select_comes_back_with_its_options():
    options = [discord.SelectOption(label=f"{n}♠", value=str(n)) for n in range(1, 4)]
    made = DraftSelect(7, 3, "s.0", options=options, min_values=0, max_values=3)
    back = await _rebuilt(made)
    assert (back.table_id, back.version, back.op) == (7, 3, "s.0")
    assert [o.value for o in back.item.options] == ["1", "2", "3"]
    assert (back.item.min_values, back.item.max_values) == (0, 3)


async def test_a_cards_page_comes_back_with_its_user_page_and_label():
    made = CardsPageButton("55", 1, label="2/3")
    back = await _rebuilt(made)
    assert isinstance(back, CardsPageButton) and isinstance(back, FromCustomId)
    assert (back.user_id, back.page, back.item.label) == ("55", 1, "2/3")
