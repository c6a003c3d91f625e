"""Shared helpers for the Maquiavelo tests: faces from text, an independent brute force."""

from __future__ import annotations

import itertools
from collections import Counter

from games.core.cards import parse_card
from games.maquiavelo.solver import face_of


def F(text: str) -> list[int]:
    """Faces of ``"7H 7D 10S AS"``."""
    out = []
    for tok in text.split():
        c = parse_card(tok)
        out.append(face_of(c.rank, c.suit))
    return out


def valid_meld(faces) -> bool:
    """Independent meld check (windows of ranks; the ace is 1 or 14)."""
    n = len(faces)
    if n < 3:
        return False
    ranks = [f % 13 + 1 for f in faces]
    suits = [f // 13 for f in faces]
    if len(set(ranks)) == 1:
        return n <= 4 and len(set(suits)) == n
    if len(set(suits)) != 1 or n > 13:
        return False
    for start in range(1, 15 - n + 1):
        window = list(range(start, start + n))
        if sorted(1 if r == 14 else r for r in window) == sorted(ranks):
            return True
    return False


def brute_partition(cards: list[tuple[int, bool]]) -> bool:
    """Can these (face, set_only) cards be split into valid melds, set-only cards in sets?"""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    seen = set()
    for size in range(2, min(13, len(rest)) + 1):
        for idx in itertools.combinations(range(len(rest)), size):
            group = [first] + [rest[i] for i in idx]
            key = tuple(sorted(group))
            if key in seen:
                continue
            seen.add(key)
            faces = [f for f, _ in group]
            if not valid_meld(faces):
                continue
            if any(so for _, so in group) and len(set(f % 13 for f in faces)) != 1:
                continue
            remaining = [rest[i] for i in range(len(rest)) if i not in idx]
            if brute_partition(remaining):
                return True
    return False


def multiset_ok(faces) -> bool:
    return max(Counter(faces).values(), default=0) <= 2
