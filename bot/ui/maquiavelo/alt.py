"""Maquiavelo alt text: what the table and hand images show, in words (``bot.ui.alt_text``)."""

from __future__ import annotations

from bot.ui.alt_text import AltWords, listing, sentences
from bot.ui.maquiavelo.text import SUITS, cards_text
from games.maquiavelo.view import MaquiaveloView


def describe_table(view: MaquiaveloView, alt: AltWords) -> str:
    tr = alt.tr
    seats = []  # as the image shows them: their cards, the stock and the turn are the text's
    for k, seat in enumerate(view.seats):
        text = alt.name(seat, f"P{k + 1}")
        if seat in view.winners:
            text += f" ({tr('maquiavelo.image.winner')})"
        seats.append(text)
    just = set(view.last_play)
    added = [c for m in view.table for c in m.cards if c.id in just]
    return sentences(
        tr("access.alt.maquiavelo.table"),
        tr("access.alt.maquiavelo.helpers", cards=cards_text(view.helpers))
        if view.helpers
        else None,
        alt.players(seats),
        tr("access.alt.maquiavelo.added", cards=cards_text(added)) if added else None,
        tr(
            "access.alt.maquiavelo.melds",
            count=len(view.table),
            melds=listing(cards_text(m.cards) for m in view.table),
        )
        if view.table
        else tr("maquiavelo.image.table_empty"),
    )


def describe_hand(view: MaquiaveloView, alt: AltWords) -> str:
    tr = alt.tr
    hand = view.hand or []
    if not hand:
        return alt.hand(0, "")
    groups = view.hand_by_suit()
    rows = [f"{tr(f'maquiavelo.suit.{s}')}: {cards_text(groups[s])}" for s in SUITS if s in groups]
    return sentences(
        tr("maquiavelo.image.hand_title", count=len(hand), value=sum(c.rank for c in hand)),
        listing(rows),
    )
