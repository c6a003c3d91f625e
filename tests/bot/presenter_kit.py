"""Shared scaffolding for presenter tests: a table around a bare game state, a stub service,
a text-only presenter and the components of a payload."""

from __future__ import annotations

from bot.service import Table
from games.core import Game, GameState
from storage import SeatInfo, TableRecord
from tests.message_text import clickable

# Seat ids that can't be mistaken for anything else in a text; names are what players read.
SEAT_IDS = [
    "seatid-alpha",
    "seatid-bravo",
    "seatid-charlie",
    "seatid-delta",
    "seatid-echo",
    "seatid-fox",
]
SEAT_NAMES = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede"]


class StubService:
    """The one thing payload builders ask the table service."""

    def turn_seconds(self, table) -> int:
        return 60


def text_presenter(presenter_cls, game: Game):
    """A presenter without images: those have their own tests; these check text and components."""
    presenter = presenter_cls(game)
    presenter._images = None
    return presenter


def table_for(game: Game, state: GameState, table_id: int) -> Table:
    seats = [
        SeatInfo(id=s, name=SEAT_NAMES[SEAT_IDS.index(s)] if s in SEAT_IDS else s)
        for s in state.seats
    ]
    record = TableRecord(
        id=table_id,
        guild_id="g",
        channel_id="c",
        game=game.key,
        status="playing",
        host_id=state.seats[0],
        locale="es",
        options={},
        seats=seats,
        seed=state.seed,
    )
    return Table(record=record, game=game, state=state)


def components(payload) -> list[dict]:
    return clickable(payload)
