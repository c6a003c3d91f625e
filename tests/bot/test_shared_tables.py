"""Tables shared by two processes (bot/service/shared.py), with two table services on one
database and an in-process change feed: the owner of a table's guild presents every change,
whoever made it; the database's version guard, not memory, decides a race."""

from __future__ import annotations

import asyncio

import pytest

from bot.errors import TableError
from bot.service import ServiceConfig, TableService
from bot.service.feed import LocalFeed, LocalFeedHub, NoFeed, TableChange
from bot.service.snapshots import SNAPSHOT_EVERY
from storage import open_database
from tests.bot.lobby_kit import open_lobby
from tests.bot.test_move_path import Listener
from tests.bot.toy_game import TOY
from tests.waiting import until

CONFIG = ServiceConfig(cpu_delay_seconds=0)


async def _until(condition, what):
    """Yield to the loop (and the writer thread) until ``condition()``; a generous wall-clock
    bound against a hang, no timing in the outcome."""
    await until(condition, what)


@pytest.fixture
async def pair(tmp_path):
    """(owner, other, owner's listener, other's listener, table): the owner runs the guild's
    shard; the other one (shard 0: DMs) owns no guild here. Both on one database."""
    db = await open_database(tmp_path / "shared.db")
    hub = LocalFeedHub()
    heard, silent = Listener(), Listener()
    owner = TableService(db, {"toy": TOY}, heard, CONFIG, feed=hub.feed(), owns=lambda g: True)
    other = TableService(db, {"toy": TOY}, silent, CONFIG, feed=hub.feed(), owns=lambda g: False)
    await owner.load()
    await other.load()
    table = await open_lobby(owner, "toy", host=("h", "Host"), seed="seed-1", options={"pile": 40})
    await owner.lobby.join(table.id, "a", "A")
    await owner.lobby.start(table.id, "h")
    yield owner, other, heard, silent, table
    await other.close(drain_seconds=1)
    await owner.close(drain_seconds=1)
    await db.close()


async def test_a_move_made_elsewhere_is_presented_by_the_owner_with_its_events(pair):
    owner, other, heard, silent, table = pair
    await other.act(table.id, "h", 0, "t.1")  # a DM click that reached the other process
    await _until(lambda: heard.calls[-1:] == [(1, "h")], "the owner presenting version 1")
    assert silent.calls == []  # the mover presents nothing of a table it does not own
    live = owner.registry.find(table.id)
    assert live is not None and live.version == 1 and live.state.pile == 39
    assert [e.code for e in live.last_events] == ["took"]  # replayed, not just reloaded
    # The owner moves next; the other's copy catches up from the feed.
    await owner.act(table.id, "a", 1, "t.2")
    await _until(lambda: other.registry.find(table.id).version == 2, "the other catching up")
    await other.act(table.id, "h", 2, "t.1")
    await _until(lambda: heard.calls[-1] == (3, "h"), "the owner presenting version 3")
    assert owner.registry.find(table.id).state.pile == 36 and silent.calls == []


async def test_the_database_decides_a_race_between_processes(tmp_path):
    """The other process hears nothing (its feed is not connected), so its memory is behind:
    a click with the version the player saw is judged against the database, not memory."""
    db = await open_database(tmp_path / "race.db")
    hub = LocalFeedHub()
    owner = TableService(db, {"toy": TOY}, Listener(), CONFIG, feed=hub.feed())
    deaf = TableService(
        db, {"toy": TOY}, Listener(), CONFIG, feed=LocalFeed(hub), owns=lambda g: False
    )
    try:
        await owner.load()
        await deaf.load()
        table = await open_lobby(owner, "toy", host=("h", "H"), seed="seed-2", options={"pile": 40})
        await owner.lobby.join(table.id, "a", "A")
        await owner.lobby.start(table.id, "h")
        assert (await deaf.registry.ensure(table.id)).version == 0  # read from the database
        await owner.act(table.id, "h", 0, "t.1")
        # A second click on the old view (version 0): memory agrees with it, the database's
        # version guard refuses it; the copy is caught up, nothing is applied twice.
        with pytest.raises(TableError) as stale:
            await deaf.act(table.id, "h", 0, "t.1")
        assert stale.value.code == "stale"
        assert deaf.registry.find(table.id).version == 1
        # The owner moves again: the deaf copy is behind (1 < 2), and a click showing version
        # 2 is caught up first and applied, not refused as stale.
        await owner.act(table.id, "a", 1, "t.2")
        await deaf.act(table.id, "h", 2, "t.1")
        record = await owner.repo.get(table.id)
        assert record is not None and record.version == 3
        assert [(a.version, a.seat, a.action) for a in await owner.repo.actions(table.id)] == [
            (1, "h", "t.1"),
            (2, "a", "t.2"),
            (3, "h", "t.1"),
        ]
    finally:
        await deaf.close(drain_seconds=1)
        await owner.close(drain_seconds=1)
        await db.close()


async def test_only_the_owner_runs_computer_turns(pair):
    owner, other, heard, silent, table = pair
    # Not a computer table: the other process arms no timer for a guild it does not own.
    await other.act(table.id, "h", 0, "t.1")
    await _until(lambda: owner.registry.find(table.id).version == 1, "the owner catching up")
    assert not other.timers.armed(table.id)
    await _until(lambda: owner.timers.armed(table.id), "the owner arming the turn timer")


async def test_sqlite_has_no_feed():
    feed = NoFeed()
    assert not feed.shared
    await feed.start(lambda change: None)
    await feed.close()
    await asyncio.sleep(0)


# ----- two processes on one PostgreSQL: real version guards, real LISTEN/NOTIFY ---------------
async def _pg_pair(url: str, players=("h", "a"), cpus: int = 0):
    """Two "processes": a database connection, a change feed and a table service each."""
    from bot.service.pg_feed import PostgresFeed

    dbs = [await open_database(url), await open_database(url)]
    heard, silent = Listener(), Listener()
    owner = TableService(
        dbs[0], {"toy": TOY}, heard, CONFIG, feed=PostgresFeed(url), owns=lambda g: True
    )
    other = TableService(
        dbs[1], {"toy": TOY}, silent, CONFIG, feed=PostgresFeed(url), owns=lambda g: False
    )
    await owner.load()
    await other.load()
    table = await open_lobby(
        owner, "toy", host=(players[0], "H"), seed="seed-pg", options={"pile": 40}
    )
    for seat in players[1:]:
        await owner.lobby.join(table.id, seat, seat.upper())
    for _ in range(cpus):
        await owner.lobby.add_cpu(table.id, players[0], "normal")
    await owner.lobby.start(table.id, players[0])
    return dbs, owner, other, heard, silent, table


async def _close(dbs, *services) -> None:
    for service in services:
        await service.close(drain_seconds=1)
    for db in dbs:
        await db.close()


async def test_on_postgres_the_owner_presents_a_move_made_by_the_other_process(pg_url):
    dbs, owner, other, heard, silent, table = await _pg_pair(pg_url)
    try:
        await other.act(table.id, "h", 0, "t.1")  # heard through LISTEN/NOTIFY
        await _until(lambda: heard.calls[-1:] == [(1, "h")], "the owner presenting version 1")
        await owner.act(table.id, "a", 1, "t.2")
        await _until(lambda: other.registry.find(table.id).version == 2, "the other catching up")
        await other.act(table.id, "h", 2, "t.1")
        await _until(lambda: heard.calls[-1:] == [(3, "h")], "the owner presenting version 3")
        assert silent.calls == []
        assert [a.version for a in await owner.repo.actions(table.id)] == [1, 2, 3]
    finally:
        await _close(dbs, other, owner)


async def test_on_postgres_a_timer_and_a_click_racing_for_one_version_make_one_move(pg_url):
    """The owner's turn timer and the player's DM click (in the other process) both start
    from version 0: the database lets exactly one of them commit version 1."""
    dbs, owner, other, heard, silent, table = await _pg_pair(pg_url)
    try:
        await other.registry.ensure(table.id)
        timer = asyncio.create_task(owner.timers.expire_turn(table.id, 0))
        click = asyncio.create_task(other.act(table.id, "h", 0, "t.1"))
        results = await asyncio.gather(timer, click, return_exceptions=True)
        actions = await owner.repo.actions(table.id)
        assert [a.version for a in actions] == [1]  # one move, never two
        played, clicked = results
        if actions[0].by_timer:
            assert played == ["h"] and isinstance(clicked, TableError)
            assert clicked.code == "stale"
        else:
            assert played == [] or isinstance(played, TableError)
            assert not isinstance(clicked, BaseException)
        await _until(lambda: other.registry.find(table.id).version == 1, "both at version 1")
        await _until(lambda: owner.registry.find(table.id).version == 1, "both at version 1")
    finally:
        await _close(dbs, other, owner)


async def test_on_postgres_the_owner_plays_the_computer_after_a_move_made_elsewhere(pg_url):
    dbs, owner, other, heard, silent, table = await _pg_pair(pg_url, players=("h",), cpus=1)
    try:
        await other.act(table.id, "h", 0, "t.1")
        # The other process never plays the computer: the owner hears of version 1 and does.
        await _until(lambda: owner.registry.find(table.id).version >= 2, "the computer's move")
        actions = await owner.repo.actions(table.id)
        assert [(a.version, a.seat) for a in actions[:2]] == [(1, "h"), (2, "cpu1")]
        await _until(lambda: other.registry.find(table.id).version >= 2, "the other catching up")
    finally:
        await _close(dbs, other, owner)


async def test_after_a_resync_the_owner_shows_what_its_feed_missed(tmp_path):
    """The owner's feed hears nothing (as while its LISTEN connection is down); when the feed
    asks for a resync (the connection is back), every table it holds is read again."""
    db = await open_database(tmp_path / "resync.db")
    hub = LocalFeedHub()
    heard = Listener()
    owner = TableService(db, {"toy": TOY}, heard, CONFIG, feed=LocalFeed(hub))
    other = TableService(
        db, {"toy": TOY}, Listener(), CONFIG, feed=hub.feed(), owns=lambda g: False
    )
    try:
        await owner.load()
        await other.load()
        table = await open_lobby(owner, "toy", host=("h", "H"), seed="seed-3", options={"pile": 40})
        await owner.lobby.join(table.id, "a", "A")
        await owner.lobby.start(table.id, "h")
        await other.act(table.id, "h", 0, "t.1")
        assert owner.registry.find(table.id).version == 0  # missed
        owner.sharing._resync()  # what the feed calls once reconnected
        await _until(lambda: heard.calls[-1:] == [(1, "h")], "the owner presenting version 1")
    finally:
        await other.close(drain_seconds=1)
        await owner.close(drain_seconds=1)
        await db.close()


async def _owner_behind_a_stored_state(tmp_path, name, moves):
    """(db, owner, other, heard, table): the owner's feed hears nothing, the other process
    plays ``moves`` one-card moves, past a stored state (bot/service/snapshots.py)."""
    db = await open_database(tmp_path / f"{name}.db")
    hub = LocalFeedHub()
    heard = Listener()
    owner = TableService(db, {"toy": TOY}, heard, CONFIG, feed=LocalFeed(hub))
    other = TableService(
        db, {"toy": TOY}, Listener(), CONFIG, feed=hub.feed(), owns=lambda g: False
    )
    await owner.load()
    await other.load()
    table = await open_lobby(owner, "toy", host=("h", "H"), seed=name, options={"pile": 40})
    await owner.lobby.join(table.id, "a", "A")
    await owner.lobby.start(table.id, "h")
    for version in range(moves):
        await other.act(table.id, "ha"[version % 2], version, "t.1")
    return db, owner, other, heard, table


@pytest.mark.parametrize("copy_agrees", [True, False])
async def test_a_copy_older_than_the_stored_state_is_checked_where_it_passes_it(
    tmp_path, copy_agrees
):
    """The owner's copy (version 0) is older than the state stored at version 8: its replay
    to version 9 is checked against the stored state at version 8. A copy that agrees is
    shown with the events of all nine moves; one that does not (here: a pile the stored
    game never had) gives way to the stored state, shown without events."""
    moves = SNAPSHOT_EVERY + 1
    db, owner, other, heard, table = await _owner_behind_a_stored_state(
        tmp_path, f"older-{copy_agrees}", moves
    )
    try:
        record = await owner.repo.get(table.id)
        assert (record.stored_version, record.version) == (SNAPSHOT_EVERY, moves)
        live = owner.registry.find(table.id)
        assert live.version == 0
        if not copy_agrees:
            live.state = live.state.model_copy(update={"pile": 41})
        owner.sharing._resync()
        await _until(lambda: heard.calls and heard.calls[-1][0] == moves, "the owner presenting")
        assert live.state.pile == 40 - moves  # the stored game's, either way
        expected = ["took"] * moves if copy_agrees else []
        assert [e.code for e in live.last_events] == expected
        assert heard.calls[-1] == (moves, "h" if copy_agrees else None)
    finally:
        await other.close(drain_seconds=1)
        await owner.close(drain_seconds=1)
        await db.close()


async def test_a_table_the_owner_had_not_loaded_is_shown_with_the_events_of_the_move(
    db_target,
):
    """After a restart the owner loads tables lazily: the first it hears of one is another
    process's move. It rebuilds the game from the seed (worker pool) and presents the events
    of the moves its message has not shown, not just the snapshot."""
    from storage import PresentedRepo, Shown

    dbs = [await open_database(db_target), await open_database(db_target)]
    hub = LocalFeedHub()
    first = TableService(dbs[0], {"toy": TOY}, Listener(), CONFIG, feed=hub.feed())
    await first.load()
    table = await open_lobby(first, "toy", host=("h", "H"), seed="seed-lazy", options={"pile": 40})
    await first.lobby.join(table.id, "a", "A")
    await first.lobby.start(table.id, "h")
    await first.act(table.id, "h", 0, "t.1")
    await first.act(table.id, "a", 1, "t.2")
    await PresentedRepo(dbs[0]).save([Shown(table_id=table.id, slot="", version=1)])
    await first.close(drain_seconds=1)  # the owner restarts
    events = []
    heard = Listener()

    async def on_game(live, evs, actor):
        events.append([e.code for e in evs])

    heard.on_game = on_game
    owner = TableService(dbs[0], {"toy": TOY}, heard, CONFIG, feed=hub.feed())
    other = TableService(dbs[1], {"toy": TOY}, Listener(), CONFIG, feed=hub.feed(), owns=lambda g: False)  # fmt: skip
    try:
        await owner.load(lazy=True)
        await other.load(lazy=True)
        assert owner.registry.find(table.id) is None
        await other.act(table.id, "h", 2, "t.1")
        await _until(lambda: heard.calls, "the owner presenting the move")
        # Shown: version 1. Since then: a's move (version 2) and h's (version 3).
        assert heard.calls == [(3, "h")]
        assert events == [["took", "took"]]
        assert owner.registry.find(table.id).last_actor == "h"
    finally:
        await other.close(drain_seconds=1)
        await owner.close(drain_seconds=1)
        for db in dbs:
            await db.close()


# ----- the mover's DM view, answered in place by the mover's process -------------------------
async def test_the_owner_learns_what_the_mover_s_process_showed_in_the_mover_s_dm(pair):
    """The other process answered the mover's click in place (message 777 shows the view of
    version 1, digest "d1"): the owner, about to edit that view, hears so and need not."""
    owner, other, heard, silent, table = pair
    await other.act(table.id, "h", 0, "t.1")
    await _until(lambda: heard.calls[-1:] == [(1, "h")], "the owner presenting version 1")
    waiting = asyncio.create_task(owner.sharing.view_shown_elsewhere(table.id, "h", 1))
    await asyncio.sleep(0)  # the owner asks before the word arrives
    other.sharing.view_answered(other.registry.find(table.id), "h", 777, "d1")
    shown = await waiting
    assert (shown.table_id, shown.seat, shown.version, shown.message_id, shown.digest) == (
        table.id, "h", 1, 777, "d1",
    )  # fmt: skip
    assert await owner.sharing.view_shown_elsewhere(table.id, "h", 1) is None  # used once
    # The word may also come first; and the owner itself never publishes one.
    await other.act(table.id, "a", 1, "t.1")
    other.sharing.view_answered(
        other.registry.find(table.id), "a", None, None
    )  # could not answer in place
    await _until(lambda: owner.registry.find(table.id).version == 2, "the owner catching up")
    shown = await owner.sharing.view_shown_elsewhere(table.id, "a", 2)
    assert shown is not None and shown.message_id is None
    owner.sharing.view_answered(owner.registry.find(table.id), "a", 1, "x")
    await asyncio.sleep(0.01)
    assert await other.sharing.view_shown_elsewhere(table.id, "a", 2) is None


async def test_no_word_from_the_mover_s_process_costs_a_bounded_wait_then_an_edit():
    from bot.service.feed import ViewShown
    from bot.service.shared import ViewsShownElsewhere

    views = ViewsShownElsewhere(grace=0)
    assert await views.wait(1, "h", 3) is None  # nothing expected: at once
    views.expect(1, "h", 3)
    assert await views.wait(1, "h", 3) is None  # expected, never said (the process died)
    views.heard(ViewShown(1, "h", 4, 9, "d"))
    views.expect(1, "h", 4)  # the word came before the owner caught up
    assert (await views.wait(1, "h", 4)).message_id == 9
    for shown in (ViewShown(5, "123", 6, None, None), ViewShown(5, "1", 6, 7, "ab", False)):
        assert ViewShown.parse(shown.payload()) == shown
    assert ViewShown.parse("5:123:6:x::1") is None and ViewShown.parse("5:123:6:::") is None


async def test_on_postgres_the_word_travels_by_notify(pg_url):
    dbs, owner, other, heard, silent, table = await _pg_pair(pg_url)
    try:
        await other.act(table.id, "h", 0, "t.1")
        await _until(lambda: heard.calls[-1:] == [(1, "h")], "the owner presenting version 1")
        other.sharing.view_answered(other.registry.find(table.id), "h", 777, "d1")
        shown = await owner.sharing.view_shown_elsewhere(table.id, "h", 1)
        assert shown is not None and (shown.message_id, shown.digest) == (777, "d1")
    finally:
        await _close(dbs, other, owner)


async def test_the_other_process_hears_that_a_table_it_does_not_present_is_over(tmp_path):
    """What the other process holds of a table (the DM views it answered) is forgotten once
    the table is over: it hears so from its own last move, and from the feed when the owner
    closes it (``over_elsewhere``); the owner, which presents the table, is not told so."""
    db = await open_database(tmp_path / "over.db")
    hub = LocalFeedHub()
    ended: dict[str, list[tuple[int, str]]] = {"owner": [], "other": []}

    def over(who):
        return lambda table: ended[who].append((table.id, table.record.status))

    owner_feed = hub.feed()
    owner = TableService(
        db, {"toy": TOY}, Listener(), CONFIG, feed=owner_feed, owns=lambda g: True,
        over_elsewhere=over("owner"),
    )  # fmt: skip
    other = TableService(
        db, {"toy": TOY}, Listener(), CONFIG, feed=hub.feed(), owns=lambda g: False,
        over_elsewhere=over("other"),
    )  # fmt: skip
    try:
        await owner.load()
        await other.load()

        async def started(seed: str):
            table = await open_lobby(owner, "toy", host=("h", "H"), seed=seed, options={"pile": 2})
            await owner.lobby.join(table.id, "a", "A")
            await owner.lobby.start(table.id, "h")
            return table

        finished = await started("seed-a")
        await other.act(finished.id, "h", 0, "t.2")  # the last of the pile: "h" wins
        await _until(lambda: ended["other"], "the other hearing its own last move")
        assert ended["other"] == [(finished.id, "finished")]
        await _until(lambda: owner.registry.find(finished.id) is None, "the owner releasing it")
        closed = await started("seed-b")
        await other.registry.ensure(closed.id)  # the other holds it (a DM click, say)
        await owner.lobby.cancel(closed.id, "h")
        # (PostgreSQL's trigger announces every change; the in-process feed is told)
        await owner_feed.publish(TableChange(closed.id, 0, "cancelled"))
        await _until(lambda: len(ended["other"]) == 2, "the other hearing the closing")
        assert ended["other"][1] == (closed.id, "cancelled")
        await _until(lambda: other.registry.find(closed.id) is None, "the copy released")
        assert ended["owner"] == []
    finally:
        await other.close(drain_seconds=1)
        await owner.close(drain_seconds=1)
        await db.close()
