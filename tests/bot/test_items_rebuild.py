"""A click rebuilds its dynamic item from the custom_id and the clicked component's look
(``bot.ui.items.FromCustomId``): table items and Triple Triad's ``/cards`` pages alike."""

from __future__ import annotations

import discord
import pytest
from discord.components import _component_factory
from discord.ui.view import _component_to_item

from bot.ui.items import ActionButton, DraftSelect, FromCustomId, _item_of
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


def test_components_are_built_from_their_classes_slots_worked_out_once():
    """``bot.ui.items`` gives discord.py's component construction each class's slots once
    (issue 29): the same slots, in the same order, as discord.py walks them, and a button
    built so carries everything it was given."""
    import discord.components
    import discord.utils

    from bot.ui import items

    assert discord.components.get_slots is items._slots_once
    for cls in (
        discord.components.Button,
        discord.components.SelectMenu,
        discord.components.ActionRow,
        discord.components.Container,
    ):
        assert items._slots_once(cls) == tuple(discord.utils.get_slots(cls))
    button = discord.ui.Button(
        custom_id="a:1:2:x", label="Play", style=discord.ButtonStyle.primary, disabled=True
    )
    assert button.to_component_dict() == {
        "type": 2,
        "custom_id": "a:1:2:x",
        "label": "Play",
        "style": 1,
        "disabled": True,
    }


def test_the_clicked_component_is_found_at_any_depth_by_type_and_custom_id():
    """``bot.ui.items._clicked``: the component a click names, in a Components V2 message's
    container (its rows, its sections' accessories), of the type the click says."""
    from discord.components import _component_factory

    from bot.ui.items import _clicked

    row = {"type": 1, "components": [{"type": 2, "style": 2, "custom_id": "a:1", "label": "x"}]}
    menu = {
        "type": 1,
        "components": [{"type": 3, "custom_id": "m:1", "options": [{"label": "o", "value": "o"}]}],
    }
    section = {
        "type": 9,
        "components": [{"type": 10, "content": "t"}],
        "accessory": {"type": 2, "style": 1, "custom_id": "s:1", "label": "y"},
    }
    container = {"type": 17, "components": [{"type": 10, "content": "title"}, section, row, menu]}
    message = [_component_factory(container)]
    assert _clicked(message, 2, "a:1").label == "x"  # a row's button
    assert _clicked(message, 2, "s:1").label == "y"  # a section's accessory
    assert _clicked(message, 3, "m:1").custom_id == "m:1"  # a menu
    assert _clicked(message, 3, "a:1") is None  # the id, but not the type clicked
    assert _clicked(message, 2, "gone") is None


async def test_a_table_item_rebuilt_from_its_component_equals_one_from_discord_pys_item():
    """A click hands a table item the clicked component itself (``items._dispatch``), not
    discord.py's item built of it: the same fields and looks either way, and a button's
    component is not built for its click (its refresh is discord.py's no-op)."""
    from discord.ui.view import _component_to_item

    from bot.ui import items

    options = [discord.SelectOption(label=f"{n}♠", value=str(n)) for n in range(1, 4)]
    for made in (
        ActionButton(7, 3, "p.r5a", label="5 rojo", style=discord.ButtonStyle.success, emoji="🂡"),
        DraftSelect(7, 3, "s.0", options=options, min_values=0, max_values=3),
    ):
        component = discord.components._component_factory(made.to_component_dict())
        cls = type(made)
        match = cls.__discord_ui_compiled_template__.fullmatch(made.custom_id)
        from_component = await cls.from_custom_id(None, component, match)
        from_item = await cls.from_custom_id(None, _component_to_item(component), match)
        assert from_component._component is None  # nothing built yet
        assert from_component.to_component_dict() == from_item.to_component_dict()
        assert from_component.to_component_dict() == made.to_component_dict()
        assert await from_component.interaction_check(None) is True
        assert from_component._component is None  # still: its check is discord.py's default
        assert type(from_component.item).interaction_check is discord.ui.Item.interaction_check
        assert await from_component.interaction_check(None) is True  # and so once built
    assert discord.ui.Button._refresh_state is discord.ui.Item._refresh_state  # the no-op
    assert items.TableItem._refresh_state is discord.ui.DynamicItem._refresh_state


def test_every_table_item_s_component_checks_a_click_as_discord_py_s_default():
    """An unbuilt table item answers its click's check itself (yes, discord.py's default):
    every table item class builds a discord.py component whose check is that default."""
    from bot.ui import items

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    found = [cls for cls in subclasses(items.TableItem) if "component" in vars(cls)]
    assert items.TableButton in found and items.TableSelect in found
    for cls in found:
        built = cls.component.__annotations__.get("return", "")
        assert "discord.ui.Button" in str(built) or "discord.ui.Select" in str(built), cls
    assert discord.ui.Button.interaction_check is discord.ui.Item.interaction_check
    assert discord.ui.Select.interaction_check is discord.ui.Item.interaction_check


@pytest.mark.parametrize(
    "data",
    [
        {"type": 2, "style": 3, "label": "5 rojo", "custom_id": "x", "emoji": {"name": "🃏"}},
        {"type": 2, "style": 1, "label": None, "custom_id": "x", "disabled": True},
        {
            "type": 3,
            "custom_id": "x",
            "options": [{"label": f"{n}♠", "value": str(n)} for n in range(1, 4)],
            "min_values": 0,
            "max_values": 3,
            "placeholder": "cartas",
        },
        {"type": 5, "custom_id": "x", "min_values": 1, "max_values": 2},  # a user select
    ],
)
def test_a_clicked_component_reads_as_discord_pys_own_item(data):
    """A click's component handed to ``from_custom_id`` (``_item_of``: the parsed component
    wrapped, not copied) reads as the item discord.py would build of it."""
    component = _component_factory(data)
    ours, theirs = _item_of(component), _component_to_item(component)
    assert type(ours) is type(theirs)
    for cls in (ActionButton, DraftSelect, CardsPageButton):
        assert cls.looks_of(ours) == cls.looks_of(theirs), cls
    names = ("label", "style", "emoji", "disabled", "options", "min_values", "max_values")
    for name in names:
        if hasattr(theirs, name):
            assert getattr(ours, name) == getattr(theirs, name), name


def _concrete_table_items() -> list[type]:
    import bot.ui.platform_items
    import bot.ui.triad.items  # noqa: F401  (their items subclass TableItem too)
    from bot.ui.items import TableItem

    found, todo = [], list(TableItem.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if "id_format" in vars(cls):
            found.append(cls)
    return sorted(found, key=lambda cls: cls.__qualname__)


def _value_of(part) -> str:
    """A value its pattern takes (the first word of an alternation, or a sample)."""
    import re

    for sample in ("7", "p.r5a", "cards_2", "add3", *part.pattern.split("|")):
        if re.fullmatch(part.pattern, sample):
            return sample
    raise AssertionError(f"no sample for {part.pattern}")


@pytest.mark.parametrize("cls", _concrete_table_items(), ids=lambda cls: cls.__qualname__)
def test_every_table_item_clicked_is_the_item_its_constructor_makes(cls):
    """``from_click`` builds the item without the constructor (no custom_id written and
    matched again, session 31): the same fields, looks, custom_id, state and written
    component as the constructor's item of the same values, for every kind of table item."""
    from bot.ui import items

    values = [part.parse(_value_of(part)) for part in cls.id_format.parts]
    if issubclass(cls, items.TableButton):
        looks = {"label": "5 rojo", "style": discord.ButtonStyle.success, "emoji": "🂡"}
    else:
        options = [discord.SelectOption(label=f"{n}♠", value=str(n)) for n in range(1, 4)]
        looks = {"options": options, "min_values": 1, "max_values": 2}
    made = cls(*values, **looks)
    component = _component_factory(made.to_component_dict())
    match = cls.__discord_ui_compiled_template__.fullmatch(made.custom_id)
    clicked = cls.from_click(component, match)
    by_constructor = cls(*values, **cls.looks_of(component))
    assert type(clicked) is cls
    assert vars(clicked).keys() == vars(by_constructor).keys()
    for name, value in vars(by_constructor).items():
        if name != "_component":  # (a component built is compared by what it writes)
            assert vars(clicked)[name] == value, name
    assert clicked.custom_id == made.custom_id == match.string
    assert [getattr(clicked, f) for f in cls._field_names] == values
    assert clicked.to_component_dict() == by_constructor.to_component_dict()
    assert clicked.to_component_dict() == made.to_component_dict()
    assert (clicked.row, clicked.width, clicked.type) == (made.row, made.width, made.type)
