"""A tiny game for testing the table service without a real card game.

Players take 1 or 2 from a pile in turn; whoever takes the last wins. The pile size comes from
the seed, so replays must reproduce it.
"""

from __future__ import annotations

import random
from typing import ClassVar

from pydantic import BaseModel, Field

from games.core import (
    Action,
    ActionCodec,
    Event,
    Game,
    GameState,
    IllegalAction,
    Outcome,
    PlayerView,
    rng_for,
)


class ToyOptions(BaseModel):
    pile: int = Field(default=0, ge=0, le=50)  # 0: drawn from the seed


class Take(Action):
    verb: ClassVar[str] = "t"
    n: int = Field(ge=1, le=2)


class ToyState(GameState):
    pile: int
    turn: int = 0
    winner: str | None = None


class ToyView(PlayerView):
    pile: int


class ToyGame(Game[ToyState, Take, ToyView, ToyOptions]):
    key: ClassVar[str] = "toy"
    names: ClassVar[dict[str, str]] = {"es": "Juguete", "en": "Toy"}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_model: ClassVar[type[BaseModel]] = ToyOptions
    state_model: ClassVar[type[GameState]] = ToyState
    action_codec: ClassVar[ActionCodec[Take]] = ActionCodec(Take)

    def new(self, seats, seed, options=None):
        self.check_player_count(seats)
        opts = self.parse_options(options)
        pile = opts.pile or rng_for(seed, "pile").randint(10, 30)
        return ToyState(seed=seed, seats=list(seats), pile=pile)

    def to_act(self, state):
        return set() if state.winner else {state.seats[state.turn]}

    def legal_actions(self, state, seat):
        if state.winner or seat != state.seats[state.turn]:
            return []
        return [Take(n=n) for n in (1, 2) if n <= state.pile]

    def _apply(self, state, seat, action):
        if seat != state.seats[state.turn]:
            raise IllegalAction("not_your_turn")
        if action.n > state.pile:
            raise IllegalAction("bad_action")
        state.pile -= action.n
        if state.pile == 0:
            state.winner = seat
        else:
            state.turn = (state.turn + 1) % len(state.seats)
        return [Event(code="took", seat=seat, params={"n": action.n})]

    def view(self, state, seat):
        return ToyView(
            seat=seat,
            version=state.version,
            seats=state.seats,
            to_act=sorted(self.to_act(state)),
            finished=bool(state.winner),
            pile=state.pile,
        )

    def outcome(self, state):
        if not state.winner:
            return None
        others = [s for s in state.seats if s != state.winner]
        return Outcome(ranking=[[state.winner], others], points={state.winner: len(others)})

    def choose_action(self, view, legal, level, rng: random.Random):
        if not legal:
            return None
        best = [a for a in legal if (view.pile - a.n) % 3 == 0]
        return best[0] if best and level != "easy" else rng.choice(legal)


TOY = ToyGame()
