"""``KeptAtMost`` (storage/kept.py): what the bot remembers per person, of ``at_most`` people."""

from __future__ import annotations

import pytest

from storage import CollectionsRepo, PlayersRepo, open_database
from storage.kept import KeptAtMost


def test_more_entries_than_the_bound_drop_the_one_written_longest_ago():
    kept: KeptAtMost[str, int] = KeptAtMost(3)
    for n in range(5):
        kept[f"u{n}"] = n
    assert list(kept.items()) == [("u2", 2), ("u3", 3), ("u4", 4)]
    kept["u2"] = 20  # rewritten: the newest now
    kept["u5"] = 5
    assert list(kept) == ["u4", "u2", "u5"]
    assert kept.get("u2") == 20 and kept.get("u3") is None  # reads are a dict's
    with pytest.raises(ValueError):
        KeptAtMost(0)


def test_aged_entries_go_from_the_oldest_written():
    kept: KeptAtMost[str, float] = KeptAtMost(10)
    for n, at in enumerate((1.0, 2.0, 3.0, 2.5)):
        kept[f"u{n}"] = at
    kept.drop_oldest_while(lambda at: at < 2.8)
    assert list(kept) == ["u2", "u3"]  # stops at the first fresh one (written in age order)
    kept.drop_oldest_while(lambda at: True)
    assert kept == {}


async def test_a_player_written_then_forgotten_is_written_again_right(db_target):
    """``players_written`` of two people: a third pushes the first out; her next click (the
    same name) writes her row once more, and a change made meanwhile is written too."""
    db = await open_database(db_target)
    try:
        db.players_written = KeptAtMost(2)
        players = PlayersRepo(db)
        for user, name in (("1", "Ana"), ("2", "Bea"), ("3", "Cy")):
            await players.upsert(user, name, "es")
        assert len(db.players_written) == 2
        assert not players.written("1", "Ana", "es") and players.written("3", "Cy", "es")
        await players.upsert("1", "Ana María", "en")
        assert players.written("1", "Ana María", "en")
        assert len(db.players_written) == 2
        assert await players.locale("1") == "en"
        row = await db.fetchone("SELECT name FROM players WHERE user_id = ?", ("1",))
        assert row[0] == "Ana María"
    finally:
        await db.close()


async def test_ledgers_known_keep_at_most_their_bound_and_a_forgotten_one_is_asked_again(db_target):
    """``ledgers_known`` of two (user, game): a third pushes the first out; her next game's
    starter asks the database again (one write unit), which finds her ledger and grants
    nothing; known once more, asking again costs nothing."""
    db = await open_database(db_target)
    try:
        db.ledgers_known = KeptAtMost(2)
        repo = CollectionsRepo(db)
        for user in ("1", "2", "3"):
            assert await repo.ensure_starter(user, "triad", ["c1", "c2"])
        assert list(db.ledgers_known) == [("2", "triad"), ("3", "triad")]
        units = db.write_stats.units
        assert not await repo.ensure_starter("1", "triad", ["c9"])  # forgotten: asked
        assert db.write_stats.units == units + 1
        assert list(db.ledgers_known) == [("3", "triad"), ("1", "triad")]
        assert not await repo.ensure_starter("1", "triad", ["c9"])  # known again: no write
        assert db.write_stats.units == units + 1
        assert await repo.cards("1", "triad") == {"c1": 1, "c2": 1}
    finally:
        await db.close()
