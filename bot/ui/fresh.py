"""Long games (issue 28): Discord limits edits of messages older than an hour (error 30046,
"Maximum number of edits to messages older than 1 hour reached"), so a table message that old is
replaced by a fresh one instead of edited, at once when Discord answers 30046 and before that
when the bot has known it about ``FRESH_SECONDS``. The old message stays where it was (it cannot
be edited): its buttons answer "this table moved: <link>" (``bot/ui/items.py``).

In memory only: after a restart every table message counts as seen from then on, and a click on
an old message acts on its table as before (it still names the table). Entries are kept per
table and only while it is open: a table shows one message at a time (a newer one replaces the
entry of the one before), and a table's last word forgets the table (``ended``), so the map does
not grow with the games played."""

from __future__ import annotations

from collections.abc import Callable

FRESH_SECONDS = 55 * 60.0  # a little under Discord's hour
OLD_MESSAGE_EDITS = 30046


class TableMessageAges:
    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._seen: dict[int, tuple[str, float]] = {}  # table -> its message, when first known
        self._moved: dict[str, int] = {}  # replaced message id -> its table

    def posted(self, message_id: str, table_id: int) -> None:
        """``table_id`` shows ``message_id`` now (posted just now)."""
        self._seen[table_id] = (message_id, self._clock())

    def too_old(self, message_id: str, table_id: int) -> bool:
        """Whether the message is about an hour old: better posted afresh than edited."""
        seen = self._seen.get(table_id)
        if seen is None or seen[0] != message_id:  # first known now (e.g. after a restart)
            seen = self._seen[table_id] = (message_id, self._clock())
        return self._clock() - seen[1] >= FRESH_SECONDS

    def moved(self, message_id: str, table_id: int) -> None:
        """``message_id`` no longer shows ``table_id``: a fresh message does."""
        if (self._seen.get(table_id) or ("",))[0] == message_id:
            del self._seen[table_id]
        self._moved[message_id] = table_id

    def moved_table(self, message_id: int | None) -> int | None:
        """The table a click's message used to show, if it was replaced."""
        return None if message_id is None else self._moved.get(str(message_id))

    def ended(self, table_id: int) -> None:
        """The table showed its last word (finished or closed): nothing of it is kept. Its old
        messages' buttons then meet a table that is over, and say so."""
        self._seen.pop(table_id, None)
        for message_id in [m for m, t in self._moved.items() if t == table_id]:
            del self._moved[message_id]

    def __len__(self) -> int:
        """Entries kept (messages known and messages moved): bounded by the open tables."""
        return len(self._seen) + len(self._moved)
