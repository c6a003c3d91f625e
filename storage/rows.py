"""A read's row as one of the repositories' models: each column fills the field of its name.

Rows are SQLite's ``sqlite3.Row`` or asyncpg's ``Record`` (both readable as a mapping). Columns
that name no field are ignored (the models keep pydantic's default, ``extra="ignore"``), missing
ones take the field's default; the model validates the rest as it would any input (``0``/``1`` as
a ``bool``, for instance).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def as_model(
    model: type[M],
    row: Any,
    *,
    json_columns: Iterable[str] = (),
    fields: Mapping[str, str] | None = None,
) -> M:
    """``row`` as ``model``. ``json_columns``: columns holding JSON text (decoded first);
    ``fields``: column -> field name, for a column whose name is not a Python name (``global``)."""
    values = dict(row)
    for column in json_columns:
        if column in values:
            values[column] = json.loads(values[column])
    for column, field in (fields or {}).items():
        if column in values:
            values[field] = values.pop(column)
    return model.model_validate(values)
