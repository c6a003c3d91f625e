"""Waiting seats' hands: a hand (DM or "Ver mi mano") whose player has nothing to act on follows
the table a little late, one edit for the changes meanwhile (``WaitingHands.held_back``), and
why each hand is shown anew, counted (``WaitingHands.shown``: ``bench/load.py`` prints it)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from bot import metrics
from bot.ui.shown import Cancellable, Schedule
from bot.ui.view_kit import Slot, SlotSet, ViewKit

# A waiting seat's hand (DM or "Ver mi mano": not their turn before nor after a change) shows
# the table this many seconds late at most; see ``WaitingHands.held_back``.
WAITING_EVERY = 2.0


@dataclass(eq=False)
class _Held:
    """A hand held back: its slot, the timer that ends its wait, whether that has come."""

    slot: Slot
    timer: Cancellable | None = None
    due: bool = False


KINDS = ("dm", "hand")  # the hands followed: a seat's DM hand, its live "Ver mi mano"


class WaitingHands:
    """The hands held back, by ("dm" or "hand", table, seat), and when each was last shown."""

    def __init__(self, kit: ViewKit, hands: SlotSet[tuple[int, str]] | None = None) -> None:
        self.k = kit
        self._hands = hands  # the live "Ver mi mano" hands' slots, by (table, seat)
        self.every = WAITING_EVERY
        self.schedule: Schedule = _call_later  # the timer a held-back hand waits on
        self._held: dict[tuple[str, int, str], _Held] = {}
        # When each hand was last shown anew (kit's clock): the gaps ``shown`` observes
        self._shown_at: dict[tuple[str, int, str], float] = {}
        self._unheld = 0  # drains under way (``unheld``): nothing is held back
        kit.ends.subscribe(self.forget_table)

    def held_back(
        self, kind: str, table_id: int, seat: str, slot: Slot, waiting: bool, finished: bool
    ) -> bool:
        """Whether this change of a waiting seat's hand (``kind``: "dm" or "hand") waits.

        Product decision (issue 29: a request costs the loop ~0.7 ms; session 18 measured
        waiting seats' hands edited 0.7-0.9 times per move, a median 1-2.7 s apart): a hand
        whose player has nothing to act on, before (it does not show "your turn") and after
        the change, shows the table ``every`` seconds late at most: the first change
        it has not shown starts the wait, the changes meanwhile go out with it as ONE edit of
        the newest (a trailing edit: the hand always ends showing the latest state), and a
        wait that ends with their turn costs nothing (the computers' moves before it, each a
        second apart, are never shown one by one). Never held: a change that makes it their
        turn (the next player's view goes at once, and ends the wait), a hand that shows
        their turn (the mover's, brought up to date at once), the game's end, a DM hand
        never posted. A click's answer on a held hand ends its wait (``answered``); a view
        step clicked on it (Macarena's "Ver mi colección") is taken at the table's version,
        not refused as stale (``PlayCog._past_hold``)."""
        key = (kind, table_id, seat)
        held = self._held.get(key)
        if held is not None and held.due:
            del self._held[key]  # its wait is over: this change is shown
            return False
        if waiting or slot.waiting or finished or self.every <= 0 or self._unheld:
            return False  # (a wait under way ends when the hand is shown: ``shown``)
        if kind == "dm" and slot.message_id is None:
            return False
        if held is None:
            held = self._held[key] = _Held(slot)
            held.timer = self.schedule(self.every, lambda: self._show(key))
        metrics.counters[f"{kind}_held_back"] += 1  # (no ``count`` call: most moves)
        return True

    def waits(self, kind: str, table_id: int, seat: str, slot: Slot, waiting: bool) -> bool:
        """Whether a change of a game going on is held back by a wait under way (its timer
        set, not due): ``held_back`` would say so and change nothing (counted as it does)."""
        held = self._held.get((kind, table_id, seat))
        if held is None or held.slot is not slot or held.due or waiting or slot.waiting:
            return False
        if self.every <= 0 or self._unheld or (kind == "dm" and slot.message_id is None):
            return False
        metrics.counters[f"{kind}_held_back"] += 1
        return True

    def holds_any(self, kind: str, table_id: int, seat: str) -> bool:
        """Whether ``seat``'s hand (``kind``) has a wait, under way or due."""
        return (kind, table_id, seat) in self._held

    def holds(self, kind: str, table_id: int, seat: str, message_id: int | None) -> bool:
        """Whether ``message_id`` is ``seat``'s hand (``kind``), held back now: it shows an
        older version than the table's by the hold alone, not by its player's doing."""
        held = self._held.get((kind, table_id, seat))
        return held is not None and message_id is not None and held.slot.message_id == message_id

    def _show(self, key: tuple[str, int, str]) -> None:
        """A held-back hand's wait is over: its slot shows its latest change."""
        held = self._held.get(key)
        if held is not None and not held.due:
            held.due = True
            if held.slot.work is not None:
                self.k.kick(held.slot, held.slot.work)

    @contextlib.contextmanager
    def unheld(self) -> Iterator[None]:
        """While draining (tests, shutdown): every held-back hand shows its latest change now,
        and no change is held back."""
        self._unheld += 1
        try:
            held, self._held = self._held, {}
            for each in held.values():
                if each.timer is not None:
                    each.timer.cancel()
                if each.slot.work is not None:
                    self.k.kick(each.slot, each.slot.work)
            yield
        finally:
            self._unheld -= 1

    def forget_table(self, table_id: int, seats: Sequence[str]) -> None:
        """``table_id`` is over (``bot/ui/table_ends.py``): none of its hands is followed."""
        for seat in seats:
            self.forget(table_id, seat)

    def forget(self, table_id: int, seat: str) -> None:
        """``seat``'s hands at ``table_id`` are no longer followed (its keys, looked up: not a
        walk of every table's hands, issue 29)."""
        for kind in KINDS:
            self._end_wait((kind, table_id, seat))
            self._shown_at.pop((kind, table_id, seat), None)

    def shown(
        self,
        kind: str,
        table_id: int,
        seat: str,
        finished: bool,
        waiting: bool,
        became: bool,
        was_waiting: bool,
    ) -> None:
        """``seat``'s hand (``kind``: "dm" or "hand") is shown anew: counted by why (``why.*``,
        printed per move by ``bench/load.py``), a waiting seat's edit with the seconds since
        the hand's previous one (``gap_<kind>_waiting``, ms)."""
        purpose = _purpose(finished, waiting, became, was_waiting)
        metrics.counters[f"why.{kind}_{purpose}"] += 1  # (no ``count`` call)
        now = self.k.clock()
        key = (kind, table_id, seat)
        if purpose == "waiting" and (last := self._shown_at.get(key)) is not None:
            metrics.observe(f"gap_{kind}_waiting", (now - last) * 1000)
        self._end_wait(key)  # shown already (their turn came): nothing left to show later
        if finished:
            self._shown_at.pop(key, None)  # its last edit: nothing follows
        else:
            self._shown_at[key] = now

    def answered(self, kind: str, table_id: int, seat: str) -> None:
        """``seat``'s hand was shown anew by a click's answer or a new message (not counted
        here: ``why.dm_answer_click``, ``why.dm_post``): it shows the newest, so a wait under
        way ends (its timer would only edit it again, e.g. undo a view step just answered)."""
        key = (kind, table_id, seat)
        self._shown_at[key] = self.k.clock()
        self._end_wait(key)

    def hand_shown(self, table_id: int, seat: str, waiting: bool) -> None:
        """``seat``'s live "Ver mi mano" hand was shown anew by a click's or a press's answer,
        ``waiting`` (their turn) or not: the next change is judged by what it shows now (a
        mover's answer shows the turn passed: the changes after it wait like any waiting
        hand's, ``held_back``; they were edited at once, "turn_passed"), and a wait under way
        ends."""
        slot = self._hands.get((table_id, seat)) if self._hands is not None else None
        if slot is not None:
            slot.waiting = waiting
        self.answered("hand", table_id, seat)

    def _end_wait(self, key: tuple[str, int, str]) -> None:
        """The hand ``key`` no longer waits: its timer, if any, is cancelled."""
        held = self._held.pop(key, None)
        if held is not None and held.timer is not None:
            held.timer.cancel()


def _call_later(delay: float, callback: Callable[[], None]) -> Cancellable:
    return asyncio.get_running_loop().call_later(delay, callback)


def _purpose(finished: bool, waiting: bool, became: bool, was_waiting: bool) -> str:
    """Why a hand is edited (the counter ``bench/load.py`` prints per move)."""
    if finished:
        return "end"
    if became:
        return "next"  # it became their turn
    if waiting:
        return "turn"  # still their turn (another step of it)
    return "turn_passed" if was_waiting else "waiting"
