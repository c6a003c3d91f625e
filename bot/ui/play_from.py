"""Where each player plays: from their DM hands, or from the tables' ephemeral "Ver mi mano"
hands (channel play).

A player whose last move was made from a table's ephemeral hand plays from the tables: they get
no DM hand at any table (not at their first turn of a game, not at its end) and the channel's
turn mention names them instead. A click on one of their DM hands makes them a DM player again.
Everyone starts as a DM player whose place is not known yet: such a player is asked once where
they play when they join a lobby (``needs_asking``; the answer is ``played``), so a new player
who plays from the channel gets no DM even at their first game. The mark is stored (``players.plays_from_tables``), so it
survives a restart, and it is global: one DM channel per user, whatever the server.

The mark is written only when it changes, as this process knows it (a couple of seconds later,
off the click's path: a bot killed in between forgets that one change), and read again from the
store once what this process knows of it is ``REREAD_SECONDS`` old: a change another shard
process wrote (a DM click reaches shard 0) is seen within that time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from bot import metrics
from bot.ui.shown import FlushLater
from storage.kept import KeptAtMost, of_people

log = logging.getLogger(__name__)

REREAD_SECONDS = 30.0  # what this process knows of a mark is read again after this
REWRITE_SECONDS = 600.0  # an unchanged mark is written again after this (other processes)
FLUSH_AFTER = 2.0  # seconds from a change to its write (off the click's path)


class PlacesStore(Protocol):
    async def play_place(self, user_id: str) -> bool | None: ...

    async def set_plays_from_tables(self, user_id: str, tables: bool) -> None: ...


class PlayPlaces:
    def __init__(
        self, store: Callable[[], PlacesStore], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._store = store
        self._clock = clock
        # user -> (plays from the tables, None: not known yet; when this process last read or
        # wrote it), for ``REWRITE_SECONDS`` (storage/kept.py): older, it is read and written
        # again at its next use anyway (a miss costs that read); it only served while the
        # database is away.
        self._known: KeptAtMost[str, tuple[bool | None, float]] = of_people()
        self._dirty: dict[str, bool] = {}  # changes not stored yet
        self._writes = FlushLater(FLUSH_AFTER, self.flush)

    async def from_tables(self, seat: str) -> bool:
        """Whether ``seat`` plays from the tables (a computer seat does not)."""
        return await self._place(seat) is True

    def known_from_tables(self, seat: str) -> bool | None:
        """``from_tables`` when what this process knows of it is fresh (read or written under
        ``REREAD_SECONDS`` ago); None when it would be read from the store."""
        if not seat.isdigit():
            return False
        known = self._known.get(seat)
        if known is None or self._clock() - known[1] >= REREAD_SECONDS:
            return None
        return known[0] is True

    async def needs_asking(self, seat: str) -> bool:
        """Whether the bot does not know yet where ``seat`` plays (they never chose, nor played
        from either place): they are asked when they join a table. False when the database is
        away (nobody is asked twice for it)."""
        return seat.isdigit() and await self._place(seat, unknown=False) is None

    async def _place(self, seat: str, unknown: bool | None = None) -> bool | None:
        """True: from the tables; False: from their DMs; None: not known yet. ``unknown`` when
        the store cannot be read and this process knows nothing."""
        if not seat.isdigit():
            return False
        known = self._known.get(seat)
        now = self._clock()
        if known is not None and now - known[1] < REREAD_SECONDS:
            return known[0]
        try:
            place = await self._store().play_place(seat)
        except Exception:  # the database is away: what this process knew
            log.warning("could not read where %s plays", seat)
            return known[0] if known is not None else unknown
        self._keep(seat, place, now)
        return place

    def played(self, seat: str, *, from_table: bool) -> None:
        """``seat`` clicked their view: a table's ephemeral hand (``from_table``) or a DM hand.
        A change is known here at once and stored ``FLUSH_AFTER`` seconds later (or at the
        listener's drain): never a write on the click's own path."""
        known, now = self._known.get(seat), self._clock()
        if not seat.isdigit():
            return
        if known is not None and known[0] is from_table and now - known[1] < REWRITE_SECONDS:
            return  # (an old mark is written again: another process may have changed it)
        self._keep(seat, from_table, now)
        self._dirty[seat] = from_table
        metrics.count("play_from.tables" if from_table else "play_from.dm")
        self._writes.schedule()

    async def chose(self, seat: str, *, from_table: bool) -> None:
        """``seat`` answered where they play (``bot/ui/place_question.py``): an explicit
        choice, stored before the answer shows it (a press that moves no game: no move waits
        for this write). If the store is away it is kept like a click's, for the next flush."""
        if not seat.isdigit():
            return
        self._keep(seat, from_table, self._clock())
        self._dirty.pop(seat, None)
        metrics.count("play_from.chose_tables" if from_table else "play_from.chose_dm")
        try:
            await self._store().set_plays_from_tables(seat, from_table)
        except Exception:
            log.warning("could not store where %s plays", seat)
            self._dirty[seat] = from_table
            self._writes.schedule()

    def _keep(self, seat: str, place: bool | None, now: float) -> None:
        """Know ``seat``'s place as of ``now``; forget what is older than ``REWRITE_SECONDS``
        (entries are kept in the order they were written: the oldest first)."""
        self._known[seat] = (place, now)
        self._known.drop_oldest_while(lambda known: now - known[1] >= REWRITE_SECONDS)

    async def flush(self) -> None:
        """Store every change not stored yet."""
        while self._dirty:
            seat, tables = self._dirty.popitem()
            try:
                await self._store().set_plays_from_tables(seat, tables)
            except Exception:  # written again on their next click
                log.warning("could not store where %s plays", seat)
                self._known.pop(seat, None)

    async def close(self) -> None:
        await self._writes.close()
