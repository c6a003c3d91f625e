"""The table message's first row during a game ("Ver mi mano", "Salir", "Volver", the rules) is
written once per table, language and "Volver" state and shared by the payloads: it reads as the
discord.py items it was written of, and the public message shows the same components as when
they are built afresh."""

import pytest

from bot.i18n import translator
from bot.registry import load_games
from bot.service.seats import reclaimable
from bot.ui import items
from bot.ui.messages import _written_playing_buttons, public_payload, rules_button
from bot.ui.presenter import presenter_for
from bot.ui.seats import seat_buttons
from tests.bot.presenter_kit import StubService, table_for
from tests.message_text import components_of

GAMES = load_games()


@pytest.mark.parametrize("locale", ["es", "en"])
@pytest.mark.parametrize("rejoin", [False, True])
async def test_written_buttons_read_as_the_items_they_were_written_of(locale, rejoin):
    tr = translator(locale)
    built = [
        items.HandButton(7, 0, label=tr("table.show_hand"), row=0),
        *seat_buttons(7, rejoin, tr),
        rules_button(7, tr, row=0),
    ]
    written = _written_playing_buttons(7, locale, rejoin)
    assert [w.to_component_dict() for w in written] == [i.to_component_dict() for i in built]
    assert [(w.row, w.width, w.custom_id) for w in written] == [
        (i.row, i.width, i.custom_id) for i in built
    ]
    assert len(written) == (4 if rejoin else 3)
    assert _written_playing_buttons(7, locale, rejoin) is written  # written once
    first = written[0].to_component_dict()
    first["label"] = "changed"  # a payload's copy: the written one stays as it was
    assert written[0].to_component_dict()["label"] == tr("table.show_hand")


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_the_public_message_shows_the_same_components_written_or_built(key):
    game = GAMES[key]
    seats = [f"s{i}" for i in range(2 if key == "triad" else max(game.min_players, 3))]
    table = table_for(game, game.new(seats, f"written-{key}", None), 3)
    presenter = presenter_for(game)
    presenter._images = None
    tr = translator("en")
    data = components_of(public_payload(table, presenter, StubService(), tr))
    first_row = [c for c in data[0]["components"] if c["type"] == 1][0]["components"]
    built = [
        items.HandButton(table.id, 0, label=tr("table.show_hand"), row=0),
        *seat_buttons(table.id, bool(reclaimable(table)), tr),
        rules_button(table.id, tr, row=0),
    ]
    assert first_row == [item.to_component_dict() for item in built]
    assert first_row[0]["custom_id"] == "h:3:0"


@pytest.mark.parametrize(
    ("parts", "footer", "image"),
    [
        ([], None, None),
        ([("a", "x")], "foot", "table.png"),
        ([("a", ""), ("b", "y"), ("c", "z")], "", None),
        ([("a", "x" * 3000), ("b", "y" * 3000)], "f" * 500, "hand.png"),
    ],
)
def test_a_cards_fixed_components_are_counted_as_they_are_laid_out(parts, footer, image):
    from bot.ui import v2

    card = v2.Card(title="T", colour=None, text="main", parts=parts, footer=footer, image=image)
    assert v2.fixed_components(card) == 1 + len(v2._texts(card)) + (image is not None)
    assert v2.fixed_components(card) == v2.card_view(card).component_count()
