"""The slash-command tree: every game has /play, names and texts are valid and localised."""

import re

import pytest

from bot.client import MesaBot
from bot.cogs import EXTENSIONS
from bot.i18n.commands import CatalogueTranslator
from bot.settings import Settings

NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def tree_payload(tmp_path):
    bot = MesaBot(Settings(_env_file=None, discord_token="x", database_path=tmp_path / "b.db"))
    for ext in EXTENSIONS:
        await bot.load_extension(ext)
    translator = CatalogueTranslator()
    await bot.tree.set_translator(translator)
    payload = [
        await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()
    ]
    yield bot, payload
    await bot.close()


def _walk(entries):
    for entry in entries:
        yield entry
        yield from _walk(entry.get("options", []) or [])
        yield from _walk(entry.get("choices", []) or [])


async def test_every_game_has_a_play_subcommand(tree_payload):
    bot, payload = tree_payload
    play = next(c for c in payload if c["name"] == "play")
    subcommands = {o["name"] for o in play["options"] if o["type"] == 1}
    assert set(bot.games) <= subcommands
    assert play["name_localizations"]["es-ES"] == "jugar"
    amapatolli = next(o for o in play["options"] if o["name"] == "amapatolli")
    hand_size = next(o for o in amapatolli["options"] if o["name"] == "hand_size")
    assert hand_size["name_localizations"]["es-ES"] == "cartas_mano"
    assert {c["name"] for c in payload} >= {"play", "leaderboard", "rules", "stop"}


async def test_names_descriptions_and_choices_are_valid_in_every_locale(tree_payload):
    _, payload = tree_payload
    for entry in _walk(payload):
        if "value" in entry:  # a choice
            names = [entry["name"], *entry.get("name_localizations", {}).values()]
            assert all(1 <= len(n) <= 100 for n in names), entry
            assert all("." not in n for n in names), f"untranslated choice {entry}"
            continue
        names = [entry["name"], *(entry.get("name_localizations") or {}).values()]
        for name in names:
            assert NAME.match(name) and name == name.lower(), name
        descriptions = [
            entry["description"],
            *(entry.get("description_localizations") or {}).values(),
        ]
        for text in descriptions:
            assert 0 < len(text) <= 100, text
            assert "{" not in text, f"a template, not a text: {text}"
            assert not re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", text), f"untranslated {text}"
        if entry.get("description_localizations"):
            assert entry["description_localizations"].get("en-US"), entry["name"]


async def test_cards_and_profile_member_option_is_localised(tree_payload):
    _, payload = tree_payload
    for command in ("cards", "profile"):
        entry = next(c for c in payload if c["name"] == command)
        member = next(o for o in entry["options"] if o["name"] == "member")
        assert member["name_localizations"]["es-ES"] == "miembro"
        assert member["description_localizations"]["es-ES"] == "El miembro (por defecto, tú)"
        assert member["description_localizations"]["en-US"] == "The member (you by default)"


async def test_every_option_has_a_spanish_name_and_both_descriptions(tree_payload):
    _, payload = tree_payload
    missing = []
    for entry in _walk(payload):
        if "value" in entry or entry.get("type") in (1, 2) or "options" in entry:
            continue  # choices, subcommands and commands
        names = entry.get("name_localizations") or {}
        descriptions = entry.get("description_localizations") or {}
        if "es-ES" not in names or not {"es-ES", "en-US"} <= set(descriptions):
            missing.append(entry["name"])
    assert missing == []
