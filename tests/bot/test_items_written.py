"""A table button or select writes its own component dict (``bot.ui.items.TableItem._written``)
instead of building discord.py's ``Button`` / ``Select`` for every payload (issue 29): what it
writes is what discord.py writes of the same component, key for key and in the same order (the
request body is the same bytes), and everything else read of an item (custom_id, row, width,
type, the built component a click dispatches to) is what it was."""

from __future__ import annotations

import json

import discord
import pytest

from bot.ui import items
from bot.ui.platform_items import FollowButton
from bot.ui.triad.items import TriadButton

LOOKS = [
    {},
    {"label": "5 rojo"},
    {"label": ""},
    {"label": "Jugar", "style": discord.ButtonStyle.success, "disabled": True, "row": 2},
    {"emoji": "◀", "style": discord.ButtonStyle.secondary, "disabled": True},
    {"emoji": "▶", "label": "Página 1/3"},
    {"emoji": "<:rules:123456789012345678>", "label": "Reglas", "row": 0},
    {"emoji": discord.PartialEmoji(name="🃏"), "style": discord.ButtonStyle.danger},
]
MADE = [
    lambda **looks: items.ActionButton(7, 12, "p.r5a", **looks),
    lambda **looks: items.DraftButton(7, 12, "sel:3", **looks),
    lambda **looks: items.HandButton(7, 2, **looks),
    lambda **looks: items.LobbyButton(7, "rematch", **looks),
    lambda **looks: items.ModalButton(7, 12, "arrange", **looks),
    lambda **looks: items.SeatButton(7, "leave", **looks),
]


def _discord_button(item: items.TableButton, looks: dict) -> dict:
    defaults = {"style": type(item)._looks["style"]}
    return discord.ui.Button(custom_id=item.custom_id, **(defaults | looks)).to_component_dict()


@pytest.mark.parametrize("make", MADE)
@pytest.mark.parametrize("looks", LOOKS)
def test_a_button_writes_what_discord_py_writes(make, looks):
    item = make(**looks)
    written = item.to_component_dict()
    assert item._component is None  # written without building discord.py's button
    assert json.dumps(written) == json.dumps(_discord_button(item, looks))
    built = item.item  # what a click's dispatch reads: the same button, built now
    assert isinstance(built, discord.ui.Button) and built.custom_id == item.custom_id
    assert json.dumps(item.to_component_dict()) == json.dumps(written)


@pytest.mark.parametrize("make", MADE)
def test_what_is_read_of_an_unbuilt_button_is_what_its_component_says(make):
    item = make(label="x", row=3)
    read = (item.custom_id, item.row, item.width, item.type, item._total_count)
    assert item._component is None
    built = item.item
    assert read == (
        built.custom_id,
        built.row,
        built.width,
        built.type,
        built._total_count,
    )
    assert item.is_dispatchable() and item.is_persistent()
    assert item.template.fullmatch(item.custom_id)


def test_a_change_to_the_built_button_is_what_is_written():
    """``bot.ui.seats.disable_rematch`` disables a written table's "Revancha" through its
    component: the payload then says so."""
    rematch = items.LobbyButton(7, "rematch", label="Revancha")
    assert rematch.to_component_dict()["disabled"] is False
    rematch.item.disabled = True
    assert rematch.to_component_dict()["disabled"] is True
    moved = items.ActionButton(7, 12, "p.r5a", label="5 rojo")
    moved.row = 4
    assert (moved.row, moved.item.row) == (4, 4)


def test_what_discord_py_refuses_is_refused_when_the_button_is_made():
    with pytest.raises(ValueError):
        items.ActionButton(7, 12, "p.r5a", row=5)
    with pytest.raises(ValueError):  # not the template's: no action text
        items.ActionButton(7, 12, "")


OPTIONS = [
    discord.SelectOption(label="7♠", value="7"),
    discord.SelectOption(label="K♥", value="12", description="rey", emoji="♥️", default=True),
]
SELECT_LOOKS = [
    {"options": OPTIONS},
    {"options": OPTIONS, "placeholder": "Tus cartas", "min_values": 0, "max_values": 5},
    {"options": OPTIONS[:1], "placeholder": "", "row": 2, "max_values": 3},
    {},  # no options: one "-" option, as the built select has
]
SELECTS = [
    lambda **looks: items.ActionSelect(7, 12, "play", 1, **looks),
    lambda **looks: items.DraftSelect(7, 12, "s.0", **looks),
    lambda **looks: items.LobbyRemoveSelect(7, **looks),
]


@pytest.mark.parametrize("make", SELECTS)
@pytest.mark.parametrize("looks", SELECT_LOOKS)
def test_a_select_writes_what_its_built_component_writes(make, looks):
    item = make(**looks)
    written = item.to_component_dict()
    read = (item.custom_id, item.row, item.width, item.type, item._total_count)
    assert item._component is None
    built = item.item
    assert json.dumps(written) == json.dumps(built.to_component_dict())
    assert read == (built.custom_id, built.row, built.width, built.type, built._total_count)
    assert json.dumps(item.to_component_dict()) == json.dumps(written)


def test_subclasses_with_their_own_component_are_built_as_before():
    clipped = TriadButton(7, "accept", label="x" * 200)
    assert clipped._component is not None and len(clipped.to_component_dict()["label"]) <= 80
    follow = FollowButton(7, "follow", label="Seguir")
    assert json.dumps(follow.to_component_dict()) == json.dumps(
        _discord_button(follow, {"label": "Seguir"})
    )


@pytest.mark.parametrize(
    ("in_order", "by_name"),
    [
        (
            lambda: items.ActionButton(7, 12, "p.r5a", label="5 rojo"),
            lambda: items.ActionButton(label="5 rojo", action="p.r5a", version=12, table_id=7),
        ),
        (
            lambda: items.HandButton(7, 2, emoji="▶", row=4),
            lambda: items.HandButton(7, page=2, emoji="▶", row=4),
        ),
        (
            lambda: items.DraftSelect(3, 9, "s.0", placeholder="Mano", max_values=2),
            lambda: items.DraftSelect(
                op="s.0", table_id=3, version=9, placeholder="Mano", max_values=2
            ),
        ),
    ],
)
def test_an_item_given_its_fields_in_order_is_the_item_given_them_by_name(in_order, by_name):
    """The constructor's short way (every field in order, as payloads build items) makes the
    same item as the way that takes fields by name or by default (a click's rebuilt item)."""
    short, named = in_order(), by_name()
    assert short.custom_id == named.custom_id
    assert short.to_component_dict() == named.to_component_dict()
    assert (short.row, short.width, short.type) == (named.row, named.width, named.type)
    for name in type(short)._stored:
        assert getattr(short, name) == getattr(named, name)
    assert short.item.to_component_dict() == named.item.to_component_dict()


@pytest.mark.parametrize(
    "made",
    [
        lambda: items.ActionButton(7, 12, "p.r5a", label="5 rojo"),
        lambda: items.ActionButton(label="5 rojo", action="p.r5a", version=12, table_id=7),
        lambda: items.DraftSelect(3, 9, "s.0", placeholder="Mano", max_values=2),
    ],
)
def test_an_item_starts_with_discord_pys_item_state_no_component_and_no_table_found(made):
    """Either way of the constructor sets what ``discord.ui.Item.__init__`` sets (one update
    of a prebuilt start, session 30), no component built yet and no table found: a click's
    table is looked up when it runs (``callback``)."""
    probe = discord.ui.Button()
    expected = {name: vars(probe)[name] for name in ("_view", "_row", "_rendered_row", "_id")}
    item = made()
    state = vars(item)
    assert {name: state[name] for name in expected} == {**expected, "_row": None}
    assert state["_parent"] is None and state["_provided_custom_id"] is False
    assert state["_component"] is None and item.found is None
    assert state["_custom_id"] == item.custom_id


def test_an_item_refuses_what_is_no_field_or_look_either_way():
    with pytest.raises(TypeError, match="unexpected"):
        items.ActionButton(7, 12, "p.r5a", lable="typo")
    with pytest.raises(TypeError, match="unexpected"):
        items.ActionButton(7, 12, action="p.r5a", lable="typo")
    with pytest.raises(TypeError, match="needs"):
        items.ActionButton(7, 12)
    with pytest.raises(TypeError, match="positional"):
        items.HandButton(7, 2, 3)
    with pytest.raises(ValueError, match="template"):
        items.ActionButton(7, -1, "p.r5a")  # a version is no negative number
    with pytest.raises(ValueError, match="row"):
        items.ActionButton(7, 12, "p.r5a", row=5)
