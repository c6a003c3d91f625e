"""``starter_set`` and ``ids_of_levels`` are kept per argument: each call still answers a list of
its own (a caller may change it), the same as the first."""

from __future__ import annotations

from games.triad.cards import STARTER_SIZE, catalogue, ids_of_levels, starter_set


def test_starter_sets_are_fresh_lists_equal_per_seed():
    first = starter_set("starter:7")
    assert len(first) == STARTER_SIZE == len(set(first)) and first == sorted(first)
    first.clear()
    assert starter_set("starter:7") == sorted(starter_set("starter:7")) != []
    assert starter_set("starter:7") is not starter_set("starter:7")
    assert starter_set("starter:7") != starter_set("starter:8")


def test_ids_of_levels_are_fresh_lists_in_catalogue_order():
    expected = [c.id for c in catalogue().cards if c.level in (1, 2)]
    got = ids_of_levels((2, 1))
    assert got == expected == ids_of_levels(range(1, 3)) == ids_of_levels([1, 2, 2])
    got.clear()
    assert ids_of_levels((1, 2)) == expected
