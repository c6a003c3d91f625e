"""Actions and their text forms (the shared grammar of ``games.core.actions``).

=================  ==================  ===========================================
kind               text                meaning
=================  ==================  ===========================================
``play``           ``p.a07``           play a card (also a bird answering a skip)
``play`` (wild)    ``p.tw.r``          play a Tlapiāni naming the colour (w r k b)
``draw``           ``draw``            draw one card (only with nothing playable)
``pass``           ``pass``            end the turn: nothing playable, stock empty
``accept_skip``    ``accept``          lose the turn to a pending bird
``announce``       ``announce``        say "Ce" (holding one card; was ``ce``)
``catch``          ``catch.2``         "¡Ce!" at the seat with index 2 (was ``call.2``)
=================  ==================  ===========================================

Every possible action exists once (``PLAYS``, ``CATCHES`` and the argument-less singletons):
the engine hands out these shared objects and decoding returns them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

from games.amapatolli.cards import CARDS, COLOUR_LETTER, COLOURS, LETTER_COLOUR, Colour
from games.core import Action, ActionCodec, IllegalAction, NoArgs
from games.core.actions import Announce, Draw, Pass
from games.core.errors import BAD_ACTION

MAX_SEATS = 6


class Play(Action):
    verb = "p"
    kind: Literal["play"] = "play"
    card: str
    colour: Colour | None = None  # only (and always) for a Tlapiāni

    def args(self) -> tuple[str, ...]:
        if self.colour is None:
            return (self.card,)
        return (self.card, COLOUR_LETTER[self.colour])

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        """``card`` or ``card.colourletter``: a known card, with a colour iff it is a Tlapiāni."""
        if len(args) not in (1, 2):
            raise IllegalAction(BAD_ACTION)
        card = CARDS.get(args[0])
        colour = LETTER_COLOUR.get(args[1]) if len(args) == 2 else None
        if card is None or card.wild != (len(args) == 2) or (card.wild and colour is None):
            raise IllegalAction(BAD_ACTION)
        return PLAYS[(card.id, colour)]


class AcceptSkip(NoArgs):
    verb = "accept"
    kind: Literal["accept_skip"] = "accept_skip"


class Catch(Action):
    verb = "catch"
    old_verbs = ("call",)
    kind: Literal["catch"] = "catch"
    target: int = Field(ge=0, le=MAX_SEATS - 1)  # seat index of the player called out

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        """One digit, the seat index (``call.02`` or ``call.+2`` are not the text of any call)."""
        if len(args) != 1 or len(args[0]) != 1 or not "0" <= args[0] < str(MAX_SEATS):
            raise IllegalAction(BAD_ACTION)
        return CATCHES[int(args[0])]


AmapatolliAction = Annotated[
    Play | Draw | Pass | AcceptSkip | Announce | Catch, Field(discriminator="kind")
]

# ``ce``: this game's text of ``Announce`` before issue 26
CODEC = ActionCodec(Play, Draw, Pass, AcceptSkip, Announce, Catch, old_verbs={"ce": Announce})

DRAW = Draw.instance()
PASS = Pass.instance()
ACCEPT_SKIP = AcceptSkip.instance()
ANNOUNCE = Announce.instance()
PLAYS: dict[tuple[str, Colour | None], Play] = {}
for _cid, _card in CARDS.items():
    if _card.wild:
        for _colour in COLOURS:
            PLAYS[(_cid, _colour)] = Play(card=_cid, colour=_colour)
    else:
        PLAYS[(_cid, None)] = Play(card=_cid)
CATCHES: tuple[Catch, ...] = tuple(Catch(target=i) for i in range(MAX_SEATS))
