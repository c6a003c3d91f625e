"""Replays through the table service: the public view at every version, checked against the
stored final state; a game whose stored end no longer matches says so."""

from __future__ import annotations

import pytest

from bot.errors import TableError
from bot.service import ServiceConfig, TableService
from storage import open_database
from tests.bot.test_ratings import _play
from tests.bot.test_tables import RecordingListener
from tests.bot.toy_game import TOY


@pytest.fixture
async def service(db_target):
    db = await open_database(db_target)
    svc = TableService(db, {"toy": TOY}, RecordingListener(), ServiceConfig(cpu_delay_seconds=0))
    yield db, svc
    await svc.close()
    await db.close()


async def test_replay_views_are_the_public_views_and_match_the_stored_end(service):
    db, svc = service
    table = await _play(svc, "c1", "g1", "ana", "bea")
    record, result = await svc.replays.replay_views(table.id)
    assert result.matches and result.failed_at is None
    assert [v.version for v in result.views] == list(range(record.version + 1))
    assert all(v.seat is None for v in result.views)  # public views only
    assert result.views[-1] == TOY.view(TOY.load_state(record.state), None)


async def test_a_game_whose_rules_changed_is_reported_not_replayable(service):
    db, svc = service
    table = await _play(svc, "c1", "g1", "ana", "bea")

    def other_rules(conn):  # as if the deal changed: the log now leads elsewhere
        conn.execute("UPDATE tables SET seed = 'another-seed' WHERE id = ?", (table.id,))

    await db.write(other_rules)
    _, result = await svc.replays.replay_views(table.id)
    assert not result.matches

    def bad_log(conn):  # an action this game no longer accepts
        conn.execute(
            "UPDATE actions SET action = 't.9' WHERE table_id = ? AND version = 2", (table.id,)
        )

    await db.write(bad_log)
    _, result = await svc.replays.replay_views(table.id)
    assert result.failed_at == 2 and not result.matches


async def test_only_finished_tables_replay(service):
    _, svc = service
    table = await svc.lobby.open(
        guild_id="g", channel_id="c", game_key="toy", host_id="h", host_name="H", locale="es"
    )
    with pytest.raises(TableError):
        await svc.replays.replay_views(table.id)
