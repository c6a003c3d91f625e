"""The computer player's entry, written once for every game (docs/adding-a-game.md).

A game's ``ai`` module writes only its decision, ``decide(view, legal, level, rng, budget)``, and
declares ``choose_action = computer_player(decide, DEFAULT_BUDGET)``: the entry the engine binds
(``choose_action(view, legal, level, rng, *, budget=None)``, ``games.core.rules.Computer``). The
entry answers ``None`` when nothing is legal, so ``decide`` always has a choice to make, and hands
it a budget: the table's think budget (``Game.think_budget``, decided by the table service) or,
without one, the game's fixed default, so that a call without a budget is a pure function of its
arguments (what tests and golden playouts use).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Protocol, TypeVar

from games.core.actions import Action
from games.core.budget import Budget
from games.core.engine import PlayerView

V = TypeVar("V", bound=PlayerView)
V_in = TypeVar("V_in", bound=PlayerView, contravariant=True)
A = TypeVar("A", bound=Action)

# a game's decision: ``legal`` is never empty and ``budget`` always given
Decide = Callable[[V, list[A], str, Random, Budget], A | None]


class ChooseAction(Protocol[V_in, A]):
    """The entry every game's ``ai.choose_action`` is."""

    def __call__(
        self, view: V_in, legal: list[A], level: str, rng: Random, *, budget: Budget | None = None
    ) -> A | None: ...


def computer_player(decide: Decide[V, A], default_budget: Budget) -> ChooseAction[V, A]:
    """The ``choose_action`` of a game whose decision is ``decide`` and whose searching levels
    think for ``default_budget`` when the caller gives no budget."""

    def choose_action(
        view: V, legal: list[A], level: str, rng: Random, *, budget: Budget | None = None
    ) -> A | None:
        if not legal:
            return None
        return decide(view, legal, level, rng, budget or default_budget)

    return choose_action


__all__ = ["ChooseAction", "Decide", "computer_player"]
