"""What one seat of Maquiavelo may see, built from the state by ``build_view``; the outcome."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core import Event, Outcome, PlayerView
from games.core.engine import TURN
from games.core.fast import trusted
from games.maquiavelo.cards import card, hand_value, pretty
from games.maquiavelo.options import Options
from games.maquiavelo.solver import meld_kind
from games.maquiavelo.state import MaquiaveloState


class CardView(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int  # 0..103, what Play actions carry
    code: str  # "QH", "10S"
    pretty: str  # "Q♥", "10♠"
    rank: int  # 1..13 (A=1)
    suit: str  # S H D C

    @staticmethod
    def of(card_id: int) -> CardView:
        """The card's view, one shared (frozen) instance per card."""
        return _card_view(card_id)


@cache  # 104 cards; a view shows up to ~100 of them on every build
def _card_view(card_id: int) -> CardView:
    c = card(card_id)
    return CardView(id=card_id, code=c.code, pretty=pretty(card_id), rank=c.rank, suit=c.suit)


class MeldView(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["set", "run"]
    cards: list[CardView]  # display order (runs ascending, the high ace last)


def meld_view(meld: list[int]) -> MeldView:
    return _meld_view(tuple(meld))


# A table's melds change one or two a move while every view shows them all (the kind is a search
# of the meld's ranks and suits): one shared, frozen view per meld, its card list never changed.
@lru_cache(maxsize=4096)
def _meld_view(meld: tuple[int, ...]) -> MeldView:
    kind = meld_kind([c % 52 for c in meld])
    return trusted(
        MeldView,
        {"kind": "set" if kind == "set" else "run", "cards": [_card_view(c) for c in meld]},
    )


class MaquiaveloView(PlayerView):
    hand: list[CardView] | None = None  # only the viewing seat's own hand; None for the public
    table: list[MeldView] = []
    helpers: list[CardView] = []
    stock_count: int = 0
    hand_counts: dict[str, int] = {}
    turn: str | None = Field(default=None, validation_alias=TURN)  # None once finished
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


class MaquiaveloOutcome(Outcome):
    """The outcome, with what the result message tells: why the game ended and every hand."""

    reason: Literal["out", "blocked"] | None = None  # always set once the game is finished
    hand_counts: dict[str, int] = {}
    hand_values: dict[str, int] = {}


def build_view(state: MaquiaveloState, seat: str | None) -> MaquiaveloView:
    own = seat is not None and seat in state.hands
    to_act = [] if state.finished else [state.seats[state.turn]]
    acting = own and seat in to_act
    # Built with ``trusted`` (no validation: every value comes from the state, with the field's
    # type; ``tests/games/test_contract.py`` checks a view is what validating its JSON gives).
    return trusted(
        MaquiaveloView,
        {
            "seat": seat,
            "version": state.version,
            "seats": list(state.seats),
            "to_act": to_act,
            "finished": state.finished,
            "hand": [_card_view(c) for c in state.hands[seat]]
            if own and seat is not None
            else None,
            "table": [meld_view(m) for m in state.table],
            "helpers": [_card_view(c) for c in state.helpers],
            "stock_count": len(state.stock),
            "hand_counts": {s: len(h) for s, h in state.hands.items()},
            "turn": None if state.finished else state.seats[state.turn],
            "dealer": state.seats[state.dealer],
            "passes": state.passes,
            "options": state.options,
            "can_draw": acting and bool(state.stock),
            "can_pass": acting and not state.stock,
            "last_play": list(state.last_play),
            # (read from the newest back: the log as a list was most of a public view)
            "last_events": state.latest_visible(seat, state.log_size),
            "winners": list(state.winners),
            "end_reason": state.end_reason,
            "hand_values": (
                {s: hand_value(h) for s, h in state.hands.items()} if state.finished else {}
            ),
        },
    )
