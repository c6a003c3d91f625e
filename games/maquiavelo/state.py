"""Maquiavelo state and views."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.core import Event, GameState, PlayerView
from games.maquiavelo.cards import card, pretty
from games.maquiavelo.options import Options
from games.maquiavelo.solver import meld_kind

LOG_SIZE = 12


class MaquiaveloState(GameState):
    options: Options
    dealer: int
    current: int
    hands: dict[str, list[int]]  # card ids, sorted by suit then rank
    stock: list[int]  # face down; the top is the last element
    helpers: list[int]  # face-up "ayuda" cards (empty without the variant)
    table: list[list[int]]  # melds of card ids, as arranged
    passes: int = 0  # consecutive passes since the stock ran out
    turns: int = 0
    finished: bool = False
    end_reason: Literal["out", "blocked"] | None = None
    winners: list[str] = []
    last_play: list[int] = []  # ids the last play put on the table (helpers included)
    log: list[Event] = []  # the most recent events, oldest first


class CardView(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int  # 0..103, what Play actions carry
    code: str  # "QH", "10S"
    pretty: str  # "Q♥", "10♠"
    rank: int  # 1..13 (A=1)
    suit: str  # S H D C

    @classmethod
    def of(cls, card_id: int) -> CardView:
        c = card(card_id)
        return cls(id=card_id, code=c.code, pretty=pretty(card_id), rank=c.rank, suit=c.suit)


class MeldView(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["set", "run"]
    cards: list[CardView]  # display order (runs ascending, the high ace last)


def meld_view(meld: list[int]) -> MeldView:
    kind = meld_kind([c % 52 for c in meld])
    return MeldView(kind=kind or "run", cards=[CardView.of(c) for c in meld])


class MaquiaveloView(PlayerView):
    hand: list[CardView] | None = None  # only the viewing seat's own hand; None for the public
    table: list[MeldView] = []
    helpers: list[CardView] = []
    stock_count: int = 0
    hand_counts: dict[str, int] = {}
    current: str | None = None  # whose turn (None once finished)
    dealer: str = ""
    passes: int = 0
    options: Options = Options()
    can_draw: bool = False  # the viewer is to act and the stock has cards
    can_pass: bool = False  # the viewer is to act and the stock is empty
    last_play: list[int] = []  # ids just added to the table (to highlight)
    last_events: list[Event] = []  # public ones, plus the viewer's private ones
    winners: list[str] = []
    end_reason: str | None = None
    hand_values: dict[str, int] = {}  # only once finished (values, never cards)

    def hand_by_suit(self) -> dict[str, list[CardView]]:
        """The viewer's hand grouped by suit (S H D C), each ascending: one select per suit."""
        groups: dict[str, list[CardView]] = {}
        for c in self.hand or []:
            groups.setdefault(c.suit, []).append(c)
        return groups

    def hand_groups(self, max_options: int = 25) -> list[tuple[str, list[CardView]]]:
        """(suit, cards) chunks of at most ``max_options`` cards, suit by suit: one select each.

        A suit holds at most 26 cards, so it splits in two only when it has 26; with more
        chunks than a message has rows for, the presenter pages them."""
        out: list[tuple[str, list[CardView]]] = []
        for suit, cards in self.hand_by_suit().items():
            parts = -(-len(cards) // max_options)
            size = -(-len(cards) // parts)
            out += [(suit, cards[k : k + size]) for k in range(0, len(cards), size)]
        return out

    def table_text(self) -> str:
        """The table as typed-arrangement text (``7♠ 7♥ 7♦ | 3♠ 4♠ 5♠``): a modal's default."""
        return " | ".join(" ".join(c.pretty for c in m.cards) for m in self.table)
