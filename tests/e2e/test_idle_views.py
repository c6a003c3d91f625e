"""Issue 29: a move's change starts no worker for a view it leaves as it is: the clicked view
answered in place with that very move (a DM hand, a live "Ver mi mano" hand), the DM hand of a
player who plays from the table (their "Ver mi mano" hand live, their DM hand never clicked),
and a waiting seat's hand whose wait is under way (``bot/ui/waiting_hands.py``). Counted by the
views' traces and workers (``view_<kind>_total``: one per worker's run), not timed."""

from __future__ import annotations

from bot import metrics
from tests.e2e.amapatolli_driver import offers_on, start_game
from tests.e2e.driver_kit import QUIET_FOR, view_version
from tests.e2e.test_waiting_hands import _after_next_move, _wait_of
from tests.timers import RecordedTimers
from tests.waiting import until

SEED = "e2e-big-0223"


def _runs(kind: str) -> int:
    histogram = metrics.histograms.get(f"view_{kind}_total")
    return histogram.count if histogram is not None else 0


async def test_a_dm_click_answered_in_place_leaves_its_worker_nothing(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    mesa.seed = SEED
    # the widest budget the settings allow: every click is answered in place, not by luck
    monkeypatch.setattr(mesa.bot.settings, "answer_in_place_ms", 2500)
    players = [fake.user(n) for n in ("alice", "bob")]
    table = await start_game(fake, players, seed=SEED, hand_size=7)
    for _ in range(2):  # everyone clicked their DM hand once
        await table.move()
    await mesa.bot.listener.drain()
    movers_before = _runs("mover")
    for _ in range(4):
        seat, _action = await table.move()
        await mesa.bot.listener.drain()
        # the clicked DM hand shows the move: the click's answer
        shown = [view_version(m) for m in table.by_seat[seat].dms()]
        assert [v for v in shown if v is not None][-1] == table.oracle.version
    assert _runs("mover") == movers_before  # no worker ran to find the answer shown
    assert fake.violations == []


async def test_a_player_at_the_table_starts_no_worker_for_her_dm_hand(
    fake_discord, mesa, monkeypatch
):
    fake = fake_discord
    mesa.seed = SEED
    monkeypatch.setattr(mesa.bot.settings, "answer_in_place_ms", 2500)  # (as above)
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await start_game(fake, [alice, bob], seed=SEED, hand_size=7)
    plain = table.private_offers

    async def alice_plays_from_the_table(user, version):
        if user is not alice:
            return await plain(user, version)
        offers = offers_on(await table.show_hand(user, version), table.table_id)
        assert offers and all(o.version == version for o in offers.values()), offers
        return offers

    table.private_offers = alice_plays_from_the_table  # type: ignore[method-assign]
    await table.show_hand(alice)
    for _ in range(2):  # her DM hand's slot has run once since her hand went live
        await table.move()
    await mesa.bot.listener.drain()
    dm_hand = [m.id for m in alice.dms()]
    spared = metrics.counters["dm_spared_channel_play"]
    her_slot = mesa.bot.listener.private._slots.get((table.table_id, str(alice.id)))
    assert her_slot is not None and (her_slot.task is None or her_slot.task.done())
    last_run = her_slot.task  # (None: no worker ran since her click on her hand made it)
    movers = _runs("mover")
    moved = {str(alice.id): 0, str(bob.id): 0}
    while min(moved.values()) < 2:
        seat, _ = await table.move()
        moved[seat] += 1
    await mesa.bot.listener.drain()
    await fake.wait_until(
        lambda: [view_version(m) for m in table.hand_views(alice)][-1:] == [table.oracle.version],
        timeout=QUIET_FOR,
        what="alice's live hand at the table's version",
    )
    assert metrics.counters["dm_spared_channel_play"] >= spared + 4  # a move each, at least
    assert her_slot.task is last_run  # no worker ran for her DM hand since
    # nor for the hand she clicked (her answer showed her move), nor for bob's DM hand
    assert _runs("mover") == movers
    assert [m.id for m in alice.dms()] == dm_hand  # no DM posted either
    assert fake.violations == []


async def test_a_held_hand_starts_no_worker_for_the_changes_its_wait_covers(fake_discord, mesa):
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]  # two changes a wait
    table = await start_game(fake, players, seed=SEED, hand_size=7)
    seat, _ = await table.move()
    while seat in table.oracle.to_act():  # (a move that leaves them to act again)
        seat, _ = await table.move()
    await mesa.bot.listener.drain()
    private = mesa.bot.listener.private
    private.waiting.schedule = RecordedTimers()
    private.waiting.every = 3600.0  # a wait only the test's timer ends
    player = table.by_seat[seat]
    slot = private._slots.get((table.table_id, seat))
    assert slot is not None
    ran = None
    waits = []
    for _ in range(6):  # the changes before their turn comes again (at most six of them)
        if seat in _after_next_move(table):
            break
        await table.move()
        waits.append(await until(lambda: _wait_of(mesa, table, seat), "the change held"))
        await until(lambda: slot.task is not None and slot.task.done(), "its worker idle")
        if ran is None:
            ran = slot.task  # the first change started the wait: its worker ran
        assert slot.task is ran  # the others: no worker ran for them
    assert len(waits) >= 2, "fewer than two changes left them waiting"
    waits[0].fire()
    latest = table.oracle.version
    await until(lambda: view_version(player.dms()[-1]) == latest, "the newest change shown")
