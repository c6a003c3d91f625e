"""Building pydantic models on the engines' hot paths without validating them again.

Engines build events and nested state parts from values they produced themselves (card ids from
their own deck, seats of the game), so validating them on every move only costs time: one event
through pydantic's validator costs about a microsecond, ``trusted`` a fifth of that. Every field
must be given (no defaults are filled in) and the values must already have the field's type:
the result is the model ``cls(**values)`` would validate to.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_SET = object.__setattr__


@cache
def _all_fields(cls: type[BaseModel]) -> set[str]:
    """The set of all field names of ``cls``, shared by every instance ``trusted`` builds and
    never changed in place (pydantic copies it before ``model_copy(update=...)`` adds to it)."""
    return set(cls.model_fields)


def trusted(cls: type[M], values: dict[str, Any]) -> M:
    """``cls(**values)`` without validation; ``values`` holds every field of ``cls``."""
    m = cls.__new__(cls)
    _SET(m, "__dict__", values)
    _SET(m, "__pydantic_fields_set__", _all_fields(cls))
    _SET(m, "__pydantic_extra__", None)
    _SET(m, "__pydantic_private__", None)
    return m
