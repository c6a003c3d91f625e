"""Computer play: legality at every level, no peeking, and ``hard`` exact and optimal."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from games.core import Budget
from games.triad import GAME, PickCard
from games.triad.ai import DEFAULT_BUDGET, choose_action, decide
from games.triad.cards import card
from games.triad.search import Allowance
from tests.games.triad.randomgames import CARD_IDS, SEATS, random_hands, random_options
from tests.games.triad.reference import exact_value, move_value, random_position


@pytest.mark.parametrize("empties", [1, 2, 3, 4, 5])
def test_hard_plays_an_optimal_move_with_at_most_five_empty_cells(empties):
    for n in range(60 if empties < 5 else 45):
        state, rng = random_position(n * 7 + empties, empties)
        seat = SEATS[state.turn]
        legal = GAME.legal_actions(state, seat)
        chosen = choose_action(GAME.view(state, seat), legal, "hard", rng)
        assert chosen in legal
        best = max(move_value(state, a) for a in legal)
        assert move_value(state, chosen) == best, (n, empties)
        assert exact_value(state, state.turn) == best


def test_hard_reports_the_exact_value_from_the_view():
    for n in range(20):
        state, rng = random_position(500 + n, 5)
        seat = SEATS[state.turn]
        stats: dict = {}
        chosen = decide(
            GAME.view(state, seat),
            GAME.legal_actions(state, seat),
            "hard",
            rng,
            DEFAULT_BUDGET,
            stats,
        )
        assert stats["exact"] and stats["nodes"] <= DEFAULT_BUDGET.iterations
        assert stats["value"] == exact_value(state, state.turn) == move_value(state, chosen)


def test_hard_with_a_tiny_budget_still_plays_legally():
    state, rng = random_position(3, 9)
    seat = SEATS[state.turn]
    legal = GAME.legal_actions(state, seat)
    for nodes in (1, 50, 500):
        assert (
            choose_action(
                GAME.view(state, seat), legal, "hard", rng, budget=Budget(iterations=nodes)
            )
            in legal
        )


def _tick(ticks: itertools.count) -> float:
    return float(next(ticks))


def test_hard_thinks_in_seconds_on_the_clock_it_is_given():
    """A fake clock advancing a second per reading: a 2 s think stops after two readings, and
    a hidden hand still gets a legal move."""
    for n, options in enumerate(({"open": True}, {})):
        state = GAME.new(SEATS, f"clock-{n}", options, hands=random_hands(random.Random(n)))
        seat = SEATS[state.turn]
        legal = GAME.legal_actions(state, seat)
        ticks = itertools.count()
        stats: dict = {}
        chosen = decide(
            GAME.view(state, seat),
            legal,
            "hard",
            random.Random(n),
            GAME.think_budget(2.0, functools.partial(_tick, ticks)),
            stats,
        )
        assert chosen in legal and stats["nodes"] < 20_000


def test_the_budget_is_time_when_a_clock_is_given_else_nodes():
    timed = Allowance.of(GAME.think_budget(1.0, lambda: 0.0))
    assert timed.clock is not None and timed.nodes is None
    assert Allowance.of(GAME.think_budget(1.0)).nodes == GAME.think_budget(1.0).iterations
    assert Allowance.of(Budget(iterations=77)).nodes == 77


def test_the_think_rate_turns_seconds_into_nodes():
    assert GAME.think_budget(2.0).iterations == DEFAULT_BUDGET.iterations
    assert (
        GAME.think_budget(0.5).iterations
        < GAME.think_budget(2.0).iterations
        < GAME.think_budget(4.0).iterations
    )


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_whole_games_legally(level):
    for n in range(6):
        rng = random.Random(n)
        options = random_options(rng)
        state = GAME.new(SEATS, f"lvl-{level}-{n}", options, hands=random_hands(rng))
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            action = GAME.choose_action(
                GAME.view(state, seat), legal, level, rng, budget=Budget(iterations=3000)
            )
            assert action in legal
            state, _ = GAME.apply(state, seat, action)


def test_default_action_is_the_normal_computer():
    state = GAME.new(SEATS, "timeout")
    seat = SEATS[state.turn]
    assert GAME.default_action(state, seat) in GAME.legal_actions(state, seat)


def test_the_computer_picks_the_strongest_card_when_paid():
    from tests.games.triad.test_payout import endgame

    state, _ = endgame({0, 1, 2}, payout="una")
    legal = GAME.legal_actions(state, "ana")
    choice = choose_action(GAME.view(state, "ana"), legal, "hard", random.Random(1))
    assert isinstance(choice, PickCard)
    best = max(legal, key=lambda a: (card(a.card).level, card(a.card).strength))
    assert choice == best
    assert choose_action(GAME.view(state, "bo"), [], "hard", random.Random(1)) is None


def test_the_computer_sees_only_its_view():
    """Two deals that differ only in the opponent's hidden hand give the computer the same view,
    hence the same move."""
    base = ["c030", "c041", "c052", "c063", "c074"]
    for n in range(5):
        a = GAME.new(SEATS, f"hid-{n}", hands={SEATS[0]: base, SEATS[1]: ["c001"] * 5})
        b = GAME.new(SEATS, f"hid-{n}", hands={SEATS[0]: base, SEATS[1]: ["c110"] * 5})
        seat = SEATS[0]
        assert GAME.view(a, seat) == GAME.view(b, seat)
        legal = GAME.legal_actions(a, seat)
        if a.turn == 0:
            ca = choose_action(
                GAME.view(a, seat), legal, "hard", random.Random(n), budget=Budget(iterations=5000)
            )
            cb = choose_action(
                GAME.view(b, seat), legal, "hard", random.Random(n), budget=Budget(iterations=5000)
            )
            assert ca == cb


def _swap_unseen(state, seat_index: int, rng: random.Random):
    """``state`` with the cards of the other seat's hand that ``seat_index`` cannot see replaced
    by other catalogue cards."""
    other = 1 - seat_index
    hands = [list(h) for h in state.hands]
    ids = CARD_IDS
    for i, held in enumerate(hands[other]):
        if held.uid not in state.revealed:
            hands[other][i] = held.model_copy(update={"card": rng.choice(ids)})
    return state.model_copy(update={"hands": hands})


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_swapping_the_opponents_unseen_cards_leaves_the_choice_unchanged(level):
    """Mid-round positions without Abierto (every rule mix): the opponent's hidden cards are
    replaced by others; the view is the same, and so is the computer's move."""
    checked = 0
    for n in range(24):
        rng = random.Random(900 + n)
        options = random_options(rng)
        options.update(open=False)
        state = GAME.new(SEATS, f"swap-{n}", options, hands=random_hands(rng))
        for _ in range(1 + n % 6):
            seat = SEATS[state.turn]
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        me = state.turn
        seat = SEATS[me]
        swapped = _swap_unseen(state, me, random.Random(n))
        assert swapped.hands[1 - me] != state.hands[1 - me] or all(
            h.uid in state.revealed for h in state.hands[1 - me]
        )
        view = GAME.view(state, seat)
        assert GAME.view(swapped, seat) == view
        legal = GAME.legal_actions(state, seat)
        ca = choose_action(view, legal, level, random.Random(n), budget=Budget(iterations=20_000))
        cb = choose_action(
            GAME.view(swapped, seat),
            legal,
            level,
            random.Random(n),
            budget=Budget(iterations=20_000),
        )
        assert ca == cb
        checked += 1
    assert checked == 24


def test_hard_solves_every_guess_of_a_hidden_hand_exactly_later_in_the_round():
    for n in range(6):
        rng = random.Random(300 + n)
        state = GAME.new(SEATS, f"guess-{n}", {}, hands=random_hands(rng))
        while sum(p is None for p in state.board) > 5:
            seat = SEATS[state.turn]
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        seat = SEATS[state.turn]
        stats: dict = {}
        legal = GAME.legal_actions(state, seat)
        chosen = decide(GAME.view(state, seat), legal, "hard", rng, DEFAULT_BUDGET, stats)
        assert chosen in legal
        assert stats["exact"] and stats["guesses_solved"] == stats["samples"] > 1


def test_hard_beats_random_play():
    wins = losses = 0
    for n in range(16):
        rng = random.Random(200 + n)
        hands = random_hands(rng)
        state = GAME.new(SEATS, f"vs-{n}", {"open": True, "same": n % 2 == 0}, hands=hands)
        while state.phase == "play":
            seat = SEATS[state.turn]
            legal = GAME.legal_actions(state, seat)
            level = "hard" if seat == SEATS[n % 2] else "easy"
            action = choose_action(
                GAME.view(state, seat), legal, level, rng, budget=Budget(iterations=4000)
            )
            state, _ = GAME.apply(state, seat, action)
        if state.winner is not None:
            if SEATS[state.winner] == SEATS[n % 2]:
                wins += 1
            else:
                losses += 1
    assert wins >= 3 * losses and wins >= 10


@pytest.mark.parametrize(
    "options",
    [{}, {"same": True, "same_wall": True, "plus": True, "combo": True, "elemental": True}],
    ids=["basic", "all_rules"],
)
def test_hard_solves_guesses_of_a_hidden_hand_exactly_from_ply_one(options):
    """Hidden hands, second placement of the round (the opponent's four unseen cards are
    guessed): within the default node budget at least one guess is solved exactly, and only
    exactly solved guesses are counted."""
    for n in range(1):
        rng = random.Random(700 + n)
        state = GAME.new(SEATS, f"ply1-{n}", options, hands=random_hands(rng))
        seat = SEATS[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        seat = SEATS[state.turn]
        legal = GAME.legal_actions(state, seat)
        stats: dict = {}
        chosen = decide(GAME.view(state, seat), legal, "hard", rng, DEFAULT_BUDGET, stats)
        assert chosen in legal
        assert stats["exact"] and 1 <= stats["guesses_solved"] <= stats["samples"]
        assert stats["nodes"] <= DEFAULT_BUDGET.iterations + 2_000
