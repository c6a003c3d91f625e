"""Triple Triad in words: card names and labels, seat colours, the active rules, action and
event parameters. Shared by the presenter, the lobby payloads and the images; only
``triad.*`` catalogue keys are used."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import Translator, per_language
from bot.ui.images.symbols import EMOJI
from games.core import PlayerView
from games.triad.actions import Play, TriadAction
from games.triad.cards import card as catalogue_card
from games.triad.cards import edge_text
from games.triad.options import Options
from games.triad.view import CardFace, TriadView

# seats[0] is blue ◆, seats[1] red ▲ (as in the images: colour and shape, bot.ui.images.symbols)
SEAT_EMOJI = (EMOJI["blue"], EMOJI["red"])
RULES = ("same", "same_wall", "plus", "combo", "elemental", "open", "random_hand", "sudden_death")


def seat_emoji(view: PlayerView, seat: str | None) -> str:
    return SEAT_EMOJI[view.seats.index(seat)] if seat is not None and seat in view.seats else "⬜"


def card_name(card_id: str, tr: Translator) -> str:
    return tr(f"triad.card.{card_id}")


# A move's hand and picks list each face, and the buttons label each playable card: ~5 faces
# and ~8 labels of up to five catalogue texts each per move, the same the move before (issue
# 29): each written once per language. Their words depend on these alone: a catalogue card's
# level and element (bounded).
@per_language(maxsize=2048)
def card_label(card_id: str, tr: Translator) -> str:
    """``Name [top-right-bottom-left]`` with A for 10, e.g. ``Dragón Solar [9-2-A-8]``."""
    c = catalogue_card(card_id)
    values = "-".join(edge_text(v) for v in c.edges)
    return f"{card_name(card_id, tr)} [{values}]"


def face_text(face: CardFace, tr: Translator) -> str:
    """A card as shown: ``Name [5-3-A-2] · Lv. 3 · Fire``."""
    return _face_text(face.card, face.level, face.element, tr)


@per_language(maxsize=2048)
def _face_text(card: str, level: int, element: str | None, tr: Translator) -> str:
    words = tr(f"triad.element.{element}") if element else tr("triad.element.none")
    return tr(
        "triad.ui.face",
        card=card_label(card, tr),
        level=tr("triad.label.level", level=level),
        element=words,
    )


def card_summary(card_id: str, tr: Translator) -> str:
    """``Name [5-3-A-2] · Lv. 3 · Fire`` straight from the catalogue (collections, pickers)."""
    c = catalogue_card(card_id)
    element = tr(f"triad.element.{c.element}") if c.element else tr("triad.element.none")
    return tr(
        "triad.ui.face",
        card=card_label(card_id, tr),
        level=tr("triad.label.level", level=c.level),
        element=element,
    )


def rules_text(options: Options, tr: Translator) -> str:
    active = [tr(f"triad.rule.{r}") for r in RULES if getattr(options, r)]
    return ", ".join(active) if active else tr("triad.rule.basic")


def action_params(action: TriadAction, view: TriadView, tr: Translator) -> dict[str, Any]:
    """Parameters for ``triad.action.play`` / ``triad.action.pick`` button labels."""
    if isinstance(action, Play):
        return {
            "card": card_label(action.card, tr),
            "cell": tr(f"triad.cell.{action.cell}"),
            "slot": action.slot + 1,
        }
    return {"card": card_label(action.card, tr), "index": action.index + 1}


def event_params(params: dict[str, Any], tr: Translator) -> dict[str, Any]:
    """Event parameters made readable: ``card`` ids to names, ``cell`` to its name, ``rule`` to
    the payout's name. Seat parameters (``target``) are left to the presenter's name lookup."""
    out = dict(params)
    if isinstance(out.get("card"), str):
        out["card"] = card_name(out["card"], tr)
    if isinstance(out.get("cell"), int):
        out["cell"] = tr(f"triad.cell.{out['cell']}")
    if isinstance(out.get("rule"), str):
        out["rule"] = tr(f"triad.payout.{out['rule']}")
    return out


def colour_index(view: TriadView, seat: str | None) -> int:
    """The colour (0 blue, 1 red) of ``seat``: its place in the seats."""
    return view.seats.index(seat) if seat in view.seats else 0


def status_line(view: TriadView, tr: Translator, who: Callable[[int], str]) -> str:
    """What the table is waiting for, or how it ended (the image's and the alt text's line):
    the payout pick, the winner or a draw, whose turn; empty before the first turn."""
    if view.pick is not None:
        return tr(
            "triad.label.pick",
            colour=who(colour_index(view, view.pick.winner)),
            count=view.pick.remaining,
        )
    if view.finished:
        if view.winner:
            return tr("triad.label.winner", colour=who(colour_index(view, view.winner)))
        return tr("triad.label.draw")
    if view.turn is not None:
        return tr("triad.label.turn", colour=who(colour_index(view, view.turn)))
    return ""
