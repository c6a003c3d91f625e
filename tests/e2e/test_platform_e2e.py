"""Ratings, global board, replays, spectators and server settings through the fake Discord."""

from __future__ import annotations

import re

from bot.i18n import translator
from bot.service import Table
from bot.service.ratings import recompute
from bot.ui.ratings_view import shown_rating
from bot.ui.rendering import render_image
from bot.ui.replay_view import replay_blocks
from bot.ui.spectate import spectator_payload
from games.amapatolli import GAME
from storage import GLOBAL
from tests.e2e.amapatolli_driver import start_game
from tests.fakediscord.ratelimit import RouteLimit
from tests.fakediscord.users import FakeUser
from tests.message_text import (
    blocks_of,
    check_v2,
    clickable,
    footer_of,
    gallery_of,
    read_card,
    text_of,
)

SEED = "e2e-0063"  # 12 moves with plays, a draw, a skip, a call-out and "Ce" announcements
DM_EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
DEADLINE = re.compile(r"<t:\d+:R>")


def _ordinals(embed_text: str) -> list[tuple[str, int, int]]:
    """(player, rating, games) of each rating-board row."""
    rows = re.findall(r"\d+\. (.+?) — \*\*(\d+)\*\* \((\d+) partidas?\)", embed_text)
    return [(who, int(r), int(n)) for who, r, n in rows]


def _owner(fake) -> FakeUser:
    """The servers' owner: may manage them."""
    return FakeUser(fake, fake.owner)


async def _play(fake, players, channel=None):
    table = await start_game(fake, players, seed=SEED, channel=channel)
    await table.play_to_the_end()
    return table


async def test_two_guilds_ratings_and_the_global_board_match_a_recomputation(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    other = fake.add_guild("Otra mesa", ("cartas",))
    for user in (alice, bob, carol):
        fake.join(user.model, other)
    there = other.channel_named("cartas")

    first = await _play(fake, [alice, bob])
    # The end of the game tells every person's rating change (issue 31), read back from the
    # final transaction: both started at 1000 here.
    await fake.wait_until(
        lambda: any(f["name"] == "Puntuación" for f in read_card(first.public()).get("fields", [])),
        what="the rating changes on the final message",
    )
    [change] = [f for f in read_card(first.public())["fields"] if f["name"] == "Puntuación"]
    rows = re.findall(r"(\w+): 1000 → \*\*(\d+)\*\* \(([+-]\d+)\)", change["value"])
    assert sorted(who for who, _, _ in rows) == ["alice", "bob"]
    assert all(int(after) - 1000 == int(delta) for _, after, delta in rows)
    await _play(fake, [bob, carol], channel=there)
    await _play(fake, [alice, carol])
    # The second server leaves the global board: its next game is rated there only.
    off = await (await _owner(fake).slash("settings global_board", channel=there, enabled=False))
    assert "Guardado" in off.text
    await _play(fake, [alice, bob], channel=there)

    ratings = mesa.bot.ratings
    finished = await ratings.finished()
    assert len(finished) == 4 and [f.global_ for f in finished] == [True, True, True, False]
    expected = recompute(finished)
    assert await ratings.all_ratings() == expected  # written in each final transaction

    names = {str(u.id): u.name for u in (alice, bob, carol)}
    for scope, user, channel in (
        ("here", alice, None),
        ("global", alice, None),
        ("there", bob, there),
    ):
        options = {"game": "amapatolli"} | ({"scope": "global"} if scope == "global" else {})
        board = await (await user.slash("leaderboard", channel=channel, **options))
        assert board.ephemeral  # answered to the asker unless they choose to post it
        key = GLOBAL if scope == "global" else str(fake.guild.id if scope == "here" else other.id)
        want = sorted(
            ((u, mu - 3 * sigma, n) for (s, g, u), (mu, sigma, n) in expected.items() if s == key),
            key=lambda r: (-r[1], r[0]),
        )
        check_v2(board)
        rows = _ordinals("\n".join(blocks_of(board)))
        shown = [names[u] if scope == "global" else f"<@{u}>" for u, _, _ in want]
        assert [r[0] for r in rows] == shown
        assert [(r[1], r[2]) for r in rows] == [(shown_rating(o), n) for _, o, n in want]
        assert all(r[1] >= 0 for r in rows)
    # The older boards are still a choice.
    wins = await (await alice.slash("leaderboard", game="amapatolli", by="wins", post=True))
    assert "victoria" in blocks_of(wins)[0] and not wins.ephemeral
    footer = footer_of(board)
    assert "1000" in footer and "openskill" not in footer and "σ" not in footer
    profile = await (await alice.slash("profile"))
    check_v2(profile)
    assert "Puntuación" in profile.text and "Ce Amapatolli" in profile.text
    assert re.search(r"Ce Amapatolli: puntuación \*\*\d+\*\* \(2 partidas\)", profile.text)
    assert "+0.0" not in profile.text and "—" not in profile.text.split("Puntuación")[-1]
    history = await (await alice.slash("history", member=alice))
    check_v2(history)
    assert history.text.count("Ce Amapatolli") == 2  # her games in this server only


async def test_a_replay_stepped_to_the_end_shows_the_public_view_of_every_version(
    fake_discord, mesa
):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await _play(fake, [alice, bob])
    record = await mesa.bot.tables.repo.get(table.table_id)
    log = [(a.seat, a.action) for a in await mesa.bot.tables.repo.actions(table.table_id)]
    assert log == table.oracle.log  # the stored action log is the game that was played
    state = GAME.new([s.id for s in record.seats], record.seed, {"hand_size": 3})
    views = [GAME.view(state, None)]
    for seat, action in log:
        state, _ = GAME.apply(state, seat, GAME.decode_action(action))
        views.append(GAME.view(state, None))
    stored_final = GAME.view(GAME.load_state(record.state), None)
    assert views[-1] == stored_final

    frozen = Table(record=record, game=GAME)
    presenter = mesa.bot.presenter("amapatolli")
    tr = translator("es")
    message = await (await alice.slash("replay", table=table.table_id))
    last = len(views) - 1
    for version, view in enumerate(views):
        want = [b.render(4000) for b in replay_blocks(frozen, presenter, view, tr)]
        check_v2(message)
        verdict, *blocks = blocks_of(message)  # the deal's check, then the table
        assert verdict.startswith("✅ Reparto verificado"), version
        assert blocks == want, version
        step = f"Jugada {version} de {last}" if version else f"El reparto · {last} jugadas"
        assert footer_of(message).startswith(step)
        assert [a.filename for a in message.attachments] == ["replay.png"]
        [shown] = gallery_of(message)  # the picture, with the attachment's alt text
        assert shown["media"]["url"] == "attachment://replay.png"
        assert shown["description"] == message.attachments[0].description != ""
        if version < last:
            message = await (await alice.click(message, "▶"))
    assert views[last] == stored_final
    back = await (await alice.click(message, "◀"))
    assert footer_of(back) == f"Jugada {last - 1} de {last}"
    gif = await (await alice.click(back, "Exportar GIF"))
    assert gif.attachments[0].filename == "replay.gif"
    assert gif.attachments[0].data.startswith(b"GIF89a")
    assert gif.attachments[0].description.startswith("Repetición animada de la mesa #")
    check_v2(gif)
    assert gallery_of(gif)[0]["description"] == gif.attachments[0].description

    # Had the rules changed so that the log leads elsewhere, the replay says why it cannot run.
    def other_deal(conn):
        conn.execute("UPDATE tables SET seed = 'changed' WHERE id = ?", (table.table_id,))

    await mesa.bot.db.write(other_deal)
    mesa.bot.get_cog("ReplayCog")._cache.clear()
    changed = await (await alice.slash("replay", table=table.table_id))
    assert changed.ephemeral and "no se puede repetir" in changed.text
    assert "amapatolli@1" in changed.text
    other_guild = fake.add_guild("Ajena", ("x",))
    fake.join(alice.model, other_guild)
    refused = await (
        await alice.slash("replay", channel=other_guild.channel_named("x"), table=table.table_id)
    )
    assert refused.ephemeral and "Repetición" not in refused.text


async def test_a_spectator_follows_a_table_by_dm_and_never_sees_a_hidden_card(fake_discord, mesa):
    fake = fake_discord
    # Every version the spectator's DM showed is searched for hidden cards: with Discord's 5
    # edits per 5 s per channel, the bot (rightly) waits and shows only the newest, so fewer
    # versions would be checked than the game made. A roomy bucket keeps them all.
    fake.ratelimits.routes.table[DM_EDIT] = RouteLimit(50, 1.0, "roomy-edit")
    mesa.seed = SEED
    alice, bob, dora = fake.user("alice"), fake.user("bob"), fake.user("dora")
    table = await start_game(fake, [alice, bob], seed=SEED)
    listing = await (await dora.slash("tables"))
    assert f"#{table.table_id}" in listing.text and "turno de" in listing.text
    followed = await (await dora.click(listing, f"Seguir #{table.table_id}"))
    assert "Sigues la mesa" in followed.text
    await fake.wait_until(lambda: bool(dora.dms()), what="the spectator's first DM")

    states = {table.oracle.version: table.oracle.state}
    while not table.oracle.finished:
        await table.move()
        states[table.oracle.version] = table.oracle.state
    await mesa.bot.spectators.idle()
    await fake.settle()

    [dm] = dora.dms()
    shown = [*dm.versions, dm.snapshot()]
    service, presenter = mesa.bot.tables, mesa.bot.presenter("amapatolli")
    record = await service.repo.get(table.table_id)
    seen_versions = []
    checked = 0  # hidden cards looked for
    for snapshot in shown:
        embed = read_card(snapshot)
        version = int(re.search(r"(\d+)\s*$", embed["footer"]["text"]).group(1))
        seen_versions.append(version)
        state = states[version]
        frozen = Table(record=record, game=GAME, state=state)
        want = read_card(spectator_payload(frozen, presenter, service, "es")).to_dict()
        text = DEADLINE.sub("", embed["description"])
        assert text == DEADLINE.sub("", want["description"])  # the public view, nothing more
        # No card of a hand that the public view does not show.
        public = GAME.view(state, None).model_dump_json()
        dm_text = text_of(snapshot)
        for seat in state.seats:
            for card in GAME.view(state, seat).hand:  # the engine's view of each hand
                if card.name not in public:
                    checked += 1
                    assert card.name not in dm_text, (version, seat, card)
        buttons = [c["custom_id"] for c in clickable(snapshot)]
        over = version == table.oracle.version  # the end: nothing to follow, no button
        assert buttons == ([] if over else [f"fw:{table.table_id}:stop"]), (version, buttons)
    assert checked > 20
    assert seen_versions == sorted(seen_versions) and seen_versions[-1] == table.oracle.version
    # The image is the public view's, drawn from the engine's public view.
    final = GAME.view(states[table.oracle.version], None)
    names = {str(u.id): u.name for u in (alice, bob)}
    drawn = render_image("amapatolli", "render_table", final, "es", names)
    assert [a.data for a in dm.attachments] == [drawn]
    assert len(seen_versions) >= 3  # a DM edit per turn change
    stop = await (await dora.forge_click(dm, f"fw:{table.table_id}:stop"))  # (an old button)
    assert "no sigues" in stop.text.lower() or "No seguías" in stop.text


async def test_settings_change_the_next_tables_defaults_and_need_manage_server(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice = fake.user("alice")
    refused = await (await alice.slash("settings turn", seconds=60))
    assert refused.ephemeral and "gestionar el servidor" in refused.text
    owner = _owner(fake)
    await (await owner.slash("settings turn", seconds=45))
    await (await owner.slash("settings game amapatolli", hand_size=4, powers=True))
    await (await owner.slash("settings language", language="en"))
    shown = await (await owner.slash("settings show"))
    assert "45" in shown.text and "Inglés" in shown.text

    opened = await (await alice.slash("play amapatolli"))
    table_id = int(re.search(r"#(\d+)", opened.text).group(1))  # the lobby itself
    lobby = await fake.wait_for_message(  # in English now: "table #N"
        lambda m: bool(read_card(m)) and f"table #{table_id}" in (read_card(m).get("title") or "")
    )
    table = mesa.bot.tables.registry.find(table_id)
    assert table.record.options["hand_size"] == 4 and table.record.options["powers"] is True
    assert table.record.options["turn_seconds"] == 45 and table.record.locale == "en"
    assert "From the server (/settings)" in lobby.text  # the lobby says what the server chose
    await (await alice.click(lobby, "Cancel")).acknowledged()

    # Options typed at /play still win; a channel list keeps games in their channels.
    second = fake.add_channel("juegos")
    await (await owner.slash("settings channel", game_channel=second, allowed=True))
    busy = await (await alice.slash("play amapatolli", hand_size=3))
    assert busy.ephemeral and "las partidas se abren en" in busy.text
    opened = await (await alice.slash("play amapatolli", channel=second, hand_size=3))
    table_id = int(re.search(r"#(\d+)", opened.text).group(1))  # the lobby itself
    assert mesa.bot.tables.registry.find(table_id).record.options["hand_size"] == 3


async def test_a_triad_spectator_never_sees_a_hidden_card(fake_discord, mesa):
    from bot.ui.triad.text import card_name
    from games.triad import GAME as TRIAD
    from tests.e2e.triad_driver import TriadMatch

    fake = fake_discord
    mesa.seed = SEED
    alice, dora = fake.user("alice"), fake.user("dora")
    reply = await (await alice.slash("play triad", random_hand=True, level="easy", payout="una"))
    table_id = int(re.search(r"#(\d+)", reply.content).group(1))
    match = TriadMatch(fake, table_id, alice)
    await fake.wait_until(lambda: match.version() is not None, what="the game started")
    listing = await (await dora.slash("tables"))
    await (await dora.click(listing, f"Seguir #{table_id}")).acknowledged()
    await match.play()
    await mesa.bot.spectators.idle()
    await fake.settle()

    record = await mesa.bot.tables.repo.get(table_id)
    state = TRIAD.new(
        [s.id for s in record.seats],
        record.seed,
        {"random_hand": True, "payout": "una"},
        **record.meta.get("setup", {}),
    )
    states = {0: state}
    for row in await mesa.bot.tables.repo.actions(table_id):
        state, _ = TRIAD.apply(state, row.seat, TRIAD.decode_action(row.action))
        states[row.version] = state
    tr = translator("es")
    [dm] = dora.dms()
    checked = 0
    for snapshot in [*dm.versions, dm.snapshot()]:
        version = int(re.search(r"(\d+)\s*$", read_card(snapshot)["footer"]["text"]).group(1))
        public = TRIAD.view(states[version], None)
        text = text_of(snapshot)
        for seat in states[version].seats:
            own = TRIAD.view(states[version], seat).hands[seat]
            for card, seen in zip(own, public.hands[seat], strict=True):
                if card is not None and seen is None:  # hidden from the public
                    checked += 1
                    name = card_name(card.card, tr)
                    on_board = any(c.card and c.card.card == card.card for c in public.board)
                    assert on_board or name not in text, (version, seat, name)
    assert checked > 0


async def test_following_survives_a_restart(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, dora = fake.user("alice"), fake.user("bob"), fake.user("dora")
    table = await start_game(fake, [alice, bob], seed=SEED)
    listing = await (await dora.slash("tables"))
    await (await dora.click(listing, f"Seguir #{table.table_id}")).acknowledged()
    await fake.wait_until(lambda: bool(dora.dms()), what="the spectator's first DM")
    await mesa.restart()
    await table.play_to_the_end()
    await mesa.bot.spectators.idle()
    [dm] = dora.dms()  # the same DM, edited after the restart too
    await fake.wait_until(
        lambda: read_card(dm)["footer"]["text"].endswith(str(table.oracle.version)),
        what="the follower's DM at the end",
    )
