"""A game's log of its latest events, cheap to extend and compact in memory.

A log is a plain tuple ``(packed, v1, e1, v2, e2, ...)``: ``packed`` holds the oldest events in
one compact JSON text (what a state loaded from storage holds: one string instead of an object
per event and per parameter), then each later event ``e`` (an ``Event``) follows the state
version ``v`` it produced. Extending a log (``extend``) concatenates a tuple, sharing the events
with the old state; no event is encoded on the engines' hot path.

The log keeps at least the ``size`` latest events and at most ``2 * size`` (``extend`` drops the
older half at once); readers (``entries``) see the latest ``size``.

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


def extend(log: EventLog, version: int, events: Sequence[Event], size: int) -> EventLog:
    """``log`` with ``events`` (all produced by the state ``version``) added at the end."""
    if len(events) == 1:
        out = log + (version, events[0])
    else:
        flat: list[Any] = []
        for e in events:
            flat += (version, e)
        out = log + tuple(flat)
    if len(out) > 4 * size:  # over 2 * size events unpacked: the packed part is out of reach
        out = ("", *out[-2 * size :])
    return out


def from_events(events: Iterable[Event], version: int, size: int) -> EventLog:
    """A new log of ``events``, all produced by the state ``version``."""
    flat: list[Any] = [""]
    for e in list(events)[-size:]:
        flat += (version, e)
    return tuple(flat)


def entries(
    log: EventLog, seats: Sequence[Seat], codes: Codes, size: int
) -> list[tuple[int, Event]]:
    """The latest ``size`` events of ``log`` with their versions, oldest first."""
    out: list[tuple[int, Event]] = []
    packed = log[0]
    if packed and len(log) < 2 * size + 1:  # the unpacked part holds fewer than ``size``
        names = tuple(codes)
        v = 0
        for dv, code, seat, params, to in json.loads(packed):
            v += dv
            if isinstance(code, int):
                code = names[code]
            if isinstance(params, list):
                params = dict(zip(codes[code], params, strict=True))
            out.append((v, event(code, _seat(seats, seat), params, _seats(seats, to))))
    out.extend(zip(log[1::2], log[2::2], strict=True))
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
        flat: list[Any] = [""]
        for v, e in list(zip(versions, events, strict=True))[-size:]:
            flat += (v, e)
        return tuple(flat)
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
