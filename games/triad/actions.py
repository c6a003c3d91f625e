"""Triple Triad actions and their text forms (the grammar of ``games.core.actions``).

- ``Play``: ``p.{slot}.{card}.{cell}`` -- put the card in hand slot ``slot`` (0-4, its
  current position in the hand) on ``cell`` (0-8, row by row). ``card`` is the catalogue id, so a
  stale slot number is refused instead of playing another card. Example ``p.2.c047.4``.
- ``PickCard``: ``k.{index}.{card}`` -- after the last placement, the winner takes the loser's
  card at ``index`` (0-4) of the loser's original five (payouts Una and Diferencia). Example
  ``k.3.c012``.

Card ids are ``c`` and three digits, inside the grammar's argument alphabet.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from games.core import Action, ActionCodec

CARD_ID = r"^c\d{3}$"


class Play(Action):
    verb: ClassVar[str] = "p"
    kind: Literal["play"] = "play"
    slot: int = Field(ge=0, le=4)
    card: str = Field(pattern=CARD_ID)
    cell: int = Field(ge=0, le=8)


class PickCard(Action):
    verb: ClassVar[str] = "k"
    kind: Literal["pick"] = "pick"
    index: int = Field(ge=0, le=4)
    card: str = Field(pattern=CARD_ID)


TriadAction = Annotated[Play | PickCard, Field(discriminator="kind")]

CODEC = ActionCodec(Play, PickCard)
