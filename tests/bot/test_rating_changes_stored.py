"""The rating change of every person at a game's end (issue 31) comes from the final
transaction, is stored with the table, and is read back from storage after a restart: memory
holds what the database holds, and nothing is read again under the table lock."""

from __future__ import annotations

import pytest

from bot.service import ServiceConfig, TableService
from bot.service.ratings import INITIAL
from bot.ui.messages import rating_change_lines
from storage import RATING_CHANGES_META, RatingsRepo, TablesRepo, open_database, ordinal
from tests.bot.test_ratings import _play
from tests.bot.test_tables import RecordingListener
from tests.bot.toy_game import TOY


def _service(db) -> TableService:
    return TableService(db, {"toy": TOY}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0))


async def test_rating_changes_are_stored_by_the_final_transaction_and_survive_a_restart(
    db_target,
):
    db = await open_database(db_target)
    svc = _service(db)
    try:
        first = await _play(svc, "c1", "g1", "ana", "bea")
        second = await _play(svc, "c2", "g1", "bea", "ana")
        vs_cpu = await _play(svc, "c3", "g1", "ana", None)
    finally:
        await svc.close()
    repo, ratings = TablesRepo(db), RatingsRepo(db)
    start = ordinal(*INITIAL)
    for table in (first, second, vs_cpu):
        in_memory = table.record.meta[RATING_CHANGES_META]
        stored = (await repo.get(table.id)).meta[RATING_CHANGES_META]
        assert in_memory == stored  # memory holds what the final transaction wrote
        # The same figures as the rating history gives (before = the previous game's after).
        derived = await ratings.changes(table.id, "g1", start)
        assert stored == {u: list(pair) for u, pair in derived.items()}
    assert set(first.record.meta[RATING_CHANGES_META]) == {"ana", "bea"}
    assert set(vs_cpu.record.meta[RATING_CHANGES_META]) == {"ana"}  # a computer is not rated
    for user in ("ana", "bea"):
        before, after = second.record.meta[RATING_CHANGES_META][user]
        assert before == first.record.meta[RATING_CHANGES_META][user][1] != after
    assert first.record.meta[RATING_CHANGES_META]["ana"][0] == pytest.approx(start)
    await db.close()

    # A restart: a new process reads the finished tables from storage alone.
    db = await open_database(db_target)
    svc = _service(db)
    try:
        for table in (first, second, vs_cpu):
            again = await svc.registry.finished_table(table.id)
            assert again is not None
            assert again.record.meta[RATING_CHANGES_META] == table.record.meta[RATING_CHANGES_META]
            lines = rating_change_lines(again, str, lambda key, **p: f"{p['player']} {p['change']}")
            assert lines == rating_change_lines(
                table, str, lambda key, **p: f"{p['player']} {p['change']}"
            )
            assert lines.count("\n") == len(table.record.meta[RATING_CHANGES_META]) - 1
    finally:
        await svc.close()
        await db.close()
