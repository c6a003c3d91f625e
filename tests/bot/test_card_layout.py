"""A card's V2 message built without discord.py's view objects (issue 29): the same JSON as the
``LayoutView`` it replaces, nothing left for the cyclic garbage collector, and every V2 limit
still refused."""

from __future__ import annotations

import gc
import random
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters

from bot.i18n import translator
from bot.registry import load_games
from bot.ui import items, v2
from bot.ui.messages import lobby_payload, private_payload, public_payload
from bot.ui.presenter import presenter_for
from tests.bot.presenter_kit import SEAT_IDS, StubService, table_for
from tests.fakediscord import limits
from tests.playouts import random_states

GAMES = load_games()


def layout_view(card: v2.Card) -> list[dict[str, Any]]:
    """What ``card_view`` sent before: discord.py's ``LayoutView`` of the card (the reference)."""
    texts = v2._texts(card)
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=card.colour)
    container.add_item(discord.ui.TextDisplay(texts[0]))
    if card.image is not None:
        container.add_item(
            discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{card.image}"))
        )
    for text in texts[1:]:
        container.add_item(discord.ui.TextDisplay(text))
    for group in v2.action_rows(card.items, card.more_rows):
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for item in group:
            item.row = None
            row.add_item(item)
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    data = view.to_components()
    view.stop()
    return data


def _states(key: str, moves: int) -> list[Any]:
    game = GAMES[key]
    seats = SEAT_IDS[: 2 if key == "triad" else max(game.min_players, 3)]
    return list(
        random_states(game, game.new(seats, f"layout-{key}", None), random.Random(5), moves)
    )


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_every_card_sends_what_its_layout_view_sent(key, monkeypatch):
    built: list[tuple[v2.Card, v2.CardLayout]] = []
    real = v2.card_view

    def recording(card: v2.Card) -> v2.CardLayout:
        view = real(card)
        built.append((card, view))
        return view

    monkeypatch.setattr(v2, "card_view", recording)
    game, tr = GAMES[key], translator("es")
    presenter = presenter_for(game)
    for state in _states(key, 12):
        table = table_for(game, state, 3)
        public_payload(table, presenter, StubService(), tr)
        for seat in state.seats:
            private_payload(table, presenter, seat, tr)
    table.record.status = "lobby"
    lobby_payload(table, _LobbyService(), tr)
    assert len(built) > 12
    for card, view in built:
        assert isinstance(view, v2.CardLayout)
        view.alt = "the picture" if card.image else None
        data = view.to_components()
        expected = layout_view(card)
        if card.image:
            expected[0]["components"][1]["items"][0]["description"] = "the picture"
        assert data == expected
        message = {"flags": limits.FLAG_COMPONENTS_V2, "components": data}
        uploads = [card.image] if card.image else []
        assert limits.check_message(message, uploads=uploads) == []


class _LobbyService(StubService):
    def game_options(self, table: Any) -> dict[str, Any]:
        return {}


async def test_a_moves_messages_leave_nothing_for_the_cyclic_collector():
    """Built, turned into a request's JSON and dropped: every object is freed by its reference
    count (a LayoutView left ~50–120 objects per move in reference cycles)."""
    game, tr = GAMES["chupate2"], translator("es")
    presenter = presenter_for(game)
    table = table_for(game, _states("chupate2", 6)[-1], 4)

    def one_move() -> None:
        payloads = [public_payload(table, presenter, StubService(), tr)]
        payloads += [private_payload(table, presenter, seat, tr) for seat in table.state.seats]
        for payload in payloads:
            kwargs = payload.edit_kwargs()
            with handle_message_parameters(
                content=kwargs["content"], embeds=kwargs["embeds"], view=kwargs["view"]
            ) as params:
                assert params.payload["components"][0]["type"] == v2.CONTAINER
                assert params.payload["flags"] == limits.FLAG_COMPONENTS_V2

    one_move()  # catalogues and memos warm
    gc.collect()
    gc.disable()
    try:
        one_move()
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_discord_py_never_keeps_a_card():
    view = v2.note_view("done")
    assert view.is_finished() and not view.is_dispatchable() and view.timeout == v2.UNTIMED
    assert view.to_components()[0]["components"] == [{"type": v2.TEXT_DISPLAY, "content": "done"}]


def test_the_limits_are_still_refused():
    def button(n: int) -> items.HandButton:
        return items.HandButton(1, n, label=str(n))

    six_wide = v2.Card(title="t", colour=None, more_rows=[[button(n) for n in range(6)]])
    with pytest.raises(ValueError, match="action row 6 wide"):
        v2.card_view(six_wide)
    many = v2.Card(title="t", colour=None, more_rows=[[button(5 * r + n) for n in range(5)] for r in range(7)])  # fmt: skip
    with pytest.raises(ValueError, match="44 components"):
        v2.card_view(many)
    twice = v2.Card(title="t", colour=None, items=[button(1), button(1)])
    with pytest.raises(ValueError, match="duplicate custom_id"):
        v2.card_view(twice)
    with pytest.raises(ValueError, match="characters of text"):
        v2.check_v2_limits(v2.CardLayout(None, ["x" * 3000, "y" * 1500]))


def test_a_notice_a_gallery_and_rows_change_in_place():
    card = v2.Card(title="T", colour=v2.LOBBY, text="main", image="table.png")
    view = v2.card_view(card)
    v2.add_notice(view, "moved on")
    assert view.texts[0] == "## T\nmoved on\nmain"
    v2.describe_image(view, "other.png", "no")
    assert view.alt is None
    v2.describe_image(view, "table.png", "red 7")
    assert view.to_components()[0]["components"][1]["items"][0]["description"] == "red 7"
    v2.replace_rows(view, [items.LobbyButton(1, "join", label="J")])
    [row] = [c for c in view.to_components()[0]["components"] if c["type"] == v2.ACTION_ROW]
    assert [b["custom_id"] for b in row["components"]] == ["l:1:join"]
    v2.drop_image(view, "table.png")
    assert all(c["type"] != v2.MEDIA_GALLERY for c in view.to_components()[0]["components"])
