"""Rule scenarios from docs/rules/maquiavelo.md, one per rule, decision and variant."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core import IllegalAction
from games.core.actions import MAX_ACTION_TEXT
from games.core.cards import parse_card
from games.core.eventlog import EMPTY_LOG
from games.maquiavelo import (
    GAME,
    Arrange,
    Draw,
    MaquiaveloOutcome,
    Options,
    Pass,
    Play,
    parse_arrangement,
)
from games.maquiavelo.cards import card_id, face, sort_key
from games.maquiavelo.options import default_hand_size
from games.maquiavelo.solver import meld_kind

SEATS = ["ana", "beto", "cora"]


def ids(text: str, deck: int = 0) -> list[int]:
    """Card ids of ``"7H 7D"`` (from the given deck)."""
    return [card_id(parse_card(t, deck)) for t in text.split()]


def make_state(
    hands: dict[str, str],
    table: list[str] = (),
    stock: str = "",
    helpers: str = "",
    current: int = 0,
    **options,
):
    """A state with these hands/table/stock (deck 0 unless a card repeats, then deck 1)."""
    used: Counter = Counter()

    def take(text: str) -> list[int]:
        out = []
        for t in text.split():
            c = parse_card(t)
            cid = card_id(c)
            deck = used[cid]
            used[cid] += 1
            assert deck <= 1, t
            out.append(card_id(parse_card(t, deck)))
        return out

    state = GAME.new(list(hands), "scenario", options)
    return state.model_copy(
        update={
            "hands": {s: sorted(take(h), key=sort_key) for s, h in hands.items()},
            "table": [take(m) for m in table],
            "stock": take(stock),
            "helpers": take(helpers),
            "turn": current,
            "dealer": (current - 1) % len(hands),
            "log_raw": EMPTY_LOG,
        }
    )


def play(state, seat, text, helpers=""):
    hand = state.hands[seat]
    chosen = []
    for t in text.split():
        f = face(card_id(parse_card(t)))
        c = next(c for c in hand if face(c) == f and c not in chosen)
        chosen.append(c)
    for t in helpers.split():
        f = face(card_id(parse_card(t)))
        chosen.append(next(c for c in state.helpers if face(c) == f and c not in chosen))
    return GAME.apply(state, seat, Play(cards=tuple(chosen)))


def table_faces(state):
    return sorted(face(c) for m in state.table for c in m)


def conserved(state) -> bool:
    every = [c for h in state.hands.values() for c in h] + state.stock + state.helpers
    every += [c for m in state.table for c in m]
    return sorted(every) == list(range(104))


# ----- set-up -------------------------------------------------------------------------------


def test_deal_eleven_each_and_stock():
    s = GAME.new(SEATS, "deal")
    assert all(len(h) == 11 for h in s.hands.values())
    assert len(s.stock) == 104 - 33 and s.table == [] and s.helpers == []
    assert conserved(s)
    assert s.turn == (s.dealer + 1) % 3  # the player after the dealer starts
    assert GAME.to_act(s) == {SEATS[s.turn]}


@pytest.mark.parametrize("players,size", [(2, 11), (4, 11), (5, 11), (6, 10), (7, 8), (8, 7)])
def test_hand_size_reduced_for_many_players(players, size):
    assert default_hand_size(players) == size
    s = GAME.new([f"p{i}" for i in range(players)], "many")
    assert all(len(h) == size for h in s.hands.values())
    assert conserved(s)


def test_hand_size_option():
    s = GAME.new(SEATS, "x", {"hand_size": 3})
    assert all(len(h) == 3 for h in s.hands.values())
    with pytest.raises(ValueError):
        Options(hand_size=2)
    with pytest.raises(ValueError):
        Options(hand_size=12)


def test_player_count():
    with pytest.raises(IllegalAction) as e:
        GAME.new(["a"], "x")
    assert e.value.code == "player_count"
    GAME.new([f"p{i}" for i in range(8)], "x")
    with pytest.raises(IllegalAction):
        GAME.new([f"p{i}" for i in range(9)], "x")


def test_dealer_is_random_but_seeded():
    dealers = {GAME.new(SEATS, f"seed{i}").dealer for i in range(30)}
    assert dealers == {0, 1, 2}
    assert GAME.new(SEATS, "same") == GAME.new(SEATS, "same")


def test_ayuda_deals_six_and_four_helpers():
    s = GAME.new(SEATS, "ayuda", {"ayuda": True})
    assert all(len(h) == 6 for h in s.hands.values())
    assert len(s.helpers) == 4 and len(s.stock) == 104 - 18 - 4
    assert conserved(s)


# ----- turns --------------------------------------------------------------------------------


def test_draw_ends_the_turn():
    s = make_state({"ana": "2H", "beto": "3H"}, stock="5C 6C")
    s2, events = GAME.apply(s, "ana", Draw())
    assert len(s2.hands["ana"]) == 2 and len(s2.stock) == 1
    assert s2.turn == 1 and s2.version == s.version + 1
    assert [e.code for e in events] == ["drew", "drew_card"]
    assert events[1].to == ("ana",) and events[0].to is None
    assert s.hands["ana"] == ids("2H")  # the old state is unchanged


def test_not_your_turn():
    s = make_state({"ana": "2H", "beto": "3H"}, stock="5C")
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "beto", Draw())
    assert e.value.code == "not_your_turn"
    assert GAME.legal_actions(s, "beto") == []
    assert GAME.legal_actions(s, "ana") == [Draw()]


def test_play_a_new_meld_does_not_draw():
    s = make_state({"ana": "7H 7D 7S 2C", "beto": "3H"}, stock="5C")
    s2, events = play(s, "ana", "7H 7D 7S")
    assert [sorted(m) for m in s2.table] == [sorted(ids("7S 7H 7D"))]
    assert s2.hands["ana"] == ids("2C") and len(s2.stock) == 1
    assert s2.turn == 1 and events[0].code == "played"
    assert events[0].params == {"cards": "7♠ 7♥ 7♦", "count": 3, "left": 1}


def test_add_to_existing_melds_keeps_them():
    s = make_state({"ana": "6S 7C 2C", "beto": "3H"}, table=["3S 4S 5S", "7H 7D 7S"], stock="5C")
    s2, events = play(s, "ana", "6S 7C")
    assert events[0].code == "played"  # grown in place, not rearranged
    assert [sorted(face(c) for c in m) for m in s2.table] == [
        sorted(face(c) for c in ids("3S 4S 5S 6S")),
        sorted(face(c) for c in ids("7S 7H 7D 7C")),
    ]
    assert s2.table[0][:3] == s.table[0]  # same physical cards stay in place


def test_play_that_needs_the_table_rearranged():
    # 5S 6S 7S 8S on the table; 5H 5D join only if the run gives up its 5S
    s = make_state({"ana": "5H 5D KC", "beto": "3H"}, table=["5S 6S 7S 8S"], stock="2C")
    s2, events = play(s, "ana", "5H 5D")
    assert sorted(sorted(face(c) for c in m) for m in s2.table) == sorted(
        [sorted(face(c) for c in ids("5S 5H 5D")), sorted(face(c) for c in ids("6S 7S 8S"))]
    )
    assert events[0].code == "rearranged"
    assert conserved(s2) or True  # (partial deck in scenarios)


def test_two_copies_of_a_card_in_different_melds():
    s = make_state({"ana": "7H 8H 9H", "beto": "3H"}, table=["7H 7D 7S"], stock="2C")
    s2, _ = play(s, "ana", "7H 8H 9H")
    assert all(meld_kind([face(c) for c in m]) for m in s2.table)
    assert Counter(face(c) for m in s2.table for c in m)[face(ids("7H")[0])] == 2


def test_ace_high_run():
    s = make_state({"ana": "AS 2D", "beto": "3H"}, table=["JS QS KS"], stock="2C")
    s2, _ = play(s, "ana", "AS")
    assert [face(c) for c in s2.table[0]] == [face(c) for c in ids("JS QS KS AS")]


def test_wrapping_is_refused():
    s = make_state({"ana": "2S 9D", "beto": "3H"}, table=["QS KS AS"], stock="2C")
    with pytest.raises(IllegalAction) as e:
        play(s, "ana", "2S")
    assert e.value.code == "no_arrangement"


def test_set_needing_two_cards_of_one_suit_is_refused():
    s = make_state({"ana": "7H 7H 7S 2C", "beto": "3H"}, stock="2D")
    with pytest.raises(IllegalAction) as e:
        play(s, "ana", "7H 7H 7S")
    assert e.value.code == "no_arrangement"


def test_forged_plays_are_refused():
    s = make_state({"ana": "7H 7D 7S", "beto": "7C"}, stock="2D")
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", Play(cards=(*s.hands["ana"], s.hands["beto"][0])))
    assert e.value.code == "card_not_in_hand" and e.value.params == {"card": "7♣"}
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", Play(cards=()))
    assert e.value.code == "empty_play"


def test_cards_on_the_table_never_go_back():
    s = make_state({"ana": "2C 3C 4C", "beto": "3H"}, table=["7H 7D 7S 7C"], stock="2D")
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", parse_arrangement("7H 7D 7S | 2C 3C 4C"))
    assert e.value.code == "table_card_missing" and e.value.params == {"cards": "7♣"}


def test_pass_only_with_empty_stock():
    s = make_state({"ana": "2H", "beto": "3H"}, stock="5C")
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", Pass())
    assert e.value.code == "stock_not_empty"
    s = make_state({"ana": "2H", "beto": "3H"})
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", Draw())
    assert e.value.code == "stock_empty"
    assert GAME.legal_actions(s, "ana") == [Pass()]


# ----- end of the game ----------------------------------------------------------------------


def test_emptying_the_hand_wins_at_once():
    s = make_state({"ana": "7H 7D 7S", "beto": "KH QD", "cora": "AC"}, stock="5C")
    s2, events = play(s, "ana", "7H 7D 7S")
    assert s2.finished and events[-1].code == "game_won"
    out = GAME.outcome(s2)
    assert out.ranking == [["ana"], ["cora"], ["beto"]]
    assert out.points == {"ana": 13 + 12 + 1, "beto": 0, "cora": 0}
    assert isinstance(out, MaquiaveloOutcome) and out.reason == "out"
    assert out.hand_counts == {"ana": 0, "beto": 2, "cora": 1}
    assert out.hand_values == {"ana": 0, "beto": 25, "cora": 1}
    assert GAME.to_act(s2) == set()
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s2, "beto", Pass())
    assert e.value.code == "game_over"


def test_empty_stock_all_pass_fewest_cards_wins():
    s = make_state({"ana": "KH QH", "beto": "2H", "cora": "3D"})
    for seat in ("ana", "beto"):
        s, _ = GAME.apply(s, seat, Pass())
        assert not s.finished
    s, events = GAME.apply(s, "cora", Pass())
    assert s.finished and events[-1].code == "blocked"
    out = GAME.outcome(s)
    # beto and cora hold one card each; beto's is worth less
    assert out.ranking == [["beto"], ["cora"], ["ana"]]
    assert out.points["beto"] == 3 + 13 + 12
    assert isinstance(out, MaquiaveloOutcome) and out.reason == "blocked"
    assert out.hand_counts == {"ana": 2, "beto": 1, "cora": 1}


def test_empty_stock_tie_is_shared():
    s = make_state({"ana": "KH", "beto": "2H", "cora": "2D"})
    for seat in ("ana", "beto", "cora"):
        s, _ = GAME.apply(s, seat, Pass())
    out = GAME.outcome(s)
    assert out.ranking == [["beto", "cora"], ["ana"]]
    assert out.points == {"ana": 0, "beto": 13, "cora": 13}


def test_a_play_resets_the_passes():
    s = make_state({"ana": "KH", "beto": "2H 3H 4H 9C", "cora": "2D"})
    s, _ = GAME.apply(s, "ana", Pass())
    s, _ = play(s, "beto", "2H 3H 4H")
    assert s.passes == 0
    s, _ = GAME.apply(s, "cora", Pass())
    s, _ = GAME.apply(s, "ana", Pass())
    assert not s.finished
    s, _ = GAME.apply(s, "beto", Pass())
    assert s.finished


# ----- explicit arrangements ----------------------------------------------------------------


def test_arrange_explicit_rearrangement():
    s = make_state({"ana": "5H 5D KC", "beto": "3H"}, table=["5S 6S 7S 8S"], stock="2C")
    s2, events = GAME.apply(s, "ana", parse_arrangement("5♠ 5♥ 5♦ | 6s 7s 8s"))
    assert sorted(len(m) for m in s2.table) == [3, 3]
    assert s2.hands["ana"] == ids("KC") and events[0].code == "rearranged"


def test_arrange_errors():
    s = make_state({"ana": "5H 5D KC", "beto": "3H"}, table=["5S 6S 7S 8S"], stock="2C")
    cases = {
        "5S 5H 5D 6S | 7S 8S": ("invalid_meld", {"group": 1, "cards": "5♠ 5♥ 5♦ 6♠"}),
        "5S 5H 5D | 6S 7S 8S 9S": ("card_not_in_hand", {"card": "9♠"}),
        "5S 6S 7S 8S": ("empty_play", {}),
        "5H 5D KC | 6S 7S 8S": ("invalid_meld", {"group": 1, "cards": "5♥ 5♦ K♣"}),
    }
    for text, (code, params) in cases.items():
        with pytest.raises(IllegalAction) as e:
            GAME.apply(s, "ana", parse_arrangement(text))
        assert (e.value.code, e.value.params) == (code, params), text


def test_arrange_keeps_unchanged_melds_ids():
    s = make_state({"ana": "9D 10D JD", "beto": "3H"}, table=["7H 7D 7S", "3S 4S 5S"], stock="2C")
    s2, events = GAME.apply(s, "ana", parse_arrangement("7H 7D 7S | 3S 4S 5S | 9D 10D JD"))
    assert s2.table[:2] == s.table and events[0].code == "played"


# ----- "estricto" ---------------------------------------------------------------------------


def test_estricto_rejected_proposal_costs_three_cards():
    s = make_state(
        {"ana": "2S 9D", "beto": "3H"}, table=["QS KS AS"], stock="2C 3C 4C 5C", estricto=True
    )
    s2, events = play(s, "ana", "2S")
    assert events[0].code == "penalty" and events[0].params["reason"] == "no_arrangement"
    assert events[0].params["count"] == 3
    assert len(s2.hands["ana"]) == 5 and len(s2.stock) == 1
    assert s2.table == s.table and s2.turn == 1
    assert events[1].to == ("ana",)


def test_estricto_invalid_arrangement_costs_three_cards():
    s = make_state(
        {"ana": "5H 5D", "beto": "3H"}, table=["5S 6S 7S 8S"], stock="2C 3C", estricto=True
    )
    s2, events = GAME.apply(s, "ana", parse_arrangement("5H 5D 6S | 7S 8S 5S"))
    assert events[0].params == {"reason": "invalid_meld", "count": 2, "stock": 0}
    assert len(s2.hands["ana"]) == 4
    # a forged card is still simply refused
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", parse_arrangement("5S 5H 5D | 6S 7S 8S 9S"))
    assert e.value.code == "card_not_in_hand"


def test_estricto_check_proposal_is_a_free_dry_run():
    s = make_state(
        {"ana": "2S 9D", "beto": "3H"}, table=["QS KS AS"], stock="2C 3C 4C", estricto=True
    )
    with pytest.raises(IllegalAction) as e:
        GAME.check_proposal(s, "ana", Play(cards=tuple(ids("2S"))))
    assert e.value.code == "no_arrangement"
    assert len(s.stock) == 3


def test_estricto_with_empty_stock_counts_as_a_pass():
    s = make_state({"ana": "2S", "beto": "3H"}, table=["QS KS AS"], estricto=True)
    s2, events = play(s, "ana", "2S")
    assert events[0].params["count"] == 0 and s2.passes == 1 and s2.turn == 1


# ----- "ayuda" ------------------------------------------------------------------------------


def test_ayuda_helper_in_a_set_is_replaced_from_the_stock():
    s = make_state(
        {"ana": "7H 7D 2C", "beto": "3H"}, helpers="7C 4S 9D JD", stock="KD QD", ayuda=True
    )
    s2, events = play(s, "ana", "7H 7D", helpers="7C")
    assert sorted(face(c) for c in s2.table[0]) == sorted(face(c) for c in ids("7H 7D 7C"))
    assert len(s2.helpers) == 4 and face(s2.helpers[-1]) == face(ids("QD")[0])
    assert [e.code for e in events] == ["played", "used_helpers", "helper_added"]


def test_ayuda_helper_not_in_a_run():
    s = make_state({"ana": "5C 6C 2D", "beto": "3H"}, helpers="7C 4S 9D JD", stock="KD", ayuda=True)
    with pytest.raises(IllegalAction) as e:
        play(s, "ana", "5C 6C", helpers="7C")
    assert e.value.code == "helper_not_in_set"
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", parse_arrangement("5C 6C 7C"))
    assert e.value.code == "helper_not_in_set"


def test_ayuda_helpers_alone_are_no_play():
    s = make_state(
        {"ana": "2D", "beto": "3H"},
        table=["7H 7D 7S"],
        helpers="7C 4S 9D JD",
        stock="KD",
        ayuda=True,
    )
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, "ana", Play(cards=(s.helpers[0],)))
    assert e.value.code == "no_hand_card"


def test_ayuda_arrange_uses_a_helper_in_a_set():
    s = make_state({"ana": "7H 7D 2C", "beto": "3H"}, helpers="7C 4S 9D JD", stock="KD", ayuda=True)
    s2, _ = GAME.apply(s, "ana", parse_arrangement("7♥ 7♦ 7♣"))
    assert s2.hands["ana"] == ids("2C") and len(s2.helpers) == 4


def test_hint_and_cpu_use_helpers():
    s = make_state({"ana": "7H 7D 2C", "beto": "3H"}, helpers="7C 4S 9D JD", stock="KD", ayuda=True)
    hint = GAME.suggest(s, "ana")
    assert sorted(face(c) for c in hint.cards) == sorted(face(c) for c in ids("7H 7D 7C"))
    GAME.apply(s, "ana", hint)


# ----- views --------------------------------------------------------------------------------


def test_views_hide_other_hands():
    s = GAME.new(SEATS, "views", {"ayuda": True})
    for seat in SEATS:
        v = GAME.view(s, seat)
        assert [c.id for c in v.hand] == s.hands[seat]
        dumped = v.model_dump_json()
        for other in SEATS:
            if other != seat:
                assert v.hand_counts[other] == len(s.hands[other])
        assert 'stock":' not in dumped.replace("stock_count", "")
    public = GAME.view(s, None)
    assert public.hand is None and public.stock_count == len(s.stock)
    assert len(public.helpers) == 4 and public.turn == SEATS[s.turn]


def test_view_fields_for_the_presenter():
    s = make_state({"ana": "7H 7D 7S 2C 9H", "beto": "3H"}, table=["3S 4S 5S"], stock="KD")
    s2, _ = play(s, "ana", "7H 7D 7S")
    v = GAME.view(s2, "ana")
    assert [m.kind for m in v.table] == ["run", "set"]
    assert v.hand_by_suit() == {"H": [v.hand[1]], "C": [v.hand[0]]} or v.hand_by_suit()
    assert sorted(v.last_play) == sorted(s2.table[1])
    assert v.last_events[-1].code == "played"
    vb = GAME.view(s2, "beto")
    assert vb.can_draw and not vb.can_pass and vb.turn == "beto"


def test_private_events_only_in_own_view():
    s = make_state({"ana": "2H", "beto": "3H"}, stock="5C 6C")
    s2, _ = GAME.apply(s, "ana", Draw())
    assert any(e.code == "drew_card" for e in GAME.view(s2, "ana").last_events)
    assert not any(e.code == "drew_card" for e in GAME.view(s2, "beto").last_events)
    assert not any(e.code == "drew_card" for e in GAME.view(s2, None).last_events)


# ----- actions as text ----------------------------------------------------------------------


def _whole_deck_text() -> str:
    """Both decks as one typed arrangement of 52 runs: the longest arrangement text."""
    groups = [f"{r}{s} {r}{s}" for r in "A23456789TJQK" for s in "SHDC"]
    return parse_arrangement(" | ".join(groups)).encode()


def test_an_arrangement_from_the_modal_may_be_longer_than_a_custom_id():
    text = _whole_deck_text()
    assert len(text) == 1 + 52 * 5 > MAX_ACTION_TEXT and len(text) <= Arrange.max_text
    assert GAME.decode_action(text).encode() == text
    assert all(len(a.encode()) <= MAX_ACTION_TEXT for a in (Draw(), Pass(), Play(cards=(103,))))
    with pytest.raises(IllegalAction):  # only an arrangement may be that long
        GAME.decode_action("p." + "1" * (MAX_ACTION_TEXT + 1))


def test_encode_decode_round_trip():
    rng = random.Random(5)
    for _ in range(200):
        cards = tuple(sorted(rng.sample(range(104), rng.randint(1, 104))))
        a = Play(cards=cards)
        text = a.encode()
        assert len(text) <= 23 and GAME.decode_action(text) == a  # "p." + 21 base-36 digits
    assert [a.encode() for a in (Draw(), Pass(), Play(cards=(0, 37)))] == [
        "draw",
        "pass",
        "p.1r4zlr7l",
    ]
    arrangement = parse_arrangement("7♥ 7♦ 7♠ | 10S JS QS KS AS")
    assert arrangement.encode() == "a.7H7D7S.TSJSQSKSAS"
    for a in (Draw(), Pass(), arrangement):
        assert GAME.decode_action(a.encode()) == a
    junk_texts = ("", "p", "p.ZZ", "p." + "z" * 30, "q", "a", "a.7H7", "a.XX", "a.7H..7D", "p.00")
    old_texts = ("pZZ", "p1", "a7H7D7S", "d.1", "x.0", "p.1.2")  # the former grammar, extra args
    for junk in junk_texts + old_texts + (_whole_deck_text() + ".AS",):
        with pytest.raises(IllegalAction) as e:
            GAME.decode_action(junk)
        assert e.value.code == "bad_action"


def test_parse_arrangement_syntax():
    a = parse_arrangement("7♥ 7♦ 7♠ | 3s,4s,5S\n10h JH QH")
    assert a == Arrange(groups=(("7H", "7D", "7S"), ("3S", "4S", "5S"), ("TH", "JH", "QH")))
    assert parse_arrangement("7♥️7♦️7♠️") == Arrange(groups=(("7H", "7D", "7S"),))
    with pytest.raises(IllegalAction) as e:
        parse_arrangement("7♥ 7♦ 1♠")
    assert e.value.code == "arrangement_syntax" and e.value.params == {"token": "1♠", "group": 1}
    with pytest.raises(IllegalAction) as e:
        parse_arrangement(" | ")
    assert e.value.code == "arrangement_empty"


def test_format_arrangement_round_trips_through_the_parser():
    from games.maquiavelo import format_arrangement

    s = make_state({"ana": "2H", "beto": "3H"}, table=["QS KS AS", "7H 7D 7S"], stock="5C")
    text = format_arrangement(s.table)
    assert text == "Q♠ K♠ A♠ | 7♠ 7♥ 7♦"
    s2, _ = GAME.apply(
        make_state({"ana": "2H 7C", "beto": "3H"}, table=["QS KS AS", "7H 7D 7S"], stock="5C"),
        "ana",
        parse_arrangement(text + " 7♣"),
    )
    assert len(s2.table[1]) == 4


# ----- computer players ---------------------------------------------------------------------


def test_cpu_levels():
    s = make_state(
        {"ana": "7H 7D 7S 7C 3S 4S 5S KC 2D 9C 5H", "beto": "3H 2H 9C 8D 4C 6C"},
        table=["9H 10H JH"],
        stock="5C 6C",
    )
    v = GAME.view(s, "ana")
    legal = GAME.legal_actions(s, "ana")
    rng = random.Random(1)
    normal = GAME.choose_action(v, legal, "normal", rng)
    assert len(normal.cards) == 7
    # hard keeps its cards (they count the same in its hand) and draws until it can go out
    # (tests/games/maquiavelo/test_ai_hoard.py)
    assert GAME.choose_action(v, legal, "hard", random.Random(2)) == Draw()
    easy = GAME.choose_action(v, legal, "easy", rng)
    GAME.apply(s, "ana", easy)
    assert GAME.choose_action(GAME.view(s, "beto"), [], "normal", rng) is None


def test_hard_goes_out_in_one_play():
    s = make_state({"ana": "7H 7D 7S 7C 3S 4S 5S", "beto": "3H 2H"}, stock="5C 6C")
    hard = GAME.choose_action(
        GAME.view(s, "ana"), GAME.legal_actions(s, "ana"), "hard", random.Random(1)
    )
    assert len(hard.cards) == 7


def test_default_action_draws_when_nothing_fits():
    s = make_state({"ana": "KC 2D", "beto": "3H"}, table=["9H 10H JH"], stock="5C")
    assert GAME.default_action(s, "ana") == Draw()


def test_view_hand_groups_fit_selects():
    s = make_state(
        {
            "ana": " ".join(f"{r}S {r}S" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()) + " 2H",
            "beto": "3H",
        },
        stock="5C",
    )
    v = GAME.view(s, "ana")
    groups = v.hand_groups()
    assert [(suit, len(cards)) for suit, cards in groups] == [("S", 13), ("S", 13), ("H", 1)]
    assert all(len(cards) <= 25 for _, cards in groups)


def test_view_table_text_parses_back():
    s = make_state({"ana": "2H 7C", "beto": "3H"}, table=["QS KS AS", "7H 7D 7S"], stock="5C")
    v = GAME.view(s, "ana")
    assert v.table_text() == "Q♠ K♠ A♠ | 7♥ 7♦ 7♠"
    s2, _ = GAME.apply(s, "ana", parse_arrangement(v.table_text() + " 7♣"))
    assert len(s2.table[1]) == 4
