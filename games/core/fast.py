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
def all_fields(cls: type[BaseModel]) -> set[str]:
    """The set of all field names of ``cls``, shared by every instance ``trusted`` builds and
    never changed in place (pydantic copies it before ``model_copy(update=...)`` adds to it)."""
    return set(cls.model_fields)


# The instance's ``__dict__`` and pydantic's three slots, each set through its own descriptor:
# ``object.__setattr__(m, name, value)`` looks the name up in the class's MRO at every call
# (~1,400 instructions a set; ~1,000 this way: four sets a model, ~11 models a Macarena view).
_SET_DICT = BaseModel.__dict__["__dict__"].__set__
_SET_FIELDS = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__


def trusted(
    cls: type[M],
    values: dict[str, Any],
    _new: Any = object.__new__,  # locals, not globals: ~30 calls a move (views, events)
    _dict: Any = _SET_DICT,
    _fields_set: Any = _SET_FIELDS,
    _extra: Any = _SET_EXTRA,
    _private: Any = _SET_PRIVATE,
    _fields: Any = all_fields,
) -> M:
    """``cls(**values)`` without validation; ``values`` holds every field of ``cls``."""
    m: M = _new(cls)  # (a model class has no ``__new__`` of its own)
    _dict(m, values)
    _fields_set(m, _fields(cls))
    _extra(m, None)
    _private(m, None)
    return m


def plain_assignment(cls: type[M]) -> type[M]:
    """Class decorator for a (mutable) game state: assigning a field stores it directly.

    Pydantic's ``__setattr__`` (Python code, run on every assignment of the engines' hot loops)
    never validates these assignments anyway; ``object.__setattr__`` (a C slot) writes the field
    into the instance ``__dict__`` the same way, without noting it in ``__pydantic_fields_set__``
    (which then never changes after construction, so copies may share it: see ``replace``).
    Refused for models that need pydantic's hook: frozen ones, assignment validation, private
    attributes.
    """
    config = cls.model_config
    if config.get("frozen") or config.get("validate_assignment") or cls.__private_attributes__:
        raise TypeError(f"{cls.__name__} needs pydantic's __setattr__")
    cls.__setattr__ = object.__setattr__  # type: ignore[method-assign]
    return cls


def replace(model: M, changes: dict[str, Any]) -> M:
    """``model.model_copy(update=changes)`` for the engines' hot paths: a new instance whose
    fields are ``model``'s (shared, not copied) except ``changes``; nothing is validated."""
    cls = type(model)
    values = model.__dict__.copy()
    values.update(changes)
    m = cls.__new__(cls)
    _SET(m, "__dict__", values)
    fields = model.__pydantic_fields_set__
    # shared only where assignments never add to it (``plain_assignment``)
    _SET(
        m,
        "__pydantic_fields_set__",
        fields if cls.__setattr__ is object.__setattr__ else set(fields),
    )
    _SET(m, "__pydantic_extra__", model.__pydantic_extra__)
    _SET(m, "__pydantic_private__", None)
    return m


def share_fields_set(model: BaseModel) -> None:
    """Let ``model`` use the one shared "every field set" set of its class (a loaded model
    otherwise holds a set of its own, a few hundred bytes): for models whose every field was
    given and whose set never changes in place (frozen ones, ``plain_assignment`` ones)."""
    _SET(model, "__pydantic_fields_set__", all_fields(type(model)))
