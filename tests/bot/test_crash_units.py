"""Small pieces of crash recovery: closed-DM retries with back-off, resumed deadlines spread,
the intent log's done marking and the start-up index, the back-off of a public edit given up
on."""

from __future__ import annotations

from bot.service.wake import FIRST_OVERDUE, OVERDUE_SPACING, OverdueSpreader
from bot.ui.dm_gate import DmGate
from bot.ui.shown import RETRY_SECONDS, ShownStore
from storage import Intent, IntentsRepo, SeatInfo, TablesRepo, open_database


class Store:
    def __init__(self) -> None:
        self.rows: dict[str, tuple[bool, float | None, int]] = {}

    async def dms_state(self, user_id):
        return self.rows.get(user_id, (False, None, 0))

    async def dm_failed(self, user_id, retry_at):
        failures = self.rows.get(user_id, (False, None, 0))[2] + 1
        self.rows[user_id] = (True, retry_at, failures)
        return failures

    async def set_dms_closed(self, user_id, closed):
        self.rows[user_id] = (closed, None, 0)


async def test_closed_dms_are_retried_with_back_off_and_cleared_by_a_delivery():
    clock = [1000.0]
    store = Store()
    gate = DmGate(lambda: store, base_seconds=60, max_seconds=600, now=lambda: clock[0])
    assert not await gate.blocked("1")
    assert await gate.refused("1")  # first refusal: tell the channel
    assert await gate.blocked("1")
    clock[0] += 61
    assert not await gate.blocked("1")  # due: one try
    assert not await gate.refused("1")  # refused again: not told twice
    clock[0] += 61
    assert await gate.blocked("1")  # the back-off doubled (120 s)
    clock[0] += 60
    assert not await gate.blocked("1")
    await gate.delivered("1")
    assert store.rows["1"] == (False, None, 0)
    assert not await gate.blocked("1")
    assert await gate.blocked("cpu1")  # computers have no DMs


def test_overdue_wake_ups_are_spread_and_others_keep_the_time_left():
    spread = OverdueSpreader(now=100.0)
    assert spread.delay(160.0, default=120) == 60.0
    assert spread.delay(None, default=120) == 120
    first, second = spread.delay(50.0, default=120), spread.delay(99.0, default=120)
    assert first == FIRST_OVERDUE + OVERDUE_SPACING
    assert second == FIRST_OVERDUE + 2 * OVERDUE_SPACING


async def test_an_intent_is_done_whichever_is_written_first(db_target):
    db = await open_database(db_target)
    tables = TablesRepo(db)
    intents = IntentsRepo(db)
    record = await tables.create(
        guild_id="g",
        channel_id="c",
        game="amapatolli",
        host_id="1",
        locale="es",
        options={},
        seats=[SeatInfo(id="1", name="a")],
        seed="s",
    )
    await tables.start(record.id, record.seats, "{}", 0)
    record = await tables.get(record.id)
    assert record is not None

    def intent(n: int) -> Intent:
        return Intent(
            interaction_id=str(n),
            application_id="9",
            token="tok",
            table_id=record.id,
            seat="1",
            version=n - 1,
            action="draw",
            locale="es",
            created_at=1.0,
        )

    await intents.record(intent(1))  # recorded, then the move commits
    await tables.record_action(
        record, seat="1", action="draw", state_json="{}", version=1, intent=intent(1), wake_at=5.0
    )
    record.version = 1
    await tables.record_action(  # the move commits first, then the record comes
        record, seat="1", action="draw", state_json="{}", version=2, intent=intent(2)
    )
    await intents.record(intent(2))
    await intents.record(intent(3))  # acknowledged, never committed
    assert [(i.interaction_id, i.done) for i in await intents.unanswered()] == [
        ("1", True),
        ("2", True),
        ("3", False),
    ]
    [entry] = await tables.open_index()
    assert (entry.id, entry.status, entry.wake_at) == (record.id, "playing", None)
    await db.close()


def test_a_public_edit_given_up_on_is_retried_with_back_off_until_one_gets_through():
    planned: list[tuple[float, Handle]] = []

    class Handle:
        cancelled = False

        def cancel(self) -> None:
            self.cancelled = True

    def schedule(delay, callback):
        planned.append((delay, Handle()))
        return planned[-1][1]

    def waiting() -> list[float]:
        return [d for d, handle in planned if not handle.cancelled]

    store = ShownStore(lambda: None, schedule=schedule)
    again = lambda: None  # noqa: E731
    for _ in range(6):  # the edit of each retry refused again
        store.retry_later(7, again)
    assert [d for d, _ in planned] == [*RETRY_SECONDS, RETRY_SECONDS[-1], RETRY_SECONDS[-1]]
    assert RETRY_SECONDS == (2.0, 5.0, 15.0, 60.0)
    assert waiting() == [RETRY_SECONDS[-1]]  # one retry waits, the latest
    store.retry_later(8, again)  # another table's retry is its own
    store.succeeded(7)  # an edit got through
    assert waiting() == [RETRY_SECONDS[0]]  # table 8's only
    store.retry_later(7, again)  # a later failure starts the back-off over
    assert planned[-1][0] == RETRY_SECONDS[0]


async def test_a_process_resolves_only_the_intents_it_recorded(db_target):
    """Shard processes share the intent log: after a restart a process answers the clicks its
    own predecessor left open, never those of another live process (which answers them)."""
    from bot.settings import Settings

    db = await open_database(db_target)
    ours = IntentsRepo(db, Settings(_env_file=None, shard_count=2, shard_ids="0").intent_origin())
    theirs = IntentsRepo(db, Settings(_env_file=None, shard_count=2, shard_ids="1").intent_origin())
    alone = IntentsRepo(db, Settings(_env_file=None).intent_origin())
    assert (ours.origin, theirs.origin, alone.origin) == ("0/2", "1/2", "")

    def intent(n: int, repo: IntentsRepo) -> Intent:
        return Intent(
            interaction_id=str(n),
            application_id="9",
            token="tok",
            table_id=0,
            seat="1",
            version=None,
            action="/play",
            locale="es",
            created_at=float(n),
            ack="thinking",
            origin=repo.origin,
        )

    for n, repo in ((1, ours), (2, theirs), (3, ours), (4, alone)):
        await repo.record(intent(n, repo))
    assert [i.interaction_id for i in await ours.unanswered()] == ["1", "3"]
    assert [i.interaction_id for i in await theirs.unanswered()] == ["2"]
    assert [i.interaction_id for i in await alone.unanswered()] == ["4"]
    assert all(i.origin == "0/2" for i in await ours.unanswered())
    await db.close()
