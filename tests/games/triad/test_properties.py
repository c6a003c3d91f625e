"""Property tests over thousands of seeded random games (random rules, hands and moves)."""

from __future__ import annotations

import itertools
import random

import pytest

from games.triad import GAME
from games.triad.rules import SIDES, RuleSet, board_arrays, resolve
from tests.games.triad.randomgames import SEATS, random_game

GAMES = 2000


@pytest.fixture(scope="module")
def games():
    return [random_game(n, low_levels=n % 3 == 0) for n in range(GAMES)]


def test_every_game_ends_with_an_outcome(games):
    rounds = 0
    for g in games:
        final = g.states[-1]
        out = GAME.outcome(final)
        assert out is not None and final.phase == "over"
        assert GAME.to_act(final) == set()
        assert len(out.rounds) == final.round + 1
        rounds += final.round
    assert rounds > 0  # Sudden Death rematches happened


def test_scores_always_sum_to_ten(games):
    for g in games:
        for state in g.states:
            assert sum(state.scores()) == 10
            view = GAME.view(state, None)
            assert sum(view.scores.values()) == 10


def test_ten_distinct_cards_in_play(games):
    for g in games:
        for state in g.states:
            uids = [p.uid for p in state.board if p]
            uids += [h.uid for hand in state.hands for h in hand]
            assert sorted(uids) == list(range(10))


def test_json_round_trip(games):
    for g in games[:600]:
        for state in g.states:
            assert GAME.load_state(GAME.dump_state(state)) == state
    for g in games:
        assert GAME.load_state(GAME.dump_state(g.states[-1])) == g.states[-1]


def test_replay_is_deterministic(games):
    for g in games[:1000]:
        state = GAME.new(SEATS, g.seed, g.options, hands=g.hands)
        assert state == g.states[0]
        for seat, action in g.moves:
            state, _ = GAME.apply(state, seat, GAME.decode_action(action.encode()))
        assert state == g.states[-1]


def test_encode_decode_round_trip(games):
    for g in games[:500]:
        for state in g.states:
            for seat in SEATS:
                for action in GAME.legal_actions(state, seat):
                    text = action.encode()
                    assert len(text) <= 60 and text.isascii()
                    assert GAME.decode_action(text) == action


def test_payout_transfers_are_consistent(games):
    for g in games:
        final = g.states[-1]
        out = GAME.outcome(final)
        moves = out.transfers
        # The view's transfers carry each card's uid (which of the ten it is); the outcome's
        # are the same moves without it.
        shown = GAME.view(final, None).transfers
        assert [(t.card, t.from_seat, t.to_seat) for t in shown] == [
            (t.card, t.giver, t.receiver) for t in moves
        ]
        assert len({t.uid for t in shown}) == len(moves)
        for t in shown:
            assert t.from_seat != t.to_seat
            assert final.originals[SEATS.index(t.from_seat)][t.uid % 5] == t.card
        rule = g.options["payout"]
        winner = out.winner
        if rule != "directo" and winner is None:
            assert moves == []
        if rule == "todas" and winner is not None:
            assert len(moves) == 5
        if rule == "una" and winner is not None:
            assert len(moves) == 1 and moves[0].receiver == winner
        if rule == "diferencia" and winner is not None:
            s = out.scores
            assert len(moves) == min(5, abs(s[SEATS[0]] - s[SEATS[1]]))


def test_views_hide_what_they_must(games):
    for g in games[:400]:
        for state in g.states:
            public = GAME.view(state, None)
            dumped = public.model_dump_json()
            assert g.seed not in dumped
            for s, seat in enumerate(SEATS):
                mine = GAME.view(state, seat)
                other = SEATS[1 - s]
                assert all(f is not None for f in mine.hands[seat])
                for face, held in zip(mine.hands[other], state.hands[1 - s], strict=True):
                    visible = (
                        state.options.open or held.uid in state.revealed or (state.phase == "over")
                    )
                    assert (face is not None) == visible
                    if face is not None:
                        assert face.card == held.card
                assert mine.hand_counts[other] == len(state.hands[1 - s])


def _situations(games, limit):
    """(cell, placer, printed, modified, owner, rules) just before each placement's flips."""
    out = []
    for g in games:
        for before, after in itertools.pairwise(g.states):
            lm = after.last_move
            if lm is None or before.phase != "play" or after.round != before.round:
                continue
            printed, modified, owner = board_arrays(after)
            owner = list(owner)
            for c in range(9):  # undo this move's flips and the placed card's ownership
                if before.board[c] is not None:
                    owner[c] = before.board[c].holder
            owner[lm.cell] = lm.seat
            out.append((lm, printed, modified, owner, after.options.rule_set))
            if len(out) >= limit:
                return out
    return out


def test_flips_never_depend_on_iteration_order(games):
    orders = list(itertools.permutations(SIDES))
    checked = 0
    for lm, printed, modified, owner, rules in _situations(games, 4000):
        ref = resolve(lm.cell, lm.seat, printed, modified, owner, rules)
        assert list(ref.same) == lm.same and list(ref.basic) == lm.basic
        assert list(ref.plus) == lm.plus and list(ref.combo) == lm.combo
        for order in orders:
            for lifo in (True, False):
                assert (
                    resolve(lm.cell, lm.seat, printed, modified, owner, rules, order, lifo) == ref
                )
        checked += 1
    assert checked >= 4000


def test_flips_do_not_depend_on_order_on_random_boards():
    rng = random.Random(5)
    for _ in range(3000):
        printed = [
            tuple(rng.randint(1, 10) for _ in range(4)) if rng.random() < 0.7 else None
            for _ in range(9)
        ]
        cell = rng.randrange(9)
        printed[cell] = tuple(rng.randint(1, 10) for _ in range(4))
        modified = [
            None if p is None else tuple(v + rng.choice((-1, 0, 1)) for v in p) for p in printed
        ]
        owner = [-1 if p is None else rng.randrange(2) for p in printed]
        placer = rng.randrange(2)
        owner[cell] = placer
        same = rng.random() < 0.6
        plus = rng.random() < 0.6
        rules = RuleSet(
            same, same and rng.random() < 0.5, plus, (same or plus) and rng.random() < 0.7
        )
        ref = resolve(cell, placer, printed, modified, owner, rules)
        shuffled = list(SIDES)
        rng.shuffle(shuffled)
        assert resolve(cell, placer, printed, modified, owner, rules, shuffled, False) == ref
