import pytest

from storage import (
    CardNotHeld,
    CardTransfer,
    CollectionsRepo,
    SeatInfo,
    StandingDelta,
    StandingsRepo,
    TablesRepo,
    open_database,
)


async def _playing_table(db):
    repo = TablesRepo(db)
    table = await repo.create(
        guild_id="g",
        channel_id="c",
        game="triad",
        host_id="a",
        locale="es",
        options={},
        seats=[SeatInfo(id="a", name="A"), SeatInfo(id="b", name="B")],
        seed="s",
    )
    await repo.start(table.id, table.seats, "{}", 0)
    return repo, await repo.get(table.id)


async def test_a_starter_asked_for_again_costs_no_write_and_another_process_still_sees_it(
    db_target,
):
    """Issue 29: every Triad game start asks for the starter; once a user's ledger is known
    (granted or found), asking again writes nothing. A process that has not seen it yet (a
    restart, another shard) asks the database, which still refuses a second grant."""
    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    assert await repo.ensure_starter("a", "triad", ["c1", "c2"])
    units = db.write_stats.units
    assert not await repo.ensure_starter("a", "triad", ["c9"])
    assert db.write_stats.units == units
    assert await repo.ensure_starter("b", "triad", ["c3"])  # another user: a write of its own
    assert db.write_stats.units == units + 1
    await db.close()
    again = await open_database(db_target)
    repo = CollectionsRepo(again)
    assert not await repo.ensure_starter("a", "triad", ["c9"])  # the database decided
    units = again.write_stats.units
    assert not await repo.ensure_starter("a", "triad", ["c9"])
    assert again.write_stats.units == units
    assert await repo.cards("a", "triad") == {"c1": 1, "c2": 1}
    await again.close()


async def _ledger_matches_counts(repo, user):
    ledger = await repo.ledger(user, "triad")
    totals = {}
    for row in ledger:
        totals[row.card_id] = totals.get(row.card_id, 0) + row.delta
    assert {k: v for k, v in totals.items() if v} == await repo.cards(user, "triad")


async def test_starter_once_and_top_up(db_target):
    db = await open_database(db_target)
    repo = CollectionsRepo(db)
    assert await repo.ensure_starter("a", "triad", ["c1", "c1", "c2"])
    assert not await repo.ensure_starter("a", "triad", ["c9"])
    assert await repo.cards("a", "triad") == {"c1": 2, "c2": 1}
    assert await repo.top_up("a", "triad", 5, ["c3", "c4", "c5"]) == ["c3", "c4"]
    assert await repo.top_up("a", "triad", 5, ["c3"]) == []
    await _ledger_matches_counts(repo, "a")
    await db.close()


async def test_payout_lands_with_the_final_action_or_not_at_all(db_target):
    db = await open_database(db_target)
    coll = CollectionsRepo(db)
    await coll.grant("a", "triad", ["c1", "c2"], "starter")
    await coll.grant("b", "triad", ["c3"], "starter")
    tables, table = await _playing_table(db)
    # b does not hold c9: the whole final write fails, the game is not finished.
    with pytest.raises(CardNotHeld):
        await tables.record_action(
            table,
            seat="a",
            action="x",
            state_json='{"end": 1}',
            version=1,
            finished=True,
            standings=[StandingDelta(user_id="a", won=1)],
            transfers=[
                CardTransfer(card_id="c3", from_user="b", to_user="a"),
                CardTransfer(card_id="c9", from_user="b", to_user="a"),
            ],
        )
    assert (await tables.get(table.id)).status == "playing"
    assert await tables.actions(table.id) == []
    assert await coll.cards("b", "triad") == {"c3": 1}
    assert await StandingsRepo(db).leaderboard("g", "triad") == []
    await tables.record_action(
        table,
        seat="a",
        action="x",
        state_json='{"end": 1}',
        version=1,
        finished=True,
        standings=[
            StandingDelta(user_id="a", won=1, stats={"cards_won": 1}),
            StandingDelta(user_id="b"),
        ],
        transfers=[
            CardTransfer(card_id="c3", from_user="b", to_user="a"),
            CardTransfer(card_id="c2", from_user="a", to_user=None),
        ],  # to the computer
    )
    assert await coll.cards("a", "triad") == {"c1": 1, "c3": 1}
    assert await coll.cards("b", "triad") == {}
    for user in ("a", "b"):
        await _ledger_matches_counts(coll, user)
    assert [r.reason for r in await coll.ledger("b", "triad")] == ["starter", "payout"]
    standings = StandingsRepo(db)
    assert await standings.stat_board("g", "triad", "cards_won") == [("a", 1)]
    assert await standings.stats_of("g", "a", "triad") == {"cards_won": 1}
    assert await standings.stat_names("g", "triad") == ["cards_won"]
    assert await standings.stat_names("g", "macarena") == []
    await db.close()


async def test_unheld_cards_can_be_skipped_instead_of_failing(db_target):
    db = await open_database(db_target)
    coll = CollectionsRepo(db)
    await coll.grant("b", "triad", ["c3"], "starter")
    tables, table = await _playing_table(db)
    await tables.record_action(
        table,
        seat="a",
        action="x",
        state_json="{}",
        version=1,
        finished=True,
        transfers=[
            CardTransfer(card_id="c3", from_user="b", to_user="a"),
            CardTransfer(card_id="c9", from_user="b", to_user="a"),
        ],
        skip_unheld_cards=True,
    )
    assert await coll.cards("a", "triad") == {"c3": 1}
    assert await coll.cards("b", "triad") == {}
    await _ledger_matches_counts(coll, "a")
    await db.close()
