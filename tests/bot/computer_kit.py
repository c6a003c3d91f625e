"""A playing table of computer seats around a game state, for tests of the computer turns'
searches (``bot/service/cpu.py``) without a database."""

from __future__ import annotations

from typing import Any

from bot.service.models import Table
from storage import TableRecord

# Seat ids and levels, in seat order: a test takes as many as its state seats.
SEATS = ("cpu1", "cpu2", "cpu3")
LEVELS = ("normal", "easy", "hard")


def computer_table(key: str, game: Any, state: Any) -> Table:
    """Table 1 of ``game`` at ``state``, every seat of the state a computer (``SEATS``, at
    ``LEVELS``)."""
    players = len(state.seats)
    record = TableRecord(
        id=1,
        guild_id="g",
        channel_id="c",
        game=key,
        status="playing",
        host_id=SEATS[0],
        locale="es",
        options={},
        seats=[
            {"id": seat, "name": seat.upper(), "cpu_level": level}
            for seat, level in zip(SEATS[:players], LEVELS, strict=False)
        ],
        seed=state.seed,
    )
    return Table(record=record, game=game, state=state)
