"""The full (secret) game state. Round-trips through JSON exactly.

Two states may share containers (``rules.copy_state`` is copy-on-write): the rules replace a
container they change instead of mutating it, so an old state stays unchanged after ``apply``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from games.chupate2.cards import DECK
from games.chupate2.options import Options
from games.core import Event, GameState
from games.core.engine import Seat
from games.core.fast import plain_assignment, share_fields_set

# Turn phases of the seat ``current``:
#   colour     the starting player names the colour of a first-card Comodín
#   play       play a matching card or draw one
#   drawn      the card just drawn is playable: play it (that card only) or pass
#   penalty    a Chúpate 2 stack is pending: stack or take it all and lose the turn
#   challenge  a +4 was played on this seat: "¡Mentira!", accept (take), or stack (variant)
#   swap       this seat played a 7 (variant ``seven_o``): it names the seat to swap hands with
#   over       the game has ended
Phase = Literal["colour", "play", "drawn", "penalty", "challenge", "swap", "over"]


class PlusFour(BaseModel):
    """The +4 waiting for its victim's answer. ``hand`` is secret (only a challenger sees it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    by: Seat
    legal: bool
    prev_colour: str
    hand: list[str]
    pending_before: int = 0


class Reveal(BaseModel):
    """The one-off challenge reveal: the +4 player's hand shown to the challenger alone."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    to: Seat
    of: Seat
    cards: list[str]
    legal: bool


class RoundResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    winner: Seat
    team: int | None = None
    points: int
    left: dict[Seat, int]  # points left in each hand at the end of the round
    cards_left: dict[Seat, int]


class Signals(BaseModel):
    """Public table talk a good player remembers about one seat (what everybody saw).

    ``lacks``: colours in force when the seat drew or took a penalty instead of playing, since
    it last played that colour. ``named``: the colour it last named with a wild.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    lacks: list[str] = Field(default_factory=list)
    named: str | None = None


@plain_assignment
class Chupate2State(GameState):
    options: Options
    round: int = 1
    dealer: int
    starter: int
    hands: dict[Seat, list[str]]
    stock: list[str]  # top of the stock = last element
    discard: list[str]  # top of the discard pile = last element
    colour: str | None  # colour in force (None while a first-card Comodín waits for its colour)
    direction: int = -1  # +1 clockwise (increasing seat index), -1 counter-clockwise
    current: int
    phase: Phase
    pending: int = 0  # cards the seat ``current`` must draw unless it stacks / challenges
    drawn: str | None = None  # the playable card just drawn (phase ``drawn``)
    plus4: PlusFour | None = None
    reveal: Reveal | None = None
    shuffles: int = 0  # how many reshuffles happened (labels of the seeded shuffles)
    scores: dict[Seat, int] = Field(default_factory=dict)  # points game, per seat
    team_scores: list[int] = Field(default_factory=list)  # points game, per team
    results: list[RoundResult] = Field(default_factory=list)
    called: list[Seat] = Field(default_factory=list)  # "¡Última!" declared (variant)
    # down to one card without calling (variant), in the order they were exposed; each may be
    # caught until their own next action or draw
    exposed: list[Seat] = Field(default_factory=list)
    signals: dict[Seat, Signals] = Field(default_factory=dict)
    log: list[Event] = Field(default_factory=list)  # the most recent events ...
    log_versions: list[int] = Field(default_factory=list)  # ... and the version each produced

    @model_validator(mode="after")
    def _shared_parts(self) -> Chupate2State:
        """A loaded state holds the deck's own card strings (not 108 copies of them) and the
        shared field sets of its models: a third of the memory of a plain load."""
        card = _CARD
        self.hands = {s: [card.get(c, c) for c in h] for s, h in self.hands.items()}
        self.stock = [card.get(c, c) for c in self.stock]
        self.discard = [card.get(c, c) for c in self.discard]
        for part in (self, self.options, *self.log, *self.signals.values(), *self.results):
            share_fields_set(part)
        return self

    @field_validator("exposed", mode="before")
    @classmethod
    def _one_exposed_seat(cls, value: object) -> object:
        """States stored when only one seat could be exposed hold that seat or ``null``."""
        if value is None:
            return []
        if isinstance(value, str):
            return [value]
        return value


_CARD: dict[str, str] = {c: c for c in DECK}  # card id -> the deck's own string for it
