"""SQLite persistence through aiosqlite: connection, migrations and repositories."""

from storage.collections import CardNotHeld, CardTransfer, CollectionsRepo, LedgerRow
from storage.db import Database, open_database
from storage.players import PlayersRepo
from storage.standings import StandingDelta, StandingRow, StandingsRepo
from storage.tables import (
    ActionRow,
    ChannelBusy,
    SeatInfo,
    StaleVersion,
    TableRecord,
    TablesRepo,
    TableStatus,
)

__all__ = [
    "ActionRow",
    "CardNotHeld",
    "CardTransfer",
    "CollectionsRepo",
    "LedgerRow",
    "ChannelBusy",
    "PlayersRepo",
    "SeatInfo",
    "StaleVersion",
    "StandingDelta",
    "Database",
    "StandingRow",
    "StandingsRepo",
    "TableRecord",
    "TablesRepo",
    "TableStatus",
    "open_database",
]
