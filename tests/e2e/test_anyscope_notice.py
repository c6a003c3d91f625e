"""Issue 30.1, around the table: the installer is told once what differs where Mesa is installed
to them alone (``bot/cogs/install_notice.py``); ``/play`` refuses, and says why, where every
answer is forced ephemeral (``bot/ui/public_table_check.py``) while the other commands work
there; and where the bot is also present, a user-installed ``/play`` gets the bot's full mode."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import start_game

NOTE = "Mesa instalada en tu cuenta"
SEED = "e2e-seed-0001"


async def test_the_installer_is_told_once_even_after_a_restart(fake_discord, mesa):
    fake = fake_discord
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    friends = fake.installs.group_dm(alice, bob, carol)
    fake.installs.install_for(alice, carol)
    first = await alice.slash("leaderboard", channel=friends)
    await first
    note = await first.followup(0)
    assert note.ephemeral and note.visible_to is alice.model
    assert NOTE in note.text and "14 minutos" in note.text and "Ver mi mano" in note.text
    second = await alice.slash("rules", channel=friends, game="maquiavelo")
    await second
    await mesa.restart()  # told is stored, not remembered by the process
    third = await alice.slash("history", channel=friends)
    await third
    # carol's first command is told: by then alice's later commands were long answered
    told = await carol.slash("rules", channel=friends, game="macarena")
    await told
    assert NOTE in (await told.followup(0)).text
    assert second.followups == [] and third.followups == []
    assert fake.installs.bot_requests_to(friends) == []


async def test_no_note_where_the_bot_is_and_the_note_in_english(fake_discord, mesa):
    fake = fake_discord
    dave, erin = fake.user("dave"), fake.user("erin", locale="en-US")
    fake.installs.install_for(dave, erin)
    here = await dave.slash("rules", game="amapatolli")  # the server that added the bot
    await here
    botless = fake.installs.add_guild_without_bot("Sin bot", members=(erin,))
    there = await erin.slash("rules", channel=botless.channels[0], game="amapatolli")
    await there
    note = await there.followup(0)
    assert "Mesa installed to your account" in note.text and "No DMs" in note.text
    assert here.followups == []  # by now dave's command, answered first, would have had it


async def test_play_where_every_answer_is_forced_ephemeral_says_why(fake_discord, mesa):
    fake = fake_discord
    alice = fake.user("alice")
    strict = fake.installs.add_guild_without_bot("Estricto", members=(alice,), external_apps=False)
    channel = strict.channels[0]
    fake.installs.install_for(alice)
    refused = await (await alice.slash("play amapatolli", channel=channel))
    assert refused.ephemeral and refused.visible_to is alice.model
    assert "no deja que las apps externas respondan en público" in refused.text
    assert "añada Mesa" in refused.text and "grupo de mensajes directos" in refused.text
    assert mesa.bot.tables.registry.in_channel(str(channel.id)) is None  # no table opened
    assert fake.channel_messages(channel) == []  # nobody else saw anything
    board = await (await alice.slash("leaderboard", channel=channel))  # the rest works
    assert board.ephemeral and "Nadie ha jugado todavía" in board.text
    rules = await (await alice.slash("rules", channel=channel, game="chupate2"))
    assert rules.ephemeral and "Chúpate" in rules.text
    assert fake.installs.bot_requests_to(channel) == []


async def test_a_user_installed_play_where_the_bot_is_gets_the_full_mode(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.installs.install_for(alice, bob)  # both installs authorize their commands here
    table = await start_game(fake, [alice, bob], seed=SEED)  # the hands come by DM
    play = next(h for h in alice.handles if h.interaction.type == 2)  # her /play
    assert fake.installs.owners_of(play.interaction) == {
        "0": str(fake.guild.id),
        "1": str(alice.id),
    }
    stored = await mesa.bot.tables.repo.get(table.table_id)
    assert stored.guild_id == str(fake.guild.id)  # the server's scope, as without the install
    assert all(p.dms() for p in (alice, bob))  # full mode: DM hands, not table-only
    assert table.public() is not None
    assert not any(NOTE in f.text for f in play.followups)  # no installer's note here
