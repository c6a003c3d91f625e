"""Scenario tests, one per rule of docs/rules/triad.md (Play and Rules)."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.triad import GAME, Options, PickCard, Play
from tests.games.triad.helpers import SEATS, edges, holders, place, scenario

# Cards used below, with their printed (top, right, bottom, left) values checked first so the
# scenarios fail loudly if the catalogue changes.
VALUES = {
    "c001": (3, 3, 4, 4),
    "c002": (3, 4, 3, 3),
    "c003": (4, 1, 4, 4),
    "c004": (4, 4, 3, 2),
    "c005": (3, 4, 1, 4),
    "c007": (4, 3, 4, 3),
    "c009": (3, 4, 4, 2),
    "c010": (4, 4, 4, 2),
    "c012": (5, 5, 3, 2),
    "c013": (4, 2, 5, 4),
    "c019": (3, 4, 5, 3),
    "c020": (3, 4, 3, 5),
    "c080": (8, 4, 6, 10),
    "c100": (10, 3, 10, 7),
}
FILLER = ["c014", "c015", "c016", "c017", "c018"]


def test_card_values_used_by_the_scenarios():
    for cid, values in VALUES.items():
        assert edges(cid) == values


def _filler(n: int) -> list[str]:
    return FILLER[:n]


# ----- basic rule ---------------------------------------------------------------------------


def test_basic_rule_flips_only_strictly_beaten_opponent_cards():
    # c001 (3,3,4,4) on 4: left 4 > c003's right 1 (flips); top 3 = c004's bottom 3 (stays);
    # bottom 4 < c012's top 5 (stays); right 3 vs own c006 (own cards never flip).
    state = scenario(
        board={3: ("c003", 1, 1), 1: ("c004", 1, 1), 7: ("c012", 1, 1), 5: ("c006", 0, 0)},
        hands={0: ["c001", *_filler(3)], 1: _filler(3)[:2]},
        turn=0,
    )
    after, events = place(state, "c001", 4)
    assert holders(after) == [None, 1, None, 0, 0, 0, None, 1, None]
    assert after.last_move.basic == [3]
    assert [e.code for e in events] == ["played", "flipped"]
    assert after.turn == 1
    assert sum(after.scores()) == 10


def test_score_counts_board_and_hand():
    state = GAME.new(SEATS, "s", hands={SEATS[0]: _filler(5), SEATS[1]: _filler(5)})
    assert state.scores() == [5, 5]
    view = GAME.view(state, None)
    assert view.scores == {SEATS[0]: 5, SEATS[1]: 5}


# ----- Igual / Pared --------------------------------------------------------------------------


def _same_board(own_left: bool) -> dict[int, tuple[str, int, int]]:
    # c001 (3,3,4,4) on 4: top 3 = c004's bottom 3 (opponent), left 4 = c009's right 4.
    return {1: ("c004", 1, 1), 3: ("c009", 1, 0 if own_left else 1)}


def test_same_with_one_own_card_among_the_matches_flips_the_opponent_card():
    state = scenario(
        _same_board(own_left=True), {0: ["c001", *_filler(4)], 1: _filler(3)}, turn=0, same=True
    )
    after, events = place(state, "c001", 4)
    assert holders(after)[1] == 0 and holders(after)[3] == 0
    assert after.last_move.same == [1]
    assert "same" in [e.code for e in events]


def test_same_flips_every_opponent_card_matched():
    state = scenario(
        _same_board(own_left=False), {0: ["c001", *_filler(4)], 1: _filler(3)}, turn=0, same=True
    )
    after, _ = place(state, "c001", 4)
    assert after.last_move.same == [1, 3]
    assert holders(after)[1] == holders(after)[3] == 0


def test_without_same_equal_sides_do_not_flip():
    state = scenario(_same_board(own_left=False), {0: ["c001", *_filler(4)], 1: _filler(3)}, turn=0)
    after, _ = place(state, "c001", 4)
    assert holders(after)[1] == holders(after)[3] == 1


def test_same_needs_two_matches():
    state = scenario(
        {1: ("c004", 1, 1)}, {0: ["c001", *_filler(4)], 1: _filler(4)}, turn=0, same=True
    )
    after, _ = place(state, "c001", 4)
    assert holders(after)[1] == 1


def _wall_state(**rules: bool):
    # c100 (10,3,10,7) on corner 0: top A faces the wall; right 3 = c019's left 3.
    return scenario({1: ("c019", 1, 1)}, {0: ["c100", *_filler(4)], 1: _filler(4)}, turn=0, **rules)


def test_same_wall_counts_the_board_edge_as_an_a():
    after, events = place(_wall_state(same=True, same_wall=True), "c100", 0)
    assert holders(after)[1] == 0
    assert after.last_move.same == [1] and after.last_move.same_wall
    assert "same_wall" in [e.code for e in events]


def test_without_same_wall_the_edge_does_not_count():
    after, _ = place(_wall_state(same=True), "c100", 0)
    assert holders(after)[1] == 1


def test_walls_never_count_for_plus():
    # c001 (3,3,4,4) on 0: top 3 + wall A = 13 = right 3 + c080's left 10: Suma would need
    # the wall, so nothing flips (and no Igual: 3 != 10, top 3 is not an A).
    state = scenario(
        {1: ("c080", 1, 1)},
        {0: ["c001", *_filler(4)], 1: _filler(4)},
        turn=0,
        plus=True,
        same=True,
        same_wall=True,
    )
    after, _ = place(state, "c001", 0)
    assert holders(after)[1] == 1
    assert after.last_move.plus == [] and after.last_move.same == []


def test_same_wall_requires_same():
    with pytest.raises(IllegalAction) as exc:
        GAME.new(SEATS, "s", {"same_wall": True})
    assert exc.value.code == "bad_options"
    with pytest.raises(ValueError):
        Options(combo=True)


# ----- Suma -----------------------------------------------------------------------------------


def _plus_board(own_left: bool) -> dict[int, tuple[str, int, int]]:
    # c001 (3,3,4,4) on 4: top 3 + c019's bottom 5 = 8 = left 4 + c009's right 4.
    return {1: ("c019", 1, 1), 3: ("c009", 1, 0 if own_left else 1)}


def test_plus_flips_the_opponent_cards_of_equal_sums():
    state = scenario(
        _plus_board(own_left=False), {0: ["c001", *_filler(4)], 1: _filler(3)}, turn=0, plus=True
    )
    after, events = place(state, "c001", 4)
    assert after.last_move.plus == [1, 3]
    assert holders(after)[1] == holders(after)[3] == 0
    assert "plus" in [e.code for e in events]


def test_plus_with_one_own_card_flips_only_the_opponent():
    state = scenario(
        _plus_board(own_left=True), {0: ["c001", *_filler(4)], 1: _filler(3)}, turn=0, plus=True
    )
    after, _ = place(state, "c001", 4)
    assert after.last_move.plus == [1]
    assert holders(after)[1] == 0


def test_plus_off_nothing_flips():
    state = scenario(_plus_board(own_left=False), {0: ["c001", *_filler(4)], 1: _filler(3)}, turn=0)
    after, _ = place(state, "c001", 4)
    assert holders(after)[1] == holders(after)[3] == 1


# ----- Cadena ---------------------------------------------------------------------------------


def _combo_state(**rules: bool):
    """c001 (3,3,4,4) placed on 4 by seat 0.

    0: c013 (4,2,5,4) opp   1: c004 (4,4,3,2) opp   2: c009 (3,4,4,2) opp
    3: c020 (3,4,3,5) own   4: [c001]                5: c005 (3,4,1,4) opp
    6: empty                7: c002 (3,4,3,3) opp   8: c010 (4,4,4,2) opp

    Igual: top 3 = c004's bottom, left 4 = own c020's right -> c004 (cell 1) flips.
    Cadena from 1: right 4 > c009's left 2 -> 2 flips; from 2: bottom 4 > c005's top 3 -> 5 flips.
    Not by Igual in the chain: c004's left 2 = c013's right 2 and its bottom 3 = c001's top 3
    (two matches), yet 0 stays. Basic: bottom 4 > c002's top 3 -> 7 flips, but starts no chain:
    c002's right 4 > c010's left 2, yet 8 stays.
    """
    board = {
        0: ("c013", 0, 1),
        1: ("c004", 1, 1),
        2: ("c009", 1, 1),
        3: ("c020", 0, 0),
        5: ("c005", 1, 1),
        7: ("c002", 1, 1),
        8: ("c010", 0, 1),
    }
    return scenario(board, {0: ["c001", "c003"], 1: ["c007"]}, turn=0, **rules)


def test_combo_chains_only_by_the_basic_rule():
    after, events = place(_combo_state(same=True, combo=True), "c001", 4)
    lm = after.last_move
    assert lm.same == [1]
    assert lm.basic == [7]
    assert lm.combo == [2, 5]
    assert holders(after) == [1, 0, 0, 0, 0, 0, None, 0, 1]
    assert [e.code for e in events] == ["played", "same", "flipped", "combo"]


def test_without_combo_same_flips_do_not_chain():
    after, _ = place(_combo_state(same=True), "c001", 4)
    assert after.last_move.combo == []
    assert holders(after) == [1, 0, 1, 0, 0, 1, None, 0, 1]


def test_combo_does_not_retake_a_card_taken_this_move():
    # Cell 7 is taken by the basic rule and cell 5 could also be reached by the chain from 8 if
    # 8 were chained; every cell flips at most once and the score stays consistent.
    after, _ = place(_combo_state(same=True, combo=True), "c001", 4)
    lm = after.last_move
    flipped = lm.same + lm.plus + lm.basic + lm.combo
    assert len(flipped) == len(set(flipped))
    assert sum(after.scores()) == 10


# ----- Elemental ------------------------------------------------------------------------------


def test_elemental_raises_a_card_on_its_own_element():
    # c002 (3,4,3,3, agua) on an agua cell: left 3+1 = 4 > c001's right 3.
    board = {3: ("c001", 1, 1)}
    hands = {0: ["c002", *_filler(4)], 1: _filler(4)}
    plain, _ = place(scenario(board, hands, turn=0, elemental=True), "c002", 4)
    assert holders(plain)[3] == 1
    raised, _ = place(
        scenario(board, hands, turn=0, elements={4: "agua"}, elemental=True), "c002", 4
    )
    assert holders(raised)[3] == 0
    view = GAME.view(raised, None)
    assert view.board[4].card.values == [4, 5, 4, 4]
    assert view.board[4].card.printed == [3, 4, 3, 3]


def test_elemental_lowers_a_card_on_another_element():
    # c002 (agua) on a fuego cell: left 3-1 = 2, not > c013's right 2 (plain: 3 > 2 flips).
    board = {3: ("c013", 1, 1)}
    hands = {0: ["c002", *_filler(4)], 1: _filler(4)}
    plain, _ = place(scenario(board, hands, turn=0, elemental=True), "c002", 4)
    assert holders(plain)[3] == 0
    lowered, _ = place(
        scenario(board, hands, turn=0, elements={4: "fuego"}, elemental=True), "c002", 4
    )
    assert holders(lowered)[3] == 1


def test_elemental_lowers_a_card_without_element():
    # c001 (no element, left 4) on a hielo cell: 3, not > c002's right... c009's right 4 -> 3 < 4.
    board = {3: ("c002", 1, 1)}  # right 4
    hands = {0: ["c001", *_filler(4)], 1: _filler(4)}
    after, _ = place(
        scenario(board, hands, turn=0, elements={4: "hielo"}, elemental=True), "c001", 4
    )
    assert GAME.view(after, None).board[4].card.values == [2, 2, 3, 3]
    assert holders(after)[3] == 1


def test_the_target_keeps_its_cell_modifier():
    # c009 (3,4,4,2, rayo) lies on a fuego cell: its right is 3, so c001's left 4 beats it.
    board = {3: ("c009", 1, 1)}
    hands = {0: ["c001", *_filler(4)], 1: _filler(4)}
    plain, _ = place(scenario(board, hands, turn=0, elemental=True), "c001", 4)
    assert holders(plain)[3] == 1
    after, _ = place(
        scenario(board, hands, turn=0, elements={3: "fuego"}, elemental=True), "c001", 4
    )
    assert holders(after)[3] == 0


def test_same_and_plus_compare_printed_values_under_elemental():
    # c001 lowered to (2,2,3,3) on a fuego cell; printed top 3 = c004's bottom 3 and left 4 =
    # c009's right 4 still make an Igual.
    state = scenario(
        _same_board(own_left=False),
        {0: ["c001", *_filler(4)], 1: _filler(3)},
        turn=0,
        elements={4: "fuego"},
        elemental=True,
        same=True,
    )
    after, _ = place(state, "c001", 4)
    assert after.last_move.same == [1, 3]
    # Suma with the printed values: 3 + 5 = 4 + 4 although the modified sums differ.
    state = scenario(
        _plus_board(own_left=False),
        {0: ["c001", *_filler(4)], 1: _filler(3)},
        turn=0,
        elements={4: "fuego", 1: "veneno"},
        elemental=True,
        plus=True,
    )
    after, _ = place(state, "c001", 4)
    assert after.last_move.plus == [1, 3]


def test_elemental_cells_come_from_the_seed():
    a = GAME.new(SEATS, "seed-1", {"elemental": True})
    b = GAME.new(SEATS, "seed-1", {"elemental": True})
    assert a.elements == b.elements
    assert 0 < sum(e is not None for e in a.elements) <= 4
    assert GAME.new(SEATS, "seed-1").elements == [None] * 9
    varied = {tuple(GAME.new(SEATS, f"s{i}", {"elemental": True}).elements) for i in range(20)}
    assert len(varied) > 10


# ----- turn order and the security boundary --------------------------------------------------


def test_random_player_starts_and_players_alternate():
    firsts = {GAME.new(SEATS, f"seed{i}").first for i in range(40)}
    assert firsts == {0, 1}
    state = GAME.new(SEATS, "x")
    seat = SEATS[state.turn]
    a = GAME.legal_actions(state, seat)[0]
    after, _ = GAME.apply(state, seat, a)
    assert after.turn == 1 - state.turn
    assert GAME.legal_actions(after, seat) == []


def test_illegal_actions_are_refused_and_change_nothing():
    state = GAME.new(SEATS, "x")
    me, other = SEATS[state.turn], SEATS[1 - state.turn]
    card = state.hands[state.turn][0].card
    snapshot = state.model_copy(deep=True)

    def code(seat, action):
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(state, seat, action)
        return exc.value.code

    assert code(other, GAME.legal_actions(state, me)[0]) == "not_your_turn"
    assert code("nobody", GAME.legal_actions(state, me)[0]) == "not_a_player"
    wrong = "c110" if card != "c110" else "c109"
    assert code(me, Play(slot=0, card=wrong, cell=0)) == "card_mismatch"
    after, _ = GAME.apply(state, me, Play(slot=0, card=card, cell=4))
    assert after.hands[state.turn] != state.hands[state.turn]
    nxt = SEATS[after.turn]
    slot_card = after.hands[after.turn][0].card
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(after, nxt, Play(slot=0, card=slot_card, cell=4))
    assert exc.value.code == "cell_taken"
    again, _ = GAME.apply(after, nxt, Play(slot=0, card=slot_card, cell=0))
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(again, me, Play(slot=4, card=card, cell=1))
    assert exc.value.code == "bad_slot"
    assert state == snapshot


def test_decode_rejects_junk():
    junks = ["", "p", "p.5.c001.0", "p.0.c001.9", "k.0.x", "p.0.c001.0 ", "zz", "k.1.c1"]
    junks += ["p:2:c047:4", "k:3:c012", "p.2.c047.4.1", "k.0.c001.4", "p.2.C047.4", "q.2.c047.4"]
    for junk in junks:
        with pytest.raises(IllegalAction) as exc:
            GAME.decode_action(junk)
        assert exc.value.code == "bad_action"
    a = Play(slot=2, card="c047", cell=4)
    assert a.encode() == "p.2.c047.4" and GAME.decode_action("p.2.c047.4") == a
    b = PickCard(index=3, card="c012")
    assert b.encode() == "k.3.c012" and GAME.decode_action("k.3.c012") == b


def test_hands_must_hold_five_catalogue_cards():
    with pytest.raises(IllegalAction) as exc:
        GAME.new(SEATS, "s", hands={SEATS[0]: ["c001"] * 4, SEATS[1]: _filler(5)})
    assert exc.value.code == "bad_hand"
    with pytest.raises(IllegalAction):
        GAME.new(SEATS, "s", hands={SEATS[0]: ["nope"] * 5, SEATS[1]: _filler(5)})
    with pytest.raises(IllegalAction) as exc:
        GAME.new(["a"], "s")
    assert exc.value.code == "player_count"


def test_combo_uses_the_elemental_values():
    # As in the combo scenario, but the chained c004 lies on a fuego cell (right 4 -> 3) and
    # c009 (rayo) on a rayo cell (left 2 -> 3): 3 > 3 fails, so the chain stops at once.
    state = _combo_state(same=True, combo=True, elemental=True)
    state.elements = [None, "fuego", "rayo", None, None, None, None, None, None]
    after, _ = place(state, "c001", 4)
    assert after.last_move.same == [1]  # printed values: Igual still holds
    assert after.last_move.combo == []
    assert holders(after)[2] == 1 and holders(after)[5] == 1


def test_copies_of_a_card_are_listed_once_unless_their_owners_differ():
    state = GAME.new(
        SEATS,
        "dup",
        hands={SEATS[0]: ["c001", "c001", "c002", "c002", "c003"], SEATS[1]: ["c001"] * 5},
    )
    seat = SEATS[state.turn]
    slots = {a.slot for a in GAME.legal_actions(state, seat)}
    assert slots == ({0, 2, 4} if state.turn == 0 else {0})
    # a copy from the other player (after a Sudden Death rematch) is a different choice
    state.hands[state.turn][1].uid = (1 - state.turn) * 5 + 1
    assert {a.slot for a in GAME.legal_actions(state, seat)} >= {0, 1}
