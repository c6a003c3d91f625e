"""What the Discord side needs of the bot to act on tables: the table service and the listener
that shows its changes. The cogs' host (``bot/ports.py``) and start-up recovery
(``bot/ui/recovery.py``) both extend this one Protocol."""

from __future__ import annotations

from typing import Protocol

from bot.service import TableService
from bot.ui.listener import DiscordTableListener


class TableHost(Protocol):
    @property
    def tables(self) -> TableService: ...

    @property
    def listener(self) -> DiscordTableListener:
        """What shows table changes on Discord (a click may answer with its update)."""
