"""French playing cards for the two-deck games (Maquiavelo, Macarena).

A card's text form is rank + suit letter (``AS``, ``10H``, ``QD``); ``deck`` (0 or 1) tells the
two decks apart so conservation can be checked card by card. Symbols (``♠♥♦♣``) are accepted when
parsing.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from games.core.errors import BAD_ACTION, IllegalAction

SUITS = ("S", "H", "D", "C")  # spades, hearts, diamonds, clubs
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_NAME_TO_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13}


class PlayingCard(BaseModel):
    model_config = ConfigDict(frozen=True)

    rank: int = Field(ge=1, le=13)
    suit: str = Field(pattern="^[SHDC]$")
    deck: int = Field(default=0, ge=0, le=1)

    @property
    def rank_text(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def code(self) -> str:
        """Rank and suit, without the deck: ``QH``."""
        return f"{self.rank_text}{self.suit}"

    @property
    def pretty(self) -> str:
        return f"{self.rank_text}{SUIT_SYMBOLS[self.suit]}"

    def same_face(self, other: PlayingCard) -> bool:
        return self.rank == other.rank and self.suit == other.suit

    # pydantic's equality and hash, for a card's three fields in plain Python: hands are
    # searched and cards removed from them on every move of a playout (``list.remove`` calls
    # ``__eq__`` on every card before the one it removes)
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented if not isinstance(other, BaseModel) else False
        d, o = self.__dict__, other.__dict__
        return d["rank"] == o["rank"] and d["suit"] == o["suit"] and d["deck"] == o["deck"]

    def __hash__(self) -> int:
        d = self.__dict__
        return hash((d["rank"], d["suit"], d["deck"]))

    def __str__(self) -> str:
        return self.code


@lru_cache(maxsize=2048)
def parse_card(text: str, deck: int = 0) -> PlayingCard:
    """Parse ``AS``, ``10h``, ``q♦`` or ``T♣`` (T for ten). Raises ``IllegalAction`` if invalid.

    Cards are frozen values, so one instance per text serves every caller (the rules parse the
    same few card texts on every move; a refused text raises every time, nothing is cached)."""
    t = text.strip().upper()
    if len(t) < 2:
        raise IllegalAction(BAD_ACTION, text=text)
    suit = _SYMBOL_TO_SUIT.get(t[-1], t[-1])
    rank_part = t[:-1]
    if suit not in SUITS:
        raise IllegalAction(BAD_ACTION, text=text)
    if rank_part in _NAME_TO_RANK:
        rank = _NAME_TO_RANK[rank_part]
    elif rank_part == "T":
        rank = 10
    elif rank_part.isdigit() and 2 <= int(rank_part) <= 10:
        rank = int(rank_part)
    else:
        raise IllegalAction(BAD_ACTION, text=text)
    return PlayingCard(rank=rank, suit=suit, deck=deck)


# The 104 cards of ``two_decks``: frozen values, so every deal shares these instances, and each
# one's stored JSON is written once (``card_json``: a state's dump writes ~100 cards a move).
_TWO_DECKS = tuple(
    PlayingCard(rank=r, suit=s, deck=d) for d in (0, 1) for s in SUITS for r in range(1, 14)
)
# (public for ``games.core.statejson``'s list of cards: looked up by id in a C loop)
CARD_JSON = {id(c): c.model_dump_json().encode() for c in _TWO_DECKS}
_JSON_BY_VALUE = {(c.rank, c.suit, c.deck): CARD_JSON[id(c)] for c in _TWO_DECKS}


def two_decks() -> list[PlayingCard]:
    """104 cards: every rank of every suit twice, in a fixed order."""
    return list(_TWO_DECKS)


def card_json(card: PlayingCard) -> bytes:
    """``card.model_dump_json()`` as bytes: kept for the shared cards of ``two_decks``, looked
    up by value for any other (a loaded state's)."""
    found = CARD_JSON.get(id(card))
    if found is not None:
        return found
    d = card.__dict__
    found = _JSON_BY_VALUE.get((d["rank"], d["suit"], d["deck"]))
    return card.model_dump_json().encode() if found is None else found
