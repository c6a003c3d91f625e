"""The 108-card Chúpate 2 deck and what each card is.

A card is a short, stable text id (the same id for the same physical card all game long):

- coloured cards: colour letter + face + copy letter, e.g. ``r7a``, ``r7b``, ``gDa``
  colours ``r`` red, ``y`` yellow, ``g`` green, ``b`` blue;
  faces ``0``-``9``, ``D`` Chúpate 2 (draw two), ``S`` Salto (skip), ``R`` Cambio de sentido
  (reverse); copies ``a``/``b`` (the 0 has only ``a``);
- wilds: ``W`` Comodín and ``F`` Comodín +4 (four), followed by a copy letter ``a``-``d``.

``FACE_KEY[card]`` drops the copy letter (``r7``, ``W``): two cards with the same key are
interchangeable, which is how the legal moves avoid offering the same play twice.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("r", "y", "g", "b")
WILD = "w"  # the colour slot of the two wild cards
NUMBER_FACES: tuple[str, ...] = tuple("0123456789")
ACTION_FACES: tuple[str, ...] = ("D", "S", "R")
DRAW_TWO, SKIP, REVERSE, WILD_FACE, WILD_FOUR = "D", "S", "R", "W", "F"


def _build_deck() -> tuple[str, ...]:
    cards: list[str] = []
    for colour in COLOURS:
        cards.append(f"{colour}0a")
        for face in NUMBER_FACES[1:] + ACTION_FACES:
            cards.append(f"{colour}{face}a")
            cards.append(f"{colour}{face}b")
    for face in (WILD_FACE, WILD_FOUR):
        cards.extend(f"{face}{copy}" for copy in "abcd")
    return tuple(cards)


DECK: tuple[str, ...] = _build_deck()
DECK_SET: frozenset[str] = frozenset(DECK)

# card id -> colour letter ("w" for wilds); card id -> face letter
COLOUR_OF: dict[str, str] = {c: (WILD if c[0] in (WILD_FACE, WILD_FOUR) else c[0]) for c in DECK}
FACE_OF: dict[str, str] = {c: (c[0] if COLOUR_OF[c] == WILD else c[1]) for c in DECK}
FACE_KEY: dict[str, str] = {c: c[:-1] for c in DECK}


def card_points(card: str) -> int:
    """Official UNO scoring value of a card left in a hand."""
    face = FACE_OF[card]
    if face in NUMBER_FACES:
        return int(face)
    if face in ACTION_FACES:
        return 20
    return 50


POINTS: dict[str, int] = {c: card_points(c) for c in DECK}


def hand_points(cards: list[str]) -> int:
    return sum(POINTS[c] for c in cards)


def is_wild(card: str) -> bool:
    return COLOUR_OF[card] == WILD


_COLOUR_RANK = {c: i for i, c in enumerate(COLOURS + (WILD,))}
_FACE_RANK = {f: i for i, f in enumerate(NUMBER_FACES + ACTION_FACES + (WILD_FACE, WILD_FOUR))}
SORT_KEY: dict[str, tuple[int, int, str]] = {
    c: (_COLOUR_RANK[COLOUR_OF[c]], _FACE_RANK[FACE_OF[c]], c) for c in DECK
}


def sort_hand(cards: list[str]) -> list[str]:
    """Cards grouped by colour (red, yellow, green, blue, wilds), then by face."""
    return sorted(cards, key=SORT_KEY.__getitem__)


def matches(card: str, top_face: str, colour: str | None) -> bool:
    """Whether ``card`` may be played on a discard pile showing ``top_face`` in ``colour``.

    Only the plain matching rule: wilds always match (the +4 restriction is a bluffable rule,
    handled by the challenge), coloured cards match the colour in force or the top card's face.
    """
    c = COLOUR_OF[card]
    return c == WILD or c == colour or FACE_OF[card] == top_face
