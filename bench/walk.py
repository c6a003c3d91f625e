"""What the bench's heap walks share: an object's fields, and a name for a piece of garbage.

Several of them run inside a bot that may be another checkout (``--bot-root``): the preludes of
``bench/gc_census.py`` and ``bench/memory_census.py``, ``bench/heap_probe.py``. They load this
file by its path (``MESA_BENCH_WALK``, or beside heap_probe.py), not from the ``bench`` package,
so it imports nothing of the bench's or the bot's.
"""

from __future__ import annotations

from typing import Any

# ``label``'s ways of naming a closure's cell
CELL_PLAIN = ""  # "cell"
CELL_TYPE = "type"  # "cell of <its content's type>"; an empty one "cell"
CELL_FUNCTION = "function"  # as CELL_TYPE, a function's module and code named; "cell (empty)"


def fields(o: object) -> dict[str, Any]:
    """An object's attributes: its ``__dict__`` and its slots."""
    try:
        found = dict(vars(o))
    except TypeError:
        found = {}
    for kind in type(o).__mro__:
        for slot in getattr(kind, "__slots__", ()):
            if slot not in found and slot not in ("__dict__", "__weakref__"):
                try:
                    found[slot] = object.__getattribute__(o, slot)
                except AttributeError:
                    pass
    return found


def label(o: object, *, tasks: bool = False, cells: str = CELL_PLAIN) -> str:
    """A piece of garbage's name: its type ("module.Qualname", a builtin's bare), with the code
    a coroutine, frame or function runs (whose reference cycle it is); with ``tasks``, a
    task's coroutine; a cell as ``cells`` says."""
    kind = type(o).__qualname__
    try:
        if kind == "coroutine":
            return "coroutine " + o.cr_code.co_qualname  # type: ignore[attr-defined]
        if kind == "frame":
            return "frame " + o.f_code.co_qualname  # type: ignore[attr-defined]
        if kind == "Task" and tasks:
            return "Task " + o.get_coro().__qualname__  # type: ignore[attr-defined]
        if kind == "function":
            return "function " + o.__qualname__  # type: ignore[attr-defined]
        if kind == "cell" and cells:
            return _cell(o, cells)
    except Exception:
        pass
    module = type(o).__module__
    return kind if module == "builtins" else f"{module}.{kind}"


def _cell(o: Any, cells: str) -> str:
    try:
        inside = o.cell_contents
    except ValueError:
        if cells == CELL_FUNCTION:
            return "cell (empty)"
        raise
    if cells == CELL_FUNCTION and type(inside).__name__ == "function":
        return f"cell of function {inside.__module__}.{inside.__qualname__}"
    return f"cell of {type(inside).__qualname__}"
