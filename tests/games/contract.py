"""What each game declares for the one contract test (``tests/games/test_contract.py``).

The contract test runs the same checks over every registered game (OpenSpiel's random_sim_test
idea): seeded random playouts in every option combination the game declares, the game's own
state invariants, secrecy of views, purity of ``apply``, text round trips, refusals of forged,
out-of-turn and garbage actions, JSON round trips, replay determinism and termination.

A game takes part by defining ``SPEC = ContractSpec(...)`` in ``tests/games/<game>/spec.py``.
Rule scenarios specific to one game stay in that game's own test modules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import Game, GameState, PlayerView


def no_invariants(state: GameState) -> None:
    return None


def no_secrets(state: GameState, viewer: str | None, view: PlayerView) -> None:
    return None


@dataclass(frozen=True)
class ContractSpec:
    """How to exercise one game.

    - ``option_sets``: every option combination worth playing (dicts for ``Game.new``); each is
      played at every count in ``player_counts`` that the options allow (``Game.new`` raising
      ``IllegalAction`` for a count means "not allowed", and is skipped).
    - ``invariant(state)``: asserts what always holds (card conservation, score sums...).
    - ``assert_hidden(state, viewer, view)``: asserts ``view`` (of ``viewer``; ``None`` = the
      public) shows nothing of another seat's secrets, nor the stock order or the seed.
    - ``max_steps``: a playout longer than this fails as non-terminating.
    - ``playouts``: seeded playouts per (options, player count).
    - ``policy(state, seat, legal, rng)``: picks the action of a seat to act in the playouts
      (default ``None``: uniform random over ``legal``, so every rule gets exercised; a game whose
      random games run too long may prefer, say, its ``normal`` computer now and then). The
      chosen action need not be in ``legal`` when ``complete_legal`` is false (free-form plays).
    - ``complete_legal`` (the game's ``lists_every_action``): ``legal_actions`` lists every
      action a seat may take (so anything else must be refused; the computer turns play a
      waited seat's only legal action without a search). ``False`` for games with free-form
      actions that only ``apply`` validates (Maquiavelo's plays, Macarena's series listed by
      their first card); seats outside ``to_act`` must still be refused anything not in their
      list.
    - ``extra``: tuning knobs of the contract test, all optional: ``forge_rate`` (share of steps
      that also try forged, out-of-turn and garbage actions; default 0.1), ``roundtrip_sample``
      (legal actions round-tripped through text per step; default 8), ``callout_rate`` (chance
      that a seat outside ``to_act`` holding optional actions acts; default 0.2).
    """

    game: Game[Any, Any, Any, Any]
    option_sets: Sequence[dict[str, Any]]
    player_counts: Sequence[int]
    invariant: Callable[[GameState], None] = no_invariants
    assert_hidden: Callable[[GameState, str | None, PlayerView], None] = no_secrets
    max_steps: int = 5_000
    playouts: int = 3
    policy: Callable[[GameState, str, list[Any], random.Random], Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def complete_legal(self) -> bool:
        return self.game.lists_every_action
