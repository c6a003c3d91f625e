"""Read-only questions about the turn: who acts, where a series may go, which MACAS may move.

Shared by ``rules.py`` (legality) and ``view.py`` (what a seat is shown), so neither imports
the other for them.
"""

from __future__ import annotations

from games.macarena.state import POZOS, MacarenaState

TURN_PHASES = ("draw", "play", "move_maca")


def to_act(state: MacarenaState) -> set[str]:
    if state.phase in TURN_PHASES:
        return {state.seats[state.turn]}
    if state.phase == "penalty":
        return set(state.penalty_pending)
    if state.phase == "buy":
        return set(state.buy_pending)
    return set()


def may_play_on(state: MacarenaState, seat: str, pozo: int) -> bool:
    """Whether ``seat`` may lay a series on ``pozo`` now (ignoring which cards it holds)."""
    if state.phase != "play" or state.seats[state.turn] != seat:
        return False
    owners = state.macas[pozo]
    return state.espejo_turn or not owners or seat in owners


def maca_sources(state: MacarenaState) -> list[int]:
    """Pozos the current player may move a MACA from onto the espejo's pozo."""
    if state.phase != "move_maca" or state.maca_target is None:
        return []
    seat = state.seats[state.turn]
    return [i for i in range(POZOS) if i != state.maca_target and state.macas[i].get(seat, 0) > 0]
