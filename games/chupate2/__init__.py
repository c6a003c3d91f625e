"""Chúpate 2: the UNO-family card game (spec: docs/rules/chupate2.md).

``GAME`` is the engine object the bot registers under the key ``chupate2``.
"""

from games.chupate2.actions import CODEC, Chupate2Action
from games.chupate2.game import GAME, Chupate2Game
from games.chupate2.options import Options
from games.chupate2.state import Chupate2State
from games.chupate2.view import Chupate2Outcome, Chupate2View

__all__ = [
    "CODEC",
    "GAME",
    "Chupate2Action",
    "Chupate2Game",
    "Chupate2Outcome",
    "Chupate2State",
    "Chupate2View",
    "Options",
]
