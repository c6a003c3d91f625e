"""The Maquiavelo engine: the ``Game`` wiring of ``rules``, ``view`` and ``ai``."""

from __future__ import annotations

from typing import Any, ClassVar

from games.core.rules import RulesGame
from games.maquiavelo import ai, rules
from games.maquiavelo.actions import CODEC, AnyAction, Arrange, Play
from games.maquiavelo.options import Options
from games.maquiavelo.state import MaquiaveloState
from games.maquiavelo.view import MaquiaveloView, build_view


class MaquiaveloGame(RulesGame[MaquiaveloState, AnyAction, MaquiaveloView, Options]):
    key: ClassVar[str] = "maquiavelo"
    rules = rules  # its rule functions (``RulesGame``)
    names: ClassVar[dict[str, str]] = {"es": "Maquiavelo", "en": "Machiavelli"}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options_model = Options
    action_codec = CODEC
    think_rate = ai.ROLLOUTS_PER_SECOND
    state_model = MaquiaveloState

    def new(
        self, seats: list[str], seed: str, options: Options | dict[str, Any] | None = None
    ) -> MaquiaveloState:
        opts = self.parse_options(options)
        self.check_player_count(seats)
        return rules.deal(seats, seed, opts)

    view = staticmethod(build_view)

    # ----- hints and computer play ----------------------------------------------------------
    def suggest(self, state: MaquiaveloState, seat: str) -> Play | None:
        """The "Sugerir" hint: the best play for ``seat`` now (None if it cannot play)."""
        return ai.best_play_action(self.view(state, seat))

    choose_action = staticmethod(ai.choose_action)  # the computer, from the seat's view

    def check_proposal(self, state: MaquiaveloState, seat: str, action: Play | Arrange) -> None:
        """Dry run: raise the reason ``action`` would be refused, without any "estricto" cost."""
        rules.check_proposal(state, seat, action)


GAME = MaquiaveloGame()
