import pytest

from games.core import IllegalAction, rng_for, shuffled
from games.core.cards import PlayingCard, parse_card, two_decks


def test_rng_is_deterministic_and_label_dependent():
    assert rng_for("s", 1).random() == rng_for("s", 1).random()
    assert rng_for("s", 1).random() != rng_for("s", 2).random()
    assert shuffled(range(20), "x", "deal") == shuffled(range(20), "x", "deal")
    assert sorted(shuffled(range(20), "x", "deal")) == list(range(20))


def test_illegal_action_carries_code_and_params():
    err = IllegalAction("not_your_turn", seat="a")
    assert err.code == "not_your_turn" and err.params == {"seat": "a"}


@pytest.mark.parametrize(
    "text,rank,suit",
    [("AS", 1, "S"), ("10h", 10, "H"), ("q♦", 12, "D"), ("T♣", 10, "C"), ("K♠", 13, "S")],
)
def test_parse_card(text, rank, suit):
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert parse_card(card.code).same_face(card)


@pytest.mark.parametrize("text", ["", "1S", "11H", "AX", "ZZ"])
def test_parse_card_rejects(text):
    with pytest.raises(IllegalAction):
        parse_card(text)


def test_two_decks():
    deck = two_decks()
    assert len(deck) == 104 and len(set(deck)) == 104
    assert PlayingCard.model_validate_json(deck[5].model_dump_json()) == deck[5]
