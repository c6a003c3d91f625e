"""Macarena alt text: what the table and hand images show, in words (``bot.ui.alt_text``)."""

from __future__ import annotations

from bot.ui.alt_text import AltWords, framed, listing, sentences
from bot.ui.macarena.text import card_label
from games.macarena.elements import ELEMENTS
from games.macarena.view import MacarenaView


def describe_table(view: MacarenaView, alt: AltWords) -> str:
    tr = alt.tr
    # each seat's words, once (a table names its seats up to ~20 times): the name and the seat
    # number the image's dots carry, ``Ann (2)``
    names = {
        seat: f"{alt.name(seat, tr('macarena.image.player', number=n))} ({n})"
        for n, seat in enumerate(view.seats, start=1)
    }
    wells = []
    for pozo in view.pozos:
        parts = [
            tr(
                "access.alt.macarena.pozo",
                pozo=pozo.index + 1,
                card=card_label(pozo.top),
                count=pozo.size,
            )
        ]
        owners = [
            tr("access.alt.macarena.macas", player=names[s], count=n)
            for s, n in pozo.macas.items()
            if n > 0
        ]
        if owners:
            parts.append(", ".join(owners))
        if pozo.playable:
            parts.append(tr("access.alt.macarena.playable"))
        wells.append(", ".join(parts))
    players = []  # as the image shows them: hand sizes, the stock and the turn are the text's
    for p in view.players:
        held = [tr(f"macarena.element.{e}") for e in ELEMENTS if e in p.elements]
        players.append(
            names[p.seat]
            + ": "
            + tr(
                "access.alt.macarena.player",
                colour=tr(f"macarena.colour.{p.colour}"),
                collection="?" if p.collection_count is None else str(p.collection_count),
                coins=p.coins,
                elements=", ".join(held) if held else "—",
                amulets=p.amulets,
                macas=p.active_macas,
            )
        )
    winners = ", ".join(names[s] for s in view.winners)
    return sentences(
        tr("access.alt.macarena.table", hand=view.hand_number),
        tr("macarena.image.winner", players=winners, count=len(view.winners))
        if view.finished and view.winners
        else None,
        framed(tr, "access.alt.macarena.wells", "wells", listing(wells)),
        alt.players(players),
    )


def describe_hand(view: MacarenaView, alt: AltWords) -> str:
    tr = alt.tr
    hand = list(view.hand or [])
    count = len(view.collection) if view.collection is not None else 0
    return sentences(
        alt.hand(len(hand), " ".join(card_label(c) for c in hand)),
        tr("macarena.image.collection", count=count),
        tr("access.alt.drawn", card=card_label(view.drawn))
        if view.drawn is not None and view.drawn in hand
        else None,
    )
