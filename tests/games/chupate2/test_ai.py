"""Computer players: always legal, decide from the view, and the levels differ as described."""

from __future__ import annotations

import random

import pytest

from games.chupate2 import GAME
from games.chupate2.ai import choose_action
from tests.games.chupate2.helpers import act, assert_conserved, make_state

VARIANTS = [
    (2, {}),
    (3, {"stack_plus4": True, "last_card": True}),
    (4, {"teams": "pairs", "points": "50"}),
    (6, {"teams": "trios", "last_card": True}),
    (6, {"teams": "pairs", "stack_plus4": True}),
]


def play_game(levels: list[str], seed: int, options: dict) -> tuple:
    seats = [f"cpu:{i}" for i in range(len(levels))]
    level_of = dict(zip(seats, levels, strict=True))
    state = GAME.new(seats, f"ai-{seed}", options)
    rng = random.Random(seed)
    steps = 0
    while GAME.outcome(state) is None:
        steps += 1
        assert steps < 5000
        for seat in seats:  # optional out-of-turn actions first
            if seat in GAME.to_act(state):
                continue
            legal = GAME.legal_actions(state, seat)
            if legal:
                choice = choose_action(GAME.view(state, seat), legal, level_of[seat], rng)
                if choice is not None:
                    assert choice in legal
                    state, _ = GAME.apply(state, seat, choice)
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        choice = choose_action(GAME.view(state, seat), legal, level_of[seat], rng)
        assert choice in legal
        state, _ = GAME.apply(state, seat, choice)
        assert_conserved(state)
    return state, GAME.outcome(state)


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_legal_games_to_the_end(variant, level):
    n, options = VARIANTS[variant]
    for seed in range(6):
        levels = [level if i % 2 == 0 else "normal" for i in range(n)]
        _, outcome = play_game(levels, seed, options)
        assert outcome.winners


def test_normal_beats_easy_most_of_the_time():
    wins = 0
    for seed in range(60):
        levels = ["normal", "easy"] if seed % 2 == 0 else ["easy", "normal"]
        _, outcome = play_game(levels, seed, {})
        wins += levels[int(outcome.winners[0].split(":")[1])] == "normal"
    assert wins >= 45


def test_default_action_is_legal_for_the_timer():
    state = GAME.new(["a", "b", "c"], "timer", {"last_card": True})
    for _ in range(30):
        (seat,) = GAME.to_act(state)
        action = GAME.default_action(state, seat)
        assert action in GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, action)
        if GAME.outcome(state):
            break


def _decide(state, seat, level="normal"):
    return choose_action(
        GAME.view(state, seat), GAME.legal_actions(state, seat), level, random.Random(0)
    )


def test_normal_dumps_high_values_and_keeps_wilds():
    state = make_state({"a": ["r1a", "rDa", "r9a", "Wa"], "b": ["g1a"]}, "r5a")
    assert _decide(state, "a").encode() == "p.rDa"
    state = make_state({"a": ["r1a", "r9a", "Wa"], "b": ["g1a"]}, "r5a")
    assert _decide(state, "a").encode() == "p.r9a"
    # a wild only when nothing else fits, naming the colour held most
    state = make_state({"a": ["g1a", "g2a", "b3a", "Wa"], "b": ["g9a"]}, "r5a")
    assert _decide(state, "a").encode() == "p.Wa.g"


def test_normal_plays_a_plus4_only_when_honest():
    # facing a +2 stack (variant stack +4) while holding red, the colour in force: no bluff
    def facing(hand):
        return make_state(
            {"a": hand, "b": ["y9a"]},
            "rDa",
            phase="penalty",
            pending=2,
            options={"stack_plus4": True},
        )

    assert _decide(facing(["r1a", "Fa"]), "a").encode() == "take"
    assert _decide(facing(["g1a", "g2a", "Fa"]), "a").encode() == "p.Fa.g"


def test_stacks_a_draw_two_rather_than_taking():
    state = make_state({"a": ["g1a", "gDa"], "b": ["y1a"]}, "rDa", phase="penalty", pending=2)
    assert _decide(state, "a").encode() == "p.gDa"


def test_hard_challenges_by_the_odds():
    # a +4 from a big hand: very likely it held the colour in force (hard's search samples that
    # hand from the unseen cards). A +4 as the second-to-last card is a gamble the search also
    # takes: the player left with one card goes out next turn unless the challenge wins.
    big = ["b1a", "b2a", "b3a", "b4a", "b5a", "b6a", "b7a", "b8a", "b9a", "g1a", "g2a", "g3a"]
    state = make_state({"a": ["Fa", *big], "b": ["y1a", "y2a"]}, "r5a")
    state, _ = act(state, "a", "p.Fa.b")
    assert _decide(state, "b", "hard").encode() == "chal"


def test_hard_attacks_an_opponent_about_to_go_out():
    hands = {"a": ["r1a", "r9a", "rSa", "y4a"], "b": ["g1a"], "c": ["g2a", "g3a", "g4a"]}
    state = make_state(hands, "r5a", direction=1)  # b is next and holds one card
    assert _decide(state, "a", "hard").encode() == "p.rSa"


def test_computer_calls_and_catches_but_spares_team_mates():
    hands = {"a": ["r1a", "r2a"], "b": ["g1a", "g2a"], "c": ["y1a", "y2a"], "d": ["b1a", "b2a"]}
    state = make_state(hands, "r5a", options={"last_card": True, "teams": "pairs"})
    assert _decide(state, "a").encode() == "announce"
    state, _ = act(state, "a", "p.r1a")  # forgot to call
    assert _decide(state, "b").encode() == "catch"
    assert _decide(state, "c") is None  # a team-mate does not catch
