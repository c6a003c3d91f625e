"""Rebuild a game from its seed, options, setup and action log (history, determinism)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.service.models import split_options
from games.core import Game, GameState
from storage import ActionRow, TableRecord


def rebuild(game: Game, record: TableRecord, actions: Iterable[ActionRow]) -> GameState:
    state = game.new(
        [s.id for s in record.seats],
        record.seed,
        split_options(record.options)[0],
        **record.meta.get("setup", {}),
    )
    for row in actions:
        state, _ = game.apply(state, row.seat, game.decode_action(row.action))
    return state
