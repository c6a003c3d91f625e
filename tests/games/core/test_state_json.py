"""A state's stored JSON written by orjson from its fields (``games.core.statejson``): the very
text pydantic writes, for every state of random games of each game, for states loaded from
storage (cards that are not the shared decks' instances), and when a value is one orjson does
not write (pydantic writes the state then)."""

from __future__ import annotations

import random
from importlib import import_module

import pytest

from games.core.cards import PlayingCard, card_json, two_decks
from games.core.statejson import writer
from tests.playouts import random_states

KEYS = ("amapatolli", "chupate2", "macarena", "maquiavelo", "triad")


def _seats(key: str) -> list[str]:
    return [f"s{i}" for i in range(2 if key == "triad" else 4)]


@pytest.mark.parametrize("key", KEYS)
def test_every_state_of_random_games_dumps_as_pydantic_does(key):
    game = import_module(f"games.{key}").GAME
    for number in range(4):
        first = game.new(_seats(key), f"state-json-{key}-{number}")
        for state in random_states(game, first, random.Random(number), 500):
            text = game.dump_state(state)
            assert text == state.model_dump_json()
            loaded = game.load_state(text)  # its cards are new instances, its log packed
            assert game.dump_state(loaded) == text


def test_chupate2_and_macarena_write_their_fields_with_orjson():
    """(Where that measured faster; the other games are written by pydantic.)"""
    usable = {}
    for key in KEYS:
        game = import_module(f"games.{key}").GAME
        usable[key] = writer(type(game.new(_seats(key), "usable"))).usable
    assert usable == {k: k in ("chupate2", "macarena") for k in KEYS}


def test_a_value_orjson_does_not_write_is_left_to_pydantic():
    game = import_module("games.macarena").GAME
    state = game.new(_seats("macarena"), "huge")
    state.hand_number = 2**70  # beyond orjson's 64-bit integers: pydantic writes it
    text = game.dump_state(state)
    assert text == state.model_dump_json()
    assert f'"hand_number":{2**70}' in text


def test_every_card_is_written_as_pydantic_writes_it():
    shared = two_decks()
    assert len({id(c) for c in shared}) == 104
    for card in shared:
        fresh = PlayingCard(rank=card.rank, suit=card.suit, deck=card.deck)
        assert card_json(card) == card_json(fresh) == card.model_dump_json().encode()
    assert two_decks() is not two_decks()  # a list of its own each deal (the cards shared)
