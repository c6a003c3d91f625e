"""The Macarena engine (game key ``macarena``): the whole multi-hand match is one state.

Wiring only: the rules are in ``rules.py``, the views in ``view.py``, the computer in ``ai.py``.
"""

from __future__ import annotations

from typing import Any

from games.core.rules import RulesGame
from games.macarena import ai, rules
from games.macarena.actions import CODEC, MacarenaAction
from games.macarena.options import Options
from games.macarena.state import MacarenaState
from games.macarena.view import MacarenaView, build_view


class MacarenaGame(RulesGame[MacarenaState, MacarenaAction, MacarenaView, Options]):
    key = "macarena"
    rules = rules  # its rule functions (``RulesGame``)
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

    view = staticmethod(build_view)

    choose_action = staticmethod(ai.choose_action)  # the computer, from the seat's view


GAME = MacarenaGame()
