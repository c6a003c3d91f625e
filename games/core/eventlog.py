"""A game's log of its latest events: the one form every game's log has (docs/architecture.md).

Every state keeps the latest ``log_size`` events with the state version each produced (the
version of the state the move led to; ``new``'s events have version 0). Stored, a log is two
lists of the state's JSON: ``log`` (the event objects, oldest first) and ``log_versions``. In
memory it is the chain below, cheap to extend and compact. Every pydantic state subclasses
``LoggedState`` (Chúpate 2's slotted state reads its log through the same ``LogReader``), and
the rules add a move's events with ``add_to_log`` (Chúpate 2 builds the same nodes inline).

Rows stored before every game kept versions (Amapatolli, Maquiavelo and Macarena until session
11) hold ``log`` without ``log_versions``: they load with the version ``UNKNOWN_VERSION`` (-1)
for each of those events, which stays with them (it is stored as -1), is older than every move
(``events_since``) and matches any version when a replay compares its end with a stored one
(``Game.same_end``). Rows stored without any log (Triple Triad until session 11) load with an
empty one. Rows stored before the five games shared their event codes (session 12: one code per
shared event, docs/architecture.md "Events") load with today's codes: each state names its old
codes in ``log_old_codes`` and ``load`` renames them (``renamed_code``).

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
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import orjson
from pydantic import Field, SkipValidation, computed_field, model_validator

from games.core.engine import UNKNOWN_VERSION, Event, GameState, Seat, event
from games.core.statejson import writer

EventLog = tuple[Any, ...]

# A game's event codes, each with the names of its parameters in the order its rules give them.
Codes = Mapping[str, tuple[str, ...]]

# A game's former event codes and today's: an old code that stood for two events is mapped to a
# pair (today's code of its public event, today's code of its private one: ``to`` set).
OldCodes = Mapping[str, str | tuple[str, str]]

EMPTY_LOG: EventLog = ("",)


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


def renamed_code(code: str, private: bool, old_codes: OldCodes) -> str:
    """Today's code of an event stored as ``code`` (``private``: it had a ``to``)."""
    new = old_codes.get(code)
    if new is None:
        return code
    if isinstance(new, tuple):
        return new[1] if private else new[0]
    return new


def renamed(stored: Mapping[str, Any], old_codes: OldCodes) -> dict[str, Any]:
    """A stored event's JSON object with today's code (``old_codes``: the game's former codes)."""
    out = dict(stored)
    out["code"] = renamed_code(stored["code"], stored.get("to") is not None, old_codes)
    return out


def _nodes(log: EventLog, limit: int) -> list[tuple[int, Event]]:
    """The latest ``limit`` (or fewer) unpacked events of ``log`` with their versions, oldest
    first."""
    if len(log) != 4:
        return []
    # A node counts the nodes down to the root: the list is sized once and filled from its end
    # (no length checks per node; every view and every stored dump reads the log).
    n = log[1] if log[1] < limit else limit
    out: list[Any] = [None] * n
    for i in range(n - 1, -1, -1):
        out[i] = (log[2], log[3])
        log = log[0]
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
    old_codes: OldCodes | None = None,
) -> EventLog:
    """The log of a stored state's ``log`` (events, or their JSON objects) and ``log_versions``.

    Events given as objects (a state built in code) are kept as they are; events read from JSON
    are validated, given today's codes (``old_codes``: the game's former ones) and packed into
    one compact text."""
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
        if old_codes:
            code = renamed_code(code, to is not None, old_codes)
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


# The stored form of a log: the two JSON fields ``stored_json`` writes itself.
_LOG_FIELDS = {"log", "log_versions"}


def stored_json(state: Any) -> str:
    """A logged state's stored JSON (``Game.dump_state``), the text its ``model_dump_json``
    writes. Its log and the log's versions are written by orjson (pydantic calls a Python
    serializer per event and writes its dict by inference), each event encoded once
    (``LOG_DUMPS``: a move's dump reuses its previous state's); its fields by pydantic, or by
    orjson for a state class that asks for it (``dump_by_orjson``, ``games.core.statejson``:
    Macarena's cards, Chúpate 2's slotted state). The text is pydantic's either way (the tests
    compare every state of random games). A state without a log, or a value orjson does not
    write (a set, a non-string key, a huge int), is written by pydantic alone."""
    dump = state.model_dump_json
    if not isinstance(state, LogReader):
        return str(dump())
    try:
        log, versions = LOG_DUMPS.log_bytes(state)
        if state.dump_by_orjson:
            fields = writer(type(state))
            if fields.usable:
                out = fields.fields(state)
                out["log"], out["log_versions"] = orjson.Fragment(log), orjson.Fragment(versions)
                return orjson.dumps(out).decode()
    except TypeError:  # orjson.JSONEncodeError
        return str(dump())
    text = str(dump(exclude=_LOG_FIELDS))
    return f'{text[:-1]},"log":{log.decode()},"log_versions":{versions.decode()}}}'


def _event_json(e: Event) -> bytes:
    # A right-sized copy of orjson's bytes, which ``LOG_DUMPS`` keeps: orjson (3.12 on) returns
    # its whole buffer, 4 KB at least for an event's ~100 bytes (its resize at the end does
    # nothing), so 2,048 logs held ~58 MB at 1,000 tables (session 24). A two-part join
    # copies (~0.25 us an event; ``bytes(memoryview(...))`` takes twice that).
    return b"".join((orjson.dumps({"code": e[0], "seat": e[1], "params": e[2], "to": e[3]}), b""))


class LogDumps:
    """The JSON of the latest logs dumped, by their newest node, at most ``max_bytes`` of
    encoded events (the least recently dumped dropped first): a move's log is its previous
    state's chain plus the move's events, so its dump encodes only those and joins the rest. A
    node's log never changes (a chain of immutable tuples), and each kept node is held, so its
    ``id`` names it while it is kept. Per process; a log extended from a kept one replaces it,
    so a busy bot keeps about one a table playing (1.4-5 KB). The others are never dumped
    again (a finished game's last log, a log before its compaction, a state dumped only once
    to check it): each dump re-inserts its entry at the end, so they are the first to go.
    ``hits`` and ``misses`` count the dumps that found (or not) an older log to extend."""

    # How far back a dump looks for a node dumped before: a move adds a few events.
    LOOK_BACK = 16
    # What an encoded event costs beyond its text: the bytes object's header and its slot in
    # an entry's list (``sys.getsizeof(b"")`` + 8).
    EVENT_OVERHEAD = 41

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0  # the kept entries' cost (``_cost``), an entry's events counted once
        self.hits = 0
        self.misses = 0
        self._kept: dict[int, tuple[EventLog, list[bytes], list[int], int]] = {}

    def clear(self) -> None:
        self._kept.clear()
        self.bytes = 0

    def log_json(self, state: LogReader) -> tuple[str, str]:
        """(the ``log`` array's JSON, the ``log_versions`` array's JSON) of ``state``."""
        log, versions = self.log_bytes(state)
        return log.decode(), versions.decode()

    def log_bytes(self, state: LogReader) -> tuple[bytes, bytes]:
        """``log_json`` as UTF-8 bytes (what orjson writes a state with)."""
        log, size = state.log_raw, state.log_size
        newer: list[tuple[int, Event]] = []
        node, kept = log, self._kept
        found = None
        while len(node) == 4 and len(newer) < self.LOOK_BACK:
            found = kept.get(id(node))
            if found is not None and found[0] is node:
                break
            found = None
            newer.append((node[2], node[3]))
            node = node[0]
        if found is None:
            entries = state.log_entries()
            events = [_event_json(e) for _, e in entries]
            versions = [v for v, _ in entries]
            cost = _cost(events)
        else:
            newer.reverse()
            added = [_event_json(e) for _, e in newer]
            events = found[1] + added
            versions = found[2] + [v for v, _ in newer]
            cost = found[3] + _cost(added)
            if len(events) > size:
                cost -= _cost(events[:-size])
                events, versions = events[-size:], versions[-size:]
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
            # the older state's entry is superseded (one entry a table playing), or the same
            # log is dumped again: re-inserted at the end either way
            self._drop(id(node))
        if len(log) == 4:
            self._drop(id(log))
            kept[id(log)] = (log, events, versions, cost)
            self.bytes += cost
            try:
                while self.bytes > self.max_bytes and len(kept) > 1:
                    self._drop(next(iter(kept)))
            except (RuntimeError, StopIteration):
                pass  # another thread (a test's inline worker) changed it meanwhile
        return b"[" + b",".join(events) + b"]", orjson.dumps(versions)

    def _drop(self, key: int) -> None:
        entry = self._kept.pop(key, None)
        if entry is not None:
            self.bytes -= entry[3]


def _cost(events: list[bytes]) -> int:
    """What ``events`` (encoded) take in a ``LogDumps`` entry, roughly in bytes."""
    return sum(map(len, events)) + LogDumps.EVENT_OVERHEAD * len(events)


# A cache, as the catalogues' (``bot.i18n``): about one entry a table playing, 1.4-5 KB each
# (1,000 tables: ~2.2 MB, bench/log_dumps_memory.py); the logs of finished games and compacted
# logs are the first to go, and each holds its chain of events too (not counted): 4 MiB keeps
# every table playing of ~1,900.
LOG_DUMPS = LogDumps(4 * 2**20)


class LogReader:
    """What a state answers about its log (``log_raw``, a chain of this module)."""

    __slots__ = ()

    log_size: ClassVar[int]  # how many of the latest events the state keeps
    log_codes: ClassVar[Codes] = {}  # the game's event codes and parameters, for a packed log
    log_old_codes: ClassVar[OldCodes] = {}  # the game's former event codes (stored rows)
    # whether ``stored_json`` writes the state's fields with orjson (``games.core.statejson``)
    dump_by_orjson: ClassVar[bool] = False
    if TYPE_CHECKING:  # the state's fields this reads
        log_raw: EventLog
        seats: list[Seat]

    @property
    def log(self) -> list[Event]:
        """The latest events (at most ``log_size``), oldest first."""
        return [e for _, e in self.log_entries()]

    @property
    def log_versions(self) -> list[int]:
        """The state version each event of ``log`` produced."""
        return [v for v, _ in self.log_entries()]

    def log_entries(self) -> list[tuple[int, Event]]:
        """``zip(log_versions, log)`` in one pass."""
        return entries(self.log_raw, self.seats, self.log_codes, self.log_size)

    def latest_visible(self, seat: Seat | None, count: int) -> list[Event]:
        """``[e for e in self.log if e.visible_to(seat)][-count:]``, read from the newest
        event back (a view shows the latest few of a long log: Macarena's 20 of its 60), up to
        the ``log_size`` latest; a log whose older part is still packed (a state loaded from
        its stored JSON) is read whole."""
        if count <= 0:  # (``[-0:]`` is the whole list)
            return [e for e in self.log if e.visible_to(seat)][-count:]
        found = self._visible_back(seat, count)
        if found is None:
            return [e for e in self.log if e.visible_to(seat)][-count:]
        events = found[0]
        events.reverse()
        return events

    def visible_entries(self, seat: Seat | None) -> tuple[list[Event], list[int]]:
        """The events of the log ``seat`` may see, oldest first, and the versions that produced
        them: ``[(v, e) for v, e in self.log_entries() if e.visible_to(seat)]`` unzipped, read
        from the newest back (a log whose older part is still packed is read whole)."""
        found = self._visible_back(seat, self.log_size)
        if found is None:
            pairs = [(v, e) for v, e in self.log_entries() if e.visible_to(seat)]
            return [e for _, e in pairs], [v for v, _ in pairs]
        events, versions = found
        events.reverse()
        versions.reverse()
        return events, versions

    def _visible_back(self, seat: Seat | None, count: int) -> tuple[list[Event], list[int]] | None:
        """The latest ``count`` events ``seat`` may see and their versions, newest first, from
        the unpacked nodes; None when fewer were found and the older part is still packed
        (the caller reads the log whole)."""
        events: list[Event] = []
        versions: list[int] = []
        log: Any = self.log_raw
        # Each node unpacked once (a root, one item, refuses): no length checks per node, the
        # loop of every view's build (a Macarena view walks ~25 of its 40).
        for _ in range(self.log_size):
            try:
                log, _count, version, e = log
            except ValueError:  # the root: the packed part, if any, holds older events
                if len(events) < count and log[0]:
                    return None
                break
            to = e[3]  # ``e.visible_to(seat)``, inlined
            if to is None or (seat is not None and seat in to):
                events.append(e)
                versions.append(version)
                if len(events) == count:
                    break
        return events, versions

    def events_since(self, version: int) -> list[Event]:
        """The logged events produced after the state ``version`` (oldest first)."""
        return [e for v, e in self.log_entries() if v > version]


class LoggedState(LogReader, GameState):
    """Base of a pydantic game state with its log: stored as ``log`` and ``log_versions``, held
    as ``log_raw`` (see the module's docstring)."""

    log_raw: Annotated[EventLog, SkipValidation] = Field(
        default=EMPTY_LOG, exclude=True, repr=False
    )

    @model_validator(mode="before")
    @classmethod
    def _read_log(cls, data: Any) -> Any:
        """``log`` and ``log_versions`` (stored JSON, or given in code) into ``log_raw``."""
        if isinstance(data, dict) and ("log" in data or "log_versions" in data):
            data = dict(data)
            events = data.pop("log", [])
            versions = data.pop("log_versions", None)
            if versions is None:  # stored before versions were kept
                versions = [UNKNOWN_VERSION] * len(events)
            seats = data.get("seats")
            data["log_raw"] = load(
                events,
                versions,
                seats if isinstance(seats, list) else [],
                cls.log_codes,
                cls.log_size,
                cls.log_old_codes,
            )
        return data

    # The stored JSON: the fields, then ``log`` (event objects) and ``log_versions``, written by
    # pydantic's own serializer (a wrap serializer made it build the whole state as Python
    # objects first and serialize those again: twice the time of a dump).
    @computed_field(repr=False)  # type: ignore[prop-decorator]
    @property
    def log(self) -> list[Event]:
        """The latest events (at most ``log_size``), oldest first."""
        return [e for _, e in self.log_entries()]

    @computed_field(repr=False)  # type: ignore[prop-decorator]
    @property
    def log_versions(self) -> list[int]:
        """The state version each event of ``log`` produced."""
        return [v for v, _ in self.log_entries()]

    def add_to_log(self, events: Sequence[Event]) -> None:
        """Add ``events`` (produced by this state's version) to the log: new nodes, so a state
        this one was copied from keeps its log."""
        if events:
            self.log_raw = extend(self.log_raw, self.version, events, self.log_size)

    def __eq__(self, other: object) -> bool:
        """Equal fields and equal logs (one log may be packed and the other not)."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, LoggedState)
        mine, theirs = self.__dict__, other.__dict__
        return (
            mine.keys() == theirs.keys()
            and all(v == theirs[k] for k, v in mine.items() if k != "log_raw")
            and (self.log_raw is other.log_raw or self.log_entries() == other.log_entries())
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as pydantic models are
