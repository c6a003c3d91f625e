"""The engine contract shared by every game (see ARCHITECTURE.md)."""

from games.core.engine import (
    Action,
    Event,
    Game,
    GameState,
    Outcome,
    PlayerView,
)
from games.core.errors import IllegalAction
from games.core.rng import rng_for, shuffled

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameState",
    "IllegalAction",
    "Outcome",
    "PlayerView",
    "rng_for",
    "shuffled",
]
