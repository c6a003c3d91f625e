"""Issue 30.1, a whole game of each game with a common lobby (Ce Amapatolli is in
``test_anywhere.py``) played in a group DM through the fake, the app installed by the host
only: the lobby is the ``/play`` response, every view rides the players' own presses, not one
bot-token call about the group DM, no DM; the public table shows the end and each player's
last hand is the last version. Macarena seats a computer player too (it moves while a fresh
token exists)."""

from __future__ import annotations

import re

from tests.e2e import chupate2_driver, macarena_driver, maquiavelo_driver
from tests.e2e.anywhere_kit import (
    assert_hands_current,
    assert_interaction_only,
    group_dm_of,
    play_everywhere,
)
from tests.message_text import read_card


async def _open_and_start(fake, mesa, game, players, channel, cpus=0, **options):
    """``/play <game>`` in ``channel`` by the first player, the others join (and ``cpus``
    computer players), the host starts; the table id and its message."""
    await play_everywhere(mesa.bot)
    host, *guests = players
    reply = await (await host.slash(f"play {game}", channel=channel, **options))
    assert not reply.ephemeral  # the lobby itself, as the command's response
    table_id = int(re.search(r"#(\d+)", reply.text).group(1))
    lobby = reply
    for n, guest in enumerate(guests, start=2):
        await (await guest.click(lobby, "Unirse")).acknowledged()
        await fake.wait_until(
            lambda n=n, g=guest: f"{n}. {g.name}" in lobby.text, what=f"{guest.name} seated"
        )
    for n in range(1, cpus + 1):
        await (await host.click(lobby, "Añadir CPU")).acknowledged()
        await fake.wait_until(lambda n=n: f"CPU {n}" in lobby.text, what=f"CPU {n} seated")
    await (await host.click(lobby, "Empezar")).acknowledged()
    return table_id, lobby


def _shows_result(table) -> bool:
    fields = read_card(table.public()).get("fields") or []
    return any(f["name"] == "Resultado" for f in fields)


async def test_chupate2_in_a_group_dm(fake_discord, mesa):
    fake = fake_discord
    seed = chupate2_driver_seed = "e2e-c2-0079"
    mesa.seed = chupate2_driver_seed
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    group = group_dm_of(fake, players)
    options = {"teams": "pairs"}
    table_id, lobby = await _open_and_start(fake, mesa, "chupate2", players, group, **options)
    table = chupate2_driver.Chupate2Table(fake, table_id, players, seed, options)
    table.channel = group
    await table.wait_version(0)
    assert table.public().id == lobby.id
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    assert_hands_current(table, players, table.oracle.state.version)
    assert_interaction_only(fake, group, players)


async def test_maquiavelo_in_a_group_dm(fake_discord, mesa):
    fake = fake_discord
    seed = "mq-e2e-81"
    mesa.seed = seed
    players = [fake.user(n) for n in ("ana", "beto", "carla")]
    group = group_dm_of(fake, players)
    table_id, lobby = await _open_and_start(fake, mesa, "maquiavelo", players, group, hand_size=11)
    table = maquiavelo_driver.MaquiaveloTable(fake, table_id, players, seed, {"hand_size": 11})
    table.channel = group
    await table.wait_version(0)
    assert table.public().id == lobby.id
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    assert_hands_current(table, players, table.oracle.state.version)
    assert_interaction_only(fake, group, players)


async def test_macarena_with_a_computer_player_in_a_group_dm(fake_discord, mesa):
    fake = fake_discord
    seed = "mac-e2e-1423"
    mesa.seed = seed
    alice, bob = players = [fake.user("alice"), fake.user("bob")]
    group = group_dm_of(fake, players)
    options = {"amulets_to_win": 1}
    table_id, lobby = await _open_and_start(
        fake, mesa, "macarena", players, group, cpus=1, **options
    )
    seats = [str(alice.id), str(bob.id), "cpu1"]
    table = macarena_driver.MacarenaTable(
        fake, table_id, players, seats, seed, options, {"cpu1": "normal"}
    )
    table.channel = group
    await table.wait_version(table.oracle.version)
    assert table.public().id == lobby.id
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    assert_hands_current(table, players, table.oracle.state.version)
    assert_interaction_only(fake, group, players)
