"""Components V2 tables and hands (issue 28 item 1): the flag, the accent colour of the seat to
act, the gallery with its alt text, and hands that fit the 40-component budget without paging."""

from __future__ import annotations

import random

import discord
import pytest

from bot.i18n import translator
from bot.registry import load_games
from bot.service import ServiceConfig, TableService
from bot.ui import v2
from bot.ui.layout import NAV_COMPONENTS, Choice, build_layout
from bot.ui.messages import finish, lobby_payload, private_payload, public_payload
from bot.ui.presenter import presenter_for
from storage import open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_messages import _check_limits, is_v2_view
from tests.bot.test_tables import RecordingListener
from tests.fakediscord import limits
from tests.message_text import clickable, components_of, read_card

GAMES = load_games()


async def _started(db, key: str, players: int, seed: str):
    service = TableService(db, GAMES, RecordingListener(), ServiceConfig(cpu_delay_seconds=0))
    table = await service.lobby.open(
        guild_id="g",
        channel_id=seed,
        game_key=key,
        host_id="1",
        host_name="Ana",
        locale="es",
        seed=seed,
    )
    for i in range(2, players + 1):
        await service.lobby.join(table.id, str(i), f"P{i}")
    await service.lobby.start(table.id, "1")
    return service, table


def _pages(payload) -> bool:
    """Whether a private payload pages its choices (its arrows are "Ver mi mano" buttons)."""
    return any(c["custom_id"].startswith("h:") for c in clickable(payload))


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("db_target", ["sqlite"], indirect=True)
async def test_the_table_is_one_v2_container_coloured_by_the_seat_to_act(db_target, key):
    db = await open_database(db_target)
    game = GAMES[key]
    presenter = presenter_for(game)
    tr = translator("es")
    service, table = await _started(db, key, game.min_players, f"v2-{key}")
    rng = random.Random(3)
    colours_seen = set()
    for _ in range(600):
        state = table.state
        public = public_payload(table, presenter, service, tr)
        assert is_v2_view(public) and not public.content
        [container] = components_of(public)
        assert container["type"] == limits.CONTAINER
        to_act = [s for s in state.seats if s in game.to_act(state)]
        if table.record.status != "playing":
            break
        want = (
            v2.seat_accents(key)[state.seats.index(to_act[0])]
            if len(to_act) == 1
            else presenter.colour
        )
        assert container["accent_color"] == want.value, (to_act, container["accent_color"])
        colours_seen.add(container["accent_color"])
        # the image, when the game draws one, sits in a gallery pointing at its attachment
        card = read_card(public)
        if public.image is not None:
            assert card["image"]["url"] == "attachment://table.png"
        assert "▶" in card["description"] or len(to_act) != 1
        seat = to_act[0]
        action = rng.choice(game.legal_actions(state, seat))
        await service.act(table.id, seat, table.version, action.encode())
    if table.record.status == "finished":  # random play ends most games within 600 moves
        final = read_card(public_payload(table, presenter, service, tr))
        assert final["color"] == v2.WINNER.value
        assert any(f["name"] == "Resultado" for f in final["fields"])
        labels = [c["label"] for c in clickable(public_payload(table, presenter, service, tr))]
        assert labels == ["Revancha"]
    assert len(colours_seen) >= 2  # the colour followed the turn
    await service.close()
    await db.close()


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("db_target", ["sqlite"], indirect=True)
async def test_common_hands_fit_without_paging(db_target, key):
    """Whole random games at the most players: no private view ever needs page arrows, and
    every view keeps Discord's V2 limits."""
    db = await open_database(db_target)
    game = GAMES[key]
    presenter = presenter_for(game)
    tr = translator("en")
    most_choices = 0
    for n in range(3):
        service, table = await _started(db, key, game.max_players, f"fit-{key}-{n}")
        rng = random.Random(n)
        for _ in range(400):
            if table.record.status != "playing":
                break
            for seat in table.state.seats:
                legal = game.legal_actions(table.state, seat)
                private = private_payload(table, presenter, seat, tr)
                most_choices = max(most_choices, len(clickable(private)))
                _check_limits(private, {a.encode() for a in legal})
                assert not _pages(private), (key, seat, len(legal))
            seat = sorted(game.to_act(table.state), key=table.state.seats.index)[0]
            action = rng.choice(game.legal_actions(table.state, seat))
            await service.act(table.id, seat, table.version, action.encode())
        await service.close()
    assert most_choices >= 5, most_choices  # views with a hand worth laying out were met
    await db.close()


@pytest.mark.parametrize("db_target", ["sqlite"], indirect=True)
async def test_the_lobby_is_v2_and_becomes_the_table(db_target):
    db = await open_database(db_target)
    service = TableService(db, GAMES, RecordingListener(), ServiceConfig(cpu_delay_seconds=0))
    table = await open_lobby(service, "chupate2", host=("1", "Ana"), seed="lobby")
    lobby = lobby_payload(table, service, translator("es"))
    assert is_v2_view(lobby) and read_card(lobby)["color"] == v2.LOBBY.value
    assert {c["label"] for c in clickable(lobby)} >= {"Unirse", "Empezar", "Reglas"}
    await service.close()
    await db.close()


def test_thirty_cards_fit_as_buttons_and_paging_starts_only_beyond_the_budget():
    cards = [Choice(action=f"p:{i}", label=f"card {i}", group=f"g{i // 5}") for i in range(30)]
    fits = build_layout(cards, table_id=1, version=1, budget=36)
    assert fits.pages == 1 and len(fits.rows) == 6 and len(fits.items) == 30
    assert all(isinstance(i.item, discord.ui.Button) and i.row is None for i in fits.items)
    # one more row of buttons would not fit: selects, still on one page
    more = [*cards, Choice(action="p:x", label="x", group="gx")]
    selects = build_layout(more, table_id=1, version=1, budget=36)
    assert selects.pages == 1 and all(isinstance(i.item, discord.ui.Select) for i in selects.items)
    # 20 groups of 25 options: 20 selects cost 40 > 36, so pages (the arrows kept out)
    many = [Choice(action=f"p:{i}", label=f"c{i}", group=f"g{i // 25}") for i in range(500)]
    paged = build_layout(many, table_id=1, version=1, budget=36)
    assert paged.pages == 2 and len(paged.rows) == (36 - NAV_COMPONENTS) // 2


def test_a_card_respects_the_text_budget_and_reads_back():
    card = v2.Card(
        title="T",
        colour=v2.LOBBY,
        text="x" * 5000,
        parts=[("Part", "y" * 3000)],
        footer="Versión 3",
        image="table.png",
    )
    view = v2.card_view(card)
    assert view.content_length() <= v2.TEXT_MAX
    data = view.to_components()
    assert limits.check_message({"flags": limits.FLAG_COMPONENTS_V2, "components": data}, uploads=["table.png"]) == []  # fmt: skip
    read = read_card({"components": data})
    assert read["title"] == "T" and read["footer"]["text"] == "Versión 3"
    assert read["fields"][0]["name"] == "Part" and read["description"].startswith("xxx")


def test_turn_accent():
    seats = ["a", "b", "c"]
    game = discord.Colour.teal()
    assert v2.turn_accent(seats, ["b"], game) == v2.SEAT_ACCENTS[1]
    assert v2.turn_accent(seats, ["a", "c"], game) == game
    assert v2.turn_accent(seats, [], game) == game
    # Triple Triad's second seat is red (🔺) in its text and images: so is its accent
    assert v2.turn_accent(["a", "b"], ["b"], game, "triad").value == 0xE8605A


async def test_the_gallery_item_carries_the_images_alt_text(monkeypatch):
    from bot.ui import messages, rendering

    class Drawn:
        async def render(self, request, wanted=None, **how):  # how: its place in line
            return b"\x89PNG fake"

        def description(self, digest):  # no worker wrote one: the payload describes it
            return None

    monkeypatch.setattr(rendering, "renderer", lambda: Drawn())
    monkeypatch.setattr(messages, "describe", lambda request: "The table: red 7 on top")
    card = v2.Card(title="T", colour=None, image="table.png")

    class Request:
        digest = "d1"
        filename = "table.png"

    payload = messages.Payload(view=v2.card_view(card), image=Request())
    await finish(payload)
    [file] = payload.files
    assert file.description == "The table: red 7 on top"
    assert read_card(payload)["image"]["description"] == "The table: red 7 on top"
    # the same image already shown: nothing uploaded, the gallery still says what it shows
    kept = messages.Payload(view=v2.card_view(card), image=Request())
    await finish(kept, shown="d1")
    assert kept.keep_image and kept.files == []
    assert read_card(kept)["image"]["description"] == "The table: red 7 on top"
    # an image that could not be drawn: no gallery pointing at nothing

    class Nothing:
        async def render(self, request, wanted=None, **how):  # how: its place in line
            return b""

    monkeypatch.setattr(rendering, "renderer", lambda: Nothing())
    empty = messages.Payload(view=v2.card_view(card), image=Request())
    await finish(empty)
    assert "image" not in read_card(empty)
