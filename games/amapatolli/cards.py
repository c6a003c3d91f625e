"""The Amapatolli deck: 4 series of the 20 day signs plus 4 Tlapiāni (84 cards).

Every card has a short stable id used in states, views and action encodings:

* a day-sign card is its series letter (``a``-``d``) and its two-digit sign number: ``a07``,
  ``d20``;
* a Tlapiāni is ``t`` plus the letter of its colour: ``tw`` (Itztli, white), ``tr``
  (Tlazoltéotl, red), ``tk`` (Tláloc, black), ``tb`` (Mictlantecuhtli, blue).

Colours are ``white`` (blanco), ``red`` (rojo), ``black`` (negro) and ``blue`` (azul); each has
a one-letter code (``w r k b``) for encodings.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Colour = Literal["white", "red", "black", "blue"]
COLOURS: tuple[Colour, ...] = ("white", "red", "black", "blue")
COLOUR_LETTER: dict[str, str] = {"white": "w", "red": "r", "black": "k", "blue": "b"}
LETTER_COLOUR: dict[str, Colour] = {COLOUR_LETTER[c]: c for c in COLOURS}

SIGN_NAMES: dict[int, str] = {
    1: "Cipactli",
    2: "Ehécatl",
    3: "Calli",
    4: "Cuetzpalin",
    5: "Cóatl",
    6: "Miquiztli",
    7: "Mázatl",
    8: "Tochtli",
    9: "Atl",
    10: "Itzcuintli",
    11: "Ozomatli",
    12: "Malinalli",
    13: "Ácatl",
    14: "Océlotl",
    15: "Cuauhtli",
    16: "Cozcacuauhtli",
    17: "Ollin",
    18: "Técpatl",
    19: "Quiáhuitl",
    20: "Xóchitl",
}
TLAPIANI_NAMES: dict[str, str] = {
    "white": "Itztli",
    "black": "Tláloc",
    "red": "Tlazoltéotl",
    "blue": "Mictlantecuhtli",
}

# (margin, background) by sign number, the same in all four series.
_W, _R, _K, _B = COLOURS
SIGN_COLOURS: dict[int, tuple[Colour, Colour]] = {
    1: (_W, _W),
    13: (_W, _W),
    3: (_R, _R),
    11: (_R, _R),
    6: (_K, _K),
    18: (_K, _K),
    8: (_B, _B),
    16: (_B, _B),
    2: (_W, _R),
    4: (_W, _K),
    5: (_W, _B),
    7: (_R, _W),
    9: (_R, _K),
    10: (_R, _B),
    12: (_K, _W),
    14: (_K, _R),
    15: (_K, _B),
    17: (_B, _W),
    19: (_B, _R),
    20: (_B, _K),
}

BIRD_SIGNS = frozenset({15, 16})  # Cuauhtli, Cozcacuauhtli
TOCHTLI = 8  # rabbit: skips like a bird with the ``powers`` variant
OLLIN = 17  # movement: reverses the order with the ``powers`` variant
SERIES = "abcd"


class Card(NamedTuple):
    """One physical card. ``sign`` is 0 for a Tlapiāni; ``value`` counts at the end."""

    id: str
    sign: int
    margin: Colour
    background: Colour
    wild: bool

    @property
    def value(self) -> int:
        return self.sign

    @property
    def is_bird(self) -> bool:
        return self.sign in BIRD_SIGNS

    @property
    def name(self) -> str:
        return TLAPIANI_NAMES[self.margin] if self.wild else SIGN_NAMES[self.sign]


def _build() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for series in SERIES:
        for sign in range(1, 21):
            margin, background = SIGN_COLOURS[sign]
            cid = f"{series}{sign:02d}"
            cards[cid] = Card(cid, sign, margin, background, False)
    for colour in COLOURS:
        cid = f"t{COLOUR_LETTER[colour]}"
        cards[cid] = Card(cid, 0, colour, colour, True)
    return cards


CARDS: dict[str, Card] = _build()
ALL_IDS: tuple[str, ...] = tuple(CARDS)


def deck_ids(with_tlapiani: bool = True) -> list[str]:
    """The ids of a full deck in a fixed order (84 cards, or 80 without Tlapiāni)."""
    return [c for c in ALL_IDS if with_tlapiani or not CARDS[c].wild]


def hand_value(ids: list[str]) -> int:
    return sum(CARDS[c].sign for c in ids)
