"""Triple Triad alt text: what the board and hand images show, in words
(``bot.ui.alt_text``)."""

from __future__ import annotations

from bot.i18n import Translator, per_language
from bot.ui.alt_text import AltWords, framed, listing, sentences
from bot.ui.triad.text import card_name, colour_index, status_line
from games.triad.cards import edge_text
from games.triad.options import Options
from games.triad.view import CardFace, TriadView


def face_text(face: CardFace, tr: Translator) -> str:
    """A card as the image draws it: its values in force (an Elemental cell may raise or lower
    them), level and element: ``Moon Jelly [3-3-5-6] · Lv. 3 · Water``."""
    return _face_text(face.card, tuple(face.values), face.level, face.element, tr)


# A board's alt text names up to ten faces (five catalogue texts each); a face's words depend on
# these alone, so each is written once per language (a catalogue card's values, level and
# element: bounded).
@per_language(maxsize=4096)
def _face_text(
    card: str, values: tuple[int, ...], level: int, element: str | None, tr: Translator
) -> str:
    edges = "-".join(edge_text(v) for v in values)
    element_text = tr(f"triad.element.{element}") if element else tr("triad.element.none")
    return tr(
        "triad.ui.face",
        card=f"{card_name(card, tr)} [{edges}]",
        level=tr("triad.label.level", level=level),
        element=element_text,
    )


def describe_table(view: TriadView, alt: AltWords) -> str:
    tr = alt.tr
    seats = view.seats
    # each side's words, once (a board names its sides ~8 times)
    sides = tuple(_side(tr(f"triad.colour.{s}"), alt.name(seats[s], "")) for s in (0, 1))
    scores = [tr("triad.label.score", colour=sides[s], score=view.scores[seats[s]]) for s in (0, 1)]
    status = status_line(view, tr, sides.__getitem__) or None
    last_cell = view.last_move.cell if view.last_move is not None else None
    cells = []
    for cv in view.board:
        head, empty = _cell_words(cv.cell, cv.element, tr)
        if cv.card is None:
            cells.append(empty)
            continue
        owner = sides[colour_index(view, cv.holder)]
        last = f" ({tr('access.alt.triad.last')})" if last_cell == cv.cell else ""
        cells.append(f"{head}{face_text(cv.card, tr)}, {owner}{last}")
    hands = []
    for s in (0, 1):
        hand = view.hands.get(seats[s], [])
        shown = [face_text(f, tr) for f in hand if f is not None]
        hidden = len(hand) - len(shown)
        parts = shown + ([tr("access.alt.triad.hidden", count=hidden)] if hidden else [])
        hands.append(f"{sides[s]}: {', '.join(parts) if parts else '—'}")
    return sentences(
        tr("access.alt.triad.table"),
        ", ".join(scores),
        tr("triad.label.round", round=view.round, max=view.max_rematches)
        if view.round > 0
        else None,
        status,
        framed(tr, "access.alt.triad.board", "cells", listing(cells)),
        framed(tr, "access.alt.triad.hands", "hands", listing(hands)),
        rules_line(view.options, tr),
    )


# Nine cells, each plain or of one of eight elements, in the locales in use: bounded.
@per_language(maxsize=256)
def _cell_words(cell: int, element: str | None, tr: Translator) -> tuple[str, str]:
    """A cell's words before its card (``top left (Fire): ``) and its whole line when it is
    empty (``top left (Fire): empty``): the same for every board."""
    where = tr(f"triad.cell.{cell}")
    element_text = f" ({tr(f'triad.element.{element}')})" if element else ""
    head = f"{where}{element_text}: "
    return head, head + tr("access.alt.triad.empty")


def _side(colour: str, name: str) -> str:
    """A side as the board names it: ``Ann (Blue)``, or its colour alone."""
    return f"{name} ({colour})" if name else colour


def rules_line(options: Options, tr: Translator) -> str:
    """The rules in force, then the payout: ``Same · Plus · Payout: One`` (the table image's
    footer, and the board's last sentence)."""
    return _rules_text(tuple(options.__dict__.items()), tr)


# A table's rules stay for its whole match, its image's footer and its alt text's end: written
# once per language and set of options (a few dozen sets in use).
@per_language(maxsize=256)
def _rules_text(options: tuple[tuple[str, object], ...], tr: Translator) -> str:
    rules = [tr(f"triad.rule.{name}") for name, on in options if on is True]
    payout = dict(options)["payout"]
    rules.append(tr("triad.label.payout", rule=tr(f"triad.payout.{payout}")))
    return " · ".join(rules)


def describe_hand(view: TriadView, alt: AltWords) -> str:
    tr = alt.tr
    seat = view.seat
    picking = view.pick is not None and seat is not None and view.pick.winner == seat
    faces: list[tuple[CardFace | None, bool]]
    if picking and view.pick is not None:
        faces = [(c.face, c.picked) for c in view.pick.choices]
        title = tr(
            "triad.label.pick",
            colour=tr(f"triad.colour.{colour_index(view, seat)}"),
            count=view.pick.remaining,
        )
    else:
        faces = [(f, False) for f in (view.hands.get(seat, []) if seat is not None else [])]
        title = tr(
            "access.alt.triad.your_hand", colour=tr(f"triad.colour.{colour_index(view, seat)}")
        )
    cards = []
    for i, (face, taken) in enumerate(faces, start=1):
        text = face_text(face, tr) if face is not None else tr("access.alt.triad.hidden", count=1)
        if taken:
            text += f" ({tr('access.alt.triad.taken')})"
        cards.append(f"{i}. {text}")
    return sentences(title, listing(cards) if cards else alt.hand(0, ""))
