"""Computer play for Triple Triad, deciding only from one seat's view.

Levels:
- ``easy``: a random legal action (a random card when paid).
- ``normal``: a fair opponent for a new player (issue 31): every placement is scored as ``greedy``
  scores it, and one is drawn at random with odds ``exp(score / NORMAL_TEMPERATURE)`` (a softmax):
  it leans towards placements that flip cards and keep weak sides covered, but often plays
  another. Tuned with ``bench/triad_first_games.py`` so that a player placing at random with a
  starter collection wins at least a quarter of their first games against it (matched decks),
  while a player who always plays the ``greedy`` placement wins most. When paid it takes the
  loser's strongest card (level, then sum of edges).
- ``greedy`` (not offered to players: a timed-out player's move, ``TriadGame.default_action``,
  and the bench's "greedy player"; ``normal`` before issue 31): the placement that flips most
  cards now (every rule in force), minus the exposure of the placed card (its low sides left
  facing empty cells); ties at random. Paid, as ``normal``.
- ``hard``: the exact search to the end of the round (``games.triad.compiled``: alpha-beta with
  a transposition table, MTD(f), compiled with numba; ``tests/games/triad/solver.py`` is the same search
  in pure Python, the reference it is tested against), so the move is optimal for both sides
  playing perfectly, within a think budget; when the budget runs out first, the best move
  proven so far.

Hidden information: the search never reads a hidden hand (it only gets the seat's view). Under
Abierto (or once every card of the opponent's hand has been seen on the board, in a Sudden Death
rematch) it solves the true position. Otherwise it determinises: it draws guesses of the unseen
cards from the catalogue, at the levels of the opponent's cards already seen (or, before any is
seen, the levels of its own hand), one level either side, and solves each guess exactly, scoring
every move (exact value for the guess's optimal moves, an upper bound for the others), for as
many guesses as the budget allows (up to ``HIDDEN_SAMPLES``); it plays the move with the best
summed score. ``normal`` and ``greedy`` evaluate immediate flips on one such guess.

The think budget is the core ``Budget`` every game takes (``GAME.think_budget(seconds, clock)``,
decided by the table service): timed, ``hard`` searches for its seconds on the caller's clock
(``games/`` reads no clock itself); untimed, for its ``iterations`` nodes, which keeps tests
deterministic (``DEFAULT_BUDGET`` when none is given).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from games.core.budget import Budget
from games.core.computer import computer_player
from games.triad import cards as catalogue
from games.triad.actions import PickCard, Play, TriadAction
from games.triad.rules import NEIGHBOURS
from games.triad.search import Allowance, Card, Move, Position, Problem
from games.triad.view import CardFace, TriadView

DEFAULT_TIME_BUDGET = 2.0  # seconds
# nodes per second of the compiled exact search at ply 0 (bench/triad_ai.py: 1.2-1.4 M per CPU
# second on 2 shared cores)
THINK_RATE = 1_000_000
HIDDEN_SAMPLES = 12  # at most this many guesses of a hidden hand per move
# ``normal``'s softmax temperature, in ``greedy_score`` points (10 per card flipped): a placement
# that flips one card more is exp(10 / 30) = 1.4 times as likely. bench/triad_first_games.py,
# matched decks: a random placer wins 28.3 % of 2,000 games against it (27.4 % at T = 25;
# 25.6 % of 800 at 20; 19.2 % of 600 at 10; 0.9 % against the greedy placement).
NORMAL_TEMPERATURE = 30.0


DEFAULT_BUDGET = Budget(iterations=int(DEFAULT_TIME_BUDGET * THINK_RATE))


# ----- the position seen by a seat ---------------------------------------------------------------


def _card(face: CardFace) -> Card:
    printed = face.printed
    return Card((printed[0], printed[1], printed[2], printed[3]), face.element)


def problem_from_view(view: TriadView, guesses: Sequence[Card] = ()) -> Problem:
    """The round as ``view.me`` sees it; each hidden opponent card is the next of ``guesses``."""
    if view.me is None:
        raise ValueError("the computer plays a seat")
    seats = view.seats
    board: list[tuple[Card, int] | None] = [None] * 9
    for cv in view.board:
        if cv.card is not None and cv.holder is not None:
            board[cv.cell] = (_card(cv.card), seats.index(cv.holder))
    pending = list(guesses)
    hands: list[list[Card]] = [[], []]
    for s, seat in enumerate(seats):
        for face in view.hands[seat]:
            if face is not None:
                hands[s].append(_card(face))
            elif pending:
                hands[s].append(pending.pop(0))
            else:
                raise ValueError("hidden card without a guess")
    side = seats.index(view.turn) if view.turn is not None else view.me
    return Problem(board, hands, side, list(view.elements), view.options.rule_set)


def hidden_count(view: TriadView) -> int:
    """How many of the opponent's cards in hand ``view.me`` cannot see."""
    assert view.me is not None
    return sum(1 for f in view.hands[view.seats[1 - view.me]] if f is None)


def _guess_pool(view: TriadView) -> list[catalogue.Card]:
    me = view.me
    assert me is not None
    opp_seat = view.seats[1 - me]
    seen_levels = [
        cv.card.level for cv in view.board if cv.card is not None and cv.card.owner == opp_seat
    ]
    seen_levels += [f.level for f in view.hands[opp_seat] if f is not None]
    if not seen_levels:
        seen_levels = [f.level for f in view.hands[view.seats[me]] if f is not None]
    lo = max(1, min(seen_levels, default=3) - 1)
    hi = min(10, max(seen_levels, default=3) + 1)
    return [c for c in catalogue.catalogue().cards if lo <= c.level <= hi]


def guesses(view: TriadView, rng: random.Random, count: int) -> list[Card]:
    """``count`` catalogue cards drawn for the unseen ones, from what the view shows only."""
    pool = _guess_pool(view)
    return [Card(c.edges, c.element) for c in (rng.choice(pool) for _ in range(count))]


# ----- the three levels -------------------------------------------------------------------------


def _place_for(view: TriadView, legal: Sequence[Play], move: Move) -> Play | None:
    """The legal placement of hand slot ``move.side_slot`` on ``move.cell`` (or of the same card,
    when the engine lists only one of several copies)."""
    for a in legal:
        if a.slot == move.side_slot and a.cell == move.cell:
            return a
    face = view.hands[view.seats[view.me or 0]][move.side_slot]
    card = face.card if face is not None else None
    for a in legal:
        if a.card == card and a.cell == move.cell:
            return a
    return None


def _best_pick(view: TriadView, picks: list[PickCard]) -> PickCard:
    def strength(a: PickCard) -> tuple[int, int, int]:
        c = catalogue.card(a.card)
        return (c.level, c.strength, -a.index)

    return max(picks, key=strength)


def greedy_score(position: Position, slot: int, cell: int) -> int:
    """``greedy``'s (and ``normal``'s) score: 10 per card flipped now, minus the weakness of
    sides left facing empty cells."""
    taken, values, occ = position.placement(slot, cell)
    exposure = sum(
        max(0, 7 - values[d]) for d, q in enumerate(NEIGHBOURS[cell]) if q >= 0 and not occ >> q & 1
    )
    return 10 * bin(taken).count("1") - exposure


def _scored(view: TriadView, places: list[Play], rng: random.Random) -> list[tuple[int, Play]]:
    position = Position(problem_from_view(view, guesses(view, rng, hidden_count(view))))
    return [(greedy_score(position, a.slot, a.cell), a) for a in places]


def _greedy(view: TriadView, places: list[Play], rng: random.Random) -> Play:
    scored = _scored(view, places, rng)
    top = max(s for s, _ in scored)
    return rng.choice([a for s, a in scored if s == top])


def _normal(view: TriadView, places: list[Play], rng: random.Random) -> Play:
    """One placement drawn with odds ``exp(score / NORMAL_TEMPERATURE)``."""
    scored = _scored(view, places, rng)
    top = max(s for s, _ in scored)
    weights = [math.exp((s - top) / NORMAL_TEMPERATURE) for s, _ in scored]
    return rng.choices([a for _, a in scored], weights=weights)[0]


def _hard(
    view: TriadView,
    places: list[Play],
    rng: random.Random,
    budget: Allowance,
    stats: dict,
) -> Play:
    from games.triad.compiled import CompiledSolver  # numba: imported by ``hard`` only

    n_hidden = hidden_count(view)
    stats.update(nodes=0, exact=True, samples=0)
    if n_hidden == 0:
        result = CompiledSolver(problem_from_view(view)).solve(budget)
        stats.update(nodes=result.nodes, exact=result.exact, samples=1, value=result.value)
        return _place_for(view, places, result.move) or places[0]
    move = _hidden_hand_move(view, rng, budget, stats)
    return _place_for(view, places, move) or places[0]


def _hidden_hand_move(view: TriadView, rng: random.Random, budget: Allowance, stats: dict) -> Move:
    """Per-move scores summed over exactly solved guesses of the unseen cards; a guess the
    budget cut short is dropped, unless it is the first (then its best move found is played)."""
    from games.triad.compiled import CompiledSolver

    n_hidden = hidden_count(view)
    totals: dict[Move, int] = {}
    optimal: dict[Move, int] = {}
    complete = 0
    fallback: Move | None = None
    for _ in range(HIDDEN_SAMPLES):
        solver = CompiledSolver(problem_from_view(view, guesses(view, rng, n_hidden)))
        before = budget.spent
        scores, done = solver.move_scores(budget)
        stats["nodes"] += budget.spent - before
        stats["samples"] += 1
        if not done:
            if complete == 0:
                fallback = next(iter(scores))
            break
        complete += 1
        best = max(scores.values())
        for mv, score in scores.items():
            totals[mv] = totals.get(mv, 0) + score
            optimal[mv] = optimal.get(mv, 0) + (score == best)
        if budget.exhausted():
            break
    stats["exact"] = complete > 0
    stats["guesses_solved"] = complete
    if complete == 0:
        assert fallback is not None
        return fallback
    return max(totals, key=lambda m: (totals[m], optimal[m], -m.cell, -m.side_slot))


def decide(
    view: TriadView,
    legal: list[TriadAction],
    level: str,
    rng: random.Random,
    budget: Budget,
    stats: dict | None = None,
) -> TriadAction | None:
    """The computer's action for ``view.me`` (``choose_action``, below, is the engine's entry).

    ``hard`` thinks within ``budget`` (its seconds on its clock when timed, else its
    ``iterations`` nodes); ``stats``, if given (tests and ``bench/triad_ai.py`` call ``decide``
    for it), receives ``nodes`` searched, ``exact`` (the move is optimal for the position, or
    for at least one guess of a hidden hand) and ``samples`` (guesses of the hidden hand
    searched)."""
    picks = [a for a in legal if isinstance(a, PickCard)]
    if picks:
        return rng.choice(picks) if level == "easy" else _best_pick(view, picks)
    places = [a for a in legal if isinstance(a, Play)]
    if level == "easy":
        return rng.choice(places)
    if level == "normal":
        return _normal(view, places, rng)
    if level == "greedy":
        return _greedy(view, places, rng)
    if level == "hard":
        allowance = Allowance.of(budget)
        return _hard(view, places, rng, allowance, stats if stats is not None else {})
    raise ValueError(f"unknown level {level!r}")


choose_action = computer_player(decide, DEFAULT_BUDGET)


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_TIME_BUDGET",
    "THINK_RATE",
    "NORMAL_TEMPERATURE",
    "choose_action",
    "decide",
    "guesses",
    "problem_from_view",
]
