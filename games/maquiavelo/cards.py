"""Physical cards of the two decks as ids 0..103: ``id = deck * 52 + face``.

``face = suit_index * 13 + (rank - 1)`` (see ``solver``); every face exists twice (decks 0, 1).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.cards import SUIT_SYMBOLS, SUITS, PlayingCard

NUM_CARDS = 104
RANK_CHARS = "A23456789TJQK"  # compact, one character per rank (T = ten)


def face(card_id: int) -> int:
    return card_id % 52


def card(card_id: int) -> PlayingCard:
    f = card_id % 52
    return PlayingCard(rank=f % 13 + 1, suit=SUITS[f // 13], deck=card_id // 52)


def card_id(c: PlayingCard) -> int:
    return c.deck * 52 + SUITS.index(c.suit) * 13 + c.rank - 1


def face_code(f: int) -> str:
    """Two-character code of a face: ``7H``, ``TS`` (ten), ``AC``."""
    return RANK_CHARS[f % 13] + SUITS[f // 13]


def face_from_code(code: str) -> int:
    """Inverse of ``face_code`` (raises ``ValueError``)."""
    if len(code) != 2 or code[0] not in RANK_CHARS or code[1] not in SUITS:
        raise ValueError(code)
    return SUITS.index(code[1]) * 13 + RANK_CHARS.index(code[0])


def face_pretty(f: int) -> str:
    """``7♥``, ``10♠``, ``A♣``."""
    rank = f % 13 + 1
    text = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    return text + SUIT_SYMBOLS[SUITS[f // 13]]


def pretty(card_id: int) -> str:
    return face_pretty(face(card_id))


def value(card_id: int) -> int:
    """Hand value: A=1, 2-10 face value, J=11, Q=12, K=13."""
    return card_id % 13 + 1


def hand_value(card_ids: Iterable[int]) -> int:
    return sum(value(c) for c in card_ids)


def sort_key(card_id: int) -> tuple[int, int, int]:
    """By suit (S H D C), then rank, then deck."""
    f = face(card_id)
    return (f // 13, f % 13, card_id // 52)
