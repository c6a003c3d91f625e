"""Macarena (game key ``macarena``): pozos, espejos, MACAS, coins, elements and amulets.

Rules: ../shared/rules/macarena.md. The engine object is ``GAME``; the series-building helpers
for a UI are ``series_options``, ``series_status`` and ``playable_pozos``.
"""

from games.macarena.actions import (
    BuyElement,
    Draw,
    GiveElement,
    MoveMaca,
    Pass,
    Play,
    decode_action,
    decode_draft,
    encode_draft,
)
from games.macarena.game import GAME, MacarenaGame
from games.macarena.options import Options
from games.macarena.series import playable_pozos, series_options, series_status
from games.macarena.state import MacarenaState, MacarenaView

__all__ = [
    "GAME",
    "BuyElement",
    "Draw",
    "GiveElement",
    "MacarenaGame",
    "MacarenaState",
    "MacarenaView",
    "MoveMaca",
    "Options",
    "Pass",
    "Play",
    "decode_action",
    "decode_draft",
    "encode_draft",
    "playable_pozos",
    "series_options",
    "series_status",
]
