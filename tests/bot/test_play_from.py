"""Where a player plays (bot/ui/play_from.py, issue 25): from the tables' ephemeral hands once
their last click was there, from their DMs again once they click a DM view; stored, so a
restarted bot (or another shard process) knows it too; written only when it changes."""

from __future__ import annotations

from bot.ui.play_from import REREAD_SECONDS, REWRITE_SECONDS, PlayPlaces
from storage import PlayersRepo, open_database


class Counting:
    """The real repo, its writes counted."""

    def __init__(self, repo: PlayersRepo) -> None:
        self.repo = repo
        self.writes = 0
        self.reads = 0

    async def play_place(self, user_id: str) -> bool | None:
        self.reads += 1
        return await self.repo.play_place(user_id)

    async def set_plays_from_tables(self, user_id: str, tables: bool) -> None:
        self.writes += 1
        await self.repo.set_plays_from_tables(user_id, tables)


async def test_the_mark_is_stored_written_on_change_and_cleared_by_a_dm_click(db_target):
    db = await open_database(db_target)
    try:
        repo = PlayersRepo(db)
        await repo.upsert("42", "Ana", "es-ES")
        store = Counting(repo)
        now = [0.0]
        places = PlayPlaces(lambda: store, clock=lambda: now[0])
        assert not await places.from_tables("42")  # everyone starts a DM player...
        assert await places.needs_asking("42")  # ...whose place is not known yet
        places.played("42", from_table=True)
        assert await places.from_tables("42")  # known at once...
        assert store.writes == 0  # ...stored a moment later, off the click's path
        assert not await places.needs_asking("42")
        places.played("42", from_table=True)  # unchanged: not written again
        await places.flush()
        assert store.writes == 1
        assert await places.from_tables("42")
        assert await repo.plays_from_tables("42")

        # A restarted bot reads it from the store.
        again = PlayPlaces(lambda: repo)
        assert await again.from_tables("42")

        # A click on a DM view in another process clears it; this one sees it after a while.
        again.played("42", from_table=False)
        await again.close()
        assert await places.from_tables("42")  # what this process knows, for now
        now[0] += REREAD_SECONDS + 1
        assert not await places.from_tables("42")
        places.played("42", from_table=True)  # and a later table click marks it again
        await places.flush()
        assert await repo.plays_from_tables("42")

        # A player not stored yet, and a computer seat (never a place).
        places.played("77", from_table=True)
        places.played("cpu1", from_table=True)
        await places.close()
        assert await repo.plays_from_tables("77")
        assert not await places.from_tables("cpu1")
        assert await repo.locale("42") == "es-ES"  # the player's other columns kept
    finally:
        await db.close()


async def test_a_player_is_asked_until_their_place_is_known_by_a_choice_or_a_click(db_target):
    """A new player's place is unknown (they are asked when they join); once they answered, or
    clicked a DM view or a table's hand, it is known, stored, and read back as known by a
    restarted bot; a computer seat is never asked; a player of the tables stored before the
    place was kept (migration 0010) is known."""
    db = await open_database(db_target)
    try:
        repo = PlayersRepo(db)
        await repo.upsert("1", "Ana")
        assert await repo.play_place("1") is None
        assert await repo.play_place("404") is None  # never seen at all
        places = PlayPlaces(lambda: repo)
        assert await places.needs_asking("1")
        assert not await places.needs_asking("cpu2")
        places.played("1", from_table=False)  # she chose "by DM" (or clicked a DM hand)
        assert not await places.needs_asking("1")
        await places.close()
        assert await repo.play_place("1") is False  # known: from her DMs
        again = PlayPlaces(lambda: repo)
        assert not await again.needs_asking("1")
        assert not await again.from_tables("1")
        again.played("2", from_table=True)
        await again.close()
        assert await repo.play_place("2") is True
        assert await PlayPlaces(lambda: repo).from_tables("2")
    finally:
        await db.close()


async def test_nobody_is_asked_while_the_database_is_away(db_target):
    class Away:
        async def play_place(self, user_id: str) -> bool | None:
            raise OSError("database away")

        async def set_plays_from_tables(self, user_id: str, tables: bool) -> None:
            raise OSError("database away")

    places = PlayPlaces(lambda: Away())
    assert not await places.needs_asking("5")
    assert not await places.from_tables("5")


async def test_an_explicit_choice_is_stored_at_once_and_kept_for_later_if_the_store_is_away(
    db_target,
):
    db = await open_database(db_target)
    try:
        repo = PlayersRepo(db)
        store = Counting(repo)
        places = PlayPlaces(lambda: store)
        await places.chose("9", from_table=True)
        assert store.writes == 1  # stored before the answer shows it
        assert await repo.play_place("9") is True
        assert await places.from_tables("9")

        class AwayOnce(Counting):
            away = True

            async def set_plays_from_tables(self, user_id: str, tables: bool) -> None:
                if self.away:
                    self.away = False
                    raise OSError("database away")
                await super().set_plays_from_tables(user_id, tables)

        flaky = AwayOnce(repo)
        later = PlayPlaces(lambda: flaky)
        await later.chose("9", from_table=False)  # the write fails: known here, kept
        assert not await later.from_tables("9")
        await later.close()  # the next flush stores it
        assert await repo.play_place("9") is False
        await places.chose("cpu1", from_table=True)  # a computer seat: nothing
        assert store.writes == 1
    finally:
        await db.close()


async def test_a_place_is_forgotten_once_it_would_be_written_again_anyway(db_target):
    """What this process knows of a place goes after ``REWRITE_SECONDS`` (issue 29: one entry
    per person ever met): it would be read and written again at its next use anyway. A miss
    reads the store, right."""
    db = await open_database(db_target)
    try:
        repo = PlayersRepo(db)
        now = [0.0]
        places = PlayPlaces(lambda: repo, clock=lambda: now[0])
        places.played("1", from_table=True)
        await places.flush()
        now[0] += REWRITE_SECONDS - 1
        places.played("2", from_table=False)
        assert places.known_from_tables("1") is None  # stale for reading (REREAD_SECONDS)...
        assert await places.from_tables("1")  # ...read again: kept, as of now
        now[0] += REWRITE_SECONDS
        places.played("3", from_table=True)  # a write forgets what aged meanwhile
        assert places.known_from_tables("3") is True
        assert places.known_from_tables("1") is None and places.known_from_tables("2") is None
        assert len(places._known) == 1
        await places.flush()
        assert await places.from_tables("1") and not await places.from_tables("2")
        await places.close()
    finally:
        await db.close()
