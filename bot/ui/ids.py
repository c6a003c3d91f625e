"""custom_id formats. Every component the bot sends is a DynamicItem that parses one of these,
so buttons keep working after a restart. Parsing happens before the 3-second clock matters;
everything here is validated again by the table service and the engine.
"""

from __future__ import annotations

CUSTOM_ID_MAX = 100

# t:{table}:{version}:{action}   a game action (button)
ACTION_BUTTON = r"t:(?P<table>[0-9]{1,12}):(?P<version>[0-9]{1,9}):(?P<action>[!-~]{1,70})"
# ts:{table}:{version}:{group}:{page}   a game action select; values are action texts
ACTION_SELECT = r"ts:(?P<table>[0-9]{1,12}):(?P<version>[0-9]{1,9}):(?P<group>[a-z0-9_]{1,20}):(?P<page>[0-9]{1,3})"
# l:{table}:{op}   lobby buttons
LOBBY_BUTTON = r"l:(?P<table>[0-9]{1,12}):(?P<op>join|leave|cpu|start|cancel|rematch)"
# lr:{table}   the host's "remove a player" select
LOBBY_REMOVE = r"lr:(?P<table>[0-9]{1,12})"
# h:{table}:{page}   "Ver mi mano" (public) and the pages of a private view
HAND_BUTTON = r"h:(?P<table>[0-9]{1,12}):(?P<page>[0-9]{1,3})"
# d:{table}:{version}:{op}   a step of a move built in several clicks (a draft)
DRAFT_BUTTON = r"d:(?P<table>[0-9]{1,12}):(?P<version>[0-9]{1,9}):(?P<op>[!-~]{1,60})"
# ds:{table}:{version}:{op}   a draft select (one or several values)
DRAFT_SELECT = r"ds:(?P<table>[0-9]{1,12}):(?P<version>[0-9]{1,9}):(?P<op>[!-~]{1,60})"
# mo:{table}:{version}:{kind}   opens a modal where the move is typed
MODAL_BUTTON = r"mo:(?P<table>[0-9]{1,12}):(?P<version>[0-9]{1,9}):(?P<kind>[a-z0-9_]{1,20})"


def action_button(table_id: int, version: int, action: str) -> str:
    return f"t:{table_id}:{version}:{action}"


def action_select(table_id: int, version: int, group: str, page: int) -> str:
    return f"ts:{table_id}:{version}:{group}:{page}"


def lobby_button(table_id: int, op: str) -> str:
    return f"l:{table_id}:{op}"


def lobby_remove(table_id: int) -> str:
    return f"lr:{table_id}"


def hand_button(table_id: int, page: int = 0) -> str:
    return f"h:{table_id}:{page}"


def draft_button(table_id: int, version: int, op: str) -> str:
    return f"d:{table_id}:{version}:{op}"


def draft_select(table_id: int, version: int, op: str) -> str:
    return f"ds:{table_id}:{version}:{op}"


def modal_button(table_id: int, version: int, kind: str) -> str:
    return f"mo:{table_id}:{version}:{kind}"
