"""A game-agnostic determinized Monte-Carlo search for games with hidden cards.

The search starts from one seat's *view* only: it never sees the true state. Each iteration
draws a *world* (a full state agreeing with everything the view shows, from the game's
``determinize(view, rng)``), plays one root candidate in it and then a rollout with a fast policy
(the ``normal`` computer, or a cheaper heuristic) to the end of the game or to a horizon, where
the game's ``value`` scores it for the searching seat in [0, 1].

Flat Monte-Carlo over the root's choices (the opponents' choices are played by the rollout
policy): every round samples one world and one rollout seed and plays each surviving candidate
in it (common random numbers), so candidates are compared on the same deals, which removes most
of the luck from their differences; clearly worse candidates are dropped on the way, and a
cheaper player's choice (``default``) is kept unless another is clearly better.

Budgets: ``iterations`` (deterministic for a given ``rng``: what tests use) and, for play,
``seconds`` measured by a ``clock`` the caller passes in (``games/`` never reads a clock itself;
the bot passes ``time.monotonic``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from games.core.budget import Budget, Clock
from games.core.engine import Game, Seat
from games.core.errors import NOBODY_CAN_MOVE, IllegalAction

S = TypeVar("S")
A = TypeVar("A")
A_contra = TypeVar("A_contra", contravariant=True)


class Searchable(Protocol[S, A_contra]):
    """What a game provides to the search (see ``determinized_search``)."""

    def determinize(self, view: Any, rng: random.Random) -> S:
        """A full state that agrees with everything ``view`` shows; hidden cards at random."""
        ...

    def done(self, state: S) -> bool:
        """Whether a rollout ends here (the game, or the part of it the search scores, is over)."""
        ...

    def step(self, state: S, rng: random.Random) -> S:
        """One move of the rollout policy (whoever moves next)."""
        ...

    def play(self, state: S, seat: Seat, action: A_contra) -> S:
        """The root candidate ``action`` by ``seat`` (raises ``IllegalAction`` if the world
        cannot take it)."""
        ...

    def value(self, state: S, seat: Seat, finished: bool) -> float:
        """How good ``state`` is for ``seat``, in [0, 1] (1 = won); ``finished`` says whether
        the rollout reached the end or stopped at the horizon."""
        ...


@dataclass
class Stats:
    """What the search found for one candidate."""

    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass
class SearchResult(Generic[A]):
    choice: A
    stats: list[Stats]
    iterations: int


def determinized_search(
    game: Searchable[S, A],
    view: Any,
    seat: Seat,
    candidates: Sequence[A],
    rng: random.Random,
    budget: Budget,
    horizon: int = 400,
    default: int | None = None,
    confidence: float = 1.5,
    prune: float = 2.5,
    override_rounds: int = 0,
) -> SearchResult[A]:
    """The candidate whose rollouts score best for ``seat``, from ``view`` only.

    Rounds: each round samples one world and plays every surviving candidate in it (common
    random numbers), so candidates are compared by *paired* differences, world by world. After
    ``MIN_ROUNDS`` rounds a candidate whose paired difference to the leader is below zero by more
    than ``prune`` standard errors stops being played (its rollouts go to the others). With a
    ``default`` (the index of the choice of a cheaper player, e.g. ``normal``) the leader is only
    played instead of it when it is better by more than ``confidence`` standard errors: the
    search changes the cheap choice where its rollouts say so clearly, never on noise; and
    only after ``override_rounds`` rounds (a few rounds of win-or-lose rollouts are noise).
    """
    if not candidates:
        raise ValueError("nothing to search")
    k = len(candidates)
    if k == 1:
        return SearchResult(candidates[0], [Stats()], 0)
    stats = [Stats() for _ in candidates]
    scores: list[list[float]] = [[] for _ in candidates]
    alive = list(range(k))
    clock = budget.clock if budget.timed() else None
    deadline = (clock() + (budget.seconds or 0.0)) if clock is not None else 0.0
    minimum = max(budget.min_iterations, k)
    done = 0
    rounds = 0
    while done + len(alive) <= max(budget.iterations, k):
        if clock is not None and done >= minimum and clock() >= deadline:
            break
        world = game.determinize(view, rng)
        seed = rng.random()
        for i in alive:
            reward = _rollout(game, world, seat, candidates[i], random.Random(seed), horizon)
            scores[i].append(reward)
            stats[i].visits += 1
            stats[i].total += reward
            done += 1
        rounds += 1
        if rounds >= MIN_ROUNDS and len(alive) > 1:
            leader = max(alive, key=lambda i: (stats[i].mean, -i))
            alive = [
                i
                for i in alive
                if i in (leader, default) or _paired(scores[i], scores[leader])[1] > -prune
            ]
        if len(alive) == 1:
            break
    leader = max(alive, key=lambda i: (stats[i].mean, -i))
    choice = leader
    if default is not None and leader != default:
        mean, z = _paired(scores[leader], scores[default])
        if z < confidence or rounds < override_rounds:
            choice = default
    return SearchResult(candidates[choice], stats, done)


MIN_ROUNDS = 4  # rounds before any candidate is dropped


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean of ``a[n] - b[n]`` over the rounds both were played, and that mean in standard
    errors (large when every world agrees; 0 when they never differ)."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, 0.0
    diffs = [a[j] - b[j] for j in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0.0:
        return mean, (math.inf if mean > 0 else -math.inf if mean < 0 else 0.0)
    return mean, mean / math.sqrt(var / n)


def _rollout(
    game: Searchable[S, A],
    world: S,
    seat: Seat,
    action: A,
    rng: random.Random,
    horizon: int,
) -> float:
    try:
        state = game.play(world, seat, action)
    except IllegalAction:  # a candidate this sampled world cannot take
        return 0.0
    for _ in range(horizon):
        if game.done(state):
            return game.value(state, seat, True)
        state = game.step(state, rng)
    return game.value(state, seat, game.done(state))


# ----- helpers for games built on the engine contract ----------------------------------------

Policy = Callable[[Any, Seat, list[Any], random.Random], Any]


def engine_step(
    engine: Game[Any, Any, Any, Any],
    state: Any,
    rng: random.Random,
    choose: Callable[[Any, Seat, list[Any], random.Random], Any],
    optional: bool = True,
) -> Any:
    """One move the way the table service asks computer seats: optional moves (call-outs) of
    seats not waited on first, then the seats the game waits on, in seat order. ``choose(state,
    seat, legal, rng)`` returns an action or None (declining an optional move). A game without
    optional moves in ``state`` passes ``optional=False`` (only the waited seats are asked)."""
    to_act = engine.to_act(state)
    for only_waited in (False, True) if optional else (True,):
        for seat in state.seats:
            if (seat in to_act) != only_waited:
                continue
            legal = engine.legal_actions(state, seat)
            if not legal:
                continue
            choice = choose(state, seat, legal, rng)
            if choice is None and only_waited:
                choice = legal[0]
            if choice is not None:
                new_state, _ = engine.apply(state, seat, choice)
                return new_state
    raise IllegalAction(NOBODY_CAN_MOVE)


def view_policy(
    engine: Game[Any, Any, Any, Any], level: str = "normal"
) -> Callable[[Any, Seat, list[Any], random.Random], Any]:
    """The rollout policy "the engine's own computer at ``level``, from the mover's view"."""

    def choose(state: Any, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        return engine.choose_action(engine.view(state, seat), legal, level, rng)

    return choose


__all__ = [
    "Budget",
    "Clock",
    "SearchResult",
    "Searchable",
    "Stats",
    "determinized_search",
    "engine_step",
    "view_policy",
]
