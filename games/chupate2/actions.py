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
| call "¡Última!" (variant)     | ``announce``    |
| catch seat 2's missing call (variant) | ``catch.2`` |
| swap hands with seat index 2 after a 7 (``seven_o``) | ``swap.2`` |

Decoding hands out the shared instances below (``PLAY``, ``PLAY_WILD``, ``DRAW``...), the same
objects ``legal_actions`` offers, so no model is built in the hot loop.
"""

from __future__ import annotations

from typing import ClassVar, Literal, TypeAlias

from games.chupate2.cards import COLOURS, DECK, is_wild
from games.core import ActionCodec, Interned, NoArgs
from games.core.actions import Announce, Draw, Pass

Colour = Literal["r", "y", "g", "b"]
COLOUR_LETTERS: tuple[Colour, ...] = ("r", "y", "g", "b")
assert COLOUR_LETTERS == COLOURS


class Play(Interned):
    """Play ``card``; a wild names the ``colour`` in force after it (and only a wild does)."""

    verb: ClassVar[str] = "p"
    kind: Literal["play"] = "play"
    card: str
    colour: Colour | None = None


class Take(NoArgs):
    """Take the whole pending draw (Chúpate 2 stack or an accepted +4) and lose the turn."""

    kind: Literal["take"] = "take"


class Challenge(NoArgs):
    """ "¡Mentira!": challenge the +4 just played on you."""

    verb: ClassVar[str] = "chal"
    kind: Literal["challenge"] = "challenge"


class ChooseColour(Interned):
    """Name the colour of a Comodín turned as the first card (the starting player does)."""

    verb: ClassVar[str] = "col"
    kind: Literal["colour"] = "colour"
    colour: Colour


class Catch(Interned):
    """Catch the player at seat index ``target`` who went down to one card without calling
    (variant ``last_card``). Several players may be exposed at once: one action per target.

    ``catch`` without a target is the form offered while only one other player is exposed (the
    only form before several could be, so older move logs replay); with several, each is named.
    """

    verb: ClassVar[str] = "catch"
    kind: Literal["catch"] = "catch"
    target: int | None = None


class SwapWith(Interned):
    """After playing a 7 (variant ``seven_o``): swap hands with the seat at index ``target``."""

    verb: ClassVar[str] = "swap"
    kind: Literal["swap"] = "swap"
    target: int


Chupate2Action: TypeAlias = (
    Play | Draw | Pass | Take | Challenge | ChooseColour | Announce | Catch | SwapWith
)

CODEC: ActionCodec[Chupate2Action] = ActionCodec(
    Play,
    Draw,
    Pass,
    Take,
    Challenge,
    ChooseColour,
    Announce,
    Catch,
    SwapWith,
    old_verbs={"uno": Announce},  # this game's text of ``Announce`` before issue 26
)
MAX_SEATS = 6

# Shared, immutable instances: legal_actions and decoding hand these out.
DRAW, PASS, TAKE, CHALLENGE, ANNOUNCE = (
    Draw.instance(),
    Pass.instance(),
    Take.instance(),
    Challenge.instance(),
    Announce.instance(),
)
CATCH = Catch.intern()
CHOOSE_COLOUR: dict[str, ChooseColour] = {c: ChooseColour.intern(colour=c) for c in COLOUR_LETTERS}
PLAY: dict[str, Play] = {c: Play.intern(card=c) for c in DECK if not is_wild(c)}
PLAY_WILD: dict[str, tuple[Play, ...]] = {
    c: tuple(Play.intern(card=c, colour=col) for col in COLOUR_LETTERS) for c in DECK if is_wild(c)
}
SWAP: dict[str, SwapWith] = {str(i): SwapWith.intern(target=i) for i in range(MAX_SEATS)}
SWAP_TO: tuple[SwapWith, ...] = tuple(SWAP[str(i)] for i in range(MAX_SEATS))
CATCH_SEAT: dict[str, Catch] = {str(i): Catch.intern(target=i) for i in range(MAX_SEATS)}
CATCH_TO: tuple[Catch, ...] = tuple(CATCH_SEAT[str(i)] for i in range(MAX_SEATS))
