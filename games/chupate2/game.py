"""The Chúpate 2 engine object: wires the rules, the view and the computer players to the core
``Game`` contract (spec: docs/rules/chupate2.md)."""

from __future__ import annotations

from typing import Any, ClassVar

from games.chupate2 import ai, rules
from games.chupate2.actions import CODEC, Chupate2Action
from games.chupate2.options import DEFAULT_OPTIONS, Options
from games.chupate2.state import Chupate2State
from games.chupate2.view import Chupate2View, build_view
from games.core import ActionCodec
from games.core.engine import Seat
from games.core.rules import RulesGame


class Chupate2Game(RulesGame[Chupate2State, Chupate2Action, Chupate2View, Options]):
    key = "chupate2"
    rules = rules  # its rule functions (``RulesGame``)
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

    view = staticmethod(build_view)

    choose_action = staticmethod(ai.choose_action)  # the computer, from the seat's view


GAME = Chupate2Game()
