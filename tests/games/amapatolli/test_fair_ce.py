"""Fair "¡Ce!" (spec: ¡Ce!): while a person's window is open, computers wait at least 5 s before
they call them out or take their turn. The engine hook, then the table service on a fake clock."""

from __future__ import annotations

import asyncio

from bot.service import ServiceConfig, TableService
from games.amapatolli import GAME
from games.amapatolli.rules import FAIR_CE_SECONDS
from storage import open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_tables import RecordingListener
from tests.games.amapatolli.fake_clock import FakeClock

SEED = "fair-0"  # "h" (a person) opens a "Ce" window within a few moves against one computer


# ----- the engine hook ------------------------------------------------------------------------
def _window_state(holder: str):
    state = GAME.new(["h", "cpu1"], SEED, {"hand_size": 3})
    return state.model_copy(update={"ce_window": state.seats.index(holder)})


def test_the_wait_applies_only_to_a_person_s_open_window():
    humans = frozenset({"h"})
    assert FAIR_CE_SECONDS >= 5
    assert GAME.cpu_wait_seconds(_window_state("h"), humans) == FAIR_CE_SECONDS
    assert GAME.cpu_wait_seconds(_window_state("cpu1"), humans) == 0  # a computer's window
    no_window = GAME.new(["h", "cpu1"], SEED, {"hand_size": 3})
    assert no_window.ce_window is None
    assert GAME.cpu_wait_seconds(no_window, humans) == 0  # ordinary moves are not delayed
    assert GAME.cpu_wait_seconds(_window_state("h"), frozenset()) == 0  # "h" became a computer


# ----- the table service ----------------------------------------------------------------------
async def _table(tmp_path, clock: FakeClock):
    db = await open_database(tmp_path / "fair.db")
    listener = RecordingListener()
    service = TableService(
        db,
        {"amapatolli": GAME},
        listener,
        ServiceConfig(cpu_delay_seconds=0),
        sleep=clock.sleep,
    )
    table = await open_lobby(
        service, "amapatolli", host=("h", "Host"), seed=SEED, options={"hand_size": 3}
    )
    await service.lobby.add_cpu(table.id, "h", "normal")
    await service.lobby.start(table.id, "h")
    return db, service, table, listener


async def _until(condition, what: str) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(poll(), timeout=60)  # a guard against hanging, never a timing bet


def _window_open(table) -> bool:
    state = table.state
    return state.ce_window is not None and state.seats[state.ce_window] == "h"


async def _play_until_window(service, table) -> None:
    """The person plays their first turn action each turn until they hold one card."""
    while not _window_open(table):
        await _until(lambda: _window_open(table) or "h" in GAME.to_act(table.state), "h to act")
        if _window_open(table):
            break
        legal = [
            a.encode()
            for a in GAME.legal_actions(table.state, "h")
            if a.encode() != "announce" and not a.encode().startswith("catch.")
        ]
        await service.act(table.id, "h", table.version, sorted(legal)[0])


async def test_a_person_announcing_two_seconds_after_the_window_opens_beats_the_computer(
    tmp_path,
):
    clock = FakeClock()
    db, service, table, listener = await _table(tmp_path, clock)
    try:
        await _play_until_window(service, table)
        version = table.version
        await clock.until_sleeping(lambda d: abs(d - clock.now - FAIR_CE_SECONDS) < 1e-6)
        await clock.advance(2)
        assert table.version == version and _window_open(table)  # the computer still waits
        await service.act(table.id, "h", version, "announce")
        assert table.state.announced[0] and table.state.ce_window is None
        assert table.state.hands[0] and len(table.state.hands[0]) == 1  # not called out
    finally:
        await service.close()
        await db.close()


async def test_after_five_seconds_the_computer_may_call_the_person_out(tmp_path):
    clock = FakeClock()
    db, service, table, listener = await _table(tmp_path, clock)
    try:
        await _play_until_window(service, table)
        version = table.version
        await clock.until_sleeping(lambda d: abs(d - clock.now - FAIR_CE_SECONDS) < 1e-6)
        await clock.advance(FAIR_CE_SECONDS - 0.5)
        assert table.version == version  # not a moment before the 5 s
        await clock.advance(0.5)
        await _until(lambda: table.version > version, "the computer's move")
        assert not _window_open(table)  # called out, or closed by the computer's turn
        assert not table.state.announced[0]
    finally:
        await service.close()
        await db.close()


async def test_computer_moves_outside_a_person_s_window_are_not_delayed(tmp_path):
    clock = FakeClock()
    db, service, table, listener = await _table(tmp_path, clock)
    try:
        # Until the window, every computer move happened without the clock moving at all.
        await _play_until_window(service, table)
        assert clock.now == 0
        computer_moves = [c for c in listener.calls if c[0] == "game" and c[2] == "cpu1"]
        assert computer_moves  # (SEED: the computer moved before the window opened)
    finally:
        await service.close()
        await db.close()
