"""Maquiavelo in words, for the presenter and the images: cards as ``A♠ 10♥`` and suits by their
catalogue names. Only ``maquiavelo.*`` catalogue keys are used."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import Translator
from games.maquiavelo.cards import pretty
from games.maquiavelo.view import CardView

SUITS = ("S", "H", "D", "C")  # the order a hand is listed and drawn in, suit by suit


def cards_text(cards: list[CardView]) -> str:
    """``A♠ 10♥ K♦``: each card's rank and suit symbol."""
    return " ".join(c.pretty for c in cards)


def card_ids_text(card_ids: Iterable[int]) -> str:
    """``cards_text`` of cards by id, without a validated ``CardView`` per card (the table's
    last play is named on every table message: ~2 % of the bot's CPU per move)."""
    return " ".join(pretty(card_id) for card_id in card_ids)


def suit_name(suit: str, tr: Translator) -> str:
    return tr(f"maquiavelo.suit.{suit}")
