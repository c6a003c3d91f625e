"""The rules from a button: on the lobby and on the table message, privately, in the clicker's
language (the button itself follows the server's)."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import open_lobby, start_game
from tests.message_text import blocks_of, check_v2, title_of

SEED = "e2e-0063"


async def test_rules_from_the_lobby_and_the_table_in_the_clickers_language(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob", locale="en-US")
    carol = fake.user("carol")

    _, lobby = await open_lobby(fake, carol, hand_size=3)
    english = await (await bob.click(lobby, "Reglas"))  # a watcher, not seated
    assert english.ephemeral and english.visible_to is bob.model
    check_v2(english)
    assert title_of(english) == "📖 Rules: Ce Amapatolli"
    assert "The first player out of cards wins" in blocks_of(english)[0]
    await (await carol.click(lobby, "Cancelar")).acknowledged()

    table = await start_game(fake, [alice, bob], seed=SEED)
    public = table.public()
    assert "Reglas" in [b.label for b in public.buttons]
    spanish = await (await alice.click(public, "Reglas"))
    assert spanish.ephemeral and spanish.visible_to is alice.model
    check_v2(spanish)
    assert "Gana quien se quede primero sin cartas" in blocks_of(spanish)[0]
    assert table.public().id == public.id  # the table message is left as it was
