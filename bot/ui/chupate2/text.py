"""Chúpate 2 in words, for the presenter and the images (catalogue keys only): ``card_label(card,
tr)`` ("Chúpate 2 rojo"), ``card_text`` (with its colour's emoji), ``colour_text``,
``action_params(action, view, tr, names)`` (parameters for ``chupate2.action.<kind>`` labels: a
wild's ``card`` already includes "→ colour"; ``take`` gets ``count``; ``catch`` gets ``target``),
``action_key``, ``event_params(event, tr)`` (card ids, colours and directions of an event
turned into words) and ``hand_groups`` (the hand a row per colour)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import Translator, per_language
from bot.ui.images.symbols import EMOJI
from games.chupate2.actions import ChooseColour, Play
from games.chupate2.cards import COLOUR_OF, COLOURS, FACE_OF, WILD
from games.chupate2.view import Chupate2View
from games.core import Action, Event

# The word of each colour code: the key of its shape and emoji in bot.ui.images.symbols.
COLOUR_WORD = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
# Each colour's emoji has its shape too: red ▲, yellow ●, green ■, blue ◆.
COLOUR_EMOJI = {c: EMOJI[word] for c, word in COLOUR_WORD.items()} | {WILD: "🌈"}


# A move's texts name the top card, the hand's cards and the playable ones' buttons: ~6 labels
# of two or three catalogue lookups each per move, the same the move before (issue 29). By card
# id and language: the deck's ids in both languages fit.
@per_language(maxsize=512)
def card_label(card: str, tr: Translator) -> str:
    """A card in words: ``Chúpate 2 rojo`` / ``red 7`` / ``Comodín +4``; written once per card
    and language."""
    face = tr(f"chupate2.face.{FACE_OF[card]}")
    colour = COLOUR_OF[card]
    if colour == WILD:
        return tr("chupate2.card.wild", face=face)
    return tr("chupate2.card", face=face, colour=tr(f"chupate2.colour.{colour}"))


def hand_groups(view: Chupate2View) -> list[tuple[str, list[str]]]:
    """The hand a row per colour, wilds last (as the hand image and its alt text list it)."""
    groups: list[tuple[str, list[str]]] = []
    for colour in (*COLOURS, WILD):
        cards = [c for c in view.hand if COLOUR_OF[c] == colour]
        if cards:
            groups.append((colour, cards))
    return groups


def action_params(
    action: Action, view: Chupate2View, tr: Translator, names: Callable[[str], str] | None = None
) -> dict[str, Any]:
    """Parameters for the ``chupate2.action.<kind>`` button label of ``action``."""
    if isinstance(action, Play):
        label = card_label(action.card, tr)
        colour = tr(f"chupate2.colour.{action.colour}") if action.colour else ""
        if action.colour:
            label = tr("chupate2.action.play_wild", card=label, colour=colour)
        return {"card": label, "colour": colour}
    if isinstance(action, ChooseColour):
        return {"colour": tr(f"chupate2.colour.{action.colour}")}
    kind = getattr(action, "kind", "")
    if kind == "take":
        return {"count": view.pending_draw}
    if kind == "catch":
        index = getattr(action, "target", None)
        others = [s for s in view.exposed if s != view.seat]
        target = view.seats[index] if index is not None else (others or [""])[0]
        return {"target": names(target) if names else target}
    return {}


def action_key(action: Action, view: Chupate2View) -> str:
    """The catalogue key of the label: ``take`` reads "Accept (+4)" when answering a +4."""
    kind = getattr(action, "kind", "")
    if kind == "take" and view.phase == "challenge":
        return "chupate2.action.accept"
    return f"chupate2.action.{kind}"


def event_params(event: Event, tr: Translator) -> dict[str, Any]:
    """An event's parameters with card ids, colours and directions in words."""
    params = dict(event.params)
    if "card" in params:
        params["card"] = card_label(params["card"], tr)
    if "cards" in params:
        params["cards"] = ", ".join(card_label(c, tr) for c in params["cards"])
    if params.get("colour") in COLOURS:
        params["colour"] = tr(f"chupate2.colour.{params['colour']}")
    if params.get("direction") in ("cw", "ccw"):
        params["direction"] = tr(f"chupate2.direction.{params['direction']}")
    return params


def card_text(card: str, tr: Translator) -> str:
    """``🔺 Chúpate 2 rojo`` / ``🌈 Comodín +4``."""
    return f"{COLOUR_EMOJI[COLOUR_OF[card]]} {card_label(card, tr)}"


def colour_text(colour: str | None, tr: Translator) -> str:
    if colour is None:
        return tr("chupate2.ui.colour_pending")
    return f"{COLOUR_EMOJI[colour]} {tr(f'chupate2.colour.{colour}')}"
