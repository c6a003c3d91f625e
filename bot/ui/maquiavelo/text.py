"""Maquiavelo in words, for the presenter and the images: cards as ``A♠ 10♥`` and suits by their
catalogue names. Only ``maquiavelo.*`` catalogue keys are used."""

from __future__ import annotations

from bot.i18n import Translator
from games.maquiavelo.view import CardView

SUITS = ("S", "H", "D", "C")  # the order a hand is listed and drawn in, suit by suit


def cards_text(cards: list[CardView]) -> str:
    """``A♠ 10♥ K♦``: each card's rank and suit symbol."""
    return " ".join(c.pretty for c in cards)


def suit_name(suit: str, tr: Translator) -> str:
    return tr(f"maquiavelo.suit.{suit}")
