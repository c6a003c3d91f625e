"""The full (secret) game state and the per-seat view."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.amapatolli.cards import Colour
from games.amapatolli.options import Options
from games.core import Event, GameState, PlayerView
from games.core.engine import Seat


class AmapatolliState(GameState):
    """Everything, including the secrets. Seats are referred to by index internally."""

    options: Options = Options()
    hands: list[list[str]]
    stock: list[str]  # face down; the top is the last element
    pile: list[str]  # played cards; the last one is the card in force
    margin: Colour  # colours in force (a Tlapiāni: both the named colour)
    background: Colour
    named_colour: Colour | None = None  # set while a Tlapiāni is the last card
    turn: int = 0
    direction: Literal[1, -1] = 1  # 1 = clockwise (increasing seat index)
    skip_pending: bool = False  # the player at turn faces a bird: answer with one or lose the turn
    skip_next: bool = False  # a skip card was played this turn: the next player will face it
    double_play: bool = False  # the player at turn must play another card
    drawn: int = 0  # cards drawn in the current step of the turn
    passes: int = 0  # players in a row who could not play with the stock empty
    ce_window: int | None = None  # seat holding one card, not yet announced, still catchable
    announced: list[bool]
    inverse_used: list[bool]
    finished: bool = False
    winner: int | None = None
    end_reason: Literal["out", "blocked"] | None = None
    log: list[Event] = []  # the latest events (public and private), newest last


class CardView(BaseModel):
    """A card as presenters see it. ``name`` is the day sign / Tlapiāni name (Nahuatl)."""

    model_config = ConfigDict(frozen=True)

    id: str
    sign: int  # 1-20; 0 for a Tlapiāni
    name: str
    value: int
    margin: Colour
    background: Colour
    wild: bool = False  # a Tlapiāni
    bird: bool = False  # a bird (Cuauhtli or Cozcacuauhtli) with birds in play
    skips: bool = False  # makes the next player lose their turn (birds; Tochtli with powers)
    reverses: bool = False  # reverses the order (Tlapiāni; Ollin with powers)


class AmapatolliView(PlayerView):
    """What one seat (or the public, ``seat=None``) may see."""

    options: Options
    hand: list[CardView]  # this seat's cards; empty in the public view
    playable: list[str]  # ids of this seat's cards that can be played right now
    hand_counts: dict[Seat, int]
    announced: dict[Seat, bool]  # said "Ce" for the single card they hold
    top: CardView  # the last card played
    margin: Colour  # colours in force
    background: Colour
    named_colour: Colour | None  # colour named with the Tlapiāni on top
    turn: Seat | None
    next_seat: Seat | None  # who plays after the current turn (ignoring skips)
    direction: Literal[1, -1]
    skip_pending: bool  # ``turn`` faces a bird: answer with a bird or accept the skip
    skip_next: bool  # a bird was played this turn: the next player will face it
    double_play: bool  # ``turn`` must play another card
    drawn_this_turn: int
    stock_count: int
    pile_count: int
    passes_in_row: int
    ce_window: Seat | None  # holds one card unannounced: may announce / be called out
    inverse_used: dict[Seat, bool]
    last_events: list[Event]
    end_reason: Literal["out", "blocked"] | None = None
    winners: list[Seat] = []
    hand_values: dict[Seat, int] | None = None  # revealed when the game is over
