"""The Triple Triad engine (game key ``triad``): the ``Game`` wiring of rules, view and AI."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Event, Game, IllegalAction
from games.core.engine import Seat
from games.triad import ai, rules
from games.triad.actions import CODEC, TriadAction
from games.triad.options import Options
from games.triad.rules import BAD_OPTIONS
from games.triad.state import TriadState
from games.triad.view import TriadOutcome, TriadView, build_outcome, build_view


class TriadGame(Game[TriadState, TriadAction, TriadView, Options]):
    key = "triad"
    names = {"es": "Triple Triad", "en": "Triple Triad"}
    min_players = 2
    max_players = 2
    options_model = Options
    action_codec = CODEC
    state_model = TriadState

    # ----- creation -------------------------------------------------------------------------
    def parse_options(self, raw: Options | dict[str, Any] | None) -> Options:
        try:
            return super().parse_options(raw)
        except ValueError as exc:
            raise IllegalAction(BAD_OPTIONS, reason=str(exc).splitlines()[0]) from exc

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
        originals = rules.deal(seats, seed, opts, hands, collections)
        return rules.new_state(seats, seed, opts, originals)

    # ----- turn structure -------------------------------------------------------------------
    def to_act(self, state: TriadState) -> set[Seat]:
        return rules.to_act(state)

    def legal_actions(self, state: TriadState, seat: Seat) -> list[TriadAction]:
        return rules.legal_actions(state, seat)

    # ----- rules ----------------------------------------------------------------------------
    def copy_state(self, state: TriadState) -> TriadState:
        return rules.copy_state(state)

    def is_over(self, state: TriadState) -> bool:
        return rules.is_over(state)

    def _apply(self, state: TriadState, seat: Seat, action: TriadAction) -> list[Event]:
        return rules.play(state, seat, action)

    # ----- information ----------------------------------------------------------------------
    def view(self, state: TriadState, seat: Seat | None) -> TriadView:
        return build_view(state, seat)

    def outcome(self, state: TriadState) -> TriadOutcome | None:
        return build_outcome(state)

    # ----- computer play --------------------------------------------------------------------
    def warm_up(self) -> None:
        """Compiles (or loads from the disk cache) the ``hard`` search, so no move waits for
        the compiler: the bot's worker processes call it when they start."""
        from games.triad.compiled import warm_up

        warm_up()

    def choose_action(
        self,
        view: TriadView,
        legal: list[TriadAction],
        level: str,
        rng: random.Random,
        *,
        node_budget: int | None = None,
        think_seconds: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> TriadAction | None:
        """``hard`` thinks ``think_seconds`` on ``clock`` (e.g. ``time.monotonic``, passed in by
        the bot), else ``node_budget`` nodes (``ai.make_budget``)."""
        return ai.choose_action(
            view,
            legal,
            level,
            rng,
            node_budget=node_budget,
            think_seconds=think_seconds,
            clock=clock,
        )
