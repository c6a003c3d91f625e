"""What the presentation stored (``PresentedRepo``): rows upserted in few statements."""

from __future__ import annotations

from storage import open_database
from storage.presented import PresentedRepo, Shown


def _row(table_id: int, slot: str, version: int) -> Shown:
    return Shown(
        table_id=table_id,
        slot=slot,
        message_id=f"m{table_id}{slot}",
        version=version,
        state={"digest": f"{table_id}/{slot}/{version}", "older": [1, 2]},
    )


async def test_many_rows_are_upserted_in_a_few_statements_the_last_of_a_slot_standing(db_target):
    """38 rows (one slot given twice) are stored as given, over rows stored before, in a few
    multi-row statements (SQLite's executemany stepped, and handed the GIL over, once per
    row: issue 29)."""
    db = await open_database(db_target)
    repo = PresentedRepo(db)
    await repo.save([_row(t, "", 1) for t in range(1, 4)])  # stored before: updated below
    statements: list[str] = []
    if db.dialect == "sqlite":
        await db._writer.submit(
            lambda conn: conn.set_trace_callback(statements.append), transactional=False
        )
    rows = [_row(t, slot, 2) for t in range(1, 13) for slot in ("", "a", "b")]  # 36
    rows += [_row(13, "", 2), _row(1, "a", 3)]  # 38: (1, "a") given twice, the last stands
    await repo.save(rows)
    stored = {}
    for table_id in range(1, 14):
        stored.update({(table_id, s): r for s, r in (await repo.of_table(table_id)).items()})
    expected = {(r.table_id, r.slot): r for r in rows}
    assert stored == expected and len(stored) == 37
    assert stored[(1, "a")].version == 3
    if db.dialect == "sqlite":
        upserts = [s for s in statements if s.startswith("INSERT INTO presented")]
        assert len(upserts) == 3  # 37 rows: 32 + 4 + 1
    await repo.save([_row(1, "", 4)])  # one row: one statement, no transaction of its own
    assert (await repo.of_table(1))[""].version == 4
    if db.dialect == "sqlite":
        assert statements[-1].startswith("INSERT INTO presented")
        assert not any(s.startswith("BEGIN") for s in statements[-2:])
    await db.close()


async def test_a_state_orjson_refuses_is_stored_all_the_same(db_target):
    """The state's JSON is orjson's; what orjson cannot write (an integer past 64 bits) is
    written by ``json``, and both read back as they were given."""
    db = await open_database(db_target)
    repo = PresentedRepo(db)
    huge = {"older": [2**70], "digest": "d"}
    plain = {"older": [1578893930047482973], "digest": "é", "waiting": True, "image": None}
    await repo.save(
        [
            Shown(table_id=1, slot="", message_id="1", version=1, state=huge),
            Shown(table_id=1, slot="a", message_id="2", version=1, state=plain),
        ]
    )
    stored = await repo.of_table(1)
    assert (stored[""].state, stored["a"].state) == (huge, plain)
    await db.close()
