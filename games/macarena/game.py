"""The Macarena engine (game key ``macarena``): the whole multi-hand match is one state.

Wiring only: the rules are in ``rules.py``, the views in ``view.py``, the computer in ``ai.py``.
"""

from __future__ import annotations

from typing import Any

from games.core import Event, Game
from games.macarena import ai, rules
from games.macarena.actions import CODEC, MacarenaAction
from games.macarena.options import Options
from games.macarena.state import MacarenaState
from games.macarena.view import MacarenaOutcome, MacarenaView, build_view


class MacarenaGame(Game[MacarenaState, MacarenaAction, MacarenaView, Options]):
    key = "macarena"
    names = {"es": "Macarena", "en": "Macarena"}
    min_players = 2
    max_players = 5
    options_model = Options
    action_codec = CODEC
    think_rate = ai.ROLLOUTS_PER_SECOND
    state_model = MacarenaState

    def new(
        self, seats: list[str], seed: str, options: Options | dict[str, Any] | None = None
    ) -> MacarenaState:
        self.check_player_count(seats)
        return rules.new_state(seats, seed, self.parse_options(options))

    def to_act(self, state: MacarenaState) -> set[str]:
        return rules.to_act(state)

    def legal_actions(self, state: MacarenaState, seat: str) -> list[MacarenaAction]:
        return rules.legal_actions(state, seat)

    def copy_state(self, state: MacarenaState) -> MacarenaState:
        return rules.copy_state(state)

    def is_over(self, state: MacarenaState) -> bool:
        return state.finished

    def _apply(self, state: MacarenaState, seat: str, action: MacarenaAction) -> list[Event]:
        return rules.resolve_action(state, seat, action)

    def view(self, state: MacarenaState, seat: str | None) -> MacarenaView:
        return build_view(state, seat)

    def outcome(self, state: MacarenaState) -> MacarenaOutcome | None:
        return rules.outcome(state)

    choose_action = staticmethod(ai.choose_action)  # the computer, from the seat's view


GAME = MacarenaGame()
