"""Game key -> engine. The presentation side registers presenters separately (bot/ui)."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping

from games.core import Game

log = logging.getLogger(__name__)

GAME_KEYS = ("amapatolli", "chupate2", "maquiavelo", "macarena", "triad")


def load_games(keys: tuple[str, ...] = GAME_KEYS) -> Mapping[str, Game]:
    """Import each ``games.<key>`` that exists and exposes ``GAME``."""
    found: dict[str, Game] = {}
    for key in keys:
        try:
            module = importlib.import_module(f"games.{key}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(f"games.{key}"):
                log.warning("game %s is not installed", key)
                continue
            raise
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[key] = game
    return found
