"""custom_id formats. Every component the bot sends is a DynamicItem that parses one of these,
so buttons keep working after a restart. Parsing happens before the 3-second clock matters;
everything here is validated again by the table service and the engine.

A format is a prefix and named parts joined by ``:``; a part's name is the field of the item
(``bot/ui/items.py``) that carries it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

CUSTOM_ID_MAX = 100


@dataclass(frozen=True)
class Part:
    name: str
    pattern: str
    parse: Callable[[str], Any] = str


@dataclass(frozen=True)
class CustomIdFormat:
    prefix: str
    parts: tuple[Part, ...]

    @property
    def pattern(self) -> str:
        """The regular expression discord.py matches a clicked custom_id against."""
        return ":".join([self.prefix, *(f"(?P<{p.name}>{p.pattern})" for p in self.parts)])

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parts)

    def format(self, values: Mapping[str, object]) -> str:
        return ":".join([self.prefix, *(str(values[p.name]) for p in self.parts)])

    def parse(self, match: re.Match[str]) -> dict[str, Any]:
        return {p.name: p.parse(match[p.name]) for p in self.parts}


TABLE = Part("table_id", "[0-9]{1,12}", int)
VERSION = Part("version", "[0-9]{1,9}", int)
PAGE = Part("page", "[0-9]{1,3}", int)

# t:{table}:{version}:{action}   a game action (button)
ACTION_BUTTON = CustomIdFormat("t", (TABLE, VERSION, Part("action", "[!-~]{1,70}")))
# ts:{table}:{version}:{group}:{page}   a game action select; values are action texts
ACTION_MENU = CustomIdFormat("ts", (TABLE, VERSION, Part("group", "[a-z0-9_]{1,20}"), PAGE))
# l:{table}:{op}   lobby buttons, and the answers of "where do you play" (bot/ui/place_question.py)
LOBBY_BUTTON = CustomIdFormat(
    "l", (TABLE, Part("op", "join|leave|cpu|start|cancel|rematch|rules|here|bydm"))
)
# lr:{table}   the host's "remove a player" select
LOBBY_REMOVE = CustomIdFormat("lr", (TABLE,))
# h:{table}:{page}   "Ver mi mano" (public) and the pages of a private view
HAND_BUTTON = CustomIdFormat("h", (TABLE, PAGE))
# d:{table}:{version}:{op}   a step of a move built in several clicks (a draft)
DRAFT_BUTTON = CustomIdFormat("d", (TABLE, VERSION, Part("op", "[!-~]{1,60}")))
# ds:{table}:{version}:{op}   a draft select (one or several values)
DRAFT_MENU = CustomIdFormat("ds", (TABLE, VERSION, Part("op", "[!-~]{1,60}")))
# mo:{table}:{version}:{kind}   opens a modal where the move is typed
MODAL_BUTTON = CustomIdFormat("mo", (TABLE, VERSION, Part("kind", "[a-z0-9_]{1,20}")))
# s:{table}:{op}   a person leaves a game in progress or takes their seat back
SEAT_BUTTON = CustomIdFormat("s", (TABLE, Part("op", "leave|rejoin")))


def check_custom_ids(items: Iterable[object]) -> None:
    """Raise ``ValueError`` if an item's custom_id is empty, too long or not unique in the
    message (a view's last line of defence, classic or V2)."""
    seen: set[str] = set()
    for item in items:
        custom_id = getattr(item, "custom_id", None)
        if custom_id is None:
            continue
        if not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
            raise ValueError(f"custom_id length {len(custom_id)}")
        if custom_id in seen:
            raise ValueError(f"duplicate custom_id {custom_id}")
        seen.add(custom_id)
