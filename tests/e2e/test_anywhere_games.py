"""Issue 30.1, a whole game of each game (Ce Amapatolli is in ``test_anywhere.py``) played in a group DM through the fake, the app installed by the host
only: the lobby is the ``/play`` response, every view rides the players' own presses, not one
bot-token call about the group DM, no DM; the public table shows the end and each player's
last hand is the last version. Macarena seats a computer player too (it moves while a fresh
token exists); Triple Triad, against the computer, opens through its own ``/play``."""

from __future__ import annotations

import re

import pytest

from tests.e2e import chupate2_driver, macarena_driver, maquiavelo_driver, triad_driver
from tests.e2e.anywhere_kit import (
    GROUP_DM,
    SERVER_WITHOUT_BOT,
    assert_hands_current,
    assert_interaction_only,
    open_there,
    place_without_the_bot,
    started_there,
)
from tests.e2e.driver_kit import TableOnFake, offers_on, view_version
from tests.message_text import read_card


def _shows_result(table) -> bool:
    fields = read_card(table.public()).get("fields") or []
    return any(f["name"] == "Resultado" for f in fields)


async def test_chupate2_in_a_group_dm(fake_discord, mesa):
    fake = fake_discord
    seed = chupate2_driver_seed = "e2e-c2-0079"
    mesa.seed = chupate2_driver_seed
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    options = {"teams": "pairs"}
    table_id, lobby = await open_there(fake, "chupate2", players, group, **options)
    table = chupate2_driver.Chupate2Table(fake, table_id, players, seed, options)
    table.channel = group
    await started_there(table, lobby)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    assert_hands_current(table, players, table.oracle.state.version)
    assert_interaction_only(fake, group, players)


@pytest.mark.parametrize("place", [GROUP_DM, SERVER_WITHOUT_BOT])
async def test_maquiavelo_where_the_bot_may_not_post(fake_discord, mesa, place):
    fake = fake_discord
    seed = "mq-e2e-81"
    mesa.seed = seed
    players = [fake.user(n) for n in ("ana", "beto", "carla")]
    group = await place_without_the_bot(fake, mesa.bot, players, kind=place)
    table_id, lobby = await open_there(fake, "maquiavelo", players, group, hand_size=11)
    table = maquiavelo_driver.MaquiaveloTable(fake, table_id, players, seed, {"hand_size": 11})
    table.channel = group
    await started_there(table, lobby)
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
    group = await place_without_the_bot(fake, mesa.bot, players)
    options = {"amulets_to_win": 1}
    table_id, lobby = await open_there(fake, "macarena", players, group, cpus=1, **options)
    seats = [str(alice.id), str(bob.id), "cpu1"]
    table = macarena_driver.MacarenaTable(
        fake, table_id, players, seats, seed, options, {"cpu1": "normal"}
    )
    table.channel = group
    await started_there(table, lobby, table.oracle.version)
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    assert_hands_current(table, players, table.oracle.state.version)
    assert_interaction_only(fake, group, players)


class _TriadOnFake(TableOnFake):
    def __init__(self, fake, table_id: int, channel) -> None:
        self.fake, self.table_id, self.channel = fake, table_id, channel

    def alices_turn(self, name: str) -> bool:
        return f"Turno de **{name}**" in (self.public().text or "")


async def test_triad_against_the_computer_in_a_group_dm(fake_discord, mesa):
    """Triple Triad's own ``/play`` (a challenge): acknowledged publicly, the lobby and then
    the table edit that acknowledgement; Alice places her cards from "Ver mi mano" (card,
    then cell) while the computer moves through the fresh tokens her presses leave."""
    fake = fake_discord
    mesa.seed = "triad-e2e-random"
    alice, bob = players = [fake.user("alice"), fake.user("bob")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    handle = await alice.slash(
        "play triad", channel=group, random_hand=True, level="normal", payout="directo"
    )
    public = await handle
    assert not public.ephemeral
    table_id = int(re.search(r"#(\d+)", read_card(public)["title"]).group(1))
    table = _TriadOnFake(fake, table_id, group)
    await fake.wait_until(lambda: table.version() is not None, what="the game started")
    assert table.public().id == public.id
    for _ in range(12):
        state = await fake.wait_until(
            lambda: "over" if _shows_result(table) else table.alices_turn(alice.name),
            timeout=30,
            what="alice's turn or the end",
        )
        if state == "over":
            break
        version = table.version()
        hand = await table.show_hand(alice, version)
        cards = triad_driver.draft_buttons(hand, table_id, version, "c")
        assert cards, hand.text
        await (await alice.click(hand, custom_id=cards[0].custom_id)).acknowledged()
        grid = await fake.wait_until(
            lambda h=hand, v=version: triad_driver.draft_buttons(h, table_id, v, "x"),
            what="the cell grid",
        )
        await (await alice.click(hand, custom_id=grid[0].custom_id)).acknowledged()
        await fake.wait_until(
            lambda v=version: (table.version() or 0) > v, what=f"past version {version}"
        )
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    assert_interaction_only(fake, group, players)


def _cpu_moves_after(oracle, seat: str, action: str) -> bool:
    after, _ = macarena_driver.GAME.apply(
        oracle.state, seat, macarena_driver.GAME.decode_action(action)
    )
    return macarena_driver.GAME.outcome(after) is None and "cpu1" in macarena_driver.GAME.to_act(
        after
    )


async def test_a_move_from_a_live_hand_resumes_a_paused_table_and_its_computer(fake_discord, mesa):
    """Paused, the table's computer player waits; a person's move made from their live hand
    (whose token cannot edit the table) carries the table on: that click posts it anew as its
    public follow-up, which resumes it; the computer answers and the game goes on."""
    fake = fake_discord
    seed = "mac-e2e-1423"
    mesa.seed = seed
    alice, bob = players = [fake.user("alice"), fake.user("bob")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    options = {"amulets_to_win": 1}
    table_id, _ = await open_there(fake, "macarena", players, group, cpus=1, **options)
    seats = [str(alice.id), str(bob.id), "cpu1"]
    table = macarena_driver.MacarenaTable(
        fake, table_id, players, seats, seed, options, {"cpu1": "normal"}
    )
    table.channel = group
    oracle = table.oracle
    await table.wait_version(oracle.version)
    for _ in range(60):  # up to a person's move the computer answers, from their live hand
        seat, action = oracle.next_move()
        user = table.by_seat[seat]
        if (
            table.hand_views(user)
            and not action.startswith("p.")
            and _cpu_moves_after(oracle, seat, action)
        ):
            break
        await table.move()
    else:
        pytest.fail("no move of a person answered by the computer")
    # Her press of the table's button, the last one for a while: the table pauses soon after
    # (a short pause for this once; 14 minutes in production).
    pauses = mesa.bot.listener.kit.anywhere
    await fake.settle()  # earlier clicks done with (a late one would carry it on)
    await mesa.bot.listener.drain()
    pauses.pause_after = 0.2
    version = oracle.version
    view = await table.show_hand(user, version)
    await fake.wait_until(lambda: "en pausa" in (table.public().text or ""), what="paused")
    pauses.pause_after = 14 * 60.0
    paused = table.public()
    live = mesa.bot.tables.registry.find(table_id)
    assert pauses.held(live) and not mesa.bot.tables.cpu.pending(live)  # a person's turn
    await (await macarena_driver.take(user, offers_on(view, table_id)[action])).acknowledged()
    oracle.apply(seat, action)
    oracle.advance_cpus()  # resumed by her click: the computer answers
    await table.wait_version(oracle.version)
    moved = table.public()
    assert moved.id != paused.id and moved.interaction is not None and not moved.ephemeral
    assert "en pausa" not in (moved.text or "")
    await fake.wait_until(lambda: not paused.buttons, what="the paused message a pointer")
    await table.play_to_the_end()
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    assert_interaction_only(fake, group, players)


async def test_a_triad_challenge_between_two_people_in_a_group_dm(fake_discord, mesa):
    """Alice challenges Bob in a group DM (random hands): Bob accepts on the challenge, both
    place their cards from "Ver mi mano" (card, then cell) to the end; each one's last hand
    shows the end, not one bot-token call, no DM."""
    fake = fake_discord
    mesa.seed = "triad-e2e-pvp"
    alice, bob = players = [fake.user("alice"), fake.user("bob")]
    group = await place_without_the_bot(fake, mesa.bot, players)
    handle = await alice.slash(
        "play triad", channel=group, opponent=bob, random_hand=True, payout="todas"
    )
    public = await handle
    assert not public.ephemeral
    table_id = int(re.search(r"#(\d+)", read_card(public)["title"]).group(1))
    table = _TriadOnFake(fake, table_id, group)
    await fake.wait_until(
        lambda: "Aceptar" in [b.label for b in table.public().buttons], what="the challenge"
    )
    await (await bob.click(table.public(), "Aceptar")).acknowledged()
    await fake.wait_until(lambda: table.version() is not None, what="the game started")
    assert table.public().id == public.id
    for _ in range(12):
        state = await fake.wait_until(
            lambda: (
                "over"
                if _shows_result(table)
                else next((p for p in players if table.alices_turn(p.name)), None)
            ),
            timeout=30,
            what="a turn or the end",
        )
        if state == "over":
            break
        player, version = state, table.version()
        hand = await table.show_hand(player, version)
        cards = triad_driver.draft_buttons(hand, table_id, version, "c")
        assert cards, hand.text
        await (await player.click(hand, custom_id=cards[0].custom_id)).acknowledged()
        grid = await fake.wait_until(
            lambda h=hand, v=version: triad_driver.draft_buttons(h, table_id, v, "x"),
            what="the cell grid",
        )
        await (await player.click(hand, custom_id=grid[0].custom_id)).acknowledged()
        await fake.wait_until(
            lambda v=version: (table.version() or 0) > v, what=f"past version {version}"
        )
    await mesa.bot.listener.drain()
    assert _shows_result(table)
    last = table.version()
    for player in players:  # both hands right at the end
        await fake.wait_until(
            lambda p=player: (views := table.hand_views(p)) and view_version(views[-1]) == last,
            what=f"{player.name}'s hand at the end",
        )
    assert_interaction_only(fake, group, players)
