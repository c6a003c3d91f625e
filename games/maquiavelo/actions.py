"""Maquiavelo actions and their compact text forms.

| action  | encode()                          | fits a custom_id?                              |
|---------|-----------------------------------|------------------------------------------------|
| Draw    | ``d``                             | yes                                            |
| Pass    | ``x``                             | yes                                            |
| Play    | ``p`` + base-36 bit mask of ids   | yes, always <= 22 chars, any number of cards   |
| Arrange | ``a`` + groups of 2-char faces,   | no: it comes from a modal, may be ~210 chars   |
|         | joined by ``.``: ``a7H7D7S.3S4S5S`` |                                              |

``Play`` names physical card ids (0..103, see ``cards``) from the hand and, with "ayuda", from the
face-up helpers; the engine arranges the table. ``Arrange`` is a whole explicit table arrangement
by faces (rank + suit, no deck); the engine picks the physical copies.
"""

from __future__ import annotations

import string
from typing import Annotated, Literal

from pydantic import Field, field_validator

from games.core import Action, IllegalAction
from games.core.errors import BAD_ACTION
from games.maquiavelo.cards import NUM_CARDS, face_from_code

_B36 = string.digits + string.ascii_lowercase


def _to_b36(n: int) -> str:
    if n == 0:
        return "0"
    out = []
    while n:
        n, r = divmod(n, 36)
        out.append(_B36[r])
    return "".join(reversed(out))


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
    cards: tuple[int, ...]

    @field_validator("cards")
    @classmethod
    def _normalise(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 0 <= c < NUM_CARDS for c in v):
            raise ValueError("card id out of range")
        if len(set(v)) != len(v):
            raise ValueError("duplicate card id")
        return tuple(sorted(v))

    def encode(self) -> str:
        mask = 0
        for c in self.cards:
            mask |= 1 << c
        return "p" + _to_b36(mask)


class Arrange(Action):
    kind: Literal["arrange"] = "arrange"
    groups: tuple[tuple[str, ...], ...]  # faces as 2-char codes: "7H", "TS", "AC"

    @field_validator("groups")
    @classmethod
    def _check(cls, v: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
        if not v or len(v) > 60 or sum(len(g) for g in v) > NUM_CARDS:
            raise ValueError("bad arrangement size")
        for g in v:
            if not g:
                raise ValueError("empty group")
            for code in g:
                face_from_code(code)
        return v

    def encode(self) -> str:
        return "a" + ".".join("".join(g) for g in self.groups)


MaquiaveloAction = Annotated[Draw | Pass | Play | Arrange, Field(discriminator="kind")]


def decode_action(text: str) -> Draw | Pass | Play | Arrange:
    """Inverse of ``encode``; ``IllegalAction("bad_action")`` on anything else."""
    try:
        if text == "d":
            return Draw()
        if text == "x":
            return Pass()
        if text.startswith("p") and 1 < len(text) <= 23:
            body = text[1:]
            if any(ch not in _B36 for ch in body) or (len(body) > 1 and body[0] == "0"):
                raise ValueError(text)
            mask = int(body, 36)
            if mask >> NUM_CARDS:
                raise ValueError(text)
            cards = tuple(i for i in range(NUM_CARDS) if mask >> i & 1)
            return Play(cards=cards)
        if text.startswith("a") and len(text) > 1:
            groups = []
            for chunk in text[1:].split("."):
                if not chunk or len(chunk) % 2:
                    raise ValueError(text)
                groups.append(tuple(chunk[i : i + 2] for i in range(0, len(chunk), 2)))
            return Arrange(groups=tuple(groups))
    except (ValueError, TypeError) as exc:
        raise IllegalAction(BAD_ACTION, text=text[:80]) from exc
    raise IllegalAction(BAD_ACTION, text=text[:80])
