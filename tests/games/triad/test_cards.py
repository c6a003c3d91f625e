"""The card catalogue (data/cards.json) and the pure deck helpers."""

from __future__ import annotations

import json
from collections import Counter
from statistics import mean

import pytest
from pydantic import ValidationError

from games.triad import cards
from games.triad.cards import DATA_FILE, Catalogue, catalogue


def test_catalogue_validates_against_the_schema():
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    cat = Catalogue.model_validate(raw)
    assert cat == catalogue()
    assert len(cat.cards) >= 110


def test_eleven_cards_per_level():
    per_level = Counter(c.level for c in catalogue().cards)
    assert dict(per_level) == {lv: 11 for lv in range(1, 11)}


def test_ids_and_names_are_unique():
    cs = catalogue().cards
    assert len({c.id for c in cs}) == len(cs)
    assert len({c.name.es.casefold() for c in cs}) == len(cs)
    assert len({c.name.en.casefold() for c in cs}) == len(cs)
    assert len({(c.edges, c.element) for c in cs}) == len(cs)


def test_names_are_original_not_final_fantasy():
    banned = {
        "bahamut",
        "ifrit",
        "shiva",
        "quezacotl",
        "leviathan",
        "odin",
        "gilgamesh",
        "squall",
        "seifer",
        "rinoa",
        "quistis",
        "zell",
        "selphie",
        "irvine",
        "laguna",
        "chocobo",
        "moomba",
        "tonberry",
        "cactuar",
        "malboro",
        "behemoth",
        "diablos",
        "siren",
        "carbuncle",
        "alexander",
        "doomtrain",
        "edea",
        "ward",
        "kiros",
        "minimog",
        "mog",
        "geezard",
        "funguar",
        "bite bug",
        "gayla",
        "t-rexaur",
        "bomb",
        "blitz",
        "phoenix",
        "chimera",
        "imp",
        "minotaur",
        "cerberus",
        "tiamat",
        "sphinx",
        "ochu",
        "grendel",
        "wendigo",
        "adamantoise",
        "cockatrice",
        "fénix",
        "quimera",
        "sirena",
        "leviatán",
        "behemot",
    }
    for c in catalogue().cards:
        for name in (c.name.es.casefold(), c.name.en.casefold()):
            assert not any(word in name.split() for word in banned), name


def test_values_and_elements():
    for c in catalogue().cards:
        assert all(1 <= v <= 10 for v in c.edges)
        assert c.element is None or c.element in cards.ELEMENTS
    assert {c.element for c in catalogue().cards} >= set(cards.ELEMENTS)


def test_strength_rises_with_level():
    by_level = {lv: [c.strength for c in catalogue().cards if c.level == lv] for lv in range(1, 11)}
    means = [mean(by_level[lv]) for lv in range(1, 11)]
    assert means == sorted(means) and len(set(means)) == 10
    for lv in range(1, 10):
        assert max(by_level[lv]) <= min(by_level[lv + 1]) + 1
        assert mean(by_level[lv + 1]) - mean(by_level[lv]) >= 1


def test_only_levels_8_to_10_hold_an_a_and_all_of_them_do():
    for c in catalogue().cards:
        assert (10 in c.edges) == (c.level >= 8), c


def test_schema_rejects_bad_cards():
    good = catalogue().cards[0].model_dump()
    for bad in [{"top": 11}, {"level": 0}, {"element": "luz"}, {"id": "x1"}, {"left": 0}]:
        with pytest.raises(ValidationError):
            cards.Card.model_validate({**good, **bad})
    dup = {"version": 1, "cards": [good, good]}
    with pytest.raises(ValidationError):
        Catalogue.model_validate(dup)


def test_edge_text():
    assert cards.edge_text(10) == "A" and cards.edge_text(7) == "7"


def test_starter_set_is_seven_cards_of_levels_1_and_2():
    s = cards.starter_set("starter:42")
    assert len(s) == 7 and len(set(s)) == 7
    assert all(cards.card(c).level in (1, 2) for c in s)
    assert s == cards.starter_set("starter:42")
    assert s != cards.starter_set("starter:43")


def test_top_up_to_five_with_level_1_cards():
    assert cards.top_up({"c050": 5}, "x") == []
    assert cards.top_up({"c050": 9}, "x") == []
    grants = cards.top_up({"c050": 2}, "x")
    assert len(grants) == 3 and all(cards.card(c).level == 1 for c in grants)
    assert len(cards.top_up({}, "x")) == 5
    assert len(set(cards.top_up({}, "x"))) == 5


def test_random_hand_draws_five_owned_copies():
    coll = {"c001": 1, "c002": 3, "c050": 2}
    hand = cards.random_hand(coll, "seed", 0)
    assert len(hand) == 5
    used = Counter(hand)
    assert all(used[c] <= coll[c] for c in used)
    with pytest.raises(ValueError):
        cards.random_hand({"c001": 4}, "seed")


@pytest.mark.parametrize("level", range(1, 11))
def test_deck_for_level(level):
    deck = cards.deck_for_level(level, "s")
    assert len(deck) == 5 and len(set(deck)) == 5
    assert sorted(cards.card(c).level for c in deck)[:4] == [level] * 4
    assert deck == cards.deck_for_level(level, "s")


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_cpu_decks(difficulty):
    deck = cards.cpu_deck(difficulty, "s", 1)
    assert len(deck) == 5 and len(set(deck)) == 5
    levels = cards.CPU_DECK_LEVELS[difficulty]
    assert all(cards.card(c).level in levels for c in deck)
    assert deck == cards.cpu_deck(difficulty, "s", 1)


def test_cpu_decks_grow_with_difficulty():
    def avg(d):
        return mean(cards.card(c).strength for i in range(20) for c in cards.cpu_deck(d, "s", i))

    assert avg("easy") < avg("normal") < avg("hard")


@pytest.mark.parametrize("levels", [[1, 1, 1, 1, 1], [1, 2, 2, 1, 2], [3, 4, 5, 4, 3], [10] * 5])
def test_matched_levels_follow_the_players_five(levels):
    """Issue 31: normal matches the player's total level, easy is weaker, only hard stronger
    (within what the catalogue holds: levels 1-10)."""
    normal = cards.matched_levels("normal", levels)
    assert sum(normal) == sum(levels) and max(normal) - min(normal) <= 1
    assert sum(cards.matched_levels("easy", levels)) == max(5, sum(levels) - 3)
    assert sum(cards.matched_levels("hard", levels)) == min(50, sum(levels) + 5)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_matched_decks_are_distinct_seeded_and_of_the_matched_levels(difficulty):
    starter = cards.starter_set("starter:someone")
    levels = [cards.card(c).level for c in starter[:5]]
    for n in range(20):
        deck = cards.matched_deck(difficulty, levels, "s", n)
        assert len(deck) == 5 and len(set(deck)) == 5
        assert sorted(cards.card(c).level for c in deck) == sorted(
            cards.matched_levels(difficulty, levels)
        )
        assert deck == cards.matched_deck(difficulty, levels, "s", n)


def test_collection_levels_stand_for_the_mean_level():
    assert cards.collection_levels({}) == [1] * 5
    c1 = cards.ids_of_levels((1,))[0]
    c3 = cards.ids_of_levels((3,))[0]
    assert cards.collection_levels({c1: 2}) == [1] * 5
    assert sum(cards.collection_levels({c1: 1, c3: 1})) == 10  # mean level 2
