"""Cards as Macarena sees them: suits are elements, and the three ways two cards meet.

Decision (spec, Components): with French cards ♣ is earth, ♠ air, ♥ water, ♦ fire.
A card's *face* is its rank and suit without the deck: the two copies of a face are identical
cards (an espejo when played one after the other) and are interchangeable everywhere else.
"""

from __future__ import annotations

from typing import Literal

from games.core.cards import SUITS, PlayingCard, parse_card
from games.core.errors import BAD_ACTION, IllegalAction

Element = Literal["earth", "air", "water", "fire"]
ELEMENTS: tuple[Element, ...] = ("earth", "air", "water", "fire")
SUIT_ELEMENT: dict[str, Element] = {"C": "earth", "S": "air", "H": "water", "D": "fire"}
ELEMENT_SUIT: dict[str, str] = {e: s for s, e in SUIT_ELEMENT.items()}
ELEMENT_LETTER: dict[Element, str] = {"earth": "e", "air": "a", "water": "w", "fire": "f"}
LETTER_ELEMENT: dict[str, Element] = {v: k for k, v in ELEMENT_LETTER.items()}

# One character per face (52 faces) for compact action texts.
FACE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
assert len(FACE_ALPHABET) == 52

LinkKind = Literal["escalera", "igual", "espejo"]


def element_of(card: PlayingCard) -> Element:
    return SUIT_ELEMENT[card.suit]


def face_index(card: PlayingCard) -> int:
    return SUITS.index(card.suit) * 13 + card.rank - 1


def face_char(card: PlayingCard) -> str:
    return FACE_ALPHABET[face_index(card)]


def card_from_char(char: str) -> PlayingCard:
    index = FACE_ALPHABET.find(char)
    if index < 0 or len(char) != 1:
        raise IllegalAction(BAD_ACTION, text=char)
    return _FACE_CARDS[index]


# The card of each face character: frozen values, built once (an action's text is decoded at
# every click; a card validated anew costs ~2 us).
_FACE_CARDS = tuple(PlayingCard(rank=i % 13 + 1, suit=SUITS[i // 13]) for i in range(52))


def canonical_face(text: str | PlayingCard) -> str:
    """``"10h"``, ``"T♥"`` or a PlayingCard -> ``"10H"``. Raises ``IllegalAction`` if invalid."""
    if isinstance(text, PlayingCard):
        return text.code
    return parse_card(text).code


def is_escalera(a: PlayingCard, b: PlayingCard) -> bool:
    """Same element, ranks adjacent; A and K are adjacent (the order wraps)."""
    return a.suit == b.suit and (a.rank - b.rank) % 13 in (1, 12)


def is_igual(a: PlayingCard, b: PlayingCard) -> bool:
    """Same rank, different element."""
    return a.rank == b.rank and a.suit != b.suit


def link_kind(prev: PlayingCard, nxt: PlayingCard) -> LinkKind | None:
    """How ``nxt`` may follow ``prev`` in a series: identical cards are an espejo, never a link."""
    if prev.same_face(nxt):
        return "espejo"
    if is_escalera(prev, nxt):
        return "escalera"
    if is_igual(prev, nxt):
        return "igual"
    return None


# (rank, suit) of a card -> the (rank, suit) of every card ``link_kind`` lets follow it (an espejo
# included): the legal moves ask this for every card of the hand on every pozo.
_FACES = [PlayingCard(rank=r, suit=s) for s in SUITS for r in range(1, 14)]
FOLLOWERS: dict[tuple[int, str], frozenset[tuple[int, str]]] = {
    (a.rank, a.suit): frozenset((b.rank, b.suit) for b in _FACES if link_kind(a, b) is not None)
    for a in _FACES
}


def award_rank(card: PlayingCard) -> int:
    """Rank for the element tie-break: A highest, then K, Q, J, 10 … 2."""
    return 14 if card.rank == 1 else card.rank


# A suit's element's place in ``ELEMENTS``: a hand is sorted at every view of it.
_ELEMENT_ORDER = {suit: ELEMENTS.index(element) for suit, element in SUIT_ELEMENT.items()}


def sort_key(card: PlayingCard) -> tuple[int, int, int]:
    """(element, rank, deck): a hand's order."""
    fields = card.__dict__
    return (_ELEMENT_ORDER[fields["suit"]], fields["rank"], fields["deck"])
