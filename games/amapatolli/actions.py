"""Actions and their compact text forms.

=================  ==================  ===========================================
kind               encoding            meaning
=================  ==================  ===========================================
``play``           ``p:a07``           play a card (also a bird answering a skip)
``play`` (wild)    ``p:tw:r``          play a Tlapiāni naming the colour (w r k b)
``draw``           ``draw``            draw one card (only with nothing playable)
``pass``           ``pass``            end the turn: nothing playable, stock empty
``accept_skip``    ``accept``          lose the turn to a pending bird
``announce``       ``ce``              say "Ce" (holding one card)
``callout``        ``call:2``          "¡Ce!" at the seat with index 2
=================  ==================  ===========================================
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field

from games.amapatolli.cards import CARDS, COLOUR_LETTER, LETTER_COLOUR, Colour
from games.core import Action, IllegalAction
from games.core.errors import BAD_ACTION


class Play(Action):
    kind: Literal["play"] = "play"
    card: str
    colour: Colour | None = None  # only (and always) for a Tlapiāni

    def encode(self) -> str:
        if self.colour is None:
            return f"p:{self.card}"
        return f"p:{self.card}:{COLOUR_LETTER[self.colour]}"


class Draw(Action):
    kind: Literal["draw"] = "draw"

    def encode(self) -> str:
        return "draw"


class Pass(Action):
    kind: Literal["pass"] = "pass"

    def encode(self) -> str:
        return "pass"


class AcceptSkip(Action):
    kind: Literal["accept_skip"] = "accept_skip"

    def encode(self) -> str:
        return "accept"


class Announce(Action):
    kind: Literal["announce"] = "announce"

    def encode(self) -> str:
        return "ce"


class CallOut(Action):
    kind: Literal["callout"] = "callout"
    target: int = Field(ge=0, le=5)  # seat index of the player called out

    def encode(self) -> str:
        return f"call:{self.target}"


AmapatolliAction = Annotated[
    Play | Draw | Pass | AcceptSkip | Announce | CallOut, Field(discriminator="kind")
]

DRAW = Draw()
PASS = Pass()
ACCEPT_SKIP = AcceptSkip()
ANNOUNCE = Announce()
_SIMPLE = {"draw": DRAW, "pass": PASS, "accept": ACCEPT_SKIP, "ce": ANNOUNCE}
_PLAY = re.compile(r"p:([a-d](?:0[1-9]|1[0-9]|20)|t[wrkb])(?::([wrkb]))?")
_CALL = re.compile(r"call:([0-5])")


def decode(text: str) -> Action:
    if not isinstance(text, str):
        raise IllegalAction(BAD_ACTION)
    simple = _SIMPLE.get(text)
    if simple is not None:
        return simple
    m = _PLAY.fullmatch(text)
    if m:
        card, letter = m.group(1), m.group(2)
        if CARDS[card].wild != (letter is not None):
            raise IllegalAction(BAD_ACTION, text=text)
        return Play(card=card, colour=LETTER_COLOUR[letter] if letter else None)
    m = _CALL.fullmatch(text)
    if m:
        return CallOut(target=int(m.group(1)))
    raise IllegalAction(BAD_ACTION, text=text[:60])
