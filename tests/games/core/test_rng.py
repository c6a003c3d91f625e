"""Seeded chance: the fast shuffle is the library's, draw for draw."""

from __future__ import annotations

import random

from games.core.rng import rng_for, shuffle, shuffle_private, shuffled


def test_shuffle_is_the_librarys_shuffle():
    for n in (0, 1, 2, 3, 7, 64, 108, 255, 256, 300):
        for seed in range(25):
            ours, theirs = list(range(n)), list(range(n))
            a, b = random.Random(f"s{seed}:{n}"), random.Random(f"s{seed}:{n}")
            shuffle(a, ours)
            b.shuffle(theirs)
            assert ours == theirs
            assert a.random() == b.random()  # the same draws consumed


def test_shuffled_keeps_its_order_for_a_seed_and_labels():
    deck = [f"c{i}" for i in range(108)]
    expected = list(deck)
    rng_for("game-1", "deal", 1).shuffle(expected)
    assert shuffled(deck, "game-1", "deal", 1) == expected
    assert deck == [f"c{i}" for i in range(108)]  # the input is left alone


def test_the_private_shuffle_is_the_librarys_shuffle():
    for n in (0, 1, 2, 3, 5, 7, 40, 64, 104, 108, 200, 255, 256, 300):
        for seed in range(40):
            ours, theirs = list(range(n)), list(range(n))
            shuffle_private(random.Random(f"p{seed}:{n}"), ours)
            random.Random(f"p{seed}:{n}").shuffle(theirs)
            assert ours == theirs
