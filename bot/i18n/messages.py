"""Catalogue templates: ``str.format`` placeholders plus ICU-style plurals.

A template is ``str.format`` text (``"{player} juega {name}"``) in which a placeholder may be a
plural choice, in the ICU message-format style::

    {count, plural, =0 {no quedan cartas} one {# carta} other {# cartas}}

- ``count`` is the parameter that selects the branch; ``#`` in the branch is its value.
- ``=N`` matches exactly N; otherwise the locale's CLDR plural category (Babel's
  ``Locale.plural_form``: ``one``, ``many``, ``other``...) picks the branch; ``other`` is
  required and is the fallback.
- A branch may hold other placeholders (``{player}``) and further plural choices.
- Several choices may share one template: ``{won, plural, one {# victoria} other {# victorias}}
  en {played, plural, one {# partida} other {# partidas}}``.

A missing or non-numeric parameter selects ``other`` and keeps ``{count}`` visible: a gap shows,
nothing crashes.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from babel import Locale

_CHOICE_HEAD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*plural\s*,", re.DOTALL)
_SELECTOR = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")


@dataclass(frozen=True)
class Plural:
    """One ``{name, plural, ...}`` choice: its parameter and branches (selector -> parts)."""

    name: str
    branches: dict[str, tuple[Part, ...]]


Part = str | Plural


class TemplateError(ValueError):
    """A template whose plural syntax does not parse."""


def _closing(text: str, start: int) -> int:
    """The index of the ``}`` closing the ``{`` at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise TemplateError(f"unbalanced braces in {text!r}")


def _branches(name: str, body: str) -> Plural:
    branches: dict[str, tuple[Part, ...]] = {}
    pos = 0
    while body[pos:].strip():
        match = _SELECTOR.match(body, pos)
        if match is None:
            raise TemplateError(f"bad plural branch in {body!r}")
        open_at = match.end() - 1
        close_at = _closing(body, open_at)
        branches[match[1]] = parse(body[open_at + 1 : close_at])
        pos = close_at + 1
    if "other" not in branches:
        raise TemplateError(f"plural {name!r} has no 'other' branch")
    return Plural(name, branches)


@cache
def parse(template: str) -> tuple[Part, ...]:
    """Text parts (``str.format`` templates) and plural choices, in order."""
    parts: list[Part] = []
    text_start = pos = 0
    while (open_at := template.find("{", pos)) != -1:
        close_at = _closing(template, open_at)
        head = _CHOICE_HEAD.match(template, open_at + 1)
        if head is not None and head.start() == open_at + 1:
            if open_at > text_start:
                parts.append(template[text_start:open_at])
            parts.append(_branches(head[1], template[head.end() : close_at]))
            text_start = close_at + 1
        pos = close_at + 1
    if text_start < len(template):
        parts.append(template[text_start:])
    return tuple(parts)


@cache
def _plural_rule(locale: str) -> Any:
    return Locale.parse(locale).plural_form


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
        return int(value)
    return None


def _select(choice: Plural, locale: str, params: Mapping[str, Any]) -> tuple[Part, ...]:
    number = _number(params.get(choice.name))
    if number is None:
        return choice.branches["other"]
    exact = choice.branches.get(f"={number}")
    if exact is not None:
        return exact
    return choice.branches.get(_plural_rule(locale)(number)) or choice.branches["other"]


def _flatten(parts: tuple[Part, ...], locale: str, params: Mapping[str, Any]) -> str:
    """The ``str.format`` template left once every plural has chosen its branch."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value = params.get(part.name)
        hash_text = str(value) if _number(value) is not None else "{" + part.name + "}"
        for piece in _select(part, locale, params):
            if isinstance(piece, str):
                out.append(piece.replace("#", hash_text))
            else:
                out.append(_flatten((piece,), locale, params))
    return "".join(out)


class _KeepMissing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(template: str, locale: str, params: Mapping[str, Any]) -> str:
    flat = _flatten(parse(template), locale, params)
    # ``str.format_map``: the C formatter (``string.Formatter`` parses in Python, 2.7x slower);
    # a text that names the move's version or deadline is rendered afresh at every move.
    return flat.format_map(_KeepMissing(params))


def _names(parts: tuple[Part, ...]) -> Iterator[str]:
    for part in parts:
        if isinstance(part, str):
            yield from (name for _, name, _, _ in string.Formatter().parse(part) if name)
        else:
            yield part.name
            for branch in part.branches.values():
                yield from _names(branch)


def placeholders(template: str) -> set[str]:
    """Every parameter a template uses, plural selectors included."""
    return set(_names(parse(template)))


def plural_names(template: str) -> set[str]:
    """The parameters that select a plural branch."""

    def walk(parts: tuple[Part, ...]) -> Iterator[str]:
        for part in parts:
            if isinstance(part, Plural):
                yield part.name
                for branch in part.branches.values():
                    yield from walk(branch)

    return set(walk(parse(template)))
