"""Fair "¡Ce!" end to end: a person against a computer on the fake Discord. The table service
runs on a fake clock (its injectable ``sleep``), so "2 seconds" and "5 seconds" are exact and
take no real time: the person presses ¡Ce! 2 s after their window opens and beats the computer,
which had a call-out ready all along."""

from __future__ import annotations

import contextlib
import functools

import discord.gateway
import discord.http
import pytest

import bot.client
from bot.service import TableService
from games.amapatolli import GAME
from games.amapatolli.rules import FAIR_CE_SECONDS
from tests.e2e.amapatolli_driver import AmapatolliTable, open_lobby
from tests.e2e.conftest import Mesa
from tests.e2e.driver_kit import take
from tests.games.amapatolli.fake_clock import FakeClock

SEED = "fair-0"  # the person opens a "Ce" window within a few moves
OPTIONS = {"hand_size": 3}


@pytest.fixture
async def clocked(fake_discord, tmp_path, monkeypatch):
    """The Mesa bot whose table service sleeps on a fake clock."""
    clock = FakeClock()
    monkeypatch.setattr(bot.client, "TableService", functools.partial(_service, clock))
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    harness = Mesa(fake_discord, tmp_path / "mesa.db")
    harness.seed = SEED
    try:
        await harness.start()
        yield harness, clock
    finally:
        with contextlib.suppress(Exception):
            await harness.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def _service(clock: FakeClock, *args, **kwargs) -> TableService:
    """The bot's table service, sleeping on ``clock`` and searching on fixed budgets: with
    think time on the real clock a loaded machine made the computer choose other moves, and
    a game could reach a computer's own window, whose fair wait sleeps on the fake clock the
    test does not advance then — the likely cause of 1 run in ~18 timing out waiting for
    alice's turn)."""
    kwargs["think_clock"] = None
    return TableService(*args, sleep=clock.sleep, **kwargs)


def _where(mesa: Mesa, live, clock: FakeClock) -> str:
    """Where the table stood when alice's turn did not come: who must act, the open window,
    the fake clock's sleepers (a sleeper on it waits for ever: the test never advances it
    here) and the table's computer task."""
    state = live.state
    cpu = mesa.bot.tables.cpu.tasks()
    return (
        f"version {live.version}, to act {sorted(GAME.to_act(state))}, window {state.ce_window}, "
        f"hands {[len(h) for h in state.hands]}, over {GAME.is_over(state)}, "
        f"fake clock at {clock.now} with sleepers until {clock.deadlines()}, computer tasks {cpu}"
    )


def _window_of(state, seat: str) -> bool:
    return state.ce_window is not None and state.seats[state.ce_window] == seat


async def test_ce_pressed_two_seconds_after_the_window_opens_beats_the_computer(
    fake_discord, clocked
):
    fake = fake_discord
    mesa, clock = clocked
    alice = fake.user("alice")
    table_id, lobby = await open_lobby(fake, alice, hand_size=3)
    await (await alice.click(lobby, "Añadir CPU")).acknowledged()
    await fake.wait_until(lambda: "CPU 1" in lobby.text, what="CPU 1 seated")
    await (await alice.click(lobby, "Empezar")).acknowledged()
    table = AmapatolliTable(fake, table_id, [alice], SEED, OPTIONS, seats=[str(alice.id), "cpu1"])
    await table.wait_version(0)
    live = mesa.bot.tables.registry.get(table_id)
    seat = str(alice.id)

    # alice plays her first turn move each turn (from her DM) until she holds one card
    while not _window_of(live.state, seat):
        try:
            await fake.wait_until(
                lambda: (
                    _window_of(live.state, seat)
                    or (seat in GAME.to_act(live.state) and table.latest_dm(alice, live.version))
                ),
                what="alice's turn",
            )
        except TimeoutError as stuck:  # once in many runs at high load: say where it stood
            raise AssertionError(_where(mesa, live, clock)) from stuck
        if _window_of(live.state, seat):
            break
        version = live.version
        offers = await table.private_offers(alice, version)
        move = sorted(a for a in offers if a != "announce" and not a.startswith("catch."))[0]
        await (await take(alice, offers[move])).acknowledged()
        await fake.wait_until(lambda v=version: live.version > v, what="alice's move applied")
        assert not GAME.is_over(live.state), "the seed must give alice a window"

    opened = live.version
    assert len(live.state.hands[live.state.ce_window]) == 1
    # the computer has a call-out (or its turn) ready, and is made to wait
    assert GAME.legal_actions(live.state, "cpu1")
    await clock.until_sleeping(lambda d: abs(d - clock.now - FAIR_CE_SECONDS) < 1e-6)
    await clock.advance(2)
    assert live.version == opened and _window_of(live.state, seat)

    offers = await table.private_offers(alice, opened)
    assert "announce" in offers
    await (await take(alice, offers["announce"])).acknowledged()
    await fake.wait_until(lambda: live.version > opened, what="alice's ¡Ce!")
    state = live.state
    assert state.announced[state.seats.index(seat)]
    assert len(state.hands[state.seats.index(seat)]) == 1  # not called out: no 3 cards
    await fake.wait_until(
        lambda: "«¡Ce!»" in table.public().text or "¡Ce!" in table.public().text,
        what="the table shows the call",
    )
