"""A table's state as the backends store it (issue 29, ``storage/stored_state.py``): SQLite keeps
a large one's JSON deflated, so a Macarena table's row stays in its leaf page; every reader gets
the JSON text back as it was written, and a row stored as text before (or by PostgreSQL, or a
small state) loads as it is."""

from __future__ import annotations

import random
import sqlite3
import zlib
from contextlib import closing

import pytest

from games.macarena import GAME as MACARENA
from storage import SeatInfo, TablesRepo, open_database
from storage.ratings import RatingsRepo
from storage.stored_state import DEFLATE_OVER, pack, unpack

SEATS = [SeatInfo(id="1", name="Ána"), SeatInfo(id="2", name="Bea"), SeatInfo(id="3", name="Ciro")]


def _macarena_states(moves: int) -> list[str]:
    """A real Macarena game's stored JSON (three players, its log grown past 40 moves: 6-9 KB,
    more than a page), move by move."""
    state = MACARENA.new([s.id for s in SEATS], "stored-state", {})
    rng, texts = random.Random(5), []
    while len(texts) <= 40 + moves and not MACARENA.is_over(state):
        to_act = sorted(s for s in MACARENA.to_act(state) if MACARENA.legal_actions(state, s))
        seat = rng.choice(to_act)
        state, _ = MACARENA.apply(state, seat, rng.choice(MACARENA.legal_actions(state, seat)))
        texts.append(MACARENA.dump_state(state))
    return texts[40:]


async def _playing(repo: TablesRepo, first_state: str, channel: str = "c1"):
    table = await repo.create(
        guild_id="g",
        channel_id=channel,
        game="macarena",
        host_id="1",
        locale="es",
        options={},
        seats=SEATS,
        seed="s",
    )
    await repo.start(table.id, SEATS, first_state, 0)
    found = await repo.get(table.id)
    assert found is not None
    return found


async def test_every_reader_gets_the_state_text_written(db_target):
    states = _macarena_states(6)
    assert all(len(s.encode()) > 4096 for s in states)  # each more than a page of JSON
    db = await open_database(db_target)
    repo = TablesRepo(db)
    table = await _playing(repo, states[0])
    assert table.state == states[0]
    for version, state in enumerate(states[1:], start=1):
        await repo.record_action(
            table, seat="1", action=f"a{version}", state_json=state, version=version
        )
        table.version = version
    fresh = await repo.get(table.id)
    assert fresh is not None and (fresh.state, fresh.version) == (states[-1], 6)
    [listed] = await repo.open_tables()
    assert listed.state == states[-1]
    # a finished table's final state, as the ratings' backfill reads it
    await repo.close(table.id, "finished")
    [(table_id, _, game, final)] = await RatingsRepo(db).unrecorded_finished()
    assert (table_id, game, final) == (table.id, "macarena", states[-1])
    await db.close()


async def test_sqlite_stores_the_state_deflated_and_postgres_as_text(db_target):
    states = _macarena_states(1)
    db = await open_database(db_target)
    repo = TablesRepo(db)
    table = await _playing(repo, states[0])
    await repo.record_action(table, seat="1", action="a", state_json=states[1], version=1)
    [stored] = await db.fetchone("SELECT state FROM tables WHERE id = ?", (table.id,))
    if db.dialect == "sqlite":
        assert isinstance(stored, bytes) and zlib.decompress(stored).decode() == states[1]
        assert len(stored) < len(states[1]) / 3
    else:
        assert stored == states[1]
    await db.close()


async def test_sqlite_stores_a_small_state_as_text(db_target):
    """A state whose row fits in a page as it is (the other games') is not deflated."""
    small = '{"seats": ["1", "2", "3"], "turn": "2", "log": []}'
    assert len(small) <= DEFLATE_OVER < len(_macarena_states(0)[0])
    db = await open_database(db_target)
    repo = TablesRepo(db)
    table = await _playing(repo, small)
    [stored] = await db.fetchone("SELECT state FROM tables WHERE id = ?", (table.id,))
    assert stored == small == table.state
    await db.close()


async def test_a_macarena_row_stays_in_its_page(tmp_path):
    """No overflow page: a move writes the table's leaf page alone (as JSON text each move
    rewrote one or two overflow pages, zeroed the old ones and changed the header page)."""
    states = _macarena_states(20)
    path = tmp_path / "b.db"
    db = await open_database(path)
    repo = TablesRepo(db)
    tables = [await _playing(repo, states[0], f"c{n}") for n in range(4)]
    for version, state in enumerate(states[1:], start=1):
        for table in tables:
            await repo.record_action(
                table, seat="1", action=f"a{version}", state_json=state, version=version
            )
            table.version = version
    await db.close()
    with closing(sqlite3.connect(path)) as conn:
        pages = dict(
            conn.execute(
                "SELECT pagetype, count(*) FROM dbstat WHERE name = 'tables' GROUP BY pagetype"
            ).fetchall()
        )
        assert "overflow" not in pages and pages["leaf"] >= 1


async def test_a_state_stored_as_text_before_loads_and_its_next_move_is_deflated(tmp_path):
    states = _macarena_states(1)
    path = tmp_path / "b.db"
    db = await open_database(path)
    repo = TablesRepo(db)
    table = await _playing(repo, states[0])
    await db.close()
    with closing(sqlite3.connect(path)) as conn:  # the row as an older version wrote it
        conn.execute("UPDATE tables SET state = ? WHERE id = ?", (states[0], table.id))
        conn.commit()
        assert conn.execute("SELECT typeof(state) FROM tables").fetchone()[0] == "text"
    db = await open_database(path)
    repo = TablesRepo(db)
    old = await repo.get(table.id)
    assert old is not None and old.state == states[0]
    await repo.record_action(old, seat="1", action="a", state_json=states[1], version=1)
    [kind] = await db.fetchone("SELECT typeof(state) FROM tables WHERE id = ?", (table.id,))
    assert kind == "blob"
    fresh = await repo.get(table.id)
    assert fresh is not None and fresh.state == states[1]
    await db.close()


def test_a_damaged_or_unknown_stored_state_is_refused():
    text = _macarena_states(0)[0]
    packed = pack(text)
    assert unpack(packed) == text and unpack(text) == text and unpack(None) is None
    damaged = packed[:100] + bytes([packed[100] ^ 0xFF]) + packed[101:]
    with pytest.raises(ValueError):
        unpack(damaged)
    with pytest.raises(ValueError):
        unpack(b"{" + text.encode()[1:])  # not a zlib stream
    with pytest.raises(ValueError):
        unpack(b"")
