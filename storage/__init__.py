"""SQLite persistence through aiosqlite: connection, migrations and repositories."""

from storage.collections import CardNotHeld, CardTransfer, CollectionsRepo, LedgerRow
from storage.db import Database, open_database
from storage.intents import Intent, IntentsRepo
from storage.players import PlayersRepo
from storage.presented import PresentedRepo, Shown
from storage.standings import StandingDelta, StandingRow, StandingsRepo
from storage.tables import (
    ActionRow,
    ChannelBusy,
    OpenTable,
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
    "Intent",
    "IntentsRepo",
    "OpenTable",
    "PresentedRepo",
    "Shown",
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
