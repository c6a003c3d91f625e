"""Dynamic items: components that survive restarts (discord.py's ``DynamicItem``).

Every item is a ``TableItem``: a concrete class declares its custom_id format (discord.py needs
one template per class) and its fields, in the order of the format's parts, plus ``run``: the
one handler call a click makes. The base builds the custom_id, parses it back, finds the cog
that handles the click and answers any refusal with the one refusal answer
(``bot.ui.feedback.answer_error``).
Validation happens in the table service and the engine.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterable
from typing import (
    Any,
    ClassVar,
    Generic,
    Protocol,
    Self,
    TypeAlias,
    TypeVar,
    cast,
    dataclass_transform,
    get_origin,
    runtime_checkable,
)

import discord
from discord import Interaction
from discord.components import _component_factory
from discord.ext import commands
from discord.ui.view import _component_to_item

from bot.errors import TableError
from bot.service.models import Table
from bot.ui import ids
from bot.ui.feedback import answer_error
from bot.ui.http_gate import handling_started
from bot.ui.inbound import LeanInteractions, message_payload
from bot.ui.links import jump_link

log = logging.getLogger(__name__)
ComponentT = TypeVar("ComponentT", bound=discord.ui.Item[Any])
T = TypeVar("T")
NEVER_MATCHES = r"(?!)"  # the template of the abstract bases: discord.py never dispatches them
_REQUIRED: Any = object()  # the default of a field that has none
Found: TypeAlias = Table | None  # the table a click loaded before it ran (``TableItem.found``)


class Look:
    """How a component looks (label, style...): a keyword of the constructor, not a field."""

    def __init__(self, default: Any) -> None:
        self.default = default


def look(*, default: Any, kw_only: bool = True) -> Any:
    """Declare a look keyword (``kw_only`` is there for type checkers; looks always are)."""
    return Look(default)


# ----- what items need from the cogs that handle them ----------------------------------------
@runtime_checkable
class TableHandler(Protocol):
    def game_key(self, table_id: int) -> str | None:
        """The game of a table, whose catalogue explains its refusals."""


class PlayHandler(TableHandler, Protocol):
    async def on_action(
        self, interaction: Interaction, table_id: int, version: int, action: str, table: Found
    ) -> None: ...

    async def on_empty_select(self, interaction: Interaction) -> None: ...

    async def on_show_hand(self, interaction: Interaction, table_id: int, page: int) -> None: ...

    async def on_draft(
        self, interaction: Interaction, table_id: int, version: int, op: str, values: list[str]
    ) -> None: ...

    async def on_open_modal(self, interaction: Interaction, table_id: int, kind: str) -> None: ...


class LobbyHandler(TableHandler, Protocol):
    async def on_lobby_button(self, interaction: Interaction, table_id: int, op: str) -> None: ...

    async def on_remove(self, interaction: Interaction, table_id: int, seat: str) -> None: ...


class SeatHandler(TableHandler, Protocol):
    async def on_seat_button(self, interaction: Interaction, table_id: int, op: str) -> None: ...


def handler_cog(interaction: discord.Interaction, name: str) -> TableHandler:
    """The loaded cog called ``name``; a missing one is a wiring bug, not a user's error.
    (Asked of its ``game_key``, not by ``isinstance`` on the runtime-checkable Protocol, which
    reads every member through typing's machinery: ~16 µs of each click, 0.4 µs this way.)"""
    client = interaction.client
    cog = client.get_cog(name) if isinstance(client, commands.Bot) else None
    if not callable(getattr(cog, "game_key", None)):
        raise LookupError(f"no {name} handling table items is loaded")
    return cast(TableHandler, cog)


def selected_values(interaction: discord.Interaction) -> list[str]:
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values") or []]


# ----- the base ---------------------------------------------------------------------------------
class FromCustomId:
    """A dynamic item rebuilt from a click: its constructor takes the fields of its one
    custom_id format (``id_format``) and the look of the component clicked (``looks_of``)."""

    id_format: ClassVar[ids.CustomIdFormat]

    @classmethod
    def looks_of(cls, item: discord.ui.Item[Any] | discord.Component) -> dict[str, Any]:
        """The look of a dispatched component (discord.py's item of it, or for a table item
        the component itself: ``_dispatch``), so the rebuilt item matches it."""
        return {}

    @classmethod
    def from_click(
        cls, component: discord.ui.Item[Any] | discord.Component, match: re.Match[str]
    ) -> Self:
        """The item of a click: the fields its custom_id holds and its component's look."""
        made: Self = cls(**cls.id_format.parse(match), **cls.looks_of(component))
        return made

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction[Any],
        item: discord.ui.Item[Any] | discord.Component,
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.from_click(item, match)


@dataclass_transform(field_specifiers=(look,))
class TableItem(
    FromCustomId, discord.ui.DynamicItem[ComponentT], Generic[ComponentT], template=NEVER_MATCHES
):
    """One clickable thing of a table. Subclass ``TableButton`` or ``TableSelect``."""

    handled_by: ClassVar[str] = "PlayCog"  # the cog whose handler ``run`` calls
    # Whether its click may be answered "thinking" (an answer a restart must send): recorded
    # before it runs (``callback``). The play cog records its clicks itself.
    may_think: ClassVar[bool] = True
    _fields: ClassVar[dict[str, Any]] = {}  # field -> default (``_REQUIRED`` when none)
    _looks: ClassVar[dict[str, Any]] = {}  # look keyword -> default
    _stored: ClassVar[tuple[str, ...]] = ()  # the fields and looks set on the item
    _field_names: ClassVar[tuple[str, ...]] = ()  # the fields, in the format's order
    _stored_looks: ClassVar[tuple[str, ...]] = ()  # the looks set on the item (not ``row``)
    _short_way: ClassVar[bool] = False
    _id_written: ClassVar[str] = ""  # the custom_id's format for ``str.format`` (a template's)
    # each part's parser, in the format's order: the template's groups (``from_click``)
    _parsers: ClassVar[tuple[Callable[[str], Any], ...]] = ()
    table_id: int
    _custom_id: str
    _looks_given: dict[str, Any]
    _component: ComponentT | None
    found: Table | None  # the table its click is about, once it runs (``callback``)

    def __init_subclass__(cls, *, template: ids.CustomIdFormat | None = None) -> None:
        super().__init_subclass__(template=template.pattern if template else NEVER_MATCHES)
        fields = dict(cls._fields)
        looks = dict(cls._looks)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if _is_class_var(annotation):
                continue
            value = cls.__dict__.get(name, _REQUIRED)
            if isinstance(value, Look):
                looks[name] = value.default
                delattr(cls, name)  # ``row`` must stay discord.py's property
            else:
                fields[name] = value
        cls._fields, cls._looks = fields, looks
        # what a constructor sets on the item (not ``row``: discord.py's property), worked
        # out once per class, not per item built (dozens per move, issue 29)
        cls._stored = tuple(
            name for name in (*fields, *looks) if not isinstance(getattr(cls, name, None), property)
        )
        cls._field_names = tuple(fields)
        cls._stored_looks = tuple(name for name in looks if name in cls._stored)
        # every field stored on the item: a constructor given them all in order takes the short
        # way (``__init__``), as every payload's builder does
        cls._short_way = all(name in cls._stored for name in fields)
        if template is not None:
            cls.id_format = template
            # the custom_id of the fields given in order (``str.format`` writes each as ``str``)
            prefix = template.prefix.replace("{", "{{").replace("}", "}}")
            cls._id_written = ":".join([prefix, *["{}"] * len(template.parts)])
            cls._parsers = tuple(part.parse for part in template.parts)
            if re.compile(template.pattern).groups != len(template.parts):
                raise TypeError(f"{cls.__name__}'s parts hold groups of their own")
            if tuple(fields) != template.names:
                raise TypeError(f"{cls.__name__} fields {tuple(fields)} != {template.names}")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        own = self.__dict__
        # The fields and looks on the item (not ``row``: it lives in the item), then what
        # ``DynamicItem.__init__`` does, without building discord.py's component: most items
        # are only ever written into a payload (``to_component_dict``), a button's or a
        # select's dict written here directly (issue 29: dozens of items per move). The
        # component is built when something asks for it (``item``: a click's dispatch, a
        # change of its looks).
        # ``discord.ui.Item.__init__``'s attributes, no component yet, and no table found yet
        # (set in the instance's dict: none of these is a descriptor of the class), first
        # and in one update: then the fields' and looks' keys (issue 29, session 30: an item
        # 2.55 -> 2.08 us in a hot loop, ~7 items a move)
        own.update(_ITEM_START)
        if len(args) == len(cls._field_names) and cls._short_way:
            # every field given in order, the looks by keyword: no dict of the values
            looks = {**cls._looks, **kwargs}  # (``_looks_of`` inlined: dozens per payload)
            if len(looks) != len(cls._looks):
                looks = cls._looks_of(kwargs)  # raises: a keyword that is no look
            own.update(zip(cls._field_names, args, strict=True))
            for name in cls._stored_looks:
                own[name] = looks[name]
            custom_id = cls._id_written.format(*args)
        else:
            values = self._values(args, kwargs)
            looks = cls._looks_of(kwargs)
            for name in cls._stored:
                own[name] = values[name] if name in values else looks[name]
            # (the values are in the format's order: ``__init_subclass__`` checked the fields)
            custom_id = ":".join([cls.id_format.prefix, *map(str, values.values())])
        if not cls.__discord_ui_compiled_template__.match(custom_id):
            raise ValueError(f"item custom_id {custom_id!r} must match the template")
        # (as ``from_click`` ends: written out in both, a method call per item cost the
        # payloads' dozens of items more than the click saves)
        own["_custom_id"] = custom_id
        own["_looks_given"] = looks
        if not self._writes_itself(looks):
            self._component = self.component(custom_id, looks)
        elif looks["row"] is not None and not 0 <= looks["row"] < 5:
            raise ValueError("row cannot be negative or greater than or equal to 5")

    @classmethod
    def _looks_of(cls, given: dict[str, Any]) -> dict[str, Any]:
        """Every look: the ``given`` ones, the class's defaults for the others."""
        looks = {**cls._looks, **given}
        if len(looks) != len(cls._looks):  # (a keyword that is no look added a key)
            raise TypeError(f"{cls.__name__} got unexpected {sorted(looks.keys() - cls._looks)}")
        return looks

    @classmethod
    def _values(cls, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The fields' values, given in order or by name (taken out of ``kwargs``)."""
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__} takes {len(fields)} positional arguments")
        values = dict(zip(fields, args, strict=False))
        if len(values) < len(fields):
            for name, default in fields.items():
                if name not in values:
                    values[name] = kwargs.pop(name, default)
            for name, value in values.items():
                if value is _REQUIRED:
                    raise TypeError(f"{cls.__name__} needs {name}")
        return values

    def component(self, custom_id: str, looks: dict[str, Any]) -> ComponentT:
        raise NotImplementedError

    # ----- the component, built only when asked for ------------------------------------------
    def _writes_itself(self, looks: dict[str, Any]) -> bool:
        """Whether ``_written`` gives this item's component dict without building it."""
        return False

    def _written(self) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def item(self) -> ComponentT:
        """discord.py's component of this item (``DynamicItem.item``), built on first use."""
        built = self._component
        if built is None:
            built = self._component = self.component(self._custom_id, self._looks_given)
        return built

    @item.setter
    def item(self, value: ComponentT) -> None:
        self._component = value

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """discord.py's asks the component's own check, building it; a table item's component
        is a ``discord.ui.Button`` or ``Select``, whose check is discord.py's default (yes):
        a click builds none for it (``tests/bot/test_items_rebuild.py``)."""
        built = self._component
        return True if built is None else await built.interaction_check(interaction)

    @property
    def custom_id(self) -> str:
        built: Any = self._component  # (a button's or a select's: both have a custom_id)
        return self._custom_id if built is None else cast(str, built.custom_id)

    @custom_id.setter
    def custom_id(self, value: str) -> None:
        discord.ui.DynamicItem.custom_id.fset(self, value)  # type: ignore[attr-defined]
        self._custom_id = value

    @property
    def row(self) -> int | None:
        built = self._component
        return self._looks_given["row"] if built is None else built._row

    @row.setter
    def row(self, value: int | None) -> None:
        self.item.row = value

    # what the component says of itself before it is built (a button's, a select's)
    _written_width: ClassVar[int] = 1
    _written_type: ClassVar[discord.ComponentType] = discord.ComponentType.button

    @property
    def width(self) -> int:
        built = self._component
        return self._written_width if built is None else built.width

    @property
    def _total_count(self) -> int:
        built = self._component
        return 1 if built is None else built._total_count

    @property
    def type(self) -> discord.ComponentType:
        built = self._component
        return self._written_type if built is None else built.type

    def is_dispatchable(self) -> bool:
        return True

    def to_component_dict(self) -> dict[str, Any]:
        built = self._component
        return self._written() if built is None else built.to_component_dict()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Refuse while the bot shuts down; load the table first if start-up left it unloaded;
        then the click goes straight to its handler (``run``): no wrapper between them on its
        path, and no coroutine level either (each is resumed at each of the click's waits,
        issue 29)."""
        handling_started()  # every click's answer's wait is timed (bot/ui/http_gate.py)
        cog = handler_cog(interaction, self.handled_by)
        try:
            # The bot (bot/client.py) has its table service, listener and pending commands
            # before it loads the cogs that handle clicks (``handler_cog`` found one).
            client: Any = interaction.client
            tables = client.tables
            if tables.closing:
                raise TableError("restarting")
            self.found = await tables.registry.ensure(self.table_id)
            _refuse_if_moved(interaction, self.table_id, client)
            # Seat and Triple Triad clicks may answer "thinking": recorded so a restart answers
            # one a killed bot left so. Game actions record their own intents, and the play cog
            # records a click just before it answers "thinking" (``_within``). Lobby presses
            # never think (an update or a deferred update of the lobby: nothing a restart must
            # finish).
            pending = client.pending_commands
            if self.may_think and self.handled_by != "PlayCog":
                await pending.record(interaction)
            try:
                await self.run(cog, interaction)
            finally:
                await pending.settle(interaction)  # nothing to do unless it was recorded
        except Exception as exc:  # refused: the one answer to a failed interaction
            await answer_error(interaction, exc, self._game(cog))

    @classmethod
    def from_click(
        cls, component: discord.ui.Item[Any] | discord.Component, match: re.Match[str]
    ) -> Self:
        """The item of a click (``from_custom_id`` without its coroutine: ``_dispatch``): its
        fields parsed from the match in the format's order, its custom_id the one clicked,
        which the template just matched (issue 29: a dict of the fields by name took the
        constructor's long way, ~1.6 us of each click; session 31: the constructor wrote the
        custom_id again and matched it again, and built a union per ``isinstance``: a button's
        click 39,174 -> 31,976 instructions hot, a select's 43,467 -> 34,442)."""
        fields = [parse(value) for parse, value in zip(cls._parsers, match.groups(), strict=True)]
        looks = cls._looks_of(cls.looks_of(component))
        if not cls._short_way:
            return cls(*fields, **looks)
        item = cls.__new__(cls)
        own = item.__dict__
        own.update(_ITEM_START)  # as ``__init__`` starts
        own.update(zip(cls._field_names, fields, strict=True))
        for name in cls._stored_looks:
            own[name] = looks[name]
        own["_custom_id"] = match.string
        own["_looks_given"] = looks
        if not item._writes_itself(looks):
            item._component = item.component(match.string, looks)
        elif looks["row"] is not None and not 0 <= looks["row"] < 5:
            raise ValueError("row cannot be negative or greater than or equal to 5")
        return item

    def _game(self, cog: TableHandler) -> str | None:
        """The game whose catalogue explains a refusal of this click."""
        return self.found.game.key if self.found is not None else cog.game_key(self.table_id)

    def run(self, cog: Any, interaction: discord.Interaction) -> Awaitable[None]:
        """Hand the click to ``cog`` (the ``handled_by`` cog: a PlayHandler or LobbyHandler):
        its handler's coroutine, awaited by ``callback`` (a plain function handing it back adds
        no coroutine level to the click's stack; an ``async def`` works too)."""
        raise NotImplementedError


class _Probe:
    """What ``discord.ui.Item.__init__`` sets on an item, found by running it on this."""


_probe = _Probe()
discord.ui.Item.__init__(_probe)  # type: ignore[arg-type]
_ITEM_STATE: dict[str, Any] = dict(vars(_probe))  # (None and False: shared by every item)
del _probe
# What a table item starts with (``TableItem.__init__``): discord.py's item state, no component
# built yet, and ``found``: the table its click is about, looked up once when it runs
# (``callback``).
_ITEM_START: dict[str, Any] = {**_ITEM_STATE, "_component": None, "found": None}


def _is_class_var(annotation: object) -> bool:
    if isinstance(annotation, str):  # ``from __future__ import annotations``
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return get_origin(annotation) is ClassVar


def _refuse_if_moved(interaction: discord.Interaction, table_id: int, client: Any) -> None:
    """A click on a table message that a fresh one replaced (bot/ui/fresh.py): "this table
    moved", with a link to where it is now."""
    message = interaction.message
    if message is None or client.listener.kit.ages.moved_table(message.id) != table_id:
        return
    table = client.tables.registry.find(table_id)
    if table is None or not table.record.message_id:
        return
    record = table.record
    raise TableError(
        "table_moved", link=jump_link(record.guild_id, record.channel_id, record.message_id)
    )


# Issue 29: every button and menu a payload shows is built afresh (dozens per move), and
# discord.py builds each one's component (``Component._raw_construct``) by walking its class's
# MRO for ``__slots__`` (``utils.get_slots``, a generator that raises and catches an
# AttributeError on ``object``): a third of a button's construction. A class's slots never
# change: worked out once per class. discord.py internal used (re-check on upgrade):
# ``components.get_slots``, the name ``_raw_construct`` reads, and what it yields.
@functools.cache
def _slots_once(cls: type[Any]) -> tuple[str, ...]:
    return tuple(discord.utils.get_slots(cls))


discord.components.get_slots = _slots_once  # type: ignore[assignment]


# The classes ``isinstance`` asks of every item built and every click, as tuples: a ``X | Y``
# written in the call builds a new union each time (session 31).
_WRITTEN_EMOJI = (str, discord.PartialEmoji)
_BUTTONS = (discord.ui.Button, discord.components.Button)
_SELECTS = (discord.ui.Select, discord.components.SelectMenu)


class TableButton(TableItem[discord.ui.Button[Any]]):
    table_id: int
    label: str | None = look(default=None, kw_only=True)
    style: discord.ButtonStyle = look(default=discord.ButtonStyle.secondary, kw_only=True)
    emoji: str | discord.PartialEmoji | None = look(default=None, kw_only=True)
    row: int | None = look(default=None, kw_only=True)
    disabled: bool = look(default=False, kw_only=True)

    def component(self, custom_id: str, looks: dict[str, Any]) -> discord.ui.Button[Any]:
        return discord.ui.Button(custom_id=custom_id, **looks)

    def _writes_itself(self, looks: dict[str, Any]) -> bool:
        # not a subclass that builds its component its own way (Triple Triad's clipped labels)
        emoji = looks["emoji"]
        return type(self).component is TableButton.component and (
            emoji is None or isinstance(emoji, _WRITTEN_EMOJI)
        )

    def _written(self) -> dict[str, Any]:
        """``discord.ui.Button(...).to_component_dict()`` of this item's looks, key for key in
        the same order (``tests/bot/test_items_written.py``)."""
        looks = self._looks_given
        data: dict[str, Any] = {
            "type": 2,
            "style": looks["style"].value,
            "disabled": looks["disabled"],
        }
        if looks["label"]:
            data["label"] = looks["label"]
        data["custom_id"] = self._custom_id
        emoji = looks["emoji"]
        if emoji is not None:
            data["emoji"] = dict(_emoji_dict(emoji)) if isinstance(emoji, str) else emoji.to_dict()
        return data

    @classmethod
    def looks_of(cls, item: discord.ui.Item[Any] | discord.Component) -> dict[str, Any]:
        if not isinstance(item, _BUTTONS):
            return {}
        return {"label": item.label, "style": item.style, "emoji": item.emoji}


@functools.lru_cache(maxsize=256)
def _emoji_dict(emoji: str) -> dict[str, Any]:
    """A button's emoji as discord.py writes it (a handful of distinct emoji: ◀ ▶, the rules
    book, the games' suits); copied by each user, never changed."""
    return discord.PartialEmoji.from_str(emoji).to_dict()  # type: ignore[return-value]


class TableSelect(TableItem[discord.ui.Select[Any]]):
    table_id: int
    options: list[discord.SelectOption] | None = look(default=None, kw_only=True)
    placeholder: str | None = look(default=None, kw_only=True)
    row: int | None = look(default=None, kw_only=True)
    min_values: int = look(default=1, kw_only=True)
    max_values: int = look(default=1, kw_only=True)

    _written_width = 5
    _written_type = discord.ComponentType.string_select

    def component(self, custom_id: str, looks: dict[str, Any]) -> discord.ui.Select[Any]:
        options = looks["options"] or [discord.SelectOption(label="-")]
        return discord.ui.Select(
            custom_id=custom_id,
            options=options,
            placeholder=looks["placeholder"],
            row=looks["row"],
            min_values=looks["min_values"],
            max_values=min(looks["max_values"], len(options)),
        )

    def _writes_itself(self, looks: dict[str, Any]) -> bool:
        return type(self).component is TableSelect.component

    def _written(self) -> dict[str, Any]:
        """``component(...).to_component_dict()``, key for key in the same order (a select
        as ``component`` builds it: enabled, required, its options' own dicts)."""
        looks = self._looks_given
        options = looks["options"] or [discord.SelectOption(label="-")]
        data: dict[str, Any] = {
            "type": 3,
            "custom_id": self._custom_id,
            "min_values": looks["min_values"],
            "max_values": min(looks["max_values"], len(options)),
            "disabled": False,
            "required": True,
        }
        if looks["placeholder"]:
            data["placeholder"] = looks["placeholder"]
        data["options"] = _written_options(options)
        return data

    @classmethod
    def looks_of(cls, item: discord.ui.Item[Any] | discord.Component) -> dict[str, Any]:
        if not isinstance(item, _SELECTS):
            return {}
        return {
            "options": list(item.options),
            "min_values": item.min_values,
            "max_values": item.max_values,
        }


def _written_options(options: list[discord.SelectOption]) -> list[dict[str, Any]]:
    """``[option.to_dict() for option in options]``, key for key in the same order, without two
    method calls an option (``BaseOption.to_dict`` through ``super()``): a hand's select lists
    up to 25 cards, written at every move (~0.38 -> ~0.2 us an option)."""
    written = []
    for option in options:
        data: dict[str, Any] = {
            "label": option.label,
            "value": option.value,
            "default": option.default,
        }
        if option.description:
            data["description"] = option.description
        emoji = option.emoji
        if emoji:
            data["emoji"] = emoji.to_dict()
        written.append(data)
    return written


# ----- the items ------------------------------------------------------------------------------
class ActionButton(TableButton, template=ids.ACTION_BUTTON):
    version: int
    action: str

    def run(self, cog: PlayHandler, interaction: discord.Interaction) -> Awaitable[None]:
        return cog.on_action(interaction, self.table_id, self.version, self.action, self.found)


class ActionSelect(TableSelect, template=ids.ACTION_MENU):
    version: int
    group: str
    page: int

    def run(self, cog: PlayHandler, interaction: discord.Interaction) -> Awaitable[None]:
        values = selected_values(interaction)
        if not values:
            return cog.on_empty_select(interaction)
        return cog.on_action(interaction, self.table_id, self.version, values[0], self.found)


class HandButton(TableButton, template=ids.HAND_BUTTON):
    """ "Ver mi mano" on the public message, and page arrows in a private view."""

    page: int = 0
    style: discord.ButtonStyle = look(default=discord.ButtonStyle.primary, kw_only=True)

    def run(self, cog: PlayHandler, interaction: discord.Interaction) -> Awaitable[None]:
        return cog.on_show_hand(interaction, self.table_id, self.page)


class LobbyButton(TableButton, template=ids.LOBBY_BUTTON):
    handled_by = "LobbyCog"
    may_think = False  # answered by an update or a deferred update of the lobby
    op: str

    def run(self, cog: LobbyHandler, interaction: discord.Interaction) -> Awaitable[None]:
        return cog.on_lobby_button(interaction, self.table_id, self.op)


class LobbyRemoveSelect(TableSelect, template=ids.LOBBY_REMOVE):
    handled_by = "LobbyCog"
    may_think = False  # answered by a deferred update of the lobby
    row: int | None = look(default=1, kw_only=True)

    def run(self, cog: LobbyHandler, interaction: discord.Interaction) -> Awaitable[None]:
        values = selected_values(interaction)
        return cog.on_remove(interaction, self.table_id, values[0] if values else "")


class DraftButton(TableButton, template=ids.DRAFT_BUTTON):
    """One step of a move built over several clicks (pick a pozo, add a card, "Bajar")."""

    version: int
    op: str

    def run(self, cog: PlayHandler, interaction: discord.Interaction) -> Awaitable[None]:
        return cog.on_draft(interaction, self.table_id, self.version, self.op, [])


class DraftSelect(TableSelect, template=ids.DRAFT_MENU):
    version: int
    op: str

    def run(self, cog: PlayHandler, interaction: discord.Interaction) -> Awaitable[None]:
        values = selected_values(interaction)
        return cog.on_draft(interaction, self.table_id, self.version, self.op, values)


class ModalButton(TableButton, template=ids.MODAL_BUTTON):
    """Opens a modal where a move is typed (e.g. a Maquiavelo arrangement)."""

    version: int
    kind: str

    def run(self, cog: PlayHandler, interaction: discord.Interaction) -> Awaitable[None]:
        return cog.on_open_modal(interaction, self.table_id, self.kind)


class SeatButton(TableButton, template=ids.SEAT_BUTTON):
    """ "Salir" (leave a game in progress) and "Volver" (take one's seat back) on the table."""

    handled_by = "SeatsCog"
    op: str

    def run(self, cog: SeatHandler, interaction: discord.Interaction) -> Awaitable[None]:
        return cog.on_seat_button(interaction, self.table_id, self.op)


# How a click reaches its item. discord.py finds the dynamic item a click is for by rebuilding
# the whole clicked message as a ``View`` or ``LayoutView`` (``ViewStore.
# schedule_dynamic_item_call``: every container, text, gallery, row and button of it, linked in
# reference cycles, with a future) only to pick the clicked component out of it, once per click
# (issue 29: most of the cyclic garbage at 250 busy tables). Here the one component clicked is
# found in the message discord.py already parsed and made an item alone; the item is then built
# and called as discord.py does it (``from_custom_id``, ``interaction_check``, ``callback``; an
# exception logged, not raised). It lives beside the items so that a click's path stays in the
# file of the item it reaches (tests/e2e/test_click_path.py).


def route_by_component(
    client: discord.Client, unrouted: Callable[[discord.Interaction[Any]], None]
) -> None:
    """Dispatch ``client``'s dynamic items from the clicked component alone (see above), each
    click's handler started in the loop turn its event is read (``start_now``), its event
    parsed lean (``InteractionParser``); a component click no dynamic item took goes to
    ``unrouted`` once its ``interaction`` event is dispatched."""
    state: Any = client._connection
    # every shard's gateway reads its events' parsers from this one dict
    state.parsers["INTERACTION_CREATE"] = InteractionParser(state, unrouted)
    store: Any = state._view_store
    store.schedule_dynamic_item_call = _dispatch  # the instance's, over ViewStore's method

    def dispatch_dynamic_items(component_type: int, custom_id: str, interaction: Any) -> None:
        for pattern, factory in store._dynamic_items.items():
            match = pattern.fullmatch(custom_id)
            if match is not None:
                interaction.extras[_ROUTED] = True
                rest = start_now(_dispatch(component_type, factory, interaction, custom_id, match))
                if rest is not None:
                    store.add_task(rest)  # kept alive, as discord.py keeps its own tasks

    store.dispatch_dynamic_items = dispatch_dynamic_items


# ``interaction.extras`` key: a dynamic item took this click (not one for ``unrouted``)
_ROUTED = "mesa.routed"


class InteractionParser:
    """discord.py's ``ConnectionState.parse_interaction_create`` (2.7) as it is, but for the
    interaction, built lean (``inbound.LeanInteractions``: no whole message): commands and
    autocompletes to the command tree, components to the view store, modals to theirs, then
    the ``interaction`` event; and then a component click no dynamic item took to
    ``unrouted``. Here, not in inbound.py, since a click's handler starts on its stack
    (``start_now``): the click's path stays in this file (tests/e2e/test_click_path.py).
    discord.py internals used (re-check on upgrade): ``ConnectionState.parsers``,
    ``_command_tree``, ``_view_store``."""

    def __init__(self, state: Any, unrouted: Callable[[discord.Interaction[Any]], None]) -> None:
        self._state = state
        self._unrouted = unrouted
        self._lean = LeanInteractions(state)

    def __call__(self, data: Any) -> None:
        state = self._state
        interaction = self._lean.build(data)
        kind = data["type"]
        if kind in (2, 4) and state._command_tree:  # a command, an autocomplete
            state._command_tree._from_interaction(interaction)
        elif kind == 3:  # a component (these keys are always there)
            inner = data["data"]
            state._view_store.dispatch_view(
                inner["component_type"], inner["custom_id"], interaction
            )
        elif kind == 5:  # a modal submitted
            inner = data["data"]
            state._view_store.dispatch_modal(
                inner["custom_id"], interaction, inner["components"], inner.get("resolved", {})
            )
        state.dispatch("interaction", interaction)
        if kind == 3 and _ROUTED not in interaction.extras:
            self._unrouted(interaction)


# Issue 25, the ack: discord.py starts a click's handler in a task of its own, so it waits for
# everything the loop has ready when the gateway event is read: under load a whole loop lag
# before the click's intent is even queued to the writer. ``start_now`` runs it at once, up to
# its first real wait (the intent's write, the move's window), as Python 3.12's eager tasks
# do, and only the rest as a task. The handler runs in a context of its own, as in a task.
# The clicker's own view, once the click releases it, starts the same way (view_kit.py).


def start_now(coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coroutine`` now up to its first wait; the task that runs the rest (None when it
    finished, or raised: logged, never raised into the gateway's reader)."""
    task, rest = _eager(coroutine)
    if rest.outcome is _WAITING:
        return task
    if isinstance(rest.outcome, _Raised):
        error = rest.outcome.error
        rest.outcome = None  # its task ends quietly: the failure is logged here
        if not isinstance(error, Exception):
            raise error
        log.error("Ignoring exception in a click's handler", exc_info=error)
    return None


async def acknowledged_meanwhile(
    interaction: discord.Interaction,
    deadline: float,
    work: Awaitable[T],
    acknowledgement: Callable[[], Coroutine[Any, Any, None]],
) -> T:
    """``work``'s result; if it is not over by ``deadline`` (loop time) and the interaction is
    not answered yet, ``acknowledgement()`` answers it meanwhile (Discord gives up after 3 s).
    An acknowledgement that failed (the interaction expired) is raised once ``work`` is over,
    in place of its outcome, which then reaches nobody."""
    acknowledging: list[asyncio.Future[None]] = []

    def acknowledge() -> None:
        # In the timer's own loop turn, up to its first wait (its request sent): a task
        # would send it a turn later, a loop lag later under load.
        if not interaction.response.is_done():
            acknowledging.append(started(acknowledgement()))

    timer = asyncio.get_running_loop().call_at(deadline, acknowledge)
    try:
        return await work
    finally:
        timer.cancel()
        if acknowledging:  # sent (or failed) before anything else answers: one answer each
            if not acknowledging[0].done():
                await asyncio.wait(acknowledging)
            # Its error's traceback holds this frame: the frame must not hold the error back
            # (through the list), or they stay in a cycle for the collector, frozen until its
            # thaw (``bot/ops/collector.py``): 161 expired clicks' errors, frames and payloads
            # in 2.6 minutes at 283 busy tables on a loaded machine (``bench/heap_census.py``).
            acknowledging.pop().result()


def started(coroutine: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
    """``coroutine`` run now up to its first wait, as ``start_now`` runs a click's handler,
    and its outcome: the task that runs the rest, or a future already done (its result or
    error) when it never waited. A view's image for a click's answer starts so
    (``view_kit.ready_by``)."""
    task, rest = _eager(coroutine)
    if rest.outcome is _WAITING:
        return task
    return _outcome(asyncio.get_running_loop(), rest)  # (its task ends quietly)


def started_here(coroutine: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
    """``started``, but the first section runs in the caller's own task and context, and a
    task is made only for the rest: a coroutine that never waits (an answer's image drawn
    already, or none to draw) costs no task (issue 29: one per click's answer). Only for
    work that enters no timeout and reads no current task before its first wait
    (``messages.finish``): there, that task would be the caller's."""
    rest = _Resumed(coroutine)
    rest.begin()
    loop = asyncio.get_running_loop()
    if rest.outcome is _WAITING:
        return loop.create_task(rest)
    return _outcome(loop, rest)


def _outcome(loop: asyncio.AbstractEventLoop, rest: _Resumed[T]) -> asyncio.Future[T]:
    """A future already done with the outcome of ``rest``, a coroutine that never waited."""
    finished: asyncio.Future[T] = loop.create_future()
    if not isinstance(rest.outcome, _Raised):
        finished.set_result(rest.outcome)
    elif isinstance(rest.outcome.error, asyncio.CancelledError):
        finished.cancel()
    else:
        finished.set_exception(rest.outcome.error)
    rest.outcome = None  # (a task made of it would end quietly: the outcome is the future's)
    return finished


def _eager(coroutine: Coroutine[Any, Any, T]) -> tuple[asyncio.Task[T], _Resumed[T]]:
    """The task of ``coroutine``, whose first section (up to its first wait) has run now, as
    that task (Python 3.12's eager tasks): ``asyncio.current_task()`` is that task there, so
    a timeout entered before the first wait (``asyncio.timeout``, aiohttp's) cancels it, not
    the caller (the gateway's reader: a write slower than the intent's 1 s wait, under load,
    cancelled the reader and the bot closed), in a context of its own, as in a task."""
    loop = asyncio.get_running_loop()
    rest = _Resumed(coroutine)
    context = contextvars.copy_context()
    task = loop.create_task(rest, context=context)
    outer = asyncio.current_task(loop)
    if outer is not None:
        asyncio.tasks._leave_task(loop, outer)
    asyncio.tasks._enter_task(loop, task)
    try:
        context.run(rest.begin)
    finally:
        asyncio.tasks._leave_task(loop, task)
        if outer is not None:
            asyncio.tasks._enter_task(loop, outer)
    return task, rest


_WAITING = object()  # ``_Resumed.outcome`` while its coroutine waits on what it yielded


class _Raised:
    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Resumed(Coroutine[Any, Any, T]):
    """A coroutine for a task whose first section ran before the task's first step
    (``_eager``): that step hands the task what the coroutine waits on (or its result, or its
    error); then every answer (a result, or an exception such as a cancellation) goes to the
    coroutine itself."""

    def __init__(self, coroutine: Coroutine[Any, Any, T]) -> None:
        self._coroutine = coroutine
        self._yielded: Any = None
        self.outcome: Any = None  # _WAITING, _Raised, or the result, until the first step
        self._first = True
        self.__qualname__ = getattr(coroutine, "__qualname__", "resumed")  # the task's repr

    def begin(self) -> None:
        try:
            self._yielded = self._coroutine.send(None)
            self.outcome = _WAITING
        except StopIteration as done:
            self.outcome = done.value
        except BaseException as exc:
            self.outcome = _Raised(exc)

    def send(self, value: Any) -> Any:
        if self._first:
            self._first = False
            if self.outcome is _WAITING:
                return self._yielded
            if isinstance(self.outcome, _Raised):
                raise self.outcome.error
            raise StopIteration(self.outcome)
        return self._coroutine.send(value)

    def throw(self, exc: Any, *rest: Any) -> Any:
        # (a cancellation before the task's first step reaches the waiting coroutine too)
        self._first = False
        return self._coroutine.throw(exc, *rest)

    def close(self) -> None:
        self._coroutine.close()

    def __await__(self) -> Generator[Any, None, T]:
        raise TypeError("run by a task only")


async def _dispatch(
    component_type: int,
    factory: type[discord.ui.DynamicItem[Any]],
    interaction: discord.Interaction,
    custom_id: str,
    match: Any,
) -> None:
    message = interaction.message
    if message is None:
        return
    payload = message_payload(message)
    if payload is None:  # a message discord.py built whole
        component = _clicked(message.components, component_type, custom_id)
    else:  # the one component clicked, out of the message's payload (bot/ui/inbound.py)
        component = _clicked_in(payload.get("components") or (), component_type, custom_id)
    if component is None:
        return
    try:  # a table item reads its looks from the component itself (no discord.py item of it)
        if issubclass(factory, TableItem):
            item: discord.ui.DynamicItem[Any] = factory.from_click(component, match)
        else:
            item = await factory.from_custom_id(interaction, _item_of(component), match)
    except Exception:
        log.exception("Ignoring exception in dynamic item creation for %r", factory)
        return
    # A button's refresh is discord.py's no-op (``Item._refresh_state``): a table button's
    # component is then never built for its click.
    if not isinstance(component, discord.components.Button):
        item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
    try:
        allow = await item.interaction_check(interaction)
    except Exception:
        allow = False
    if not allow:
        release_answered(interaction)
        return
    try:
        await item.callback(interaction)
    except Exception:
        log.exception("Ignoring exception in dynamic item callback for %r", item)
    finally:
        release_answered(interaction)


# discord.py's item of each kind of component clicked whose properties only read the component
# it wraps (``_underlying``): a button, a text select.
# (with the one component type it wraps so: a ``SelectMenu`` is also a user, role… select)
_WRAPPING: dict[
    type[discord.Component], tuple[type[discord.ui.Item[Any]], discord.ComponentType]
] = {
    discord.Button: (discord.ui.Button, discord.ComponentType.button),
    discord.SelectMenu: (discord.ui.Select, discord.ComponentType.string_select),
}


def _item_of(component: discord.Component) -> discord.ui.Item[Any]:
    """The clicked component as discord.py's item, for ``from_custom_id`` to read its look
    (``looks_of``): a button or a text select wraps the component parsed already, which its
    properties read, instead of ``_component_to_item``'s new item and copy of the component
    (issue 29: 13 us per button click, 18 per select; nothing else reads it)."""
    wrapping = _WRAPPING.get(type(component))
    if wrapping is None or component.type is not wrapping[1]:
        return _component_to_item(component)
    kind = wrapping[0]
    item = kind.__new__(kind)
    item._underlying = component  # type: ignore[attr-defined]
    return item


def release_answered(interaction: discord.Interaction) -> None:
    """Break discord.py's interaction <-> response cycle once the click is answered: it held
    the interaction, its parsed message and components until a collection found them (most
    of the cyclic garbage, ``bench/gc_census.py``), and, frozen while a token hook kept them,
    until the thaw. Answered, the response reads its parent only to raise
    ``InteractionResponded`` at a second answer, and does with None."""
    response = getattr(interaction, "_cs_response", None)  # not made just to be asked
    if response is not None and response.is_done():
        response._parent = None


def _clicked_in(
    components: Iterable[dict[str, Any]], component_type: int, custom_id: str
) -> discord.Component | None:
    """``_clicked`` of a message's payload: the component of that type and custom_id, at any
    depth (rows', containers' and sections' ``components``, a section's ``accessory``), built
    alone as discord.py builds it in a whole message."""
    for data in components:
        if data.get("custom_id") == custom_id and data.get("type") == component_type:
            # (a button or a menu: no state to read)
            return _component_factory(data)  # type: ignore[arg-type]
        inner = data.get("components")
        if inner:
            found = _clicked_in(inner, component_type, custom_id)
            if found is not None:
                return found
        accessory = data.get("accessory")
        if accessory is not None:
            found = _clicked_in((accessory,), component_type, custom_id)
            if found is not None:
                return found
    return None


def _clicked(
    components: Iterable[Any], component_type: int, custom_id: str
) -> discord.Component | None:
    """The component of that type and custom_id, at any depth (rows, containers, sections).
    The custom_id is compared first (a plain attribute, and it tells most components apart;
    an enum's ``value`` is a descriptor call), and inner components are walked in place,
    with no list built per component: a V2 message holds dozens (issue 29)."""
    for component in components:
        if (
            getattr(component, "custom_id", None) == custom_id
            and component.type.value == component_type
        ):
            return component
        children = getattr(component, "children", None)
        if children:
            found = _clicked(children, component_type, custom_id)
            if found is not None:
                return found
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            found = _clicked((accessory,), component_type, custom_id)
            if found is not None:
                return found
    return None
