"""Property tests over 1,000+ seeded random playouts across player counts and variants.

At every step: 108 cards conserved (no duplicate, none lost), private events go only to their
owner and public events name only cards turned or played face up, views show the seat's own hand
and a reveal only to its challenger. In every tenth game ("deep"), at every step: no view of any
seat (or the public) contains a card id that seat has not legitimately seen (own hand, discard
pile, events visible to it -- the challenge reveal only for the challenger), and on every 7th
step every legal action of every seat applies, leaves the old state unchanged and round-trips
through encode/decode and JSON. Per game: termination, JSON round trip of the final state and
(for 3 games in 10) replay determinism from the seed and the encoded action log.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.chupate2 import GAME
from games.core import IllegalAction
from tests.games.chupate2.helpers import assert_conserved, card_ids

MAX_STEPS = 20_000
PLAYOUTS_PER_CASE = 125

# (players, options): 11 cases x 125 playouts = 1,375 games, plus AI playouts elsewhere.
CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"stack_plus4": True}),
    (4, {"last_card": True}),
    (6, {}),
    (4, {"teams": "pairs", "points": "50"}),
    (6, {"teams": "pairs", "stack_plus4": True, "last_card": True}),
    (6, {"teams": "trios", "points": "50"}),
    (2, {"points": "50", "stack_plus4": True, "last_card": True}),
    # the house rules (jump-in, 7-0, draw until playable) with the variants they touch
    (4, {"jump_in": True, "seven_o": True, "last_card": True}),
    (6, {"seven_o": True, "teams": "pairs", "draw_until_playable": True, "last_card": True}),
    (3, {"jump_in": True, "draw_until_playable": True, "stack_plus4": True, "points": "50"}),
]


def _event_cards(event) -> set[str]:
    return card_ids(json.dumps(event.params))


def _pick(rng: random.Random, legal: list) -> Any:
    plays = [a for a in legal if a.kind == "play"]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(legal)


def _check_events(state, actor: str, action, events) -> None:
    for e in events:
        if e.code == "drew_cards":
            assert e.to == (e.seat,)
        elif e.code == "challenge_reveal":
            assert action.kind == "challenge" and e.to == (actor,)
        else:
            assert e.to is None
            # public events only name cards that were turned or played face up
            if e.code in ("played", "jumped_in"):
                assert _event_cards(e) == {action.card} and e.seat == actor
            elif e.code in ("first_card", "first_card_returned"):
                assert len(_event_cards(e)) == 1
            else:
                assert not _event_cards(e), e


def _check_views(state, known: dict, full: bool, rng: random.Random) -> None:
    seats = state.seats
    # every seat in fully checked games; else the seat to act, one other seat and the public
    chosen = [*seats, None] if full else [state.seats[state.turn], rng.choice(seats), None]
    for seat in chosen:
        view = GAME.view(state, seat)
        if seat is not None:
            assert sorted(view.hand) == sorted(state.hands[seat])
        else:
            assert view.hand == [] and view.drawn_card is None
        if view.reveal is not None:
            assert view.reveal.to == seat
        assert view.hand_counts == {s: len(h) for s, h in state.hands.items()}
        if full:
            seen = card_ids(view.model_dump_json())
            allowed = known[seat] | set(state.discard)
            if seat is not None:
                allowed |= set(state.hands[seat])
            assert seen <= allowed, (seat, seen - allowed)


def _learn(known: dict, state, events) -> None:
    for seat in known:
        for e in events:
            if e.visible_to(seat):
                known[seat] |= _event_cards(e)
        known[seat] |= set(state.discard)
        if seat is not None:
            known[seat] |= set(state.hands[seat])


def _playout(n_players: int, options: dict, seed: int, deep: bool):
    rng = random.Random(seed)
    seats = [f"u{seed}-{i}" for i in range(n_players)]
    state = GAME.new(seats, f"seed-{seed}", options)
    log: list[tuple[str, str]] = []
    known: dict = {s: set() for s in [*seats, None]}
    _learn(known, state, state.log)
    steps = 0
    while GAME.outcome(state) is None:
        steps += 1
        assert steps < MAX_STEPS, "playout did not terminate"
        to_act = GAME.to_act(state)
        assert len(to_act) == 1
        # out-of-turn actions (the "¡Última!" call and catch, jump-ins) of the other seats
        for seat in seats:
            if seat in to_act:
                continue
            optional = GAME.legal_actions(state, seat)
            if optional and rng.random() < 0.4:
                action = rng.choice(optional)
                new, events = GAME.apply(state, seat, action)
                assert new.version == state.version + 1
                _check_events(new, seat, action, events)
                state = new
                log.append((seat, action.encode()))
                if deep:
                    _learn(known, state, events)
                assert_conserved(state)
                if GAME.outcome(state) is not None:
                    break
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert legal, "the seat to act has no legal action"
        sample = deep and steps % 7 == 0
        if sample:
            before = GAME.dump_state(state)
            for s in seats:
                for action in GAME.legal_actions(state, s):
                    assert GAME.decode_action(action.encode()) == action
                    assert len(action.encode()) <= 60
                    new, _ = GAME.apply(state, s, action)
                    assert new.version == state.version + 1
                    assert_conserved(new)
            assert GAME.dump_state(state) == before, "apply changed the old state"
            assert GAME.load_state(before) == state
        action = _pick(rng, legal)
        new, events = GAME.apply(state, seat, action)
        _check_events(new, seat, action, events)
        state = new
        log.append((seat, action.encode()))
        if deep:
            _learn(known, state, events)
        assert_conserved(state)
        _check_views(state, known, deep, rng)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners
    assert sorted(s for group in outcome.ranking for s in group) == sorted(seats)
    assert GAME.load_state(GAME.dump_state(state)) == state
    return state, log, steps


@pytest.mark.parametrize("case", range(len(CASES)))
def test_random_playouts(case):
    n_players, options = CASES[case]
    total_steps = 0
    for k in range(PLAYOUTS_PER_CASE):
        seed = case * 1000 + k
        deep = k % 10 == 0
        state, log, steps = _playout(n_players, options, seed, deep)
        total_steps += steps
        if deep or k % 5 == 1:  # replay determinism from the seed and the encoded log
            replay = GAME.new(state.seats, f"seed-{seed}", options)
            for seat, text in log:
                replay, _ = GAME.apply(replay, seat, GAME.decode_action(text))
            assert GAME.dump_state(replay) == GAME.dump_state(state)
    assert total_steps > PLAYOUTS_PER_CASE


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    n_players=st.sampled_from([2, 3, 4, 6]),
    points=st.sampled_from(["off", "50"]),
    stack_plus4=st.booleans(),
    last_card=st.booleans(),
    teams=st.sampled_from(["off", "pairs", "trios"]),
    seed=st.integers(min_value=0, max_value=10**9),
)
def test_hypothesis_playouts(n_players, points, stack_plus4, last_card, teams, seed):
    """Any table the options allow plays to the end with every invariant intact."""
    if teams == "pairs" and n_players not in (4, 6) or teams == "trios" and n_players != 6:
        with pytest.raises(IllegalAction):
            GAME.new([f"s{i}" for i in range(n_players)], "x", {"teams": teams})
        return
    options = {"points": points, "stack_plus4": stack_plus4, "last_card": last_card, "teams": teams}
    _playout(n_players, options, seed, deep=seed % 4 == 0)
