"""The computer's five in Triple Triad are matched to its human opponent's (issue 31)."""

from __future__ import annotations

from bot.service.triad import cpu_hand
from games.triad.cards import card, ids_of_levels, starter_set


def _total(hand: list[str]) -> int:
    return sum(card(c).level for c in hand)


def test_the_computer_matches_the_five_the_player_chose():
    chosen = starter_set("starter:42")[:5]
    for level, offset in (("easy", -3), ("normal", 0), ("hard", 5)):
        hand = cpu_hand(level, {"42": chosen}, {}, "seed", 7)
        assert _total(hand) == max(5, _total(chosen) + offset)


def test_under_mano_mezclada_the_computer_matches_the_collection():
    collection = {c: 1 for c in ids_of_levels((2,))[:6]}
    hand = cpu_hand("normal", {}, {"42": collection}, "seed", 7)
    assert _total(hand) == 10 and all(card(c).level == 2 for c in hand)


def test_a_starter_player_meets_only_starter_levels_at_normal():
    for n in range(50):
        chosen = starter_set(f"starter:{n}")[:5]
        hand = cpu_hand("normal", {str(n): chosen}, {}, f"seed-{n}", n)
        assert max(card(c).level for c in hand) <= 2
