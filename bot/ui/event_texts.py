"""A game's event texts, each written once: the public message and every seat's hand show the
latest events again at every move (up to six each), and all but one or two of them were
written for the previous move already (issue 29: ~0.08 ms of the loop's CPU per move)."""

from __future__ import annotations

from collections.abc import Callable

from games.core import Event

SeatNames = Callable[[str | None], str]
Writer = Callable[[Event, SeatNames, Callable[..., str]], "str | None"]

# Texts kept per game: a busy bot's recent events (a table shows six, and a hand's private
# ones: ~1,600 for 200 tables of a game) with room to spare, ~1.6 MB; the oldest written goes
# first.
KEPT = 4096


class EventTexts:
    """``write(event, names, tr)`` (a presenter's ``event_text``), kept by the event (the very
    object: a state's log shares its events with the next state's) and the language, and
    reused while every seat name the text asked for reads the same (a seat taken over by the
    computer is named anew)."""

    def __init__(self, write: Writer, kept: int = KEPT) -> None:
        self._write = write
        self._kept = kept
        # (id of the event, locale) -> (the event, the names its text asked for, the text)
        self._texts: dict[
            tuple[int, str], tuple[Event, tuple[tuple[str | None, str], ...], str | None]
        ] = {}

    def text(self, event: Event, names: SeatNames, tr: Callable[..., str]) -> str | None:
        locale = getattr(tr, "locale", None)
        if locale is None:  # a translator with no language of its own: nothing to key it by
            return self._write(event, names, tr)
        key = (id(event), locale)
        kept = self._texts.get(key)
        # (the entry holds the event: its id is no other object's while it is kept)
        if kept is not None and kept[0] is event and all(names(s) == n for s, n in kept[1]):
            return kept[2]
        asked: dict[str | None, str] = {}

        def naming(seat: str | None) -> str:
            name = asked[seat] = names(seat)
            return name

        text = self._write(event, naming, tr)
        texts = self._texts
        if kept is None and len(texts) >= self._kept:
            del texts[next(iter(texts))]  # the oldest written
        texts[key] = (event, tuple(asked.items()), text)
        return text
