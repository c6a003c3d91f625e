"""Provably fair deals, the bot's side: the seal a game stores when it starts, and the export
of a finished game that ``python -m games verify`` checks (the check: ``games/core/fairness``).

The seed is drawn from ``secrets`` when the lobby opens (``TableService``'s seed factory); the
salt from ``secrets`` when the game starts. Both stay in the database until the game is
finished: only the commitment is shown before (``bot/ui/fairness.py``).
"""

from __future__ import annotations

import secrets
from typing import Any

from bot.service.models import split_options
from bot.service.versions import engine_version
from games.core import Game
from games.core.fairness import SALT_HEX_DIGITS, SEAL_META, DealExport, Seal, digest, seal, seal_in
from storage import ActionRow, TableRecord

FAIR_META = SEAL_META  # meta key of a started table: its ``Seal``


def new_seal(game: Game, first_state: Any, seed: str) -> dict[str, Any]:
    """The ``meta[FAIR_META]`` of a game that starts with ``first_state``: a fresh random salt,
    the commitment to ``seed`` and the first deal's digest (stored in the start's transaction,
    before anything is shown)."""
    salt = secrets.token_hex(SALT_HEX_DIGITS // 2)
    return seal(game, first_state, seed, salt).model_dump()


def seal_of(record: TableRecord) -> Seal | None:
    """The table's stored seal; None for a table started before deals were sealed."""
    return seal_in(record.meta)


def deal_export(game: Game, record: TableRecord, actions: list[ActionRow]) -> DealExport | None:
    """A finished table as ``python -m games verify`` checks it; None while it is not finished
    (the seed stays secret) or when it has no seal."""
    sealed = seal_of(record)
    if record.status != "finished" or sealed is None or record.state is None:
        return None
    seats = [s.id for s in record.seats]
    options = split_options(record.options)[0]
    setup = dict(record.meta.get("setup") or {})
    first = game.dump_state(game.new(seats, record.seed, options, **setup))
    return DealExport(
        game=record.game,
        engine=engine_version(record.game),
        table=record.id,
        seats=seats,
        options=options,
        setup=setup,
        seed=record.seed,
        salt=sealed.salt,
        commitment=sealed.commitment,
        deal=sealed.deal,
        first_state=first,
        actions=[(a.seat, a.action) for a in actions],
        final=digest(game.dump_state(game.load_state(record.state))),
    )
