"""Errors of the table service, as codes with parameters (translated by the presenter)."""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """A request the table service refuses: ``code`` maps to ``error.<code>`` in catalogues."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class Notice(Exception):
    """A refusal a game's own lobby explains with a ``<game>.ui.error.<code>`` catalogue key
    (e.g. Triple Triad's ``triad.ui.error.pick_five``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code
