"""Turn a list of action choices into Discord components that respect every limit.

Few choices become buttons (grouped into rows); many become one select per group, split into
chunks of 25 options; more selects than rows fit are paged. Limits (docs/discord.md): 5 action rows,
5 buttons per row, 25 options per select, labels 80 / option labels 100, custom_id 100, unique.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.ui import ids
from bot.ui.items import ActionButton, ActionSelect
from bot.ui.text import clip

MAX_ROWS = 5
BUTTONS_PER_ROW = 5
SELECT_OPTIONS = 25
BUTTON_LABEL = 80
OPTION_TEXT = 100


@dataclass(frozen=True)
class Choice:
    """One action offered to a player."""

    action: str  # the action's encoded text
    label: str
    group: str = "main"  # choices of one group share a row / a select
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: str | None = None
    description: str | None = None


def choice_button(table_id: int, version: int, choice: Choice, **looks: Any) -> ActionButton:
    """The button of ``choice`` (its label clipped to Discord's limit); ``looks``: its row, or
    a look the choice does not set (``disabled``)."""
    return ActionButton(
        table_id,
        version,
        choice.action,
        label=clip(choice.label, BUTTON_LABEL),
        style=choice.style,
        emoji=choice.emoji,
        **looks,
    )


@dataclass(frozen=True)
class Layout:
    items: list[discord.ui.Item[Any]]
    page: int
    pages: int
    # with a component ``budget`` (Components V2): the items row by row, no row numbers set
    rows: tuple[tuple[discord.ui.Item[Any], ...], ...] = ()


NAV_COMPONENTS = 3  # a page-arrow row: the row and its two buttons


def _dedupe(choices: list[Choice]) -> list[Choice]:
    seen: set[str] = set()
    out = []
    for c in choices:
        if c.action not in seen:
            seen.add(c.action)
            out.append(c)
    return out


def _groups(choices: list[Choice]) -> list[tuple[str, list[Choice]]]:
    order: dict[str, list[Choice]] = {}
    for c in choices:
        order.setdefault(c.group, []).append(c)
    return list(order.items())


def _button_rows(groups: list[tuple[str, list[Choice]]]) -> list[list[Choice]]:
    rows: list[list[Choice]] = []
    for _, members in groups:
        for i in range(0, len(members), BUTTONS_PER_ROW):
            rows.append(members[i : i + BUTTONS_PER_ROW])
    return rows


def build_layout(
    choices: list[Choice],
    *,
    table_id: int,
    version: int,
    rows: int = MAX_ROWS,
    page: int = 0,
    first_row: int = 0,
    group_placeholders: dict[str, str] | None = None,
    budget: int | None = None,
) -> Layout:
    """Components for ``choices`` using at most ``rows`` rows (the caller keeps the rest).

    Paging (when needed) is left to the caller: ``pages`` says how many pages exist, and the
    caller adds its own navigation row, so pass ``rows`` one less than it has when it might page.

    ``budget`` (a Components V2 message): the components the choices may cost, rows included
    (a row of five buttons costs six, a select two); rows are then not numbered but returned in
    ``Layout.rows``, ``rows`` is not a limit, and pages are made only beyond the budget (the
    caller's arrow row, ``NAV_COMPONENTS``, is kept out of it when paging).
    """
    if rows <= 0 or not choices or (budget is not None and budget <= 0):
        return Layout(items=[], page=0, pages=1)
    choices = _dedupe(choices)
    groups = _groups(choices)
    button_rows = _button_rows(groups)
    if budget is None:
        fits = len(button_rows) <= rows
    else:
        fits = sum(1 + len(r) for r in button_rows) <= budget
    if fits:
        built: list[list[discord.ui.Item[Any]]] = []
        for r, row in enumerate(button_rows):
            built.append(
                [
                    choice_button(
                        table_id, version, c, row=first_row + r if budget is None else None
                    )
                    for c in row
                ]
            )
        return _layout(built, 0, 1, budget)

    selects: list[tuple[str, int, list[Choice]]] = []
    for name, members in groups:
        for i in range(0, len(members), SELECT_OPTIONS):
            selects.append((name, i // SELECT_OPTIONS, members[i : i + SELECT_OPTIONS]))
    if budget is not None:
        per_page = budget // 2  # a select and its row
        if len(selects) > per_page:
            per_page = (budget - NAV_COMPONENTS) // 2
        rows = max(per_page, 1)
    pages = max(1, -(-len(selects) // rows))
    page = min(max(page, 0), pages - 1)
    placeholders = group_placeholders or {}
    built = []
    for r, (name, chunk_no, members) in enumerate(selects[page * rows : (page + 1) * rows]):
        options = [
            discord.SelectOption(
                label=clip(c.label, OPTION_TEXT),
                value=c.action,
                emoji=c.emoji,
                description=clip(c.description, OPTION_TEXT) if c.description else None,
            )
            for c in members
        ]
        placeholder = placeholders.get(name)
        built.append(
            [
                ActionSelect(
                    table_id,
                    version,
                    name,
                    chunk_no,
                    options=options,
                    placeholder=clip(placeholder, 150) if placeholder else None,
                    row=first_row + r if budget is None else None,
                )
            ]
        )
    return _layout(built, page, pages, budget)


def _layout(
    built: list[list[discord.ui.Item[Any]]], page: int, pages: int, budget: int | None
) -> Layout:
    flat = [item for row in built for item in row]
    if budget is None:
        return Layout(items=flat, page=page, pages=pages)
    return Layout(items=flat, page=page, pages=pages, rows=tuple(tuple(r) for r in built))


def check_limits(view: discord.ui.View) -> None:
    """Raise ``ValueError`` if a view breaks a component limit (a last line of defence)."""
    ids.check_custom_ids(view.children)
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    for item in view.children:
        rows.setdefault(item._rendered_row or 0, []).append(item)
    if len(rows) > MAX_ROWS:
        raise ValueError("too many rows")
