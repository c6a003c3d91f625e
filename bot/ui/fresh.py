"""Long games (issue 28): Discord limits edits of messages older than an hour (error 30046,
"Maximum number of edits to messages older than 1 hour reached"), so a table message that old is
replaced by a fresh one instead of edited, at once when Discord answers 30046 and before that
when the bot has known it about ``FRESH_SECONDS``. The old message stays where it was (it cannot
be edited): its buttons answer "this table moved: <link>" (``bot/ui/items.py``).

In memory only: after a restart every table message counts as seen from then on, and a click on
an old message acts on its table as before (it still names the table)."""

from __future__ import annotations

from collections.abc import Callable

FRESH_SECONDS = 55 * 60.0  # a little under Discord's hour
OLD_MESSAGE_EDITS = 30046


class TableMessageAges:
    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._seen: dict[str, float] = {}  # message id -> when the bot first knew it
        self._moved: dict[str, int] = {}  # replaced message id -> its table

    def posted(self, message_id: str) -> None:
        self._seen[message_id] = self._clock()

    def too_old(self, message_id: str) -> bool:
        """Whether the message is about an hour old: better posted afresh than edited."""
        first = self._seen.setdefault(message_id, self._clock())
        return self._clock() - first >= FRESH_SECONDS

    def moved(self, message_id: str, table_id: int) -> None:
        """``message_id`` no longer shows ``table_id``: a fresh message does."""
        self._seen.pop(message_id, None)
        self._moved[message_id] = table_id

    def moved_table(self, message_id: int | None) -> int | None:
        """The table a click's message used to show, if it was replaced."""
        return None if message_id is None else self._moved.get(str(message_id))
