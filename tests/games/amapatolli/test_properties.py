"""Property tests over 1,000 seeded random playouts: 2-6 players and every variant.

At every step: the cards are conserved (84, or 80 without Tlapiāni); no view (any seat's, or the
public one) shows a card of another player's hand, the stock or the seed; every legal action of
every seat encodes/decodes to itself and applies without error. At the end of each game: it
terminated, the state survives a JSON round trip, and replaying seed + actions gives the same state.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.amapatolli import GAME
from games.amapatolli.cards import deck_ids
from games.amapatolli.options import Options
from games.amapatolli.state import AmapatolliState

SEATS = [f"p{i}" for i in range(6)]
FULL = frozenset(deck_ids(True))
NO_WILD = frozenset(deck_ids(False))
CARD_ID = re.compile(r'"([a-d](?:0[1-9]|1[0-9]|20)|t[wrkb])"')
MAX_STEPS = 3000
GAMES = 1000
CHUNKS = 10


def options_for(n: int) -> Options:
    combo = (n // 5) % 16
    return Options(
        hand_size=3 + (n // 80) % 5,
        inverse_once=bool(combo & 1),
        no_birds=bool(combo & 2),
        no_tlapiani=bool(combo & 4),
        powers=bool(combo & 8),
    )


def check_conservation(state: AmapatolliState) -> None:
    cards = [c for h in state.hands for c in h] + state.stock + state.pile
    deck = NO_WILD if state.options.no_tlapiani else FULL
    assert len(cards) == len(deck) and set(cards) == deck


def check_views(state: AmapatolliState) -> None:
    # A Tlapiāni turned up at the start is seen by everyone before it goes back into the stock.
    public = set(state.pile) | {
        e.params["card"] for e in state.log if e.code == "first_card_returned"
    }
    for i, seat in enumerate([*state.seats, None]):
        view = GAME.view(state, seat)
        text = view.model_dump_json()
        own = set(state.hands[i]) if seat is not None else set()
        assert [c.id for c in view.hand] == (state.hands[i] if seat is not None else [])
        assert set(CARD_ID.findall(text)) <= own | public
        assert state.seed not in text
        assert sum(view.hand_counts.values()) == sum(map(len, state.hands))
        assert view.stock_count == len(state.stock)


def check_every_legal_action(state: AmapatolliState) -> list[tuple[str, object]]:
    pairs = []
    for seat in state.seats:
        for action in GAME.legal_actions(state, seat):
            text = action.encode()
            assert len(text) <= 60 and GAME.decode_action(text) == action
            GAME.apply(state, seat, action)  # must not raise
            pairs.append((seat, action))
    return pairs


def playout(n: int) -> tuple[AmapatolliState, list[tuple[str, str]]]:
    rng = random.Random(n)
    players = 2 + n % 5
    seats = SEATS[:players]
    seed = f"prop-{n}"
    state = GAME.new(seats, seed, options_for(n))
    use_ai = n % 4 == 0  # a quarter of the games are played by the computer players
    levels = ["easy", "normal", "hard"]
    log: list[tuple[str, str]] = []
    for step in range(MAX_STEPS):
        check_conservation(state)
        check_views(state)
        pairs = check_every_legal_action(state)
        if state.finished:
            assert pairs == [] and GAME.outcome(state) is not None
            break
        assert GAME.outcome(state) is None
        assert GAME.to_act(state) == {state.seats[state.turn]}
        if use_ai:
            seat, action = ai_move(state, levels[n % 3], rng)
        else:
            seat, action = rng.choice(pairs)
        before = state.model_dump_json() if step % 10 == 0 else None
        old = state
        state, _ = GAME.apply(state, seat, action)
        log.append((seat, action.encode()))
        if before is not None:
            assert old.model_dump_json() == before  # apply left the old state untouched
            assert GAME.load_state(GAME.dump_state(state)) == state
    else:
        pytest.fail(f"game {n} did not terminate")
    return state, log


def ai_move(state: AmapatolliState, level: str, rng: random.Random):
    # optional actions of the other seats first (Ce, call-outs), then the player at turn
    turn_seat = state.seats[state.turn]
    for seat in [s for s in state.seats if s != turn_seat] + [turn_seat]:
        legal = GAME.legal_actions(state, seat)
        choice = GAME.choose_action(GAME.view(state, seat), legal, level, rng)
        if choice is not None:
            assert choice in legal
            return seat, choice
        assert seat != turn_seat, "the player at turn must always get an action"
    raise AssertionError("unreachable")


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(chunk):
    per = GAMES // CHUNKS
    for n in range(chunk * per, (chunk + 1) * per):
        final, log = playout(n)
        assert GAME.load_state(GAME.dump_state(final)) == final
        replay = GAME.new(final.seats, final.seed, final.options)
        for seat, text in log:
            replay, _ = GAME.apply(replay, seat, GAME.decode_action(text))
        assert replay == final
        outcome = GAME.outcome(final)
        ranked = [s for group in outcome.ranking for s in group]
        assert sorted(ranked) == sorted(final.seats)
        assert set(outcome.points) == set(final.seats)
        assert GAME.rematch_seats(final)[0] in outcome.ranking[-1]


def test_playouts_cover_every_player_count_and_variant():
    seen = {(2 + n % 5, options_for(n)) for n in range(GAMES)}
    assert {p for p, _ in seen} == {2, 3, 4, 5, 6}
    for field in ("inverse_once", "no_birds", "no_tlapiani", "powers"):
        for players in range(2, 7):
            assert {getattr(o, field) for p, o in seen if p == players} == {False, True}
    assert {o.hand_size for _, o in seen} == {3, 4, 5, 6, 7}


@settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    players=st.integers(2, 6),
    hand_size=st.integers(3, 7),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=400),
)
def test_hypothesis_action_sequences(players, hand_size, flags, choices):
    options = Options(
        hand_size=hand_size,
        inverse_once=flags[0],
        no_birds=flags[1],
        no_tlapiani=flags[2],
        powers=flags[3],
    )
    state = GAME.new(SEATS[:players], f"hyp-{players}-{hand_size}", options)
    for pick in choices:
        if state.finished:
            break
        pairs = [(s, a) for s in state.seats for a in GAME.legal_actions(state, s)]
        seat, action = pairs[pick % len(pairs)]
        state, _ = GAME.apply(state, seat, action)
        check_conservation(state)
    assert GAME.load_state(GAME.dump_state(state)) == state
