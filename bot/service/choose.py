"""A computer player's choice as a pure function of picklable inputs, so it can run in a worker
process (``bot/workers.py``): the game is named by (module, key), the legal actions and the
answer are action texts, and the random generator is rebuilt from its seed and labels."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from games.core import Game, PlayerView, rng_for

GameRef = tuple[str, str]  # (the module defining the Game instance, its key)


def game_ref(game: Game) -> GameRef:
    return type(game).__module__, game.key


@cache
def resolve(ref: GameRef) -> Game:
    """The Game instance ``ref`` names (imported once per process)."""
    module_name, key = ref
    module = importlib.import_module(module_name)
    for value in vars(module).values():
        if isinstance(value, Game) and value.key == key:
            return value
    package = importlib.import_module(module_name.rsplit(".", 1)[0])
    found = getattr(package, "GAME", None)
    if isinstance(found, Game) and found.key == key:
        return found
    raise LookupError(f"no Game {key!r} in {module_name}")


def choose_action_text(
    game: Game | GameRef,
    view: PlayerView,
    legal_texts: list[str],
    level: str,
    rng_seed: str,
    rng_labels: tuple[Any, ...],
    extra: dict[str, Any],
) -> str | None:
    """``game.choose_action`` with texts in and out; None when the player passes."""
    engine = game if isinstance(game, Game) else resolve(game)
    legal = [engine.decode_action(text) for text in legal_texts]
    choice = engine.choose_action(view, legal, level, rng_for(rng_seed, *rng_labels), **extra)
    return choice.encode() if choice is not None else None
