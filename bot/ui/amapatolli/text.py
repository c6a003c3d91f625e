"""Ce Amapatolli in words: a card's name and its colours, for the presenter and the images.
Only ``amapatolli.*`` catalogue keys are used."""

from __future__ import annotations

from bot.i18n import Translator
from bot.ui.images.symbols import EMOJI
from games.amapatolli.view import AmapatolliView, CardView

# Each colour's emoji has its shape too (bot.ui.images.symbols): white ●, red ▲, black ■, blue ◆.
COLOUR_EMOJI = {c: EMOJI[c] for c in ("white", "red", "black", "blue")}


def card_text(card, tr: Translator) -> str:
    """``⚪🔺 Mázatl 7 (blanco/rojo)``: margin and background as emoji of their shapes, then
    sign and number, then the colours in words (colour is never the only signal: red and black
    squares looked alike to many)."""
    margin = tr(f"amapatolli.colour.{card.margin}")
    if card.wild:
        return f"{COLOUR_EMOJI[card.margin]} {card.name} ({margin})"
    background = tr(f"amapatolli.colour.{card.background}")
    return (
        f"{COLOUR_EMOJI[card.margin]}{COLOUR_EMOJI[card.background]} {card.name} {card.value}"
        f" ({margin}/{background})"
    )


def card_label(card: CardView, tr: Translator) -> str:
    if card.wild:
        return tr("amapatolli.card.tlapiani", name=card.name)
    return tr("amapatolli.card", name=card.name, number=card.sign)


def colours_in_force(view: AmapatolliView, tr: Translator) -> str:
    """The colours the next card must match (the image's line under the top card): the one a
    Tlapiani named, or the top card's margin and background."""
    colour = lambda c: tr(f"amapatolli.colour.{c}")  # noqa: E731
    if view.named_colour:
        return tr("amapatolli.table.named", colour=colour(view.named_colour))
    return tr(
        "amapatolli.table.colours", margin=colour(view.margin), background=colour(view.background)
    )
