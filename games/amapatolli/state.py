"""The full (secret) game state."""

from __future__ import annotations

from typing import ClassVar, Literal

from games.amapatolli.cards import Colour
from games.amapatolli.options import Options
from games.core.eventlog import LoggedState
from games.core.fast import plain_assignment

LOG_SIZE = 12  # events kept in the state for the views' "last moves"


@plain_assignment
class AmapatolliState(LoggedState):
    """Everything, including the secrets. Seats are referred to by index internally. The latest
    events (public and private) are its log (``LoggedState``)."""

    log_size: ClassVar[int] = LOG_SIZE

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
