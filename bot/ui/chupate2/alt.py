"""Chúpate 2 alt text: what the table and hand images show, in words (``bot.ui.alt_text``)."""

from __future__ import annotations

from bot.ui.alt_text import AltWords, listing, sentences
from bot.ui.chupate2.text import card_label, hand_groups
from games.chupate2.cards import WILD
from games.chupate2.view import Chupate2View


def describe_table(view: Chupate2View, alt: AltWords) -> str:
    tr = alt.tr
    colour = (
        tr(f"chupate2.colour.{view.colour}") if view.colour else tr("access.alt.chupate2.no_colour")
    )
    direction = tr(
        "chupate2.image.direction_cw" if view.direction > 0 else "chupate2.image.direction_ccw"
    )
    seats = []  # as the image shows them: its cards and whose turn it is are the text's
    for i, seat in enumerate(view.seats):
        name = alt.name(seat, tr("chupate2.image.seat", n=i + 1))
        parts = []
        if view.teams is not None and view.team_of is not None:
            parts.append(tr("chupate2.image.team", team=view.team_of[seat] + 1))
        if view.target is not None:
            if view.teams is not None and view.team_of is not None and view.team_scores:
                points = view.team_scores[view.team_of[seat]]
            else:
                points = view.scores.get(seat, 0)
            parts.append(tr("chupate2.image.points", points=points))
        seats.append(f"{name}: {', '.join(parts)}" if parts else name)
    winner = None
    if view.finished and view.results:  # as the image's banner says
        last = view.results[-1]
        if view.teams is not None and last.team is not None:
            winner = tr("chupate2.image.team_wins", team=last.team + 1)
        else:
            index = view.seats.index(last.winner)
            winner = tr(
                "chupate2.image.winner",
                player=alt.name(last.winner, tr("chupate2.image.seat", n=index + 1)),
            )
    return sentences(
        winner,
        tr("access.alt.chupate2.table", card=card_label(view.top_card, tr), colour=colour),
        tr("access.alt.direction", direction=direction),
        tr("chupate2.image.round", round=view.round) if view.target is not None else None,
        alt.players(seats),
    )


def describe_hand(view: Chupate2View, alt: AltWords) -> str:
    tr = alt.tr
    groups = hand_groups(view)
    if not groups:
        return alt.hand(0, "")
    marked = set(alt.playable or ()) & set(view.hand)
    rows = []
    for colour, cards in groups:
        word = tr(f"chupate2.colour.{colour}") if colour != WILD else tr("chupate2.image.wilds")
        rows.append(f"{word} ({len(cards)}): {', '.join(card_label(c, tr) for c in cards)}")
    return sentences(
        alt.hand(len(view.hand), listing(rows)),
        tr("access.alt.drawn", card=card_label(view.drawn_card, tr)) if view.drawn_card else None,
        alt.playable_now([card_label(c, tr) for c in dict.fromkeys(view.hand) if c in marked]),
    )
