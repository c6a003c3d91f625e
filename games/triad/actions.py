"""Triple Triad actions and their compact text forms (they go into Discord custom_ids).

- ``place``: ``p:{slot}:{card}:{cell}`` -- put the card in hand slot ``slot`` (0-4, its current
  position in the hand) on ``cell`` (0-8, row by row). ``card`` is the catalogue id, so a stale
  slot number is refused instead of playing another card. Example ``p:2:c047:4``.
- ``pick``: ``k:{index}:{card}`` -- after the last placement, the winner takes the loser's card
  at ``index`` (0-4) of the loser's original five (payouts Una and Diferencia). Example
  ``k:3:c012``.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field

from games.core import Action, IllegalAction
from games.core.errors import BAD_ACTION


class PlaceCard(Action):
    kind: Literal["place"] = "place"
    slot: int = Field(ge=0, le=4)
    card: str = Field(pattern=r"^c\d{3}$")
    cell: int = Field(ge=0, le=8)

    def encode(self) -> str:
        return f"p:{self.slot}:{self.card}:{self.cell}"


class PickCard(Action):
    kind: Literal["pick"] = "pick"
    index: int = Field(ge=0, le=4)
    card: str = Field(pattern=r"^c\d{3}$")

    def encode(self) -> str:
        return f"k:{self.index}:{self.card}"


TriadAction = Annotated[PlaceCard | PickCard, Field(discriminator="kind")]

_PLACE = re.compile(r"^p:([0-4]):(c\d{3}):([0-8])$")
_PICK = re.compile(r"^k:([0-4]):(c\d{3})$")


def decode_action(text: str) -> PlaceCard | PickCard:
    if not isinstance(text, str):
        raise IllegalAction(BAD_ACTION)
    m = _PLACE.fullmatch(text)
    if m:
        return PlaceCard(slot=int(m[1]), card=m[2], cell=int(m[3]))
    m = _PICK.fullmatch(text)
    if m:
        return PickCard(index=int(m[1]), card=m[2])
    raise IllegalAction(BAD_ACTION)
