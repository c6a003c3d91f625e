"""Shared checks for the hard computers built on games/core/search.py (hidden-card games).

- a sampled world agrees with the view it was sampled from (the seat's view of the world is the
  seat's view, events aside) and holds every card of the deck exactly once;
- what the public events say of a hidden hand (slots a card may fill) admits the true hand:
  ``fits_slots``, an augmenting-path matching of cards to the slots they do not clash with;
- the choice depends on the view only: swapping cards the seat has not seen in the true state
  (the view stays identical) leaves hard's choice unchanged for a fixed seed and an iteration
  budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from games.core import Game
from games.core.search import Budget

EXCLUDED = {"last_events", "last_event_versions", "version"}


def _dump(view: Any) -> dict[str, Any]:
    return view.model_dump(exclude=EXCLUDED)


def normal_playout_states(game: Game, seed: str, seats: list[str]) -> Iterator[Any]:
    """Every state of a ``normal`` against ``normal`` game, in order."""
    state = game.new(seats, seed)
    n = 0
    while not game.is_over(state):
        yield state
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        action = game.choose_action(game.view(state, seat), legal, "normal", random.Random(n))
        state, _ = game.apply(state, seat, action if action is not None else legal[0])
        n += 1


def check_worlds_match_views(
    game: Game, determinize: Callable[[Any, random.Random], Any], seeds: list[str], every: int = 3
) -> int:
    """Sample worlds along a few games; returns how many were checked."""
    checked = 0
    for seed in seeds:
        for k, state in enumerate(normal_playout_states(game, seed, ["a", "b"])):
            if k % every:
                continue
            for seat in state.seats:
                view = game.view(state, seat)
                world = determinize(view, random.Random(k))
                assert _dump(game.view(world, seat)) == _dump(view), (seed, k, seat)
                checked += 1
    return checked


def check_choice_ignores_hidden(
    game: Game,
    state: Any,
    swapped: Any,
    seat: str,
    budget: Budget,
    seed: int = 11,
) -> Any:
    """``state`` and ``swapped`` differ only in cards ``seat`` cannot see: same view, same
    legal actions, same hard choice. Returns the choice."""
    assert state.model_dump() != swapped.model_dump(), "the swap changed nothing"
    view, other = game.view(state, seat), game.view(swapped, seat)
    assert view.model_dump() == other.model_dump()
    legal = game.legal_actions(state, seat)
    assert [a.encode() for a in legal] == [a.encode() for a in game.legal_actions(swapped, seat)]
    choose: Any = game.choose_action  # the hidden-card games take a search budget
    first = choose(view, legal, "hard", random.Random(seed), budget=budget)
    second = choose(other, legal, "hard", random.Random(seed), budget=budget)
    assert first == second
    return first


def fits_slots(cards: list[Any], slots: list[Any], clashes: Callable[[Any, Any], bool]) -> bool:
    """Whether ``cards`` can be matched one to one with ``slots``, a card never going to a slot
    it ``clashes`` with (the hand a draw revealed could not hold it)."""
    owner: dict[int, int] = {}

    def place(i: int, tried: set[int]) -> bool:
        for j, card in enumerate(cards):
            if j in tried or clashes(card, slots[i]):
                continue
            tried.add(j)
            if j not in owner or place(owner[j], tried):
                owner[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(slots)))
