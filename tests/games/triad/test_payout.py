"""Hasta la muerte (Sudden Death) and the payout rules (Una, Diferencia, Directo, Todas)."""

from __future__ import annotations

import random

import pytest

from games.core import IllegalAction
from games.triad import GAME, PickCard
from games.triad.options import MAX_REMATCHES
from games.triad.rules import first_player
from tests.games.triad.helpers import SEATS, holders, place, scenario

# Original owners of cells 0-7 (seat 0 also owns the card it places last on 8, c003).
OWNERS = {0: 1, 1: 0, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0, 7: 0}
CARDS = {0: "c012", 1: "c013", 2: "c014", 3: "c015", 4: "c016", 5: "c017", 6: "c018", 7: "c019"}
LAST = "c003"  # (4,1,4,4) on 8: its top and left face cells 5 and 7, always seat 0's: no flip


def endgame(seat0_cells: set[int], seed: str = "endgame", **options):
    """Seat 0 (who started) places its last card on 8. Seat 0 holds 5, 7 and ``seat0_cells``
    (of 0, 1, 2, 3, 4, 6); seat 1 holds the rest and one card (c020) in hand. Seat 0's final
    score is len(seat0_cells) + 3."""
    held = set(seat0_cells) | {5, 7}
    board = {c: (CARDS[c], OWNERS[c], 0 if c in held else 1) for c in range(8)}
    state = scenario(board, {0: [LAST], 1: ["c020"]}, turn=0, seed=seed, **options)
    state.first = 0
    return place(state, LAST, 8)


def transfers(state):
    return [(t.card, t.giver, t.receiver) for t in GAME.outcome(state).transfers]


A, B = SEATS
ORIGINALS_A = ["c013", "c017", "c018", "c019", "c003"]  # cells 1, 5, 6, 7 then the hand
ORIGINALS_B = ["c012", "c014", "c015", "c016", "c020"]  # cells 0, 2, 3, 4 then the hand


def test_endgame_scores():
    for cells, expected in [(set(), [3, 7]), ({0, 1}, [5, 5]), ({0, 1, 2, 3}, [7, 3])]:
        state, _ = endgame(cells, sudden_death=False)
        assert state.scores() == expected
        assert state.originals == [ORIGINALS_A, ORIGINALS_B]


# ----- Una ----------------------------------------------------------------------------------


def test_una_the_winner_picks_one_of_the_losers_five():
    state, events = endgame({0, 1, 2}, payout="una")  # 6-4
    assert state.phase == "pick" and GAME.outcome(state) is None
    assert [e.code for e in events][-2:] == ["game_won", "pick_required"]
    assert GAME.to_act(state) == {A}
    legal = GAME.legal_actions(state, A)
    assert legal == [PickCard(index=i, card=c) for i, c in enumerate(ORIGINALS_B)]
    assert GAME.legal_actions(state, B) == []
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, B, PickCard(index=0, card="c003"))
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, A, PickCard(index=2, card="c014"))
    assert exc.value.code == "card_mismatch"
    view = GAME.view(state, B)
    assert view.pick is not None and view.pick.winner == A and view.pick.remaining == 1
    assert [c.face.card for c in view.pick.choices] == ORIGINALS_B
    done, events = GAME.apply(state, A, PickCard(index=2, card="c015"))
    assert done.phase == "over" and GAME.to_act(done) == set()
    assert transfers(done) == [("c015", B, A)]
    out = GAME.outcome(done)
    assert out.ranking == [[A], [B]] and out.winner == A
    assert events[-1].code == "payout"
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(done, A, PickCard(index=0, card="c012"))
    assert exc.value.code == "game_over"


def test_una_when_the_second_player_wins():
    state, _ = endgame(set(), payout="una")  # 3-7
    assert GAME.to_act(state) == {B}
    done, _ = GAME.apply(state, B, PickCard(index=4, card="c003"))
    assert transfers(done) == [("c003", A, B)]


# ----- Diferencia -----------------------------------------------------------------------------


def test_diferencia_the_winner_picks_the_score_difference():
    state, events = endgame({0, 1, 2, 3}, payout="diferencia")  # 7-3
    assert state.picks_required == 4
    assert events[-1].params["count"] == 4
    for n, index in enumerate([4, 0, 3]):
        state, _ = GAME.apply(state, A, PickCard(index=index, card=ORIGINALS_B[index]))
        assert state.phase == "pick"
        assert GAME.view(state, None).pick.remaining == 3 - n
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, A, PickCard(index=0, card="c012"))
    assert exc.value.code == "already_picked"
    assert PickCard(index=0, card="c012") not in GAME.legal_actions(state, A)
    state, _ = GAME.apply(state, A, PickCard(index=1, card="c014"))
    assert state.phase == "over"
    assert transfers(state) == [("c020", B, A), ("c012", B, A), ("c016", B, A), ("c014", B, A)]


def test_diferencia_takes_at_most_the_five_cards():
    state, _ = endgame({0, 1, 2, 3, 4, 6}, payout="diferencia")  # 9-1
    assert state.scores() == [9, 1] and state.picks_required == 5
    for i, cid in enumerate(ORIGINALS_B):
        state, _ = GAME.apply(state, A, PickCard(index=i, card=cid))
    assert state.phase == "over"
    assert sorted(transfers(state)) == sorted((c, B, A) for c in ORIGINALS_B)


# ----- Todas / Directo / draws ---------------------------------------------------------------


def test_todas_the_winner_takes_all_five():
    state, _ = endgame({0, 1, 2}, payout="todas")
    assert state.phase == "over"
    assert transfers(state) == [(c, B, A) for c in ORIGINALS_B]


def test_directo_each_side_takes_the_opponent_cards_of_its_colour():
    # 6-4 for A: A holds 0, 1, 2, 5, 7, 8 (B's c012 on 0 and c014 on 2); B holds 3, 4, 6 (A's
    # c018 on 6) and its hand.
    state, _ = endgame({0, 1, 2}, payout="directo")
    assert state.phase == "over" and state.winner == 0
    assert transfers(state) == [("c018", A, B), ("c012", B, A), ("c014", B, A)]
    # 3-7 for B: B holds A's c013 (cell 1) and c018 (cell 6); A holds only its own.
    state, _ = endgame(set(), payout="directo")
    assert transfers(state) == [("c013", A, B), ("c018", A, B)]


def test_directo_applies_to_a_draw():
    # 5-5: A holds B's c012 (cell 0) and c015 (3); B holds A's c013 (1) and c018 (6).
    state, events = endgame({0, 3}, payout="directo")
    assert state.phase == "over" and state.winner is None
    assert GAME.outcome(state).ranking == [[A, B]]
    assert transfers(state) == [("c013", A, B), ("c018", A, B), ("c012", B, A), ("c015", B, A)]
    assert [e.code for e in events][-2:] == ["game_draw", "payout"]


@pytest.mark.parametrize("payout", ["una", "diferencia", "todas"])
def test_no_payout_on_a_draw(payout):
    state, _ = endgame({0, 1}, payout=payout)
    assert state.phase == "over" and transfers(state) == []
    assert GAME.outcome(state).ranking == [[A, B]]


# ----- Hasta la muerte ------------------------------------------------------------------------


def test_sudden_death_rematch_with_the_cards_of_each_colour():
    # 5-5: A holds cells 0 (B's c012), 3 (B's c015), 5, 7, 8; B holds 1 (A's c013), 2, 4,
    # 6 (A's c018) and its hand c020.
    state, events = endgame({0, 3}, seed="sd", sudden_death=True, payout="todas")
    codes = [e.code for e in events]
    assert codes[-2:] == ["round_draw", "sudden_death"]
    assert state.phase == "play" and state.round == 1 and GAME.outcome(state) is None
    assert state.board == [None] * 9
    hand_a = [(h.card, h.uid // 5) for h in state.hands[0]]
    hand_b = [(h.card, h.uid // 5) for h in state.hands[1]]
    assert hand_a == [("c012", 1), ("c015", 1), ("c017", 0), ("c019", 0), ("c003", 0)]
    assert hand_b == [("c013", 0), ("c014", 1), ("c016", 1), ("c018", 0), ("c020", 1)]
    assert state.history[0].scores == [5, 5]
    assert state.first == first_player("sd", 1) and state.turn == state.first
    assert state.originals == [ORIGINALS_A, ORIGINALS_B]
    assert state.scores() == [5, 5]
    view = GAME.view(state, None)
    assert view.round == 1 and view.history[0].scores == {A: 5, B: 5}
    # Cards seen on the board stay public; only B's never-placed c020 stays hidden.
    assert [f.card if f else None for f in view.hands[B]] == ["c013", "c014", "c016", "c018", None]


def test_sudden_death_payout_uses_the_original_owners():
    state, _ = endgame({0, 3}, seed="sd2", sudden_death=True, payout="todas")
    rng = random.Random(7)
    while state.phase == "play":
        seat = SEATS[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    out = GAME.outcome(state)
    assert out is not None
    if state.winner is not None:
        loser = SEATS[1 - state.winner]
        lost = ORIGINALS_A if loser == A else ORIGINALS_B
        assert transfers(state) == [(c, loser, SEATS[state.winner]) for c in lost]
    assert len(out.rounds) == state.round + 1


def test_sudden_death_ends_in_a_draw_after_five_rematches():
    board = {c: (CARDS[c], OWNERS[c], 0 if c in {0, 3, 5, 7} else 1) for c in range(8)}
    final = scenario(board, {0: [LAST], 1: ["c020"]}, turn=0, sudden_death=True, payout="una")
    final.round = MAX_REMATCHES
    done, events = place(final, LAST, 8)
    assert done.phase == "over" and done.winner is None and done.round == MAX_REMATCHES
    assert [e.code for e in events][-2:] == ["game_draw", "payout"]
    assert transfers(done) == []
    assert holders(done)[8] == 0
    final.round = MAX_REMATCHES - 1
    again, _ = place(final, LAST, 8)
    assert again.phase == "play" and again.round == MAX_REMATCHES


def test_directo_after_sudden_death_moves_cards_by_original_owner():
    state, _ = endgame({0, 3}, seed="sd3", sudden_death=True, payout="directo")
    rng = random.Random(11)
    while state.phase == "play":
        seat = SEATS[state.turn]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    colour = {p.uid: p.holder for p in state.board}
    for s in (0, 1):
        colour.update({h.uid: s for h in state.hands[s]})
    expected = [
        (state.originals[u // 5][u % 5], SEATS[u // 5], SEATS[colour[u]])
        for u in range(10)
        if colour[u] != u // 5
    ]
    assert transfers(state) == expected
    assert state.round >= 1
