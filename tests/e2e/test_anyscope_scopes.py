"""Issue 30.1: standings, ratings and history are kept per place (``Place.scope``: a server's
id, or ``channel:<id>`` for a group DM) and shown per place — a group DM's never leak into a
server's nor into another group DM's, and a server's never into a group DM's. Every answer in a
group DM is an interaction response: no bot-token call about that channel.

The group DM's game is a real game played through the fake in a second server, its rows then
re-keyed to the group DM's scope (``_rekey``): what a table opened in that group DM stores
(``test_a_table_opened_in_a_group_dm_is_kept_under_its_scope`` shows the table is opened under
that scope). Runs on SQLite, and on PostgreSQL with ``MESA_E2E_BACKEND=postgres``."""

from __future__ import annotations

import re

from tests.e2e.amapatolli_driver import start_game

SEED = "e2e-0063"


async def _rekey(db, old: str, new: str) -> None:
    """Every row kept under scope ``old`` moved to ``new`` (tables, results, standings,
    ratings): as if the games of ``old`` had been played in the place of ``new``."""

    def unit(conn) -> None:
        for table, column in (
            ("tables", "guild_id"),
            ("finished_games", "guild_id"),
            ("standings", "guild_id"),
            ("player_stats", "guild_id"),
            ("ratings", "scope"),
            ("rating_changes", "scope"),
        ):
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))

    await db.write(unit)


def _mentioned(message) -> set[str]:
    return set(re.findall(r"<@(\d+)>", message.text))


async def _played(fake, players, channel=None) -> int:
    table = await start_game(fake, players, seed=SEED, channel=channel)
    await table.play_to_the_end()
    return table.table_id


async def test_standings_ratings_history_and_replays_never_leak_between_places(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    ids = {u.name: str(u.id) for u in (alice, bob, carol, dave)}
    server_game = await _played(fake, [alice, bob])  # in the server with the bot
    elsewhere = fake.add_guild("Prestada", ("cartas",))
    for user in (carol, dave):
        fake.join(user.model, elsewhere)
    group_game = await _played(fake, [carol, dave], channel=elsewhere.channel_named("cartas"))
    friends = fake.installs.group_dm(carol, dave, alice, name="amigos")
    others = fake.installs.group_dm(alice, carol, name="otros")
    await _rekey(mesa.bot.db, str(elsewhere.id), f"channel:{friends.id}")
    fake.installs.install_for(alice, carol)

    # The group DM shows its own players only, by rating and by wins
    for options in ({}, {"by": "wins"}, {"game": "amapatolli", "by": "points"}):
        board = await (await carol.slash("leaderboard", channel=friends, **options))
        assert _mentioned(board) == {ids["carol"], ids["dave"]}, options
    board = await (await carol.slash("leaderboard", channel=friends, scope="global"))
    assert "Las partidas de un grupo de mensajes directos no cuentan" in board.text
    history = await (await carol.slash("history", channel=friends))
    assert history.text.count("Ce Amapatolli") == 1 and f"#{group_game}" in history.text
    assert f"#{server_game}" not in history.text
    mine = await (await alice.slash("history", channel=friends, member=alice))
    assert "Todavía no hay partidas terminadas" in mine.text  # her server game is not here
    profile = await (await alice.slash("profile", channel=friends))
    assert "Sin partidas puntuadas todavía" in profile.text
    profile = await (await carol.slash("profile", channel=friends))
    assert re.search(r"Ce Amapatolli: puntuación \*\*\d+\*\* \(1 partida\)", profile.text)
    replay = await (await carol.slash("replay", channel=friends, table=group_game))
    assert f"mesa #{group_game}" in replay.text and "Reparto verificado" in replay.text
    stepped = await (await carol.click(replay, "▶"))  # its buttons ride the click's token
    assert "Jugada 1 de" in stepped.text
    gif = await (await carol.click(stepped, "Exportar GIF"))
    assert gif.attachments[0].data.startswith(b"GIF89a")
    refused = await (await carol.slash("replay", channel=friends, table=server_game))
    assert f"No hay ninguna mesa #{server_game} en este grupo" in refused.text  # no server
    assert server_game not in mesa.bot.get_cog("ReplayCog")._cache  # refused before rebuilt

    # ... and the server never shows the group DM's
    for options in ({}, {"by": "wins"}, {"game": "amapatolli", "by": "points"}):
        board = await (await alice.slash("leaderboard", **options))
        assert _mentioned(board) == {ids["alice"], ids["bob"]}, options
    history = await (await alice.slash("history"))
    assert f"#{server_game}" in history.text and f"#{group_game}" not in history.text
    profile = await (await alice.slash("profile"))
    assert re.search(r"Ce Amapatolli: puntuación \*\*\d+\*\* \(1 partida\)", profile.text)
    profile = await (await carol.slash("profile"))  # carol is a member of the server too
    assert "Sin partidas puntuadas todavía" in profile.text
    refused = await (await alice.slash("replay", table=group_game))
    assert f"No hay ninguna mesa #{group_game} en este servidor" in refused.text

    # ... nor does another group DM, which has its own (empty) standings
    for options in ({}, {"by": "wins"}):
        board = await (await alice.slash("leaderboard", channel=others, **options))
        assert _mentioned(board) == set() and "Nadie ha jugado todavía" in board.text
    history = await (await carol.slash("history", channel=others))
    assert "Todavía no hay partidas terminadas" in history.text
    refused = await (await carol.slash("replay", channel=others, table=group_game))
    assert f"No hay ninguna mesa #{group_game} en este grupo" in refused.text

    # Ratings are kept per place (a group DM's games never reach the global board either:
    # tests/bot/test_anyscope_ratings.py, where the game is played under the group DM's scope)
    ratings = await mesa.bot.ratings.all_ratings()
    scopes = {scope for scope, _, _ in ratings}
    assert scopes == {str(fake.guild.id), f"channel:{friends.id}", "*"}
    assert {u for s, _, u in ratings if s == f"channel:{friends.id}"} == {ids["carol"], ids["dave"]}
    assert {u for s, _, u in ratings if s == str(fake.guild.id)} == {ids["alice"], ids["bob"]}
    for place in (friends, others):  # every answer there rode an interaction token
        assert fake.installs.bot_requests_to(place) == []


async def test_a_table_opened_in_a_group_dm_is_kept_under_its_scope(fake_discord, mesa):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    friends = fake.installs.group_dm(alice, bob)
    fake.installs.install_for(alice)
    await (await alice.slash("play amapatolli", channel=friends))
    table = mesa.bot.tables.registry.in_channel(str(friends.id))
    assert table is not None
    assert table.record.guild_id == f"channel:{friends.id}"
    stored = await mesa.bot.tables.repo.get(table.id)
    assert stored is not None and stored.guild_id == f"channel:{friends.id}"
