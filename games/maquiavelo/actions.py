"""Maquiavelo actions and their text forms (the grammar of ``games.core.actions``).

| action  | encode()                                  | fits a custom_id?                         |
|---------|-------------------------------------------|-------------------------------------------|
| Draw    | ``draw`` (was ``d``)                      | yes                                       |
| Pass    | ``pass`` (was ``x``)                      | yes                                       |
| Play    | ``p.`` + base-36 bit mask of the card ids | yes, always <= 23 chars, any card count   |
| Arrange | ``a.`` + groups of 2-char faces, one      | no: it comes from a modal, may be ~270    |
|         | argument each: ``a.7H7D7S.3S4S5S``        | chars (``max_text``)                      |

``Play`` names physical card ids (0..103, see ``cards``) from the hand and, with "ayuda", from the
face-up helpers; the engine arranges the table. ``Arrange`` is a whole explicit table arrangement
by faces (rank + suit, no deck); the engine picks the physical copies.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Annotated, ClassVar, Literal

from pydantic import Field, ValidationError, field_validator

from games.core import Action, ActionCodec, IllegalAction
from games.core.actions import Draw, Pass
from games.core.errors import BAD_ACTION
from games.maquiavelo.cards import NUM_CARDS, face_from_code

_B36 = string.digits + string.ascii_lowercase
MAX_GROUPS = 60
MAX_MASK_DIGITS = 21  # 36**21 > 2**104


def _to_b36(n: int) -> str:
    if n == 0:
        return "0"
    out = []
    while n:
        n, r = divmod(n, 36)
        out.append(_B36[r])
    return "".join(reversed(out))


class Play(Action):
    verb: ClassVar[str] = "p"
    kind: Literal["play"] = "play"
    cards: tuple[int, ...]

    @field_validator("cards")
    @classmethod
    def _normalise(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 0 <= c < NUM_CARDS for c in v):
            raise ValueError("card id out of range")
        if len(set(v)) != len(v):
            raise ValueError("duplicate card id")
        return tuple(sorted(v))

    def args(self) -> tuple[str, ...]:
        mask = 0
        for c in self.cards:
            mask |= 1 << c
        return (_to_b36(mask),)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Play:
        if len(args) != 1:
            raise IllegalAction(BAD_ACTION)
        (body,) = args
        if (
            len(body) > MAX_MASK_DIGITS
            or any(ch not in _B36 for ch in body)
            or (len(body) > 1 and body[0] == "0")
        ):
            raise IllegalAction(BAD_ACTION)
        mask = int(body, 36)
        if mask >> NUM_CARDS:
            raise IllegalAction(BAD_ACTION)
        return cls(cards=tuple(i for i in range(NUM_CARDS) if mask >> i & 1))


class Arrange(Action):
    verb: ClassVar[str] = "a"
    # "a" plus, per group, a "." and two characters per card
    max_text: ClassVar[int] = 1 + MAX_GROUPS + 2 * NUM_CARDS
    kind: Literal["arrange"] = "arrange"
    groups: tuple[tuple[str, ...], ...]  # faces as 2-char codes: "7H", "TS", "AC"

    @field_validator("groups")
    @classmethod
    def _check(cls, v: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
        if not v or len(v) > MAX_GROUPS or sum(len(g) for g in v) > NUM_CARDS:
            raise ValueError("bad arrangement size")
        for g in v:
            if not g:
                raise ValueError("empty group")
            for code in g:
                face_from_code(code)
        return v

    def args(self) -> tuple[str, ...]:
        return tuple("".join(g) for g in self.groups)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Arrange:
        if not args or any(len(chunk) % 2 for chunk in args):
            raise IllegalAction(BAD_ACTION)
        groups = tuple(tuple(chunk[i : i + 2] for i in range(0, len(chunk), 2)) for chunk in args)
        try:
            return cls(groups=groups)
        except ValidationError as exc:
            raise IllegalAction(BAD_ACTION) from exc


MaquiaveloAction = Annotated[Draw | Pass | Play | Arrange, Field(discriminator="kind")]
AnyAction = Draw | Pass | Play | Arrange  # the same union, for type hints

CODEC: ActionCodec[AnyAction] = ActionCodec(
    Draw,
    Pass,
    Play,
    Arrange,
    old_verbs={"d": Draw, "x": Pass},  # its texts before issue 26
)
