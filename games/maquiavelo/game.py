"""The Maquiavelo engine: ``rules``, ``view`` and ``ai`` as one ``RulesGame``, with the hint and
the dry run only this game has."""

from __future__ import annotations

from games.core.rules import Parts, RulesGame, Spec
from games.maquiavelo import ai, rules, view
from games.maquiavelo.actions import CODEC, AnyAction, Arrange, Play
from games.maquiavelo.options import Options
from games.maquiavelo.state import MaquiaveloState
from games.maquiavelo.view import MaquiaveloView


class MaquiaveloGame(RulesGame[MaquiaveloState, AnyAction, MaquiaveloView, Options]):
    spec = Spec("maquiavelo", {"es": "Maquiavelo", "en": "Machiavelli"}, players=(2, 8))
    parts = Parts(rules, view, ai, CODEC)

    def suggest(self, state: MaquiaveloState, seat: str) -> Play | None:
        """The "Sugerir" hint: the best play for ``seat`` now (None if it cannot play)."""
        return ai.best_play_action(self.view(state, seat))

    def check_proposal(self, state: MaquiaveloState, seat: str, action: Play | Arrange) -> None:
        """Dry run: raise the reason ``action`` would be refused, without any "estricto" cost."""
        rules.check_proposal(state, seat, action)


GAME = MaquiaveloGame()
