"""The table service: lobbies, actions, persistence, computer turns and turn timers.

No discord import: the Discord side talks to it with plain ids and action texts, and hears back
through a ``TableListener``. One module per concern: ``moves`` (the move path: lock → version
→ apply → persist → notify), ``lobby`` (and the per-game ``LobbyRules`` hook; Triple Triad's
in ``triad``), ``cpu``, ``timers``, ``results``, ``replay``; ``service`` is the facade.
"""

from bot.service.lobby import LobbyRules
from bot.service.models import (
    CPU_PREFIX,
    ServiceConfig,
    Table,
    TableListener,
    TableOptions,
    is_human_id,
)
from bot.service.service import TableService

__all__ = [
    "CPU_PREFIX",
    "LobbyRules",
    "ServiceConfig",
    "Table",
    "TableListener",
    "TableOptions",
    "TableService",
    "is_human_id",
]
