"""The Ce Amapatolli engine: its modules as one ``RulesGame``, and what only this game adds (the
fair "¡Ce!" wait, the rematch order, a timeout that never only calls "Ce")."""

from __future__ import annotations

from games.amapatolli import ai, rules, view
from games.amapatolli.actions import CODEC, AmapatolliAction
from games.amapatolli.options import Options
from games.amapatolli.state import AmapatolliState
from games.amapatolli.view import AmapatolliView
from games.core import IllegalAction, rng_for
from games.core.engine import Seat
from games.core.errors import NOT_YOUR_TURN
from games.core.rules import Parts, RulesGame, Spec


class AmapatolliGame(RulesGame[AmapatolliState, AmapatolliAction, AmapatolliView, Options]):
    spec = Spec("amapatolli", "Ce Amapatolli", players=(2, 6))
    parts = Parts(rules, view, ai, CODEC)

    def rematch_seats(self, state: AmapatolliState) -> list[Seat]:
        outcome = self.outcome(state)
        if outcome is None:
            return list(state.seats)
        return rules.rematch_order(state.seats, outcome.ranking)

    def cpu_wait_seconds(self, state: AmapatolliState, humans: frozenset[Seat]) -> float:
        """Fair "¡Ce!": while a person's window is open, computers neither call them out nor
        take their turn (which would close it) for ``rules.FAIR_CE_SECONDS``."""
        return rules.fair_ce_wait(state, humans)

    def default_action(self, state: AmapatolliState, seat: Seat) -> AmapatolliAction:
        """A timed-out turn is played by the ``normal`` computer, moving the game on: a turn
        action (play, draw, pass, accept the skip), never only an optional "Ce" or call-out."""
        legal = [a for a in self.legal_actions(state, seat) if not rules.is_optional(a)]
        if not legal:
            raise IllegalAction(NOT_YOUR_TURN)
        choice = self.choose_action(
            self.view(state, seat), legal, "normal", rng_for(state.seed, "timeout", state.version)
        )
        return choice if choice is not None else legal[0]


GAME = AmapatolliGame()
