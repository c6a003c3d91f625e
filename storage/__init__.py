"""Persistence: SQLite (embedded default) or PostgreSQL behind one API, migrations and
repositories (``storage/db.py``)."""

from storage.collections import (
    CardNotHeld,
    CardsAtStake,
    CardStake,
    CardTransfer,
    CollectionsRepo,
    LedgerRow,
)
from storage.db import Database, open_database
from storage.followers import FollowersRepo
from storage.guild_settings import GuildSettingsRepo
from storage.intents import Intent, IntentsRepo
from storage.players import PlayersRepo
from storage.presented import PresentedRepo, Shown
from storage.ratings import (
    GLOBAL,
    GLOBAL_BOARD_KEY,
    RATED,
    RATING_CHANGES_META,
    FinishedGame,
    FinishedRow,
    Rate,
    RatingRow,
    RatingsRepo,
    Skill,
    ordinal,
)
from storage.sql import INTEGRITY_ERRORS, StorageUnavailable, Transaction
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
from storage.threads import TableThreadsRepo

__all__ = [
    "GLOBAL",
    "GLOBAL_BOARD_KEY",
    "RATED",
    "FinishedGame",
    "FinishedRow",
    "FollowersRepo",
    "GuildSettingsRepo",
    "Rate",
    "RatingRow",
    "RATING_CHANGES_META",
    "RatingsRepo",
    "Skill",
    "ordinal",
    "ActionRow",
    "CardNotHeld",
    "CardsAtStake",
    "CardStake",
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
    "INTEGRITY_ERRORS",
    "StorageUnavailable",
    "Transaction",
    "StandingRow",
    "StandingsRepo",
    "TableRecord",
    "TablesRepo",
    "TableThreadsRepo",
    "TableStatus",
    "open_database",
]
