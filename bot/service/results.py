"""What a finished game changes outside it: standings deltas, card transfers, and the record
of the game with its ratings (``bot/service/ratings.py``), all in the final transaction."""

from __future__ import annotations

from typing import Any

from bot.service.models import Table, is_human_id
from bot.service.ratings import finished_table, rate
from games.core import Outcome
from storage import CardTransfer, StandingDelta


def standing_deltas(table: Table, outcome: Outcome) -> list[StandingDelta]:
    """One delta per human seat (a human replaced by the computer still counts)."""
    winners = set(outcome.winners)
    team_winners = set(outcome.team_winners)
    everyone_tied = outcome.is_draw
    return [
        StandingDelta(
            user_id=s.id,
            won=int(s.id in winners and not everyone_tied),  # a draw is no win
            points=int(outcome.points.get(s.id, 0)),
            team_won=int(s.id in team_winners),
            stats={k: int(v) for k, v in (outcome.stats.get(s.id) or {}).items() if v}
            | ({"draws": 1} if everyone_tied else {}),
        )
        for s in table.record.seats
        if is_human_id(s.id)
    ]


def card_transfers(outcome: Outcome) -> list[CardTransfer]:
    """The outcome's card transfers; a computer side has no collection (``None``)."""
    return [
        CardTransfer(
            card_id=t.card,
            from_user=t.giver if is_human_id(t.giver) else None,
            to_user=t.receiver if is_human_id(t.receiver) else None,
        )
        for t in outcome.transfers
    ]


def finished_record(table: Table, outcome: Outcome) -> dict[str, Any]:
    """The ``record_action`` arguments that store the finished game and rate it."""
    return {"finished_game": finished_table(table, outcome), "rate": rate}
