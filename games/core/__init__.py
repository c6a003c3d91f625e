"""The engine contract shared by every game (see docs/architecture.md)."""

from games.core.actions import (
    Action,
    ActionCodec,
    Interned,
    NoArgs,
    format_action,
    parse_action,
)
from games.core.budget import Budget
from games.core.engine import (
    CardTransfer,
    Event,
    Game,
    GameState,
    Outcome,
    PlayerView,
    State,
    event,
)
from games.core.errors import IllegalAction
from games.core.rng import rng_for, shuffled

__all__ = [
    "Action",
    "ActionCodec",
    "Budget",
    "CardTransfer",
    "format_action",
    "parse_action",
    "Event",
    "event",
    "Game",
    "GameState",
    "IllegalAction",
    "Interned",
    "NoArgs",
    "Outcome",
    "PlayerView",
    "State",
    "rng_for",
    "shuffled",
]
