"""What one bot's payload builders keep from one payload to the next (``bot/ui/messages.py``):
every seat's name per table and language, and the last private payload built per table and
seat. Owned per bot (its presenters share one: ``bot/client.py``), not per process: two bots
in one process (the tests) keep nothing of each other's tables. Both bounded
(``storage.kept.KeptAtMost``): the entry written longest ago goes first."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from storage import SeatInfo
from storage.kept import KeptAtMost

if TYPE_CHECKING:
    from bot.ui.rendering import ImageRequest
    from bot.ui.v2 import CardLayout

# A busy bot's tables in both languages, with room to spare.
NAMES_KEPT = 4096
# A busy bot's (table, seat) hands: two or three people a table.
HANDS_KEPT = 2048

# A kept hand: its inputs, a copy of its layout as built, its image request.
KeptHand = tuple[tuple[Any, ...], "CardLayout", "ImageRequest | None"]


class KnownNames:
    """Names kept per (table, locale): the seats they were worked out from and every seat's
    name. A table's seats are replaced (``record.seats = ...``: a join, a leave, a computer
    taking over), never changed in place, so the very list named says they still hold."""

    def __init__(self, kept: int = NAMES_KEPT) -> None:
        self.entries: KeptAtMost[tuple[int, str], tuple[list[SeatInfo], dict[str, str]]] = (
            KeptAtMost(kept)
        )

    def get(self, table_id: int, locale: str, seats: list[SeatInfo]) -> dict[str, str] | None:
        """Every seat's name, if kept for the very same seats."""
        kept = self.entries.get((table_id, locale))
        return kept[1] if kept is not None and kept[0] is seats else None

    def keep(
        self, table_id: int, locale: str, seats: list[SeatInfo], names: dict[str, str]
    ) -> dict[str, str]:
        """``names``, kept as every seat's name of ``seats``."""
        self.entries[table_id, locale] = (seats, names)
        return names


class KeptHands:
    """The last private payload built per (table, seat) without a draft: its inputs, a copy of
    its layout before anything was drawn or noted on it, and its image request."""

    def __init__(self, kept: int = HANDS_KEPT) -> None:
        self.entries: KeptAtMost[tuple[int, str], KeptHand] = KeptAtMost(kept)

    def get(self, key: tuple[int, str]) -> KeptHand | None:
        return self.entries.get(key)

    def keep(self, key: tuple[int, str], hand: KeptHand) -> None:
        self.entries[key] = hand


class PayloadMemos:
    """One bot's: its known seat names and its kept hands."""

    def __init__(self, names_kept: int = NAMES_KEPT, hands_kept: int = HANDS_KEPT) -> None:
        self.names = KnownNames(names_kept)
        self.hands = KeptHands(hands_kept)
