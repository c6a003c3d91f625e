"""Models rebuilt from JSON the bot itself wrote, without validating it again.

A render worker is sent an image's drawn part as the JSON pydantic wrote of a view the bot built
(``bot.ui.rendering.SentRender``). Validating it back (``model_validate_json``) costs a render
worker more CPU live than the unpickling of trusted models it replaced (issue 29: the worker's
"unpickle" stage 0.12 -> 0.20 ms an image). A ``Decoder`` is built once per model and set of
fields from their annotations: ``orjson`` parses the text, and only the values whose Python type
JSON does not give back are converted (a tuple, a set, an enum, an int key, a nested model,
built as ``games.core.fast.trusted`` builds one). The result holds what validating the same
JSON gives, field for field, type for type (``tests/bot/test_trusted_json.py``, every game's
drawn parts).

Models and types whose JSON validation does more than that (a validator that runs before or
instead of pydantic's, a serializer of their own, extra or private values, a field left out of
the JSON, an annotation not understood here) get no decoder (``Unsupported``): their caller
validates them as before. Validators that run after pydantic's are checks of values the bot's
own models already hold, and are not run again.
"""

from __future__ import annotations

import enum
import functools
import importlib
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple

import orjson
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from games.core.engine import Event
from games.core.fast import all_fields

# A value's conversion from what ``orjson`` parsed; None where the parsed value is the one
# validation gives (str, int, bool, None, a list of those...): nothing is done to it.
Convert = Callable[[Any], Any] | None

# Plain JSON values: what ``orjson`` parses is what pydantic validates them to
_AS_PARSED = (str, int, bool, type(None), Any, object)

_new_model = object.__new__  # (a model class has no ``__new__`` of its own)
_SET_DICT = BaseModel.__dict__["__dict__"].__set__
_SET_FIELDS = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__


def sendable(model: type[BaseModel]) -> bool:
    """Whether ``model``'s instances may go to a worker as their JSON (``model_dump_json``'s
    bytes: pydantic's serializer, in Rust, writes them in a third of the time a compact
    pickling of its tree takes, issue 29; ``bot.pipe_workers``' search pool): it has a
    ``whole_decoder``. For models whose JSON gives back an equal model (a game's views:
    ``tests/games/test_contract.py``)."""
    return whole_decoder(model) is not None


def from_json(path: str, data: bytes) -> Any:
    """A model sent as its JSON, rebuilt in a worker: the model at ``path`` (``model_path``)
    from ``data``."""
    model = model_at(path)
    decoder = whole_decoder(model)
    if decoder is None:  # (a sender of another release)
        return model.model_validate_json(data)
    return decoder(data)


@functools.lru_cache(maxsize=64)
def model_path(model: type[BaseModel]) -> str:
    """``module:qualified name``, what ``model_at`` finds the class by."""
    return f"{model.__module__}:{model.__qualname__}"


@functools.lru_cache(maxsize=64)
def model_at(path: str) -> Any:
    """The class at ``path`` (``model_path``)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Unsupported(TypeError):
    """A model or annotation whose JSON validation this module does not reproduce."""


def built(model: type[BaseModel], values: dict[str, Any], fields_set: set[str]) -> Any:
    """An instance of ``model`` holding ``values`` (no validation; no extra or private
    values), as pydantic's own ``model_copy`` builds one."""
    instance = _new_model(model)
    _SET_DICT(instance, values)
    _SET_FIELDS(instance, fields_set)
    _SET_EXTRA(instance, None)
    _SET_PRIVATE(instance, None)
    return instance


class Nested(NamedTuple):
    """A field of which only some fields were written: a model (``listed``: a list of models)
    whose ``kept`` fields alone are in the JSON."""

    name: str
    model: type[BaseModel]
    kept: tuple[str, ...]
    listed: bool


class Decoder:
    """Builds an instance of ``model`` holding the fields ``names`` of a JSON object (the keys
    it has), each as ``model`` validates it; nested fields of the model's own (``nested``: a
    model or a list of models of which only some fields were written) as instances holding
    those fields."""

    __slots__ = ("convert", "model")

    def __init__(
        self,
        model: type[BaseModel],
        names: tuple[str, ...],
        nested: tuple[Nested, ...] = (),
        *,
        whole: bool = False,
    ) -> None:
        # ``whole``: every field of ``model`` written (``whole_decoder``); else some, each as
        # ``model`` declares it, without the model's own validators (``rendering._part_model``)
        _check_model(model, whole=whole)
        if model.__pydantic_decorators__.computed_fields:  # (written, not validated back)
            raise Unsupported(f"{model.__name__} writes computed fields")
        self.model = model
        convert: list[tuple[str, Callable[[Any], Any]]] = []
        for name in names:
            found = field_converter(model.model_fields[name])
            if found is not None:
                convert.append((name, found))
        for part in nested:
            build = _part_builder(part.model, part.kept)
            convert.append((part.name, _list_of(build) if part.listed else build))
        self.convert = tuple(convert)

    def __call__(self, data: bytes | str) -> Any:
        values = orjson.loads(data)
        for name, convert in self.convert:
            values[name] = convert(values[name])
        return built(self.model, values, set(values))


@functools.lru_cache(maxsize=64)
def whole_decoder(model: type[BaseModel]) -> Decoder | None:
    """The decoder of a ``model`` instance's whole JSON (``model_dump_json``), built once per
    process; None if ``Unsupported``."""
    try:
        return Decoder(model, tuple(model.model_fields), whole=True)
    except Unsupported:
        return None


def field_converter(info: FieldInfo) -> Convert:
    """The conversion of a field's parsed JSON value (None: none needed); ``Unsupported`` if
    its validation does more than its type says."""
    _check_metadata(info.metadata)
    return converter(info.annotation)


def converter(annotation: Any) -> Convert:
    """The conversion of a parsed JSON value to what validating it as ``annotation`` gives."""
    if annotation in _AS_PARSED:
        return None
    if annotation is float:  # (JSON's 1 is validated to 1.0)
        return float
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Annotated:
        _check_metadata(args[1:])
        return converter(args[0])
    if origin is Literal:
        if all(type(a) in (str, int, bool, type(None)) for a in args):
            return None
        raise Unsupported(f"a literal of {args!r}")
    if origin in (typing.Union, types.UnionType):
        return _optional(args)
    if origin is list:
        inner = converter(args[0]) if args else None
        return None if inner is None else _list_of(inner)
    if origin is tuple:
        return _tuple_of(args)
    if origin in (set, frozenset):
        return _collection_of(origin, converter(args[0]) if args else None)
    if origin is dict:
        return _dict_of(args)
    own = _OWN_FORMS.get(annotation)
    if own is not None:
        return own
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return annotation
        if issubclass(annotation, BaseModel):
            return _model_builder(annotation)
    raise Unsupported(f"the annotation {annotation!r}")


def _check_metadata(metadata: Any) -> None:
    """Constraints only (``Field(ge=...)``, a pattern): checks, not conversions. Validators and
    serializers given in ``Annotated`` (``pydantic.functional_*``) are refused."""
    for item in metadata:
        if type(item).__module__.startswith("pydantic.functional_"):
            raise Unsupported(f"the metadata {item!r}")


def _check_model(model: type[BaseModel], *, whole: bool = True) -> None:
    """``Unsupported`` unless validating ``model``'s JSON gives back its written fields as
    they are. ``whole``: a model validated with its own validators, every field written (not
    a view's drawn part: a model of some of its fields alone, ``rendering._part_model``)."""
    config = model.model_config
    if model.__private_attributes__ or config.get("extra") == "allow":
        raise Unsupported(f"{model.__name__} keeps extra or private values")
    if config.get("serialize_by_alias"):
        raise Unsupported(f"{model.__name__} is written by its aliases")
    decorators = model.__pydantic_decorators__
    if decorators.field_serializers or decorators.model_serializers:
        raise Unsupported(f"{model.__name__} has serializers of its own")
    if whole and (decorators.root_validators or decorators.validators):
        raise Unsupported(f"{model.__name__} has validators of pydantic 1")
    for kind in ("field_validators", "model_validators"):
        if whole and any(d.info.mode != "after" for d in getattr(decorators, kind).values()):
            raise Unsupported(f"{model.__name__} has validators before pydantic's")
    if whole and any(info.exclude for info in model.model_fields.values()):
        raise Unsupported(f"{model.__name__} leaves a field out of its JSON")


def _optional(args: tuple[Any, ...]) -> Convert:
    """A union: ``X | None`` (None as it is), or of types all parsed as they are."""
    others = [a for a in args if a is not type(None)]
    if len(others) == 1:
        inner = converter(others[0])
        if inner is None:
            return None
        return lambda value: None if value is None else inner(value)
    if all(converter(a) is None for a in others):
        return None
    raise Unsupported(f"a union of {args!r}")  # (which member validation picks: not here)


def _list_of(inner: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda values: [inner(value) for value in values]


def _tuple_of(args: tuple[Any, ...]) -> Callable[[Any], Any]:
    if not args or (len(args) == 2 and args[1] is Ellipsis):
        inner = converter(args[0]) if args else None
        if inner is None:
            return tuple
        return lambda values: tuple([inner(value) for value in values])
    if args == ((),):  # ``tuple[()]``
        return tuple
    each = [converter(a) or _same for a in args]
    return lambda values: tuple([c(v) for c, v in zip(each, values, strict=True)])


def _collection_of(kind: type, inner: Convert) -> Callable[[Any], Any]:
    if inner is None:
        return kind
    return lambda values: kind([inner(value) for value in values])


def _dict_of(args: tuple[Any, ...]) -> Convert:
    key = _key_converter(args[0]) if args else None
    value = converter(args[1]) if args else None
    if key is None and value is None:
        return None
    key = key or _same
    value = value or _same
    return lambda items: {key(k): value(v) for k, v in items.items()}


def _key_converter(annotation: Any) -> Convert:
    """A dict key's conversion: JSON writes every key as a string."""
    if annotation in (str, Any):
        return None
    if annotation is int:
        return int
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        if all(type(member.value) is str for member in annotation):
            return annotation
    raise Unsupported(f"a dict key of {annotation!r}")


def _same(value: Any) -> Any:
    return value


def _event(value: dict[str, Any]) -> Event:
    """An ``Event`` from its JSON object (``{"code", "seat", "params", "to"}``, all written)."""
    to = value["to"]
    return Event(value["code"], value["seat"], value["params"], None if to is None else tuple(to))


# Types whose JSON form is their own (a core schema of their own), as validating it builds them
_OWN_FORMS: dict[Any, Callable[[Any], Any]] = {Event: _event}


# Each model's builder, per process (a cache, as ``functools.cache`` keeps one; filled before
# the builder's field converters are, so a model referring to itself finds its own)
_BUILDERS: dict[type[BaseModel], Callable[[Any], Any]] = {}


def _model_builder(model: type[BaseModel]) -> Callable[[Any], Any]:
    """An instance of ``model`` from its parsed JSON (every field written: all set)."""
    known = _BUILDERS.get(model)
    if known is not None:
        return known
    _check_model(model)
    names = tuple(model.model_fields)
    convert: list[tuple[str, Callable[[Any], Any]]] = []
    every = all_fields(model)
    filtered = bool(model.__pydantic_decorators__.computed_fields)

    def build(values: dict[str, Any]) -> Any:
        if filtered:  # a computed field is written, not validated back
            values = {name: values[name] for name in names}
        for name, conv in convert:
            values[name] = conv(values[name])
        return built(model, values, every)

    _BUILDERS[model] = build
    try:
        for name in names:
            found = field_converter(model.model_fields[name])
            if found is not None:
                convert.append((name, found))
    except Unsupported:
        del _BUILDERS[model]
        raise
    return build


def _part_builder(model: type[BaseModel], kept: tuple[str, ...]) -> Callable[[Any], Any]:
    """An instance of ``model`` holding only the ``kept`` fields written of it."""
    _check_model(model, whole=False)
    convert = [(n, c) for n in kept if (c := field_converter(model.model_fields[n])) is not None]

    def build(values: dict[str, Any]) -> Any:
        for name, conv in convert:
            values[name] = conv(values[name])
        return built(model, values, set(values))

    return build
