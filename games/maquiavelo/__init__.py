"""Maquiavelo (game key ``maquiavelo``): rummy with table rearrangement, solved by the engine.

Rules: ../shared/rules/maquiavelo.md. ``GAME`` is the engine; ``solver`` the exact partition
solver and best-play finder; ``notation`` parses typed arrangements (``7♥ 7♦ 7♠ | 3♠ 4♠ 5♠``).
"""

from games.maquiavelo.actions import Arrange, Draw, Pass, Play, decode_action
from games.maquiavelo.game import GAME, MaquiaveloGame
from games.maquiavelo.notation import format_arrangement, parse_arrangement
from games.maquiavelo.options import Options
from games.maquiavelo.state import CardView, MaquiaveloState, MaquiaveloView, MeldView

__all__ = [
    "GAME",
    "Arrange",
    "CardView",
    "Draw",
    "MaquiaveloGame",
    "MaquiaveloState",
    "MaquiaveloView",
    "MeldView",
    "Options",
    "Pass",
    "Play",
    "decode_action",
    "format_arrangement",
    "parse_arrangement",
]
