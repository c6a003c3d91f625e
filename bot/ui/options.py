"""A game's pydantic ``Options`` -> slash-command parameters (types, ranges, choices)."""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, cast

import annotated_types
from discord import app_commands
from pydantic import BaseModel


@dataclass(frozen=True)
class OptionSpec:
    name: str
    annotation: Any
    choices: tuple[str, ...] = ()


def _unwrap_optional(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def option_specs(model: type[BaseModel]) -> list[OptionSpec]:
    specs = []
    for name, field in model.model_fields.items():
        annotation = _unwrap_optional(field.annotation)
        if annotation is bool:
            specs.append(OptionSpec(name, bool))
        elif annotation is int:
            lo: Any = None  # an int field's bounds are ints
            hi: Any = None
            for meta in field.metadata:
                if isinstance(meta, annotated_types.Ge):
                    lo = meta.ge
                elif isinstance(meta, annotated_types.Le):
                    hi = meta.le
                elif isinstance(meta, annotated_types.Gt):
                    lo = cast(int, meta.gt) + 1
                elif isinstance(meta, annotated_types.Lt):
                    hi = cast(int, meta.lt) - 1
            if lo is not None and hi is not None:
                specs.append(OptionSpec(name, app_commands.Range[int, lo, hi]))
            else:
                specs.append(OptionSpec(name, int))
        elif typing.get_origin(annotation) is Literal:
            values = typing.get_args(annotation)
            if all(isinstance(v, str) for v in values) and len(values) <= 25:
                specs.append(OptionSpec(name, str, tuple(values)))
            elif all(isinstance(v, int) for v in values) and len(values) <= 25:
                specs.append(OptionSpec(name, str, tuple(str(v) for v in values)))
        # anything else is not offered as a slash option (the default applies)
    return specs


def signature_for(specs: list[OptionSpec]) -> inspect.Signature:
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for spec in specs:
        params.append(
            inspect.Parameter(
                spec.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=None,
                annotation=typing.Optional[spec.annotation],  # noqa: UP045
            )
        )
    return inspect.Signature(params)


def coerce(model: type[BaseModel], raw: dict[str, Any]) -> dict[str, Any]:
    """Choices arrive as strings: turn int-valued Literal choices back into ints."""
    out = {}
    for name, value in raw.items():
        if value is None:
            continue
        field = model.model_fields.get(name)
        annotation = _unwrap_optional(field.annotation) if field else None
        if typing.get_origin(annotation) is Literal and isinstance(value, str):
            ints = [v for v in typing.get_args(annotation) if isinstance(v, int)]
            if ints and value.lstrip("-").isdigit():
                value = int(value)
        out[name] = value
    return out
