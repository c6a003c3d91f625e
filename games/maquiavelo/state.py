"""Maquiavelo state: everything the rules need, secrets included (views hide them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from games.core import Event, GameState
from games.core.engine import TURN
from games.core.fast import plain_assignment
from games.maquiavelo.options import Options

LOG_SIZE = 12


@plain_assignment
class MaquiaveloState(GameState):
    options: Options
    dealer: int
    turn: int = Field(validation_alias=TURN)  # index in seats of the player whose turn it is
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
