"""Macarena in words, for the presenter and the images: ``card_label`` (``7♥``), ``card_text``
(with the element's emoji), ``action_params`` and ``event_params`` (pozo numbers 1–7, element
names, card lists) for the ``macarena.action.*`` / ``macarena.event.*`` templates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.i18n import Translator
from games.core import Event
from games.core.cards import RANK_NAMES, SUIT_SYMBOLS, PlayingCard, parse_card
from games.macarena.elements import ELEMENTS, element_of
from games.macarena.view import MacarenaView

Names = Callable[[str], str] | None

ELEMENT_EMOJI = {"earth": "🌍", "air": "💨", "water": "💧", "fire": "🔥"}
PLAYER_EMOJI = ["🔴", "🔵", "🟢", "🟡", "🟣"]  # the image's player colours, in order


# Every face's ``pretty`` (``7♥``) by rank and suit: a move's texts name ~17 cards (issue 29),
# each otherwise two properties' calls.
_PRETTY = {
    (rank, suit): f"{RANK_NAMES.get(rank, str(rank))}{symbol}"
    for rank in range(1, 14)
    for suit, symbol in SUIT_SYMBOLS.items()
}


def card_label(card: PlayingCard | str) -> str:
    """``7♥``: rank and suit symbol (the suit names the element)."""
    if isinstance(card, str):
        rank, suit = card[:-1], card[-1]
        return f"{rank}{SUIT_SYMBOLS.get(suit, suit)}"
    fields = card.__dict__  # (a frozen card's fields, read as ``PlayingCard.__eq__`` reads them)
    return _PRETTY[fields["rank"], fields["suit"]]


def cards_label(cards: list[Any]) -> str:
    return " ".join(map(card_label, cards))


def action_params(action: Any, view: MacarenaView | None, tr: Translator) -> dict[str, Any]:
    """Parameters for the ``macarena.action.<kind>`` labels."""
    kind = getattr(action, "kind", "")
    if kind == "play":
        return {
            "pozo": action.pozo + 1,
            "cards": cards_label(list(action.cards)),
            "card": card_label(action.cards[-1]),
        }
    if kind == "move_maca":
        return {"pozo": action.source + 1}
    if kind in ("give_element", "buy_element"):
        return {"element": tr(f"macarena.element.{action.element}")}
    return {}


def event_params(event: Event, tr: Translator, names: Names = None) -> dict[str, Any]:
    """Parameters for the ``macarena.event.<code>`` templates (``player`` is the event's seat).

    Pozo numbers become 1–7, elements and reasons are translated, cards become ``7♥ 8♥``.
    """
    name = names or (lambda s: s)
    params: dict[str, Any] = dict(event.params)
    for key in ("pozo", "from"):
        if isinstance(params.get(key), int):
            params[key] = params[key] + 1
    if "element" in params:
        params["element"] = tr(f"macarena.element.{params['element']}")
    if "reason" in params:
        params["reason"] = tr(f"macarena.reason.{params['reason']}")
    if "cards" in params:
        params["cards"] = cards_label(params["cards"])
    if "card" in params:
        params["card"] = card_label(params["card"])
    for key in ("winners", "seats", "owners"):
        if isinstance(params.get(key), list):
            params[key] = ", ".join(name(s) for s in params[key])
    params.pop("counts", None)
    params.pop("sizes", None)
    params["player"] = name(event.seat) if event.seat else ""
    return params


def card_text(card: PlayingCard | str) -> str:
    """``🔥 8♦``: the element's emoji, then rank and suit."""
    if isinstance(card, str):
        card = parse_card(card)
    return f"{ELEMENT_EMOJI[element_of(card)]} {card_label(card)}"


def cards_text(cards: list[PlayingCard] | list[str]) -> str:
    return " ".join(map(card_label, cards))


def player_mark(colour: int) -> str:
    return PLAYER_EMOJI[colour % len(PLAYER_EMOJI)]


def elements_text(elements: Sequence[str], tr: Translator) -> str:
    held = [e for e in ELEMENTS if e in elements]
    return "".join(ELEMENT_EMOJI[e] for e in held) if held else tr("macarena.ui.no_elements")
