"""Finding a game's UI modules (its presenter, its images) by the game's key."""

from __future__ import annotations

import importlib
from types import ModuleType


def game_module(key: str, name: str, folder: str) -> ModuleType | None:
    """A game's UI module ``name``: ``bot.ui.<key>.<name>`` when the game has its own package
    (Triple Triad), else ``bot.ui.<folder>.<key>``; None when the game has neither."""
    for module in (f"bot.ui.{key}.{name}", f"bot.ui.{folder}.{key}"):
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if not f"{module}.".startswith(f"{exc.name}."):
                raise  # the module exists but something it imports does not
    return None
