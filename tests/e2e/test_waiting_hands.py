"""Issue 29, fewer requests per move: a waiting seat's hand (nothing to act on, before and after
a change) shows the table ``every`` seconds late at most, the changes meanwhile in ONE edit of
the newest (``bot/ui/waiting_hands.py``); the change that makes it their turn is never
held, and ends the wait; a drain shows what waits at once. The waits run on a recorded schedule
(``tests/timers.py``) fired by the test: nothing depends on this machine's speed."""

from __future__ import annotations

from tests.e2e.amapatolli_driver import GAME, start_game
from tests.e2e.driver_kit import draft_buttons, view_version
from tests.e2e.macarena_driver import GAME as MACARENA
from tests.e2e.macarena_driver import start_game as macarena_start
from tests.timers import RecordedTimers
from tests.waiting import until

SEED = "e2e-big-0223"
HOUR = 3600.0  # a wait only the test's timers end


async def _table_with_a_waiting_seat(fake, mesa):
    """Three players; the first mover played from their DM hand (their click's token may edit
    it: it follows the table while they wait). (table, the waiting seat, its player, timers)."""
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED, hand_size=7)
    seat, _ = await table.move()
    while seat in table.oracle.to_act():  # (a move that leaves them to act again)
        seat, _ = await table.move()
    await mesa.bot.listener.drain()
    private = mesa.bot.listener.private
    timers = private.waiting.schedule = RecordedTimers()
    private.waiting.every = HOUR
    return table, seat, table.by_seat[seat], timers


def _hand(player):
    """The player's DM hand at the table (their one DM view)."""
    return player.dms()[-1]


async def test_a_waiting_hand_is_edited_once_late_with_the_newest_change(fake_discord, mesa):
    fake = fake_discord
    table, seat, player, timers = await _table_with_a_waiting_seat(fake, mesa)
    hand = _hand(player)
    shown, edits = view_version(hand), len(hand.versions)
    assert shown is not None and seat not in table.oracle.to_act()
    waits = []
    for _ in range(6):  # the changes before their turn comes again (at most six of them)
        if seat in _after_next_move(table):
            break
        await table.move()
        waits.append(await until(lambda: _wait_of(mesa, table, seat), "the change held"))
        assert view_version(_hand(player)) == shown  # not shown yet
    assert waits, "no change left them waiting"
    wait = waits[0]
    assert all(w is wait for w in waits)  # one wait for every change meanwhile, from the first
    assert wait.delay == HOUR and len(timers.all) >= 1
    wait.fire()
    latest = table.oracle.version
    await until(lambda: view_version(_hand(player)) == latest, "the held hand shown")
    assert _hand(player) is hand  # edited in place...
    assert len(hand.versions) == edits + 1  # ...once, showing the newest change
    assert _wait_of(mesa, table, seat) is None


async def test_the_change_that_makes_it_their_turn_is_never_held(fake_discord, mesa):
    fake = fake_discord
    table, seat, player, timers = await _table_with_a_waiting_seat(fake, mesa)
    waited = None
    while seat not in _after_next_move(table):
        await table.move()  # changes they wait through: held
        waited = await until(lambda: _wait_of(mesa, table, seat), "the change held")
    assert waited is not None and not waited.fired
    await table.move()  # their turn now: no drain, no timer fired
    turn = table.oracle.version
    await until(lambda: view_version(_hand(player)) == turn, "their turn shown at once")
    assert waited.cancelled and _wait_of(mesa, table, seat) is None  # nothing more to send
    await table.move()  # and they can act on it (their DM offers the move at that version)


async def test_a_drain_shows_a_held_hand_at_once(fake_discord, mesa):
    fake = fake_discord
    table, seat, player, timers = await _table_with_a_waiting_seat(fake, mesa)
    assert seat not in _after_next_move(table)  # (this seed: the next change leaves them waiting)
    await table.move()
    wait = await until(lambda: _wait_of(mesa, table, seat), "the change held")
    await mesa.bot.listener.drain()
    assert view_version(_hand(player)) == table.oracle.version
    assert wait.cancelled and timers.waiting() == []


def _wait_of(mesa, table, seat):
    """The timer ending the wait of ``seat``'s held-back DM hand, if it waits."""
    held = mesa.bot.listener.private.waiting._held.get(("dm", table.table_id, seat))
    return None if held is None else held.timer


def _after_next_move(table) -> set[str]:
    """The seats to act once the oracle's next move is made."""
    seat, action = table.oracle.next_move()
    state, _ = GAME.apply(table.oracle.state, seat, GAME.decode_action(action))
    return set(GAME.to_act(state))


async def test_a_waiting_ver_mi_mano_hand_is_held_and_ends_showing_the_newest(fake_discord, mesa):
    """The same for a live "Ver mi mano" hand (channel play, a player whose DMs are closed):
    held while he waits, then ONE edit through its token of the newest change."""
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED, hand_size=7)
    bob_seat = str(bob.id)
    while not table.oracle.finished:  # until a move of his leaves him waiting a while
        seat, _ = await table.move()
        if seat == bob_seat and bob_seat not in table.oracle.to_act():
            if bob_seat not in _after_next_move(table):
                break
    assert not table.oracle.finished
    await mesa.bot.listener.drain()
    await fake.settle()
    private = mesa.bot.listener.private
    private.waiting.schedule = RecordedTimers()
    private.waiting.every = HOUR
    hand = table.hand_views(bob)[-1]
    shown, edits = view_version(hand), len(hand.versions)
    assert shown == table.oracle.version
    await table.move()  # another player's move: he still waits
    held = mesa.bot.listener.private.waiting._held
    wait = await until(lambda: held.get(("hand", table.table_id, bob_seat)), "the change held")
    assert view_version(hand) == shown and wait.timer is not None
    wait.timer.fire()
    latest = table.oracle.version
    await until(lambda: view_version(hand) == latest, "the held hand shown")
    assert table.hand_views(bob)[-1] is hand and len(hand.versions) == edits + 1


MACARENA_SEED = "mac-e2e-1423"


async def test_a_view_step_on_a_held_hand_is_answered_on_it_and_their_turn_reaches_it(
    fake_discord, mesa
):
    """Macarena's "Ver mi colección" on a held-back DM hand (it shows an older version, by the
    hold alone) is answered on that hand, brought up to date, not refused as stale with a new
    message: the player reads that newest message from then on, and the edit that makes it
    their turn, on the hand, never reached it (the load bench's 2-4.5 s next views)."""
    fake = fake_discord
    mesa.seed = MACARENA_SEED
    alice, bob = fake.user("alice"), fake.user("bob")
    table = await macarena_start(
        fake, [alice, bob], seed=MACARENA_SEED, options={"amulets_to_win": 1}, cpus=1
    )
    for _ in range(2):  # both have clicked their DM hand: their click's token edits it
        await table.move()
    await mesa.bot.listener.drain()
    private = mesa.bot.listener.private
    private.waiting.schedule = RecordedTimers()
    private.waiting.every = HOUR
    held = None
    for _ in range(20):
        mover, _ = await table.move()
        [seat] = [s for s in table.by_seat if s != mover]
        if seat in _macarena_to_act(table):
            continue
        await fake.settle()
        if _wait_of(mesa, table, seat) is not None:
            held = seat
            break
    assert held is not None, "no change left a hand held back"
    player = table.by_seat[held]
    hand = _hand(player)
    version, custom_id = draft_buttons(hand, table.table_id)["v"]  # "Ver mi colección"
    latest = table.oracle.version
    assert version < latest  # held: it shows an older version
    handle = await player.click(hand, custom_id=custom_id)
    await handle.acknowledged()

    def answer_elsewhere():
        return [m for m in player.ephemerals() if m.interaction is handle.interaction]

    await until(lambda: view_version(hand) == latest or answer_elsewhere(), "the click answered")
    assert answer_elsewhere() == []  # (refused as stale: a new message, the hand left behind)
    assert _hand(player) is hand and view_version(hand) == latest  # answered on the hand
    # Nothing left to show later (the handler ends the hold once its edit is answered: the
    # loop may run this test first, as 3.13's does).
    await until(lambda: _wait_of(mesa, table, held) is None, "the hold ended")
    while held not in _macarena_to_act(table):
        await table.move()  # the other player's moves (and the computer's): no drain
    turn = table.oracle.version
    await until(lambda: view_version(hand) == turn, "their turn shown on the hand")
    assert _hand(player) is hand
    await table.move()  # they act on it


def _macarena_to_act(table) -> set[str]:
    return set(MACARENA.to_act(table.oracle.state))


async def test_a_mover_s_ver_mi_mano_hand_waits_after_the_answer_to_his_move(fake_discord, mesa):
    """Bob plays from his live "Ver mi mano" hand: his click is answered on it, showing his
    turn passed; the changes after it (others' moves he waits through) are held like any
    waiting hand's, not each edited at once because the hand showed his turn before."""
    fake = fake_discord
    mesa.seed = SEED
    alice, bob, carol = fake.user("alice"), fake.user("bob", dms_open=False), fake.user("carol")
    table = await start_game(fake, [alice, bob, carol], seed=SEED, hand_size=7)
    bob_seat = str(bob.id)
    private = mesa.bot.listener.private
    hands = private._hands
    while not table.oracle.finished:
        await mesa.bot.listener.drain()
        shows_turn = (slot := hands.get((table.table_id, bob_seat))) is not None and slot.waiting
        if not shows_turn or bob_seat in _after_next_move(table):
            await table.move()  # (until his live hand was brought to his turn by a change)
            continue
        private.waiting.schedule = timers = RecordedTimers()
        private.waiting.every = HOUR
        await table.move()  # his move, answered on his hand...
        await mesa.bot.listener.drain()
        hand = table.hand_views(bob)[-1]
        shown, edits = view_version(hand), len(hand.versions)
        assert shown == table.oracle.version
        # ...once: the hand's worker does not edit it again with the same version
        shows = [view_version(v) for v in hand.versions] + [shown]
        assert shows.count(shown) == 1, shows
        if bob_seat in _after_next_move(table):  # (his turn again at once: never held)
            private.waiting.every = 2.0
            continue
        await table.move()  # another player's move: he waits
        key = ("hand", table.table_id, bob_seat)
        wait = await until(lambda k=key: private.waiting._held.get(k), "the change held")
        assert view_version(hand) == shown and len(hand.versions) == edits  # not edited yet
        assert wait.timer is not None and wait.timer.delay == HOUR and timers.all
        wait.timer.fire()
        latest = table.oracle.version
        await until(lambda h=hand, v=latest: view_version(h) == v, "the held hand shown")
        assert len(hand.versions) == edits + 1
        return
    raise AssertionError("no move of his left him waiting two changes")
