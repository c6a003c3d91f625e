"""Macarena (game key ``macarena``): pozos, espejos, MACAS, coins, elements and amulets.

Rules: docs/rules/macarena.md. The engine object is ``GAME``; the series-building helpers
for a UI are ``series_options``, ``series_status`` and ``playable_pozos``, and a half-built
series travels as ``encode_draft`` / ``decode_draft`` text.
"""

from games.macarena.actions import (
    CODEC,
    BuyElement,
    Draw,
    GiveElement,
    MoveMaca,
    Pass,
    Play,
    decode_draft,
    encode_draft,
)
from games.macarena.game import GAME, MacarenaGame
from games.macarena.options import Options
from games.macarena.series import playable_pozos, series_options, series_status
from games.macarena.state import MacarenaState
from games.macarena.view import MacarenaOutcome, MacarenaView

__all__ = [
    "CODEC",
    "GAME",
    "BuyElement",
    "Draw",
    "GiveElement",
    "MacarenaGame",
    "MacarenaOutcome",
    "MacarenaState",
    "MacarenaView",
    "MoveMaca",
    "Options",
    "Pass",
    "Play",
    "decode_draft",
    "encode_draft",
    "playable_pozos",
    "series_options",
    "series_status",
]
