"""A game's log of its latest events: the one place every game's log is kept.

Two forms: a plain list of the latest events (``appended``; Amapatolli, Maquiavelo and Macarena
store their ``log`` so), and the chain below, cheap to extend and compact in memory, with the
version of each event (Chúpate 2, whose playouts are the longest).

A log is a chain of plain tuples. Its root is ``(packed,)``: ``packed`` holds the oldest events
in one compact JSON text (what a state loaded from storage holds: one string instead of an
object per event and per parameter). Each later event is a node ``(older, count, v, e)``: the
log before it, the number of nodes down to the root (this one included), the state version
``v`` that produced the event ``e`` (an ``Event``). Extending a log (``extend``) makes one node
per event, in constant time, sharing everything older with the old state; no event is encoded
on the engines' hot path.

The log keeps at least the ``size`` latest events and at most ``max_nodes(size)`` nodes
(``extend`` copies the latest ``size`` onto an empty root when a chain grows longer: once every
``3 * size`` events); readers (``entries``) see the latest ``size``. The nodes are shared by the
states along a game, so a longer chain costs a state no memory of its own.

Packed rows are ``[version step, code, seat, params, to]``: the version minus the previous
row's, the index of the code in the game's table of event codes (or the code itself when it is
not in it), the seat's index in the game's seats (or the seat itself, or ``null``), the list of
the parameters' values when they are the ones the table names in that order (else the params
object), and a list of seat indices (or ``null``). Values are the JSON a stored state held, so
they round-trip exactly. The packed form lives in memory only: a dumped log is a list of event
objects and a list of versions, as it always was.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import TypeAdapter

from games.core.engine import Event, Seat, event

EventLog = tuple[Any, ...]

# A game's event codes, each with the names of its parameters in the order its rules give them.
Codes = Mapping[str, tuple[str, ...]]

EMPTY_LOG: EventLog = ("",)

_EVENTS = TypeAdapter(list[Event])


def appended(log: list[Event], events: Sequence[Event], size: int) -> list[Event]:
    """A list log (the latest ``size`` events, oldest first) with ``events`` added at the end:
    a new list, ``log`` unchanged (states share it copy-on-write)."""
    return [*log, *events][-size:]


def extend(log: EventLog, version: int, events: Sequence[Event], size: int) -> EventLog:
    """``log`` with ``events`` (all produced by the state ``version``) added at the end."""
    count = log[1] if len(log) == 4 else 0
    for e in events:
        count += 1
        log = (log, count, version, e)
    if count > max_nodes(size):  # the packed part is out of reach: the latest ``size`` only
        log = _chain(_nodes(log, size), EMPTY_LOG)
    return log


def max_nodes(size: int) -> int:
    """The longest chain ``extend`` leaves (a game may append up to that without calling it)."""
    return 4 * size


def from_events(events: Iterable[Event], version: int, size: int) -> EventLog:
    """A new log of ``events``, all produced by the state ``version``."""
    return _chain([(version, e) for e in list(events)[-size:]], EMPTY_LOG)


def _nodes(log: EventLog, limit: int) -> list[tuple[int, Event]]:
    """The latest ``limit`` (or fewer) unpacked events of ``log`` with their versions, oldest
    first."""
    out: list[tuple[int, Event]] = []
    while len(log) == 4 and len(out) < limit:
        out.append((log[2], log[3]))
        log = log[0]
    out.reverse()
    return out


def _root(log: EventLog) -> EventLog:
    while len(log) == 4:
        log = log[0]
    return log


def _chain(pairs: Iterable[tuple[int, Event]], root: EventLog) -> EventLog:
    log = root
    count = 0
    for v, e in pairs:
        count += 1
        log = (log, count, v, e)
    return log


def entries(
    log: EventLog, seats: Sequence[Seat], codes: Codes, size: int
) -> list[tuple[int, Event]]:
    """The latest ``size`` events of ``log`` with their versions, oldest first."""
    recent = _nodes(log, size)
    if len(recent) == size:
        return recent
    out: list[tuple[int, Event]] = []
    packed = _root(log)[0]
    if packed:  # the unpacked part holds fewer than ``size``
        names = tuple(codes)
        v = 0
        for dv, code, seat, params, to in json.loads(packed):
            v += dv
            if isinstance(code, int):
                code = names[code]
            if isinstance(params, list):
                params = dict(zip(codes[code], params, strict=True))
            out.append((v, event(code, _seat(seats, seat), params, _seats(seats, to))))
    out.extend(recent)
    return out[-size:]


def load(
    events: Sequence[Any],
    versions: Sequence[int],
    seats: Sequence[Seat],
    codes: Codes,
    size: int,
) -> EventLog:
    """The log of a stored state's ``log`` (events, or their JSON objects) and ``log_versions``.

    Events given as objects (a state built in code) are kept as they are; events read from JSON
    are validated and packed into one compact text."""
    if len(events) != len(versions):
        raise ValueError("log and log_versions differ in length")
    if all(isinstance(e, Event) for e in events):
        return _chain(list(zip(versions, events, strict=True))[-size:], EMPTY_LOG)
    index = {s: i for i, s in enumerate(seats)}
    code_index = {c: i for i, c in enumerate(codes)}
    rows = []
    last = 0
    for v, e in list(zip(versions, events, strict=True))[-size:]:
        code, seat, params, to = _checked(e)
        keys = codes.get(code)
        rows.append(
            [
                v - last,
                code_index.get(code, code),
                None if seat is None else index.get(seat, seat),
                list(params.values()) if keys is not None and tuple(params) == keys else params,
                None if to is None else [index.get(s, s) for s in to],
            ]
        )
        last = v
    return (json.dumps(rows, separators=(",", ":"), ensure_ascii=False),) if rows else EMPTY_LOG


def dump(
    log: EventLog,
    seats: Sequence[Seat],
    codes: Codes,
    size: int,
    mode: Literal["json", "python"],
) -> tuple[list[Any], list[int]]:
    """The stored form of ``log``: its events' JSON objects and their versions."""
    pairs = entries(log, seats, codes, size)
    return _EVENTS.dump_python([e for _, e in pairs], mode=mode), [v for v, _ in pairs]


def _checked(e: Any) -> tuple[str, Seat | None, dict[str, Any], list[Seat] | None]:
    """The fields of a stored event's JSON object, refused unless they have an ``Event``'s
    types (validating into ``Event`` objects first would cost a model per event)."""
    if not isinstance(e, dict) or not e.keys() <= _FIELDS or not isinstance(e.get("code"), str):
        raise ValueError(f"not an event: {e!r}")
    seat, params, to = e.get("seat"), e.get("params", {}), e.get("to")
    if seat is not None and not isinstance(seat, str):
        raise ValueError(f"an event's seat is not a seat: {seat!r}")
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise ValueError(f"an event's params are not a mapping: {params!r}")
    if to is not None and (
        not isinstance(to, list | tuple) or not all(isinstance(s, str) for s in to)
    ):
        raise ValueError(f"an event's 'to' is not a list of seats: {to!r}")
    return e["code"], seat, params, None if to is None else list(to)


_FIELDS = frozenset(("code", "seat", "params", "to"))


def _seat(seats: Sequence[Seat], packed: int | str | None) -> Seat | None:
    return seats[packed] if isinstance(packed, int) else packed


def _seats(seats: Sequence[Seat], packed: list[int | str] | None) -> tuple[Seat, ...] | None:
    return None if packed is None else tuple(seats[i] if isinstance(i, int) else i for i in packed)
