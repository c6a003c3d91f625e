"""A state's stored JSON written by orjson from its fields (``games.core.statejson``): the very
text pydantic writes, for every state of random games of each game, for states loaded from
storage (cards that are not the shared decks' instances), and when a value is one orjson does
not write (pydantic writes the state then)."""

from __future__ import annotations

import random
from importlib import import_module

import orjson
import pytest

from games.core.cards import PlayingCard, card_json, two_decks
from games.core.statejson import KeptCards, writer
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


def test_macarena_states_keep_their_card_lists_once_dumped():
    """Macarena's card lists' JSON is kept by the list (``KeptCards``): right while no list is
    changed in place once its state is dumped. Every state of random games, dumped as it comes
    (lists kept along the way), still dumps by pydantic to that very text at the game's end;
    and the game's last dump's lists are the ones kept for it."""
    game = import_module("games.macarena").GAME
    kept = writer(type(game.new(_seats("macarena"), "kept"))).kept_cards
    assert kept is not None
    for number in range(3):
        first = game.new(_seats("macarena"), f"kept-{number}")
        dumped = [
            (state, game.dump_state(state))
            for state in random_states(game, first, random.Random(number), 400)
        ]
        assert len(dumped) > 100
        for state, text in dumped:
            assert state.model_dump_json() == text
        state = dumped[-1][0]
        lists = [*state.hands.values(), *state.pozos, *state.collections.values(), state.stock]
        if state.hand_result is not None:
            lists += [r.collection for r in state.hand_result.seats.values()]
        held = kept._by_game[state.seed]
        assert set(held) == {id(c) for c in lists}  # the last dump's lists, no older one
        assert all(held[id(cards)][0] is cards for cards in lists)


def test_kept_card_lists_are_per_game_bounded_and_a_new_list_is_written_anew():
    kept = KeptCards(2)
    decks = two_decks()
    lists = [decks[i : i + 5] for i in range(4)]

    def dump(game, cards_lists):
        kept.start(game)
        return [orjson.dumps(kept(cards)) for cards in cards_lists]

    expected = [orjson.dumps([c.model_dump() for c in cards]) for cards in lists]
    assert dump("g1", lists[:2]) == expected[:2]
    first = kept._by_game["g1"][id(lists[0])][1]
    assert dump("g1", lists[:3]) == expected[:3]
    assert kept._by_game["g1"][id(lists[0])][1] is first  # met again: its text kept
    assert dump("g1", lists[2:]) == expected[2:]
    assert set(kept._by_game["g1"]) == {id(lists[2]), id(lists[3])}  # the others let go
    same_cards = list(lists[3])  # equal, another list: written apart
    assert dump("g1", [same_cards]) == [expected[3]]
    assert kept._by_game["g1"][id(same_cards)][0] is same_cards
    dump("g2", lists[:1])
    dump("g3", lists[:1])
    assert list(kept._by_game) == ["g2", "g3"]  # two games at most, the oldest dropped
