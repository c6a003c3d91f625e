"""Macarena actions and their text forms (the core grammar ``verb.arg.arg``, ≤ 60 chars).

    draw                draw the turn's card (was ``d``)
    pass                pass (returns all of the player's MACAS; was ``x``)
    p.<pozo>.<faces>    play a series on pozo 0–6; one character per card face (FACE_ALPHABET)
    m.<pozo>            move one of my MACAS from that pozo (all 7 active and an espejo played)
    g.<e|a|w|f>         give up that element token (end-of-hand penalty)
    b.<e|a|w|f>         buy that element token with 4 coins (end-of-hand exchange)

Both copies of a face are interchangeable, so a series names faces (``"10H"``), not decks.
A series being built in the UI (a *draft*) has the same form, its faces possibly still empty:
``p.<pozo>`` or ``p.<pozo>.<faces>`` (``encode_draft`` / ``decode_draft``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import Field, TypeAdapter, field_validator

from games.core import Action
from games.core.actions import ActionCodec, Draw, Pass, format_action, parse_action
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

PLAY_VERB = "p"
MAX_SERIES = 56  # 60 characters minus "p.", the pozo digit and "."
POZO_DIGITS = "0123456"


def _pozo_arg(text: str) -> int:
    if len(text) != 1 or text not in POZO_DIGITS:
        raise IllegalAction(BAD_ACTION, text=text)
    return int(text)


def _faces_arg(text: str) -> tuple[str, ...]:
    """Face characters -> face codes; ``IllegalAction(BAD_ACTION)`` on a bad character."""
    try:
        return tuple(card_from_char(ch).code for ch in text)
    except IllegalAction:
        raise IllegalAction(BAD_ACTION, text=text) from None


def _faces_text(cards: Sequence[str | PlayingCard]) -> str:
    return "".join(face_char(c if isinstance(c, PlayingCard) else parse_card(c)) for c in cards)


class Play(Action):
    verb: ClassVar[str] = PLAY_VERB
    kind: Literal["play"] = "play"
    pozo: int = Field(ge=0, le=6)
    cards: tuple[str, ...] = Field(min_length=1, max_length=MAX_SERIES)

    @field_validator("cards", mode="before")
    @classmethod
    def _faces(cls, value: object) -> object:
        if isinstance(value, (list, tuple)):
            try:
                return tuple(canonical_face(v) for v in value)
            except IllegalAction as exc:
                raise ValueError(f"bad card {exc.params}") from None
        return value

    @property
    def playing_cards(self) -> list[PlayingCard]:
        return [parse_card(c) for c in self.cards]

    def args(self) -> tuple[str, ...]:
        return (str(self.pozo), _faces_text(self.playing_cards))

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Play:
        if len(args) != 2 or not args[1] or len(args[1]) > MAX_SERIES:
            raise IllegalAction(BAD_ACTION)
        return cls(pozo=_pozo_arg(args[0]), cards=_faces_arg(args[1]))


class MoveMaca(Action):
    verb: ClassVar[str] = "m"
    kind: Literal["move_maca"] = "move_maca"
    source: int = Field(ge=0, le=6)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> MoveMaca:
        if len(args) != 1:
            raise IllegalAction(BAD_ACTION)
        return cls(source=_pozo_arg(args[0]))


def _element_arg(args: Sequence[str]) -> Element:
    if len(args) != 1 or args[0] not in LETTER_ELEMENT:
        raise IllegalAction(BAD_ACTION)
    return LETTER_ELEMENT[args[0]]


class _ElementAction(Action):
    """A move naming one element token (its letter is the text's one argument); its verb is
    its kind's first letter (``give_element``: ``g``, ``buy_element``: ``b``)."""

    kind: str  # each class's own literal (declared here first: the JSON keeps ``kind`` first)
    element: Element

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.verb = cls.model_fields["kind"].default[0]

    def args(self) -> tuple[str, ...]:
        return (ELEMENT_LETTER[self.element],)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Self:
        return cls.model_validate({"element": _element_arg(args)})


class GiveElement(_ElementAction):
    """Give up that element token (the end-of-hand penalty)."""

    kind: Literal["give_element"] = "give_element"


class BuyElement(_ElementAction):
    """Buy that element token with 4 coins (the end-of-hand exchange)."""

    kind: Literal["buy_element"] = "buy_element"


MacarenaAction = Annotated[
    Draw | Pass | Play | MoveMaca | GiveElement | BuyElement, Field(discriminator="kind")
]
ACTION_ADAPTER: TypeAdapter[MacarenaAction] = TypeAdapter(MacarenaAction)
CODEC: ActionCodec[Draw | Pass | Play | MoveMaca | GiveElement | BuyElement] = ActionCodec(
    Draw,
    Pass,
    Play,
    MoveMaca,
    GiveElement,
    BuyElement,
    old_verbs={"d": Draw, "x": Pass},  # this game's texts before issue 26
)


def encode_draft(pozo: int, cards: Sequence[str] | Sequence[PlayingCard]) -> str:
    """A series being built (possibly still empty) in the same text form as ``Play``:
    ``encode_draft(2, [])`` is ``"p.2"``; with cards it equals ``Play(...).encode()``."""
    if not 0 <= pozo <= 6 or len(cards) > MAX_SERIES:
        raise IllegalAction(BAD_ACTION, text=str(pozo))
    faces = _faces_text(cards)
    return format_action(PLAY_VERB, (str(pozo), faces) if faces else (str(pozo),))


def decode_draft(text: str) -> tuple[int, list[str]]:
    """Inverse of ``encode_draft``: ``(pozo, [face codes])``; ``IllegalAction`` on junk."""
    verb, args = parse_action(text)
    if verb != PLAY_VERB or not 1 <= len(args) <= 2:
        raise IllegalAction(BAD_ACTION, text=text)
    if len(args) == 2 and (not args[1] or len(args[1]) > MAX_SERIES):
        raise IllegalAction(BAD_ACTION, text=text)
    return _pozo_arg(args[0]), list(_faces_arg(args[1])) if len(args) == 2 else []
