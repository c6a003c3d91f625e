"""Ce Amapatolli alt text: what the table and hand images show, in words
(``bot.ui.alt_text``)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot.i18n import Translator
from bot.ui.alt_text import listing, seat_name, sentences
from bot.ui.amapatolli.text import card_label, turn_status
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


def describe_table(view: AmapatolliView, tr: Translator, names: Any = None) -> str:
    def name(seat: str | None) -> str:
        if seat is None:
            return ""
        return seat_name(names, seat, tr("amapatolli.table.seat", n=view.seats.index(seat) + 1))

    colour = lambda c: tr(f"amapatolli.colour.{c}")  # noqa: E731
    if view.named_colour:
        in_force = tr("amapatolli.table.named", colour=colour(view.named_colour))
    else:
        in_force = tr(
            "amapatolli.table.colours",
            margin=colour(view.margin),
            background=colour(view.background),
        )
    status: list[str | None] = []
    if view.finished:
        status.append(
            tr("amapatolli.table.winner", player=", ".join(name(s) for s in view.winners))
        )
        if view.end_reason == "blocked":
            status.append(tr("amapatolli.table.blocked"))
    else:
        status.append(tr("amapatolli.table.turn", player=name(view.turn)))
        status.extend(turn_status(view, tr, name))
    seats = []
    for seat in view.seats:
        detail = tr("amapatolli.table.cards", count=view.hand_counts.get(seat, 0))
        if view.hand_values is not None:
            detail += ", " + tr("amapatolli.table.hand_value", value=view.hand_values[seat])
        if view.announced.get(seat):
            detail += ", " + tr("amapatolli.table.announced")
        seats.append(f"{name(seat)}: {detail}")
    top = card_words(view.top, tr, view.named_colour if view.top.wild else None)
    return sentences(
        tr("access.alt.amapatolli.table", card=top),
        in_force,
        tr("amapatolli.table.stock", count=view.stock_count),
        tr("amapatolli.table.pile", count=view.pile_count),
        tr(
            "amapatolli.table.direction.cw"
            if view.direction == 1
            else "amapatolli.table.direction.ccw"
        ),
        *status,
        tr("access.alt.players", players=listing(seats)),
    )


def describe_hand(
    view: AmapatolliView,
    tr: Translator,
    names: Any = None,
    *,
    playable: Collection[str] | None = None,
) -> str:
    if not view.hand:
        return tr("access.alt.hand_empty")
    marked = set(view.playable)
    cards = [card_words(c, tr) for c in view.hand]
    playable_words = [card_label(c, tr) for c in view.hand if c.id in marked]
    return sentences(
        tr("access.alt.your_hand", count=len(view.hand), cards=listing(cards)),
        tr("access.alt.playable", cards=", ".join(playable_words)) if playable_words else None,
    )
