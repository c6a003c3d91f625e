"""The rules version of each game, stored with every finished game (``finished_games.engine``).

Bump a game's number when a change makes an old action log replay differently (a rule, a deal,
an action's text form). A replay of a game played under another number is still attempted and
checked against the stored final state (``bot/service/replay.py``): it works when the change did
not touch that game, and says why not when it did.
"""

from __future__ import annotations

RULES_VERSIONS: dict[str, int] = {
    "amapatolli": 1,
    "chupate2": 1,
    "macarena": 1,
    "maquiavelo": 1,
    "triad": 1,
}


def engine_version(game_key: str) -> str:
    """``<game>@<rules version>``, e.g. ``chupate2@1``."""
    return f"{game_key}@{RULES_VERSIONS.get(game_key, 0)}"
