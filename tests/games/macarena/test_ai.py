"""Computer players decide from the view: sensible choices, valid moves, sampled worlds."""

import random
from collections import Counter

from games.core.cards import two_decks
from games.macarena import GAME, GiveElement, Pass, Play
from games.macarena.ai import choose_action, contest_value
from games.macarena.ai_rollout import sample_world
from games.macarena.state import Tokens

from .helpers import cards, table

# Pozo tops: 0:2C 1:5D 2:9S 3:QH 4:KC 5:3H 6:7D


def decide(state, seat, level, seed=0):
    return choose_action(
        GAME.view(state, seat), GAME.legal_actions(state, seat), level, random.Random(seed)
    )


def test_normal_prefers_the_longest_series_and_espejos():
    s = table({"a": "4D 3D 2D 4S", "b": "AS"}, seats=["a", "b"])
    # 2C -> 2D (igual) -> 3D -> 4D (escalera) -> 4S (igual): every card, 3 to the collection
    assert decide(s, "a", "normal") == Play(pozo=0, cards=("2D", "3D", "4D", "4S"))
    s = table({"a": "9S 3C", "b": "AS"}, seats=["a", "b"])
    assert decide(s, "a", "normal") == Play(pozo=2, cards=("9S",))  # the espejo solo


def test_every_level_passes_when_nothing_links():
    s = table({"a": "6S 10H", "b": "AS"}, seats=["a", "b"])
    for level in ("easy", "normal", "hard"):
        assert decide(s, "a", level) == Pass()


def test_easy_plays_valid_series():
    s = table({"a": "6D 7D 8D 8H 8S 9S", "b": "AS"}, seats=["a", "b"])
    for seed in range(30):
        action = decide(s, "a", "easy", seed)
        GAME.apply(s, "a", action)  # never raises


def test_sampled_worlds_agree_with_the_view_and_keep_104cards():
    state = GAME.new(["a", "b", "c"], "world")
    rng = random.Random(1)
    for _ in range(60):
        seat = sorted(GAME.to_act(state))[0]
        state, _ = GAME.apply(
            state,
            seat,
            choose_action(GAME.view(state, seat), GAME.legal_actions(state, seat), "normal", rng),
        )
    seat = state.seats[state.turn]
    view = GAME.view(state, seat)
    world = sample_world(view, random.Random(2))
    cards = list(world.stock) + [c for p in world.pozos for c in p]
    for s in world.seats:
        cards += world.hands[s] + world.collections[s]
    faces = Counter((c.rank, c.suit) for c in cards)
    assert faces == Counter((c.rank, c.suit) for c in two_decks())
    assert world.hands[seat] == view.hand and [p[-1] for p in world.pozos] == [
        p.top for p in view.pozos
    ]
    assert [len(world.hands[p.seat]) for p in view.players] == [p.hand_count for p in view.players]
    assert len(world.stock) == view.stock_count and world.macas == [p.macas for p in view.pozos]


def test_hard_looks_ahead_at_the_end_of_the_hand():
    # a short stock: hard rolls the hand out and still returns a move apply accepts
    s = table(
        {"a": "6D 7D 3C 9S 10S", "b": "AS 4H 6S", "c": "KD 2D"}, stock="4C 4D 4S", current="a"
    )
    action = decide(s, "a", "hard")
    GAME.apply(s, "a", action)
    assert action != Pass()


def test_hard_values_a_collected_card_by_the_race_for_its_element():
    # b has shown 3 clubs and 8 spades into its collection; a has 3 clubs and 1 spade
    s = table(
        {"a": "2H", "b": "AS"},
        seats=["a", "b"],
        collections={"a": "2C 3C 4C 5S", "b": "6C 7C 8C 2S 3S 4S 6S 7S 8S 9S 10S"},
    )
    view = GAME.view(s, "a")
    assert [p.collection_count for p in view.players] == [4, None]  # b's stays face down
    club, spade = contest_value(view, cards("KC")), contest_value(view, cards("KS"))
    assert club > spade > 0  # a close race counts; one lost by 7 hardly
    # a token a already holds is only a coin to win; one b lacks is worth denying it
    s.tokens = {"a": Tokens(elements=["earth"]), "b": Tokens()}
    held = contest_value(GAME.view(s, "a"), cards("KC"))
    s.tokens = {"a": Tokens(), "b": Tokens(elements=["earth"])}
    denied_less = contest_value(GAME.view(s, "a"), cards("KC"))
    assert club > held and club > denied_less
    # the two cards of one series count one after the other
    assert contest_value(view, cards("KC QC")) > club


def test_hard_gives_up_the_element_it_wins_back_in_the_same_hand():
    # a draws the last card and passes: b cannot draw, the hand ends; a holds more cards, so a
    # gives up an element
    s = table(
        {"a": "6S 10C 2D", "b": "AS"},
        stock="4C",
        seats=["a", "b"],
        phase="draw",
        collections={"a": "2C 3H 4H 5H 6H", "b": "7H 8H 9H 10H JH QH"},
        tokens={"a": Tokens(elements=["earth", "water"]), "b": Tokens()},
    )
    s, _ = GAME.apply(s, "a", GAME.legal_actions(s, "a")[0])
    s, _ = GAME.apply(s, "a", Pass())
    assert s.phase == "penalty" and s.penalty_pending == ["a"]
    # normal keeps the element it collected least of; hard knows b's collection (every card
    # was played face up): a wins earth back this hand, water goes to b whatever a gives
    assert decide(s, "a", "normal") == GiveElement(element="water")
    assert decide(s, "a", "hard") == GiveElement(element="earth")
    after, _ = GAME.apply(s, "a", GiveElement(element="earth"))
    assert "earth" in after.tokens["a"].elements and after.tokens["a"].coins == 0
