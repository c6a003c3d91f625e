"""The Triple Triad card catalogue (``data/cards.json``) and pure deck helpers.

The catalogue is data versioned with the code: 110 original cards, 11 per level (1-10), each
with Spanish and English names, an element or none, and four edge values 1-10 (10 shows as "A").
Helpers here never touch storage: they return card ids, and callers persist them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.rng import rng_for

ELEMENTS: tuple[str, ...] = (
    "fuego",
    "hielo",
    "rayo",
    "tierra",
    "veneno",
    "viento",
    "agua",
    "sagrado",
)
Element = Literal["fuego", "hielo", "rayo", "tierra", "veneno", "viento", "agua", "sagrado"]
LEVELS = range(1, 11)
HAND_SIZE = 5
STARTER_SIZE = 7
STARTER_LEVELS = (1, 2)
TOP_UP_LEVEL = 1
DATA_FILE = Path(__file__).resolve().parent / "data" / "cards.json"


def edge_text(value: int) -> str:
    """How an edge value is printed: 10 is "A"; modified values beyond (11) or below (0) as digits."""
    return "A" if value == 10 else str(value)


class CardName(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    es: str = Field(min_length=1, max_length=40)
    en: str = Field(min_length=1, max_length=40)


class Card(BaseModel):
    """One catalogue card. Edges are printed values (top, right, bottom, left)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^c\d{3}$")
    level: int = Field(ge=1, le=10)
    element: Element | None
    top: int = Field(ge=1, le=10)
    right: int = Field(ge=1, le=10)
    bottom: int = Field(ge=1, le=10)
    left: int = Field(ge=1, le=10)
    name: CardName

    @property
    def edges(self) -> tuple[int, int, int, int]:
        return (self.top, self.right, self.bottom, self.left)

    @property
    def strength(self) -> int:
        return self.top + self.right + self.bottom + self.left


class Catalogue(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int
    cards: tuple[Card, ...]

    @model_validator(mode="after")
    def _unique(self) -> Catalogue:
        ids = [c.id for c in self.cards]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate card id")
        for lang in ("es", "en"):
            names = [getattr(c.name, lang).casefold() for c in self.cards]
            if len(set(names)) != len(names):
                raise ValueError(f"duplicate {lang} card name")
        return self

    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}


def load_catalogue(path: Path = DATA_FILE) -> Catalogue:
    return Catalogue.model_validate(json.loads(path.read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The shipped catalogue (loaded once)."""
    return load_catalogue()


@lru_cache(maxsize=1)
def cards_by_id() -> dict[str, Card]:
    return catalogue().by_id()


def card(card_id: str) -> Card:
    """The catalogue card with this id; ``KeyError`` if unknown."""
    return cards_by_id()[card_id]


def is_card(card_id: object) -> bool:
    return isinstance(card_id, str) and card_id in cards_by_id()


def ids_of_levels(levels: range | tuple[int, ...] | list[int]) -> list[str]:
    return list(_ids_of_levels(tuple(sorted(set(levels)))))


@lru_cache(maxsize=64)  # (levels 1-10: a few dozen sets are ever asked)
def _ids_of_levels(levels: tuple[int, ...]) -> tuple[str, ...]:
    """The catalogue's ids of those levels, in catalogue order (a lobby's picker and every
    computer deck ask again)."""
    wanted = set(levels)
    return tuple(c.id for c in catalogue().cards if c.level in wanted)


# ----- collections (pure helpers; storage persists what they return) --------------------------


def starter_set(seed: str) -> list[str]:
    """The cards granted to a new user: 7 distinct cards of levels 1-2, chosen by ``seed``.

    Callers pass a stable seed (e.g. ``f"starter:{user_id}"``) so a retried grant is identical.
    """
    return list(_starter_set(seed))


@lru_cache(maxsize=4096)  # a Triple Triad lobby asks at every pick of its players' cards
def _starter_set(seed: str) -> tuple[str, ...]:
    pool = ids_of_levels(STARTER_LEVELS)
    return tuple(sorted(rng_for(seed, "starter").sample(pool, STARTER_SIZE)))


def top_up(collection: Mapping[str, int], seed: str) -> list[str]:
    """Level-1 card ids to grant so that ``collection`` (card id -> quantity) holds 5 cards.

    Returns ``[]`` when the user already owns at least 5 cards. Prefers cards the user does not
    own yet so a topped-up user can field 5 different cards.
    """
    owned = sum(max(0, q) for q in collection.values())
    missing = HAND_SIZE - owned
    if missing <= 0:
        return []
    pool = ids_of_levels((TOP_UP_LEVEL,))
    rng = rng_for(seed, "top_up", owned)
    fresh = [c for c in pool if collection.get(c, 0) <= 0]
    rng.shuffle(fresh)
    grants = fresh[:missing]
    while len(grants) < missing:
        grants.append(rng.choice(pool))
    return sorted(grants)


def random_hand(collection: Mapping[str, int], seed: str, *labels: object) -> list[str]:
    """Five cards drawn at random from a collection (the *Mano mezclada* rule).

    Every owned copy is one ticket, so a card owned twice is twice as likely. Raises
    ``ValueError`` if the collection holds fewer than 5 cards.
    """
    tickets = [cid for cid in sorted(collection) for _ in range(max(0, collection[cid]))]
    if len(tickets) < HAND_SIZE:
        raise ValueError("collection holds fewer than 5 cards")
    rng = rng_for(seed, "random_hand", *labels)
    return rng.sample(tickets, HAND_SIZE)


# ----- computer decks --------------------------------------------------------------------------

# The catalogue levels each computer difficulty draws its deck from (its "per-level" decks).
CPU_DECK_LEVELS: dict[str, tuple[int, ...]] = {
    "easy": (1, 2, 3),
    "normal": (3, 4, 5),
    "hard": (5, 6, 7, 8),
}


def deck_for_level(level: int, seed: str, *labels: object) -> list[str]:
    """A 5-card deck of catalogue level ``level`` (1-10) with at most one card from level+1.

    Pure and seeded: the same seed and labels give the same deck.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be 1-10, got {level}")
    rng = rng_for(seed, "deck_for_level", level, *labels)
    cards = rng.sample(ids_of_levels((level,)), HAND_SIZE - 1)
    upper = ids_of_levels((min(10, level + 1),))
    extra = [c for c in upper if c not in cards]
    cards.append(rng.choice(extra))
    return cards


def cpu_deck(difficulty: str, seed: str, *labels: object) -> list[str]:
    """The computer's 5 cards for a difficulty (``easy``/``normal``/``hard``), from the catalogue.

    One card from each of the difficulty's levels (low to high), then the rest from its middle.
    """
    levels = CPU_DECK_LEVELS[difficulty]
    rng = rng_for(seed, "cpu_deck", difficulty, *labels)
    picked: list[str] = []
    for lv in levels:
        picked.append(rng.choice([c for c in ids_of_levels((lv,)) if c not in picked]))
    pool = [c for c in ids_of_levels(levels[: max(1, len(levels) - 1)]) if c not in picked]
    while len(picked) < HAND_SIZE:
        choice = rng.choice(pool)
        pool.remove(choice)
        picked.append(choice)
    return picked


# The computer's handicap against the player's five: the sum of its card levels minus the sum
# of the player's (easy plays weaker cards, normal the same strength, only hard stronger).
MATCH_OFFSET: dict[str, int] = {"easy": -3, "normal": 0, "hard": 5}


def matched_levels(difficulty: str, opponent_levels: list[int]) -> list[int]:
    """The five card levels of the computer's deck against a player whose five cards have
    ``opponent_levels``: their total plus ``MATCH_OFFSET[difficulty]`` (kept within 5-50),
    spread as evenly as it goes, highest first."""
    if len(opponent_levels) != HAND_SIZE:
        raise ValueError(f"expected {HAND_SIZE} levels, got {len(opponent_levels)}")
    total = sum(opponent_levels) + MATCH_OFFSET[difficulty]
    total = max(HAND_SIZE * LEVELS[0], min(HAND_SIZE * LEVELS[-1], total))
    base, extra = divmod(total, HAND_SIZE)
    return [base + 1 if i < extra else base for i in range(HAND_SIZE)]


def collection_levels(collection: Mapping[str, int]) -> list[int]:
    """Five levels standing for a collection's strength (its mean card level, spread over five
    cards): what the computer matches when the player's five are drawn at random."""
    levels = [card(cid).level for cid, q in collection.items() for _ in range(max(0, q))]
    if not levels:
        return [TOP_UP_LEVEL] * HAND_SIZE
    total = round(sum(levels) * HAND_SIZE / len(levels))
    base, extra = divmod(total, HAND_SIZE)
    return [base + 1 if i < extra else base for i in range(HAND_SIZE)]


def matched_deck(
    difficulty: str, opponent_levels: list[int], seed: str, *labels: object
) -> list[str]:
    """The computer's five distinct cards against a player's five (``matched_levels``): at
    ``normal`` the same total level, at ``easy`` lower, at ``hard`` higher. Pure and seeded."""
    rng = rng_for(seed, "matched_deck", difficulty, *labels)
    picked: list[str] = []
    for lv in matched_levels(difficulty, opponent_levels):
        picked.append(rng.choice([c for c in ids_of_levels((lv,)) if c not in picked]))
    return picked
