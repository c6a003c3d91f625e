"""Macarena actions and their compact text forms (for Discord custom_ids, ≤ 60 chars).

    d                 draw the turn's card
    x                 pass (returns all of the player's MACAS)
    p<pozo><faces>    play a series on pozo 0–6; one character per card face (FACE_ALPHABET)
    m<pozo>           move one of my MACAS from that pozo (all 7 active and an espejo played)
    g<e|a|w|f>        give up that element token (end-of-hand penalty)
    b<e|a|w|f>        buy that element token with 4 coins (end-of-hand exchange)

Both copies of a face are interchangeable, so a series names faces (``"10H"``), not decks.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, field_validator

from games.core import Action
from games.core.cards import PlayingCard, parse_card
from games.core.errors import BAD_ACTION, IllegalAction
from games.macarena.elements import (
    ELEMENT_LETTER,
    LETTER_ELEMENT,
    Element,
    canonical_face,
    card_from_char,
    face_char,
)

MAX_SERIES = 58  # 60 characters minus "p" and the pozo digit


class Draw(Action):
    kind: Literal["draw"] = "draw"

    def encode(self) -> str:
        return "d"


class Pass(Action):
    kind: Literal["pass"] = "pass"

    def encode(self) -> str:
        return "x"


class Play(Action):
    kind: Literal["play"] = "play"
    pozo: int = Field(ge=0, le=6)
    cards: tuple[str, ...] = Field(min_length=1, max_length=MAX_SERIES)

    @field_validator("cards", mode="before")
    @classmethod
    def _faces(cls, value: object) -> object:
        if isinstance(value, (list, tuple)):
            try:
                return tuple(canonical_face(v) for v in value)  # type: ignore[arg-type]
            except IllegalAction as exc:
                raise ValueError(f"bad card {exc.params}") from None
        return value

    @property
    def playing_cards(self) -> list[PlayingCard]:
        return [parse_card(c) for c in self.cards]

    def encode(self) -> str:
        return f"p{self.pozo}" + "".join(face_char(c) for c in self.playing_cards)


class MoveMaca(Action):
    kind: Literal["move_maca"] = "move_maca"
    source: int = Field(ge=0, le=6)

    def encode(self) -> str:
        return f"m{self.source}"


class GiveElement(Action):
    kind: Literal["give_element"] = "give_element"
    element: Element

    def encode(self) -> str:
        return "g" + ELEMENT_LETTER[self.element]


class BuyElement(Action):
    kind: Literal["buy_element"] = "buy_element"
    element: Element

    def encode(self) -> str:
        return "b" + ELEMENT_LETTER[self.element]


MacarenaAction = Annotated[
    Draw | Pass | Play | MoveMaca | GiveElement | BuyElement, Field(discriminator="kind")
]
ACTION_ADAPTER: TypeAdapter[MacarenaAction] = TypeAdapter(MacarenaAction)


def decode_action(text: str) -> MacarenaAction:
    if not isinstance(text, str) or not text or len(text) > 60:
        raise IllegalAction(BAD_ACTION, text=str(text)[:60])
    head, rest = text[0], text[1:]
    try:
        if head == "d" and not rest:
            return Draw()
        if head == "x" and not rest:
            return Pass()
        if head == "p" and len(rest) >= 2 and rest[0] in "0123456":
            cards = tuple(card_from_char(ch).code for ch in rest[1:])
            return Play(pozo=int(rest[0]), cards=cards)
        if head == "m" and len(rest) == 1 and rest in "0123456":
            return MoveMaca(source=int(rest))
        if head in "gb" and rest in LETTER_ELEMENT:
            element = LETTER_ELEMENT[rest]
            return GiveElement(element=element) if head == "g" else BuyElement(element=element)
    except (ValueError, IllegalAction):
        pass
    raise IllegalAction(BAD_ACTION, text=text)


def encode_draft(pozo: int, cards: list[str] | tuple[str, ...] | list[PlayingCard]) -> str:
    """A series being built (possibly still empty) in the same text form as ``Play``:
    ``encode_draft(2, [])`` is ``"p2"``; with cards it equals ``Play(...).encode()``."""
    if not 0 <= pozo <= 6 or len(cards) > MAX_SERIES:
        raise IllegalAction(BAD_ACTION, text=str(pozo))
    faces = [c if isinstance(c, PlayingCard) else parse_card(c) for c in cards]
    return f"p{pozo}" + "".join(face_char(c) for c in faces)


def decode_draft(text: str) -> tuple[int, list[str]]:
    """Inverse of ``encode_draft``: ``(pozo, [face codes])``; ``IllegalAction`` on junk."""
    if (
        not isinstance(text, str)
        or not 2 <= len(text) <= 60
        or text[0] != "p"
        or text[1] not in "0123456"
    ):
        raise IllegalAction(BAD_ACTION, text=str(text)[:60])
    try:
        return int(text[1]), [card_from_char(ch).code for ch in text[2:]]
    except IllegalAction:
        raise IllegalAction(BAD_ACTION, text=text) from None
