"""The Chúpate 2 engine object: wires the rules, the view and the computer players to the core
``Game`` contract (spec: docs/rules/chupate2.md)."""

from __future__ import annotations

from typing import Any, ClassVar

from games.chupate2 import ai, rules
from games.chupate2.actions import CODEC, Chupate2Action
from games.chupate2.options import DEFAULT_OPTIONS, Options
from games.chupate2.state import Chupate2State
from games.chupate2.view import Chupate2View, build_view
from games.core import ActionCodec, Game
from games.core.engine import Seat


class Chupate2Game(Game[Chupate2State, Chupate2Action, Chupate2View, Options]):
    key = "chupate2"
    names = {"es": "Chúpate 2", "en": "Chúpate 2"}
    min_players = 2
    max_players = 6
    options_model = Options
    state_model = Chupate2State
    action_codec: ClassVar[ActionCodec[Chupate2Action]] = CODEC
    think_rate = ai.ROLLOUTS_PER_SECOND

    def new(
        self, seats: list[Seat], seed: str, options: Options | dict[str, Any] | None = None
    ) -> Chupate2State:
        opts = DEFAULT_OPTIONS if options is None else self.parse_options(options)
        self.check_player_count(seats)
        rules.check_table(len(seats), opts, self.min_players, self.max_players)
        return rules.new_state(seats, seed, opts)

    # The rule functions themselves (no wrapper call: these run on every step of a playout).
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(rules.legal_actions)
    copy_state = staticmethod(rules.copy_state)
    view = staticmethod(build_view)
    outcome = staticmethod(rules.outcome)
    _apply = staticmethod(rules.resolve_action)  # reveal reset, the rules, the log

    def is_over(self, state: Chupate2State) -> bool:
        return state.finished

    choose_action = staticmethod(ai.choose_action)  # the computer, from the seat's view


GAME = Chupate2Game()
