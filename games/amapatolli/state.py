"""The full (secret) game state."""

from __future__ import annotations

from typing import ClassVar, Literal

from games.amapatolli.cards import Colour
from games.amapatolli.options import Options
from games.core.eventlog import LoggedState, OldCodes
from games.core.fast import plain_assignment

LOG_SIZE = 12  # events kept in the state for the views' "last moves"

# The event codes of rows stored before the five games shared one code per shared event
# (session 12, issue 26); ``games.core.eventlog`` renames them on load.
OLD_EVENT_CODES: OldCodes = {
    "start": "dealt",
    "tlapiani_returned": "first_card_returned",
    "play": "played",
    "colour_named": "colour_chosen",
    "reverse": "reversed",
    "draw": "drew",
    "drew": ("drew", "drew_card"),  # the old ``drew`` was the private card (today's ``drew``
    "pass": "passed",  # is the public draw, which was ``draw``)
    "ce": "announced",
    "callout": "caught",
    "penalty": "penalty_cards",
    "won": "game_won",
}


@plain_assignment
class AmapatolliState(LoggedState):
    """Everything, including the secrets. Seats are referred to by index internally. The latest
    events (public and private) are its log (``LoggedState``)."""

    log_size: ClassVar[int] = LOG_SIZE
    log_old_codes: ClassVar[OldCodes] = OLD_EVENT_CODES

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
