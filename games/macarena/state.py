"""The Macarena game state: a whole multi-hand match (the view models are in view.py)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.cards import PlayingCard
from games.core.engine import TURN
from games.core.eventlog import LoggedState, OldCodes
from games.core.fast import plain_assignment
from games.macarena.elements import Element
from games.macarena.options import Options

Phase = Literal["draw", "play", "move_maca", "penalty", "buy", "over"]
EndReason = Literal["stock_empty", "went_out"]
POZOS = 7
MACAS_PER_PLAYER = 7
MAX_MACAS_PER_POZO = 7
LOG_SIZE = 40  # events kept in the state for the views' "last moves"


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


# The event codes of rows stored before the five games shared one code per shared event
# (session 12, issue 26); ``games.core.eventlog`` renames them on load.
OLD_EVENT_CODES: OldCodes = {
    "hand_started": "round_started",
    "draw": "drew",
    "draw_card": "drew_card",
    "play": "played",
    "pass": "passed",
}


@plain_assignment
class MacarenaState(LoggedState):
    """A whole match, secrets included; the latest events are its log (``LoggedState``)."""

    log_size: ClassVar[int] = LOG_SIZE
    log_old_codes: ClassVar[OldCodes] = OLD_EVENT_CODES
    # Its ~100 cards are written by orjson (``games.core.statejson``): pydantic's serializer of
    # a nested model took ~0.2 us a card
    dump_by_orjson: ClassVar[bool] = True
    # Its card lists are copy-on-write (``rules.copy_state``): a list is replaced, never changed
    # in place, so its stored JSON is written once (``games.core.statejson.KeptCards``)
    card_lists_shared: ClassVar[bool] = True
    options: Options = Field(default_factory=Options)
    hand_number: int = 1
    starter: int  # index in seats of this hand's first player
    turn: int = Field(validation_alias=TURN)  # index in seats of the player whose turn it is
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
    winners: list[str] = Field(default_factory=list)
    macarena: str | None = None
    macarenas_count: dict[str, int] = Field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """Whether the game has ended (every state answers ``finished``; here the phase machine's
        last phase, ``over``, says it)."""
        return self.phase == "over"
