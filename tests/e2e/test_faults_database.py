"""The database goes away under the bot (issue 27), end to end on the fake Discord: while the
database cannot take writes every click is answered "couldn't save, try again" (through the
catalogues), nothing that was not committed is shown, what the bot can read it still serves,
and the same click succeeds once the database is back, without a restart.

The SQLite file is made read-only with ``PRAGMA query_only`` on the writer's connection (SQLite
then refuses every write with SQLITE_READONLY, as on a file system remounted read-only; the full
disk and the PostgreSQL restart are in ``tests/storage/test_faults.py`` and ``bench/faults.py``).
"""

from __future__ import annotations

import logging

from tests.e2e.amapatolli_driver import start_game
from tests.e2e.driver_kit import take
from tests.message_text import read_card

SEED = "e2e-0063"
NOT_SAVED = "No se pudo guardar"


def _writer_pragma(mesa, sql: str):
    db = mesa.bot.db
    return db._writer.submit(lambda conn: conn.execute(sql).fetchall(), transactional=False)


async def test_a_read_only_database_answers_every_click_shows_nothing_unsaved_and_recovers(
    fake_discord, mesa, caplog
):
    caplog.set_level(logging.INFO)
    fake = fake_discord
    mesa.seed = SEED
    players = [fake.user(n) for n in ("alice", "bob", "carol")]
    table = await start_game(fake, players, seed=SEED)
    version = table.version()
    seat, action = table.oracle.next_move()
    actor = table.by_seat[seat]
    offers = await table.private_offers(actor, version)
    dms_before = {p.name: len(p.dms()) for p in players}

    await _writer_pragma(mesa, "PRAGMA query_only = ON")
    for attempt in range(3):  # every click answered, none applied
        handle = await take(actor, offers[action])
        await handle.acknowledged()
        await fake.wait_until(
            lambda n=attempt + 1: sum(NOT_SAVED in m.text for m in actor.ephemerals()) >= n,
            what="the 'couldn't save' answer",
        )
    await fake.settle()
    assert table.version() == version  # nothing unsaved shown: public message unchanged
    assert mesa.bot.tables.registry.get(table.table_id).version == version  # nor held in memory
    assert {p.name: len(p.dms()) for p in players} == dms_before  # no private view moved on
    # Reads are still served: another player's hand, and a slash command that reads.
    other = next(p for p in players if p is not actor)
    view = await table.show_hand(other, version)
    assert read_card(view) is not None
    profile = await other.slash("profile")
    assert profile is not None

    await _writer_pragma(mesa, "PRAGMA query_only = OFF")  # the database is back
    await (await take(actor, offers[action])).acknowledged()
    table.oracle.apply(seat, action)
    await table.wait_version(version + 1)
    assert sum(NOT_SAVED in m.text for m in actor.ephemerals()) == 3
    # The operator's log: the outage in one line and its end in another, no traceback.
    await mesa.bot.listener.drain()
    told = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [f"{r.name}: {r.getMessage()}" for r in told if r.exc_info]
    said = [r.getMessage() for r in told if r.name == "storage.outage"]
    assert len(said) == 2 and "available again" in said[1], said
