"""The one moment the presentation forgets a table: once it is over (its game finished, or it
was closed) and its last views are out. Everything that keeps entries by table id or by (table,
seat) subscribes here (``TableEnds.subscribe``), so that no part keeps a finished game in memory
(issue 29: at 1,000 busy tables, 4 games end a second) and no part is forgotten by a list of
scattered pops. The listener tells it (``bot/ui/listener.py``), once per table.

A click on a message of a table that is over still works: it meets the table service, which
says the table is over (``TableRegistry.why_gone``); nothing kept here is needed for that."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

log = logging.getLogger(__name__)

# What a holder forgets of a table that is over: (table id, every seat it had).
Forget = Callable[[int, Sequence[str]], None]


class TableEnds:
    def __init__(self) -> None:
        self._forgetters: list[Forget] = []

    def subscribe(self, forget: Forget) -> None:
        self._forgetters.append(forget)

    def unsubscribe(self, forget: Forget) -> None:
        if forget in self._forgetters:
            self._forgetters.remove(forget)

    def over(self, table_id: int, seats: Sequence[str]) -> None:
        """``table_id`` is over and its last views are out: every holder forgets it."""
        for forget in list(self._forgetters):
            try:
                forget(table_id, seats)
            except Exception:  # one holder's bug must not keep the others' entries
                log.exception("forgetting table %s failed", table_id)
