"""The command answers in Components V2 (``bot/ui/answer_layout.py``): one container in the
game's colour, within Discord's V2 limits (the flag, ≤ 40 components, ≤ 4,000 characters of
text), in both languages."""

from __future__ import annotations

import io

import discord
import pytest

from bot.i18n import translator
from bot.service.guild_settings import GuildSettings
from bot.ui.amapatolli.presenter import Presenter as AmapatolliPresenter
from bot.ui.answer_layout import Answer, Block, answer_view, game_colour
from bot.ui.history_view import history_answer
from bot.ui.platform_items import FollowButton
from bot.ui.profile_view import profile_answer
from bot.ui.replay_view import replay_answer
from bot.ui.rules import rules_answer
from bot.ui.settings_view import settings_answer
from bot.ui.tables_view import MAX_LISTED, tables_answer
from games.amapatolli import GAME
from storage import FinishedRow
from tests.bot.presenter_kit import SEAT_IDS, table_for, text_presenter
from tests.fakediscord.limits import walk_components
from tests.message_text import (
    accent_of,
    block_of,
    blocks_of,
    check_v2,
    footer_of,
    gallery_of,
    title_of,
)

GAMES = ["amapatolli", "chupate2", "maquiavelo", "macarena", "triad"]
LOCALES = ["es", "en"]


def _shown(answer: Answer) -> dict:
    """The message body discord.py sends for ``answer`` (the flag as it would set it)."""
    view = answer_view(answer)
    body = {"components": view.to_components()}
    flags = discord.MessageFlags(components_v2=view.has_components_v2()).value
    check_v2(body, flags)
    return body


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("key", GAMES)
def test_rules_are_one_container_in_the_games_colour(key, locale):
    tr = translator(locale)
    body = _shown(rules_answer(key, tr))
    assert accent_of(body) == game_colour(key).value != discord.Colour.blurple().value
    assert title_of(body) == tr("v2answers.rules.title", game=tr(f"{key}.name"))
    assert title_of(body).startswith("📖 ")
    assert blocks_of(body) == [tr(f"{key}.rules")] or key == "triad"


def test_text_beyond_the_budget_is_clipped_and_the_title_and_footer_kept():
    answer = Answer(
        title="Title",
        blocks=[Block("a" * 3000, heading="One"), Block("b" * 3000), Block("c" * 10)],
        footer="the footer",
    )
    body = _shown(answer)  # ≤ 4,000 characters in all
    assert title_of(body) == "Title" and footer_of(body) == "the footer"
    assert blocks_of(body)[0].startswith("**One**\naaa")
    assert len(blocks_of(body)) == 2  # the third found no room


def _tables(count: int):
    tables = []
    for i in range(count):
        state = GAME.new(SEAT_IDS[:2], f"seed-{i}", {"hand_size": 3})
        table = table_for(GAME, state, 100 + i)
        table.record.channel_id = "c" if i % 2 else "elsewhere"
        table.record.message_id = str(9000 + i)
        tables.append(table)
    return tables


@pytest.mark.parametrize("locale", LOCALES)
def test_tables_list_at_most_twenty_with_a_follow_button_each_within_40_components(locale):
    tr = translator(locale)
    tables = _tables(MAX_LISTED + 6)
    here = [t for t in tables if t.record.channel_id == "c"]
    elsewhere = [t for t in tables if t.record.channel_id != "c"]
    body = _shown(tables_answer(here, elsewhere, tr))
    buttons = [c for _, c in walk_components(body["components"]) if c.get("type") == 2]
    assert len(buttons) == MAX_LISTED
    assert {b["label"] for b in buttons} <= {tr("follow.button", table=t.id) for t in tables}
    text = "\n".join(blocks_of(body))
    assert text.count("**#") == MAX_LISTED
    assert block_of(body, tr("tables.here")).startswith("**#101**")
    assert accent_of(body) == game_colour("amapatolli").value  # one game listed
    assert footer_of(body) == tr("v2answers.tables.follow_hint")


@pytest.mark.parametrize("locale", LOCALES)
def test_no_tables_read_none_and_offer_no_button(locale):
    tr = translator(locale)
    body = _shown(tables_answer([], [], tr))
    assert blocks_of(body) == [
        f"**{tr('tables.here')}**\n{tr('tables.none')}",
        f"**{tr('tables.server')}**\n{tr('tables.none')}",
    ]
    assert footer_of(body) == tr("v2answers.tables.open_hint")  # how to open one
    assert ("/jugar" if locale == "es" else "/play") in footer_of(body)
    assert accent_of(body) == discord.Colour.blurple().value


@pytest.mark.parametrize("locale", LOCALES)
def test_settings_show_each_games_options_under_its_name(locale):
    tr = translator(locale)
    settings = GuildSettings(
        turn_seconds=120, game_options={"chupate2": {"teams": True}, "triad": {"rules": "open"}}
    )
    body = _shown(settings_answer(settings, GAMES, tr, tr("settings.saved")))
    assert blocks_of(body)[0] == tr("settings.saved")
    assert "120" in blocks_of(body)[1]
    assert block_of(body, tr("chupate2.name")).startswith("• ")
    assert block_of(body, tr("triad.name")).startswith("• ")


@pytest.mark.parametrize("locale", LOCALES)
def test_history_reads_its_rows_or_says_it_is_empty(locale):
    tr = translator(locale)
    row = FinishedRow(
        table_id=7,
        seq=1,
        guild_id="1",
        game="macarena",
        engine="macarena@1",
        outcome={"ranking": [["a"], ["b"]]},
        rated="",
        global_=True,
        finished_at="2026-12-01T10:00:00Z",
        channel_id="2",
        message_id="3",
        seats=[{"id": "a", "name": "Ana"}, {"id": "b", "name": "Beto"}],
    )
    body = _shown(history_answer([row], None, tr, "macarena"))
    assert "**#7**" in blocks_of(body)[0] and "Ana" in blocks_of(body)[0]
    assert accent_of(body) == game_colour("macarena").value
    assert footer_of(body) == tr("v2answers.history.footer", table="#7")
    assert ("/repeticion" if locale == "es" else "/replay") in footer_of(body)
    empty = _shown(history_answer([], "Ana", tr))
    assert blocks_of(empty) == [tr("history.empty")]
    assert title_of(empty) == tr("history.title_of", player="Ana")


@pytest.mark.parametrize("locale", LOCALES)
def test_profile_has_the_triad_record_other_games_and_ratings(locale):
    tr = translator(locale)
    record = dict(played=3, won=1, drawn=1, lost=1, cards_won=2, cards_lost=1, cards=8)
    body = _shown(profile_answer("Ana", record, [("Macarena", 2, 5)], "ratings here", tr))
    assert title_of(body) == tr("triad.ui.profile_title", player="Ana")
    assert block_of(body, tr("profile.ratings")) == "ratings here"
    assert block_of(body, tr("triad.ui.profile_others")).startswith("Macarena")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_replay_shows_the_note_first_the_image_with_alt_text_and_steps(locale):
    tr = translator(locale)
    state = GAME.new(SEAT_IDS[:2], "seed-r", {"hand_size": 3})
    table = table_for(GAME, state, 42)
    presenter = text_presenter(AmapatolliPresenter, GAME)
    view = GAME.view(state, None)
    answer = replay_answer(table, presenter, view, 10, tr, note="rules changed")
    body = _shown(answer)
    assert blocks_of(body)[0] == "rules changed"
    assert footer_of(body) == tr("v2answers.replay.deal", last=10)
    assert "10" in footer_of(body)
    assert accent_of(body) == presenter.colour.value
    labels = [
        (c.get("label"), c.get("disabled"))
        for _, c in walk_components(body["components"])
        if c.get("type") == 2
    ]
    assert labels[:2] == [("◀", True), ("▶", False)]
    assert gallery_of(body) == []  # not drawn yet: no picture, no broken link
    assert answer.image is None or answer.image.filename == "replay.png"


def test_an_attached_picture_shows_in_a_gallery_with_its_alt_text():
    picture = discord.File(io.BytesIO(b"GIF89a"), filename="x.gif", description="the table")
    answer = Answer(title="T", blocks=[Block("x")], rows=[[FollowButton(1, "follow", label="F")]])
    assert gallery_of(_shown(answer)) == []
    answer.attached = picture
    [item] = gallery_of(_shown(answer))
    assert item["media"] == {"url": "attachment://x.gif"} and item["description"] == "the table"


def test_more_than_40_components_are_refused_rather_than_sent():
    buttons = [FollowButton(n, "follow", label=str(n)) for n in range(35)]
    with pytest.raises(ValueError):  # ours, or discord.py's own count
        answer_view(Answer(title="T", rows=[buttons]))
