"""The Triple Triad engine (game key ``triad``): its modules as one ``RulesGame``, with the
chosen hands a match starts from, the compiled search's warm-up and the greedy timeout."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.engine import Seat
from games.core.rng import rng_for
from games.core.rules import Parts, RulesGame, Spec
from games.triad import ai, rules, view
from games.triad.actions import CODEC, TriadAction
from games.triad.options import Options
from games.triad.state import TriadState
from games.triad.view import TriadView


class TriadGame(RulesGame[TriadState, TriadAction, TriadView, Options]):
    spec = Spec("triad", "Triple Triad", players=(2, 2))
    parts = Parts(rules, view, ai, CODEC)

    def new(
        self,
        seats: list[Seat],
        seed: str,
        options: Options | dict[str, Any] | None = None,
        *,
        hands: Mapping[Seat, Sequence[str]] | None = None,
        collections: Mapping[Seat, Mapping[str, int]] | None = None,
    ) -> TriadState:
        """A new match. ``hands`` gives each seat's five chosen card ids. Under Mano mezclada
        the five are drawn at random from ``collections`` (card id -> quantity) when given,
        else from the seat's ``hands`` entry (which may then hold more than five). A seat
        with neither gets a seeded deck of catalogue level 3 (handy for tests and benches)."""
        self.check_player_count(seats)
        opts = self.parse_options(options)
        return rules.new_state(seats, seed, opts, rules.deal(seats, seed, opts, hands, collections))

    def warm_up(self) -> None:
        """Compiles (or loads from the disk cache) the ``hard`` search, so no move waits for
        the compiler: the bot's worker processes call it when they start."""
        from games.triad.compiled import warm_up

        warm_up()

    def default_action(self, state: TriadState, seat: Seat) -> TriadAction:
        """A timed-out player's move: the ``greedy`` placement (``normal`` plays a softened
        greedy for new players' sake, issue 31; a timeout should not cost its player)."""
        legal = self.legal_actions(state, seat)
        rng = rng_for(state.seed, "timeout", state.version)
        choice = ai.choose_action(self.view(state, seat), legal, "greedy", rng)
        return choice if choice is not None else super().default_action(state, seat)


GAME = TriadGame()
