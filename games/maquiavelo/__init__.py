"""Maquiavelo (game key ``maquiavelo``): rummy with table rearrangement, solved by the engine.

Rules: docs/rules/maquiavelo.md. ``GAME`` (``game``) is the engine wiring ``rules`` (the
pure rule functions), ``view`` (views, ``build_view``, ``MaquiaveloOutcome``), ``state``,
``actions`` (``CODEC``), ``options`` and ``ai``. Beside them: ``solver``, the exact partition
solver and best-play finder; ``arrange``, which lays a play on the table; ``cards``, the card ids;
``notation``, which parses typed arrangements (``7♥ 7♦ 7♠ | 3♠ 4♠ 5♠``).
"""

from games.maquiavelo.actions import CODEC, Arrange, Draw, Pass, Play
from games.maquiavelo.game import GAME, MaquiaveloGame
from games.maquiavelo.notation import format_arrangement, parse_arrangement
from games.maquiavelo.options import Options
from games.maquiavelo.state import MaquiaveloState
from games.maquiavelo.view import CardView, MaquiaveloOutcome, MaquiaveloView, MeldView

__all__ = [
    "GAME",
    "CODEC",
    "Arrange",
    "CardView",
    "Draw",
    "MaquiaveloGame",
    "MaquiaveloOutcome",
    "MaquiaveloState",
    "MaquiaveloView",
    "MeldView",
    "Options",
    "Pass",
    "Play",
    "format_arrangement",
    "parse_arrangement",
]
