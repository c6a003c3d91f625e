"""MACAS (spec "Espejo" effects and "MACAS"): enchanted and shared pozos, moves, LA MACARENA."""

import pytest

from games.core import IllegalAction
from games.macarena import GAME, MoveMaca, Pass

from .helpers import codes, play, table

# Pozo tops: 0:2C 1:5D 2:9S 3:QH 4:KC 5:3H 6:7D


def test_enchanted_pozo_is_closed_to_others_in_a_normal_turn():
    s = table({"a": "5S", "b": "10S 9S 3C"}, current="b", macas=[{}, {}, {"a": 1}] + [{}] * 4)
    with pytest.raises(IllegalAction) as err:
        play(s, "b", 2, "10S")
    assert err.value.code == "pozo_enchanted"
    with pytest.raises(IllegalAction):  # no espejo there either
        play(s, "b", 2, "9S")
    view = GAME.view(s, "b")
    assert not view.pozos[2].playable and view.pozos[2].enchanted
    assert all(a.pozo != 2 for a in GAME.legal_actions(s, "b") if a.kind == "play")
    s2, _ = play(s, "b", 0, "3C")  # other pozos stay open
    assert s2.pozos[0][-1].code == "3C"


def test_owner_plays_on_own_enchanted_pozo_and_a_second_maca_is_placed():
    s = table({"a": "10S 9S 4C"}, seats=["a", "b"], macas=[{}, {}, {"a": 1}] + [{}] * 4)
    s2, _ = play(s, "a", 2, "9S")  # espejo solo on own pozo
    assert s2.macas[2] == {"a": 2}


def test_espejo_turn_may_play_anywhere_and_an_espejo_there_shares_the_pozo():
    s = table(
        {"a": "5S", "b": "9S 10S 3C"},
        current="b",
        espejo_turn=True,
        macas=[{}, {}, {"a": 1}] + [{}] * 4,
    )
    assert GAME.view(s, "b").pozos[2].playable
    s2, ev = play(s, "b", 2, "9S")
    assert s2.macas[2] == {"a": 1, "b": 1}
    assert "pozo_shared" in codes(ev)
    view = GAME.view(s2, None)
    assert view.pozos[2].shared and view.pozos[2].macas == {"a": 1, "b": 1}
    # back in a normal turn both owners may play there, a third player may not
    s3 = table(
        {"a": "10S 4C", "b": "5S", "c": "10S 4C"},
        current="a",
        macas=[{}, {}, {"a": 1, "b": 1}] + [{}] * 4,
    )
    play(s3, "a", 2, "10S")
    s3.turn = 2
    with pytest.raises(IllegalAction):
        play(s3, "c", 2, "10S")


def test_espejo_in_an_espejo_turn_on_a_plain_pozo_places_a_maca():
    s = table({"a": "QH 4C"}, seats=["a", "b"], espejo_turn=True)
    s2, _ = play(s, "a", 3, "QH")
    assert s2.macas[3] == {"a": 1} and s2.espejo_turn


def test_at_most_seven_macas_on_one_pozo():
    full = {"b": 4, "c": 3}
    s = table(
        {"a": "9S 4C", "b": "5S", "c": "5S"},
        espejo_turn=True,
        macas=[{}, {}, dict(full)] + [{}] * 4,
    )
    s2, ev = play(s, "a", 2, "9S")
    assert s2.macas[2] == full and "maca_pozo_full" in codes(ev)
    assert s2.espejo_turn and s2.seats[s2.turn] == "a"  # the espejo turn still follows


def test_eighth_espejo_must_move_one_of_the_seven_active_macas():
    macas = [{"a": 2}, {"a": 2}, {}, {"a": 3}, {}, {}, {}]
    s = table({"a": "9S 4C", "b": "5S"}, seats=["a", "b"], macas=macas)
    s2, ev = play(s, "a", 2, "9S")
    assert s2.phase == "move_maca" and GAME.to_act(s2) == {"a"}
    legal = GAME.legal_actions(s2, "a")
    assert sorted(a.source for a in legal) == [0, 1, 3]
    view = GAME.view(s2, "a")
    assert view.choice == "move_maca" and view.maca_target == 2 and view.maca_sources == [0, 1, 3]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s2, "a", MoveMaca(source=5))
    assert err.value.code == "not_a_maca_source"
    s3, ev = GAME.apply(s2, "a", MoveMaca(source=3))
    assert s3.macas[3] == {"a": 2} and s3.macas[2] == {"a": 1}
    assert sum(m.get("a", 0) for m in s3.macas) == 7
    assert "maca_moved" in codes(ev)
    assert s3.phase == "draw" and s3.espejo_turn  # then the espejo turn
    # the timer's default picks a sensible source: where the player has the most MACAS
    assert GAME.default_action(s2, "a") == MoveMaca(source=3)


def test_move_is_automatic_with_a_single_source():
    macas = [{"a": 7}, {}, {}, {}, {}, {}, {}]
    s = table({"a": "9S 4C", "b": "5S"}, seats=["a", "b"], macas=macas)
    s2, ev = play(s, "a", 2, "9S")
    assert s2.macas[0] == {"a": 6} and s2.macas[2] == {"a": 1} and "maca_moved" in codes(ev)


def test_pass_returns_all_macas():
    macas = [{"a": 1}, {"a": 1, "b": 1}, {}, {"a": 2}, {}, {}, {}]
    s = table({"a": "4C", "b": "5S"}, seats=["a", "b"], macas=macas)
    s2, ev = GAME.apply(s, "a", Pass())
    assert s2.macas == [{}, {"b": 1}, {}, {}, {}, {}, {}]
    assert ev[0].code == "passed" and ev[0].params["returned"] == 4
    assert s2.seats[s2.turn] == "b" and s2.phase == "draw"


def test_playing_keeps_macas_active():
    macas = [{"a": 1}] + [{}] * 6
    s = table({"a": "3C 8S", "b": "5S"}, seats=["a", "b"], macas=macas)
    s2, _ = play(s, "a", 0, "3C")
    assert s2.macas[0] == {"a": 1}


def test_la_macarena_wins_at_once():
    macas = [{"a": 1}, {"a": 1}, {}, {"a": 1, "b": 2}, {"a": 1}, {"a": 1}, {"a": 1}]
    s = table({"a": "9S 4C", "b": "5S"}, seats=["a", "b"], macas=macas)
    s2, ev = play(s, "a", 2, "9S")
    assert "macarena" in codes(ev)
    out = GAME.outcome(s2)
    assert out is not None and out.winners == ["a"] and out.macarena == "a"
    assert out.macarenas == {"a": 1, "b": 0}
    assert out.stats == {
        "a": {"amulets": 0, "macarenas": 1},
        "b": {"amulets": 0, "macarenas": 0},
    }
    assert GAME.to_act(s2) == set() and GAME.view(s2, None).finished
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s2, "b", Pass())
    assert err.value.code == "game_over"


def test_la_macarena_by_moving_a_maca():
    macas = [{"a": 2}, {"a": 1}, {}, {"a": 1}, {"a": 1}, {"a": 1}, {"a": 1}]
    s = table({"a": "9S 4C", "b": "5S"}, seats=["a", "b"], macas=macas)
    s2, _ = play(s, "a", 2, "9S")
    assert s2.phase == "move_maca"
    s3, ev = GAME.apply(s2, "a", MoveMaca(source=0))
    assert "macarena" in codes(ev) and GAME.outcome(s3).winners == ["a"]


def test_decision_a_maca_moves_from_another_pozo_even_onto_one_already_holding_a_maca():
    macas = [{"a": 4}, {"a": 2}, {"a": 1}, {}, {}, {}, {}]
    s = table({"a": "9S 4C", "b": "5S"}, seats=["a", "b"], macas=macas)
    s2, _ = play(s, "a", 2, "9S")  # an espejo on pozo 2, where a already has a MACA
    assert s2.phase == "move_maca"
    assert sorted(a.source for a in GAME.legal_actions(s2, "a")) == [0, 1]  # never pozo 2 itself
    s3, _ = GAME.apply(s2, "a", MoveMaca(source=1))
    assert s3.macas[2] == {"a": 2} and s3.macas[1] == {"a": 1}
