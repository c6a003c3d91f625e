"""What one seat (or the public, ``seat=None``) may see of a Macarena state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.macarena.elements import ELEMENTS, sort_key
from games.macarena.options import amulets_target
from games.macarena.series import may_play_on
from games.macarena.state import (
    MACAS_PER_PLAYER,
    MacarenaState,
    MacarenaView,
    PlayerInfo,
    PozoView,
)

if TYPE_CHECKING:
    from games.macarena.game import MacarenaGame

VIEW_EVENTS = 20


def collections_revealed(state: MacarenaState) -> bool:
    """The current hand's collections are shown to all (awards given, hand not yet redealt)."""
    r = state.hand_result
    return r is not None and r.revealed and r.hand == state.hand_number


def build_view(game: MacarenaGame, state: MacarenaState, seat: str | None) -> MacarenaView:
    in_game = seat in state.seats
    revealed = collections_revealed(state)
    players = []
    for i, s in enumerate(state.seats):
        t = state.tokens[s]
        active = sum(m.get(s, 0) for m in state.macas)
        players.append(
            PlayerInfo(
                seat=s,
                colour=i,
                hand_count=len(state.hands[s]),
                collection_count=(len(state.collections[s]) if (s == seat or revealed) else None),
                coins=t.coins,
                elements=list(t.elements),
                amulets=t.amulets,
                active_macas=active,
                macas_left=MACAS_PER_PLAYER - active,
                current=state.phase in ("draw", "play", "move_maca") and i == state.current,
            )
        )
    pozos = [
        PozoView(
            index=i,
            top=pile[-1],
            size=len(pile),
            macas=dict(state.macas[i]),
            enchanted=bool(state.macas[i]),
            shared=len(state.macas[i]) >= 2,
            playable=in_game and may_play_on(state, seat, i),  # type: ignore[arg-type]
        )
        for i, pile in enumerate(state.pozos)
    ]
    view = MacarenaView(
        seat=seat,
        version=state.version,
        seats=list(state.seats),
        to_act=sorted(game.to_act(state), key=state.seats.index),
        finished=state.phase == "over",
        hand_number=state.hand_number,
        phase=state.phase,
        current=(
            state.seats[state.current] if state.phase in ("draw", "play", "move_maca") else None
        ),
        espejo_turn=state.espejo_turn,
        starter=state.seats[state.starter],
        stock_count=len(state.stock),
        amulets_to_win=amulets_target(state.options, len(state.seats)),
        pozos=pozos,
        players=players,
        last_events=[e for e in state.log if e.visible_to(seat)][-VIEW_EVENTS:],
        hand_result=state.hand_result if state.hand_result and state.hand_result.revealed else None,
        ending=(
            state.hand_result.reason
            if state.phase == "penalty" and state.hand_result is not None
            else None
        ),
        penalty_waiting=list(state.penalty_pending),
        buy_waiting=list(state.buy_pending),
        winners=list(state.winners),
        macarena=state.macarena,
    )
    if in_game:
        assert seat is not None
        view.hand = sorted(state.hands[seat], key=sort_key)
        view.collection = sorted(state.collections[seat], key=sort_key)
        if state.phase == "play" and state.seats[state.current] == seat:
            view.drawn = state.drawn
        if state.phase == "move_maca" and state.seats[state.current] == seat:
            view.choice = "move_maca"
            view.maca_target = state.maca_target
            view.maca_sources = game.maca_sources(state)
        elif state.phase == "penalty" and seat in state.penalty_pending:
            view.choice = "give_element"
            view.give_choices = [e for e in ELEMENTS if e in state.tokens[seat].elements]
        elif state.phase == "buy" and seat in state.buy_pending:
            view.choice = "buy_element"
            view.buy_choices = [e for e in ELEMENTS if e not in state.tokens[seat].elements]
    return view
