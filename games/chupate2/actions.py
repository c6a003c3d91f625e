"""Chúpate 2 actions and their compact text forms (they go into Discord custom_ids).

| action                        | encoding        |
|-------------------------------|-----------------|
| play a coloured card          | ``p.r7a``       |
| play a wild, naming a colour  | ``p.Wa.g``      |
| draw one card                 | ``draw``        |
| pass (after drawing)          | ``pass``        |
| take the pending draw / accept the +4 | ``take`` |
| challenge a +4 ("¡Mentira!")  | ``chal``        |
| name the colour of a first-card Comodín | ``col.g`` |
| call "¡Última!" (variant)     | ``uno``         |
| catch a missing call (variant) | ``catch``      |
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from games.chupate2.cards import COLOURS, DECK, DECK_SET, is_wild
from games.core import Action, IllegalAction
from games.core.errors import BAD_ACTION

Colour = Literal["r", "y", "g", "b"]


class PlayCard(Action):
    kind: Literal["play"] = "play"
    card: str
    colour: Colour | None = None

    def encode(self) -> str:
        return f"p.{self.card}" if self.colour is None else f"p.{self.card}.{self.colour}"


class Draw(Action):
    kind: Literal["draw"] = "draw"

    def encode(self) -> str:
        return "draw"


class Pass(Action):
    kind: Literal["pass"] = "pass"

    def encode(self) -> str:
        return "pass"


class Take(Action):
    """Take the whole pending draw (Chúpate 2 stack or an accepted +4) and lose the turn."""

    kind: Literal["take"] = "take"

    def encode(self) -> str:
        return "take"


class Challenge(Action):
    """ "¡Mentira!": challenge the +4 just played on you."""

    kind: Literal["challenge"] = "challenge"

    def encode(self) -> str:
        return "chal"


class ChooseColour(Action):
    """Name the colour of a Comodín turned as the first card (the starting player does)."""

    kind: Literal["colour"] = "colour"
    colour: Colour

    def encode(self) -> str:
        return f"col.{self.colour}"


class CallLast(Action):
    """ "¡Última!": declare going down to one card (variant ``last_card``)."""

    kind: Literal["uno"] = "uno"

    def encode(self) -> str:
        return "uno"


class Catch(Action):
    """Catch the player who went down to one card without calling (variant ``last_card``)."""

    kind: Literal["catch"] = "catch"

    def encode(self) -> str:
        return "catch"


Chupate2Action = Annotated[
    PlayCard | Draw | Pass | Take | Challenge | ChooseColour | CallLast | Catch,
    Field(discriminator="kind"),
]

# Shared, immutable instances: legal_actions hands these out instead of building new models.
DRAW, PASS, TAKE, CHALLENGE, CALL_LAST, CATCH = (
    Draw(),
    Pass(),
    Take(),
    Challenge(),
    CallLast(),
    Catch(),
)
CHOOSE_COLOUR: dict[str, ChooseColour] = {c: ChooseColour(colour=c) for c in COLOURS}
PLAY: dict[str, PlayCard] = {c: PlayCard(card=c) for c in DECK if not is_wild(c)}
PLAY_WILD: dict[str, tuple[PlayCard, ...]] = {
    c: tuple(PlayCard(card=c, colour=col) for col in COLOURS) for c in DECK if is_wild(c)
}
_SIMPLE = {
    "draw": DRAW,
    "pass": PASS,
    "take": TAKE,
    "chal": CHALLENGE,
    "uno": CALL_LAST,
    "catch": CATCH,
}


def decode_action(text: str) -> Action:
    """Inverse of ``encode``; ``IllegalAction("bad_action")`` on anything else."""
    if not isinstance(text, str):
        raise IllegalAction(BAD_ACTION, text=str(text))
    simple = _SIMPLE.get(text)
    if simple is not None:
        return simple
    parts = text.split(".")
    if parts[0] == "p" and len(parts) in (2, 3) and parts[1] in DECK_SET:
        card = parts[1]
        if is_wild(card):
            if len(parts) == 3 and parts[2] in COLOURS:
                return PLAY_WILD[card][COLOURS.index(parts[2])]
        elif len(parts) == 2:
            return PLAY[card]
    if parts[0] == "col" and len(parts) == 2 and parts[1] in COLOURS:
        return CHOOSE_COLOUR[parts[1]]
    raise IllegalAction(BAD_ACTION, text=text[:60])
