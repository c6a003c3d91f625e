"""Ce Amapatolli alt text: what the table and hand images show, in words
(``bot.ui.alt_text``)."""

from __future__ import annotations

from bot.i18n import Translator
from bot.ui.alt_text import AltWords, listing, sentences
from bot.ui.amapatolli.text import card_label, colours_in_force
from games.amapatolli.view import AmapatolliView, CardView


def card_words(card: CardView, tr: Translator, fill: str | None = None) -> str:
    """``Mázatl 7 (margin white, background red)``: the card and both its colours in words."""
    colour = lambda c: tr(f"amapatolli.colour.{c}")  # noqa: E731
    if card.wild and fill is None:
        return tr(
            "access.alt.amapatolli.wild", card=card_label(card, tr), margin=colour(card.margin)
        )
    return tr(
        "access.alt.amapatolli.card",
        card=card_label(card, tr),
        margin=colour(card.margin),
        background=colour(fill or card.background),
    )


def describe_table(view: AmapatolliView, alt: AltWords) -> str:
    tr = alt.tr

    def name(seat: str | None) -> str:
        if seat is None:
            return ""
        return alt.name(seat, tr("amapatolli.table.seat", n=view.seats.index(seat) + 1))

    status: list[str | None] = []  # the end, as the image's banner says it
    if view.finished:
        status.append(
            tr("amapatolli.table.winner", player=", ".join(name(s) for s in view.winners))
        )
        if view.end_reason == "blocked":
            status.append(tr("amapatolli.table.blocked"))
    # The seats in their order, as the image lists them: their cards, the stock's count and
    # whose turn it is are the message's text (the image is kept while they change).
    top = card_words(view.top, tr, view.named_colour if view.top.wild else None)
    return sentences(
        tr("access.alt.amapatolli.table", card=top),
        colours_in_force(view, tr),
        tr(
            "amapatolli.table.direction.cw"
            if view.direction == 1
            else "amapatolli.table.direction.ccw"
        ),
        *status,
        alt.players([name(seat) for seat in view.seats]),
    )


def describe_hand(view: AmapatolliView, alt: AltWords) -> str:
    tr = alt.tr
    marked = set(view.playable)
    cards = [card_words(c, tr) for c in view.hand]
    return sentences(
        alt.hand(len(view.hand), listing(cards)),
        alt.playable_now([card_label(c, tr) for c in view.hand if c.id in marked]),
    )
