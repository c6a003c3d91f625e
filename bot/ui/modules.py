"""Finding a game's UI modules by the game's key: every game's Discord side is one package,
``bot/ui/<key>/`` (``presenter``, ``images``, ``alt``, ``text``; issue 26)."""

from __future__ import annotations

import importlib
from types import ModuleType


def game_module(key: str, name: str) -> ModuleType | None:
    """The game's UI module ``bot.ui.<key>.<name>``; None when the game has none."""
    module = f"bot.ui.{key}.{name}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if not f"{module}.".startswith(f"{exc.name}."):
            raise  # the module exists but something it imports does not
    return None
