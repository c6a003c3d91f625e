"""The exact partition solver and the best-play finder."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from games.maquiavelo import solver
from games.maquiavelo.arrange import arrange_play
from games.maquiavelo.solver import (
    best_play,
    is_partitionable,
    meld_kind,
    partition,
)
from tests.games.maquiavelo.helpers import F, brute_partition, valid_meld

VALID_TABLES = [
    "7H 7D 7S",
    "7H 7D 7S 7C",
    "3S 4S 5S",
    "AS 2S 3S",  # ace low
    "QS KS AS",  # ace high
    "10H JH QH KH AH",  # ace high, long
    "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",  # 13 cards, ace low
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",  # 13 cards, ace high
    "7H 7D 7S 7H 7D 7C",  # two copies of a card in different melds
    "7H 7D 7S 7C 7H 7D 7S 7C",  # both decks' sevens: two sets
    "5S 6S 7S 5S 6S 7S",  # the same run twice
    "AS 2S 3S QS KS AS",  # both aces of a suit: one low, one high
    "5S 6S 7S 8S 5H 5D",  # needs the run split: 5S 5H 5D + 6S 7S 8S
    "AS AH AD 2S 3S 4S AS",  # an ace in a set and one in a run
    "2S 3S 4S 5S 6S 7S 8S 9S 10S 5H 5D",  # a long run broken in two by a set
]

INVALID_TABLES = [
    "7H 7D",  # too short
    "7H 7H 7S",  # a set that would need two cards of one suit
    "7H 7H 7D 7D 7S",  # five sevens, two suits doubled: 3 + 2
    "7H 7H 7S 7S",  # two suits doubled, nothing else
    "KS AS 2S",  # wrapping
    "QS KS AS 2S",  # wrapping
    "KS AS 2S 3S",  # wrapping (a 14-card run could always be split, so never needed)
    "3S 4S 6S",
    "3S 4H 5S",
    "7H 7D 7S 7C 7H",  # five sevens
    "2S 3S 4S 5S 5S",
]


@pytest.mark.parametrize("text", VALID_TABLES)
def test_valid_tables(text):
    faces = F(text)
    melds = partition(faces)
    assert melds is not None
    assert Counter(f for m in melds for f in m) == Counter(faces)
    assert all(meld_kind(m) for m in melds)
    assert all(valid_meld(m) for m in melds)
    assert brute_partition([(f, False) for f in faces]) or len(faces) > 12


@pytest.mark.parametrize("text", INVALID_TABLES)
def test_invalid_tables(text):
    assert partition(F(text)) is None
    assert not is_partitionable(F(text))


def test_meld_kind():
    assert meld_kind(F("QS KS AS")) == "run"
    assert meld_kind(F("AS 2S 3S")) == "run"
    assert meld_kind(F("KS AS 2S")) is None
    assert meld_kind(F("7H 7D 7S")) == "set"
    assert meld_kind(F("7H 7H 7S")) is None
    assert meld_kind(F("7H 7D 7S 7C 7H")) is None
    assert solver.run_order(F("AS KS QS")) == F("QS KS AS")


def test_helpers_only_in_sets():
    # 7C (set-only) can join 7H 7D, but not extend 5C 6C
    assert is_partitionable(F("7H 7D"), F("7C"))
    assert not is_partitionable(F("5C 6C"), F("7C"))
    assert is_partitionable(F("5C 6C 7C"))


def _random_multiset(rng: random.Random) -> list[int]:
    """One to three random melds (ace-high runs, duplicates included), often perturbed."""
    suits = rng.sample(range(4), rng.randint(3, 4))
    start = rng.choice([1, 2, 5, 9, 10])  # 10: 10 J Q K A, ace high
    ranks = [(start + i - 1) % 13 + 1 for i in range(5)]
    universe = [s * 13 + r - 1 for s in suits for r in ranks]
    melds = [m for k in (3, 4) for m in itertools.combinations(universe, k) if valid_meld(m)]
    faces: list[int] = []
    for _ in range(rng.randint(1, 3)):
        faces += list(rng.choice(melds))
    faces = [f for f, n in Counter(faces).items() for _ in range(min(n, 2))]
    for _ in range(rng.choice([0, 0, 1, 2])):
        op = rng.randrange(3)
        if op == 0 and faces:
            faces.remove(rng.choice(faces))
        elif op == 1:
            faces.append(rng.choice(universe))
        elif faces:
            faces[rng.randrange(len(faces))] = rng.choice(universe)
    faces = [f for f, n in Counter(faces).items() for _ in range(min(n, 2))]
    rng.shuffle(faces)
    return faces[:10]


def test_brute_force_cross_check():
    """Small random multisets: impossible exactly when brute force finds nothing; every
    arrangement returned is valid and uses exactly the given cards."""
    rng = random.Random(20240601)
    found = {True: 0, False: 0}
    for _ in range(400):
        faces = _random_multiset(rng)
        n_so = rng.choice([0, 0, 0, 1, 2])
        set_only = faces[:n_so]
        normal = faces[n_so:]
        expected = brute_partition([(f, True) for f in set_only] + [(f, False) for f in normal])
        sol = solver.solve(solver.counts_of(normal), solver.counts_of(set_only))
        assert (sol is not None) == expected, (normal, set_only)
        found[expected] += 1
        if sol is not None:
            assert Counter(f for m in sol.melds for f in m) == Counter(faces)
            for meld, tags in zip(sol.melds, sol.tags, strict=True):
                assert valid_meld(meld)
                if "h" in tags:
                    assert meld_kind(meld) == "set"
            assert sum(t.count("h") for t in sol.tags) == len(set_only)
    assert found[True] > 40 and found[False] > 40


def _brute_best(table, hand, helpers):
    best = None
    for k in range(len(hand), 0, -1):
        for combo in itertools.combinations(range(len(hand)), k):
            chosen = [hand[i] for i in combo]
            for hk in range(len(helpers) + 1):
                for hcombo in itertools.combinations(helpers, hk):
                    cards = [(f, False) for f in table + chosen] + [(f, True) for f in hcombo]
                    if brute_partition(cards):
                        score = (k, sum(f % 13 + 1 for f in chosen))
                        if best is None or score > best:
                            best = score
                        break
        if best is not None:
            return best
    return best


def test_best_play_matches_brute_force():
    rng = random.Random(7)
    checked = 0
    for _ in range(120):
        start = rng.randint(1, 11)  # 11: Q K A
        ranks = [(start + i - 1) % 13 + 1 for i in range(4)]
        pool = [s * 13 + r - 1 for s in range(rng.randint(3, 4)) for r in ranks for _ in range(2)]
        rng.shuffle(pool)
        table_melds = []
        # a valid table: zero or one meld from the pool
        cand = [m for m in itertools.combinations(sorted(set(pool)), 3) if valid_meld(m)]
        if cand and rng.random() < 0.7:
            m = list(rng.choice(cand))
            table_melds.append(m)
            for f in m:
                pool.remove(f)
        table = [f for m in table_melds for f in m]
        hand = pool[: rng.randint(2, 6)]
        helpers = pool[6 : 6 + rng.choice([0, 0, 1, 2])]
        got = best_play(table, hand, helpers)
        expected = _brute_best(table, hand, helpers)
        if expected is None:
            assert got is None
        else:
            assert got is not None
            assert (got.count, got.value) == expected
            all_faces = table + got.hand_faces + got.helper_faces
            assert Counter(f for m in got.melds for f in m) == Counter(all_faces)
            assert all(valid_meld(m) for m in got.melds)
            checked += 1
    assert checked > 30


def test_best_play_prefers_more_cards_then_value():
    # table 5S 6S 7S; hand 4S 8S KH: both spades fit, K does not
    got = best_play(F("5S 6S 7S"), F("4S 8S KH"))
    assert sorted(got.hand_faces) == sorted(F("4S 8S"))
    # only one of 2S (low) or 9S? table 3S 4S 5S 6S 7S 8S: 2S and 9S both fit -> both
    got = best_play(F("3S 4S 5S"), F("2S 6S KD"))
    assert sorted(got.hand_faces) == sorted(F("2S 6S"))
    # value tie-break: hand QH QD or 2H 2D, table QS QC? -> only one pair joins its set
    got = best_play(F("QS QC QH 2S 2C 2H"), F("QD 2D"))
    assert sorted(got.hand_faces) == sorted(F("QD 2D"))
    got = best_play(F("5S 6S 7S"), F("KH"))
    assert got is None


def test_best_play_uses_helpers_only_in_sets():
    got = best_play([], F("7H 7D 3C"), F("7C 4C"))
    assert sorted(got.hand_faces) == sorted(F("7H 7D"))
    assert got.helper_faces == F("7C")
    # a helper cannot complete a run
    assert best_play([], F("5C 6C"), F("7C")) is None


def test_best_play_with_invalid_table_is_none():
    assert best_play(F("5S 6S"), F("KH KD KS")) is None


def test_arrange_keeps_old_melds():
    old = [F("7H 7D 7S"), F("3S 4S 5S"), F("JC QC KC")]
    plan = arrange_play(old, F("9D 10D JD"))
    assert plan is not None
    assert [p.faces for p in plan[:3]] == old and all(p.kept for p in plan[:3])
    # extending a run: the other melds stay, the run grows in place
    plan = arrange_play(old, F("6S"))
    assert plan[0].kept and plan[2].kept and not plan[1].kept
    assert sorted(plan[1].faces) == sorted(F("3S 4S 5S 6S"))
    # a rearrangement: 5S 6S 7S 8S + 5H 5D -> set of fives + 6S 7S 8S
    plan = arrange_play([F("5S 6S 7S 8S")], F("5H 5D"))
    assert sorted(sorted(p.faces) for p in plan) == sorted(
        [sorted(F("5S 5H 5D")), sorted(F("6S 7S 8S"))]
    )
    assert arrange_play(old, F("2H")) is None


def test_faces_beyond_two_copies_rejected():
    with pytest.raises(ValueError):
        solver.solve(solver.counts_of(F("7H 7H 7H")))


def test_large_positions_are_exact_and_valid():
    """Random valid 60-card tables with 20-card hands: the answer is a valid arrangement of
    table + the chosen cards, and playing it again leaves nothing better."""
    rng = random.Random(3)
    for _ in range(3):
        table = _random_table(rng, 60)
        pool = Counter({f: 2 for f in range(52)}) - Counter(table)
        hand = rng.sample(list(pool.elements()), 20)
        got = best_play(table, hand)
        if got is None:
            continue
        assert Counter(f for m in got.melds for f in m) == Counter(table + got.hand_faces)
        assert all(valid_meld(m) for m in got.melds)
        rest = list((Counter(hand) - Counter(got.hand_faces)).elements())
        assert best_play(table + got.hand_faces, rest) is None


def _random_table(rng: random.Random, n: int) -> list[int]:
    while True:
        pool = Counter({f: 2 for f in range(52)})
        table: list[int] = []
        for _ in range(200):
            need = n - len(table)
            if need == 0:
                return table
            if need < 3:
                break
            if rng.random() < 0.5:
                r = rng.randrange(13)
                suits = [s for s in range(4) if pool[s * 13 + r]]
                k = 3 if need in (3, 5) or rng.random() < 0.5 else 4
                if len(suits) < k or need - k in (1, 2):
                    continue
                meld = [s * 13 + r for s in rng.sample(suits, k)]
            else:
                s = rng.randrange(4)
                length = rng.randint(3, min(6, need))
                if need - length in (1, 2):
                    continue
                start = rng.randint(1, 15 - length)
                meld = [s * 13 + (start + i - 1) % 13 for i in range(length)]
                if any(pool[f] == 0 for f in meld) or len(set(meld)) < length:
                    continue
            for f in meld:
                pool[f] -= 1
            table += meld


def test_the_mirrored_sweep_finds_the_same_best_score():
    """K->A over the mirror image (ranks 2..K reversed, aces kept) is the same problem."""
    rng = random.Random(14)
    for _ in range(40):
        faces = [f for f in range(52) for _ in range(2)]
        rng.shuffle(faces)
        fixed = [0] * 52
        optional = solver.counts_of(faces[:14])
        zeros = [0] * 52
        forward = solver._Problem(fixed, zeros, optional, zeros).solve()
        mirrored = solver._Problem(fixed, zeros, optional, zeros, mirrored=True).solve()
        assert forward == mirrored


def test_a_search_stopped_by_its_budget_resumes_to_the_same_answer():
    hand = F("AS 2S 3S 4S QH KH AH 7C 7D 7S 9D")
    fixed, optional, zeros = [0] * 52, solver.counts_of(hand), [0] * 52
    whole = solver._Problem(fixed, zeros, optional, zeros).solve()
    stopped = solver._Problem(fixed, zeros, optional, zeros)
    stopped.limit = 5
    with pytest.raises(solver._OutOfBudget):
        stopped.solve()
    stopped.limit = 1 << 62
    assert stopped.solve() == whole
    best = best_play([], hand)
    assert best is not None and all(meld_kind(m) for m in best.melds)


def test_suffix_bounds_count_the_high_aces_a_run_still_needs():
    """``_tighten`` bounds each suffix from a relaxed state; the kept aces of a suit are part of
    what that state may use (Q-K here only makes a run with the high ace kept at rank 1)."""
    got = best_play(F("10S JS QS KS QS KS AS"), F("9S 5H"))
    assert got is not None and sorted(got.hand_faces) == F("9S")
    got = best_play(F("AS 7S 8S 9S 10S JS QS KS QS KS"), F("6S"))
    assert got is not None and got.hand_faces == F("6S")


def test_suffix_bounds_leave_every_best_score_unchanged(monkeypatch):
    """The same best score with and without ``_tighten`` on random tables and hands."""
    rng = random.Random(23)
    cases = []
    for _ in range(100):
        faces = [f for f in range(52) for _ in range(2)]
        rng.shuffle(faces)
        table = partition(faces[:30]) or []
        flat = [f for m in table for f in m]
        cases.append(
            (solver.counts_of(flat), solver.counts_of(faces[30 : 30 + rng.randint(4, 14)]))
        )
    zeros = [0] * 52
    tight = [solver._Problem(f, zeros, o, zeros).solve() for f, o in cases]
    monkeypatch.setattr(solver, "TIGHTEN_RANKS", ())
    loose = [solver._Problem(f, zeros, o, zeros).solve() for f, o in cases]
    assert tight == loose
    assert sum(score > 0 for score in tight) > 25
