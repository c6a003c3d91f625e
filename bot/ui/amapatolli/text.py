"""Ce Amapatolli in words: a card's name and its colours, for the presenter and the images.
Only ``amapatolli.*`` catalogue keys are used."""

from __future__ import annotations

from bot.i18n import Translator, per_language
from bot.ui.images.symbols import EMOJI
from games.amapatolli.view import AmapatolliView, CardView

# Each colour's emoji has its shape too (bot.ui.images.symbols): white ●, red ▲, black ■, blue ◆.
COLOUR_EMOJI = {c: EMOJI[c] for c in ("white", "red", "black", "blue")}


def card_text(card: CardView, tr: Translator) -> str:
    """``⚪🔺 Mázatl 7 (blanco/rojo)``: margin and background as emoji of their shapes, then
    sign and number, then the colours in words (colour is never the only signal: red and black
    squares looked alike to many). Written once per card and language (``_written``)."""
    return _written(card.margin, card.background, card.name, card.value, card.wild, tr)


# A move's hand lists every card and its buttons name the playable ones again: ~10 texts of two
# catalogue lookups each per move, the same the move before (issue 29: ~1 -> ~0.3 us each). By
# what the text reads of the card: the 84 cards in both languages fit.
@per_language(maxsize=512)
def _written(
    margin: str, background: str, name: str, value: int, wild: bool, tr: Translator
) -> str:
    margin_word = tr(f"amapatolli.colour.{margin}")
    if wild:
        return f"{COLOUR_EMOJI[margin]} {name} ({margin_word})"
    background_word = tr(f"amapatolli.colour.{background}")
    return (
        f"{COLOUR_EMOJI[margin]}{COLOUR_EMOJI[background]} {name} {value}"
        f" ({margin_word}/{background_word})"
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
