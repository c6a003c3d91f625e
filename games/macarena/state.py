"""The Macarena game state (a whole multi-hand match) and the per-seat view models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core import Event, GameState, PlayerView
from games.core.cards import PlayingCard
from games.macarena.elements import Element
from games.macarena.options import Options

Phase = Literal["draw", "play", "move_maca", "penalty", "buy", "over"]
EndReason = Literal["stock_empty", "went_out"]
POZOS = 7
MACAS_PER_PLAYER = 7
MAX_MACAS_PER_POZO = 7
LOG_SIZE = 40


class Tokens(BaseModel):
    """A player's persistent tokens (they carry over from hand to hand)."""

    model_config = ConfigDict(extra="forbid")

    coins: int = 0
    elements: list[Element] = Field(default_factory=list)  # at most one of each
    amulets: int = 0


class SeatResult(BaseModel):
    """What one player showed, lost and won at the end of a hand."""

    model_config = ConfigDict(extra="forbid")

    hand_count: int
    penalized: bool = False
    gave_element: Element | None = None
    gave_coins: int = 0
    collection: list[PlayingCard] = Field(default_factory=list)
    coins_macas: int = 0
    coins_collection: int = 0
    coins_went_out: int = 0
    coins_duplicates: int = 0
    elements_won: list[Element] = Field(default_factory=list)
    duplicates: list[Element] = Field(default_factory=list)
    bought: list[Element] = Field(default_factory=list)
    amulets_won: int = 0


class HandResult(BaseModel):
    """The end of one hand. ``revealed`` turns true once the collections are shown (awards)."""

    model_config = ConfigDict(extra="forbid")

    hand: int
    reason: EndReason
    went_out: str | None = None
    revealed: bool = False
    seats: dict[str, SeatResult]
    largest_collection: list[str] = Field(default_factory=list)
    element_winners: dict[str, str | None] = Field(default_factory=dict)


class MacarenaState(GameState):
    options: Options = Field(default_factory=Options)
    hand_number: int = 1
    starter: int  # index in seats of this hand's first player
    current: int  # index in seats of the player whose turn it is
    phase: Phase = "draw"
    espejo_turn: bool = False
    stock: list[PlayingCard]  # drawn from the end
    pozos: list[list[PlayingCard]]  # bottom .. top
    macas: list[dict[str, int]]  # per pozo: owner seat -> MACAS there
    hands: dict[str, list[PlayingCard]]
    collections: dict[str, list[PlayingCard]]
    drawn: PlayingCard | None = None  # the card the current player drew this turn
    maca_target: int | None = None  # pozo of the espejo waiting for a MACA move
    tokens: dict[str, Tokens]
    penalty_pending: list[str] = Field(default_factory=list)
    buy_pending: list[str] = Field(default_factory=list)
    hand_result: HandResult | None = None
    log: list[Event] = Field(default_factory=list)
    winners: list[str] = Field(default_factory=list)
    macarena: str | None = None
    macarenas_count: dict[str, int] = Field(default_factory=dict)


# ----- views ---------------------------------------------------------------------------------


class PozoView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int  # 0–6 (shown as 1–7)
    top: PlayingCard
    size: int
    macas: dict[str, int]  # owner seat -> active MACAS on this pozo
    enchanted: bool
    shared: bool  # enchanted by two or more players
    playable: bool  # the viewing seat may play here now (its turn, play phase, allowed)


class PlayerInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: str
    colour: int  # 0–4, index into the presenter's palette (catalogue macarena.colour.N)
    hand_count: int
    collection_count: int | None  # own seat, or everyone once a hand's collections are shown
    coins: int
    elements: list[Element]
    amulets: int
    active_macas: int
    macas_left: int  # MACAS still in front of the player (7 - active)
    current: bool


class MacarenaView(PlayerView):
    hand_number: int
    phase: Phase
    current: str | None  # whose turn (draw / play / move_maca phases)
    espejo_turn: bool
    starter: str
    stock_count: int
    amulets_to_win: int
    pozos: list[PozoView]
    players: list[PlayerInfo]
    hand: list[PlayingCard] | None = None  # the viewing seat's hand, sorted
    collection: list[PlayingCard] | None = None  # the viewing seat's collection, sorted
    drawn: PlayingCard | None = None  # the card the viewing seat just drew
    choice: Literal["move_maca", "give_element", "buy_element"] | None = None
    maca_target: int | None = None
    maca_sources: list[int] = Field(default_factory=list)
    give_choices: list[Element] = Field(default_factory=list)
    buy_choices: list[Element] = Field(default_factory=list)
    last_events: list[Event] = Field(default_factory=list)  # public + the viewer's private
    hand_result: HandResult | None = None  # only once revealed (awards given)
    ending: EndReason | None = None  # set during the end-of-hand penalty (before the reveal)
    penalty_waiting: list[str] = Field(default_factory=list)
    buy_waiting: list[str] = Field(default_factory=list)
    winners: list[str] = Field(default_factory=list)
    macarena: str | None = None
