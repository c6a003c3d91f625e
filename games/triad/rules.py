"""Flip resolution on plain data, shared by the engine and the computer's search.

Cells are numbered 0-8 row by row; sides are 0 top, 1 right, 2 bottom, 3 left. ``printed[c]`` and
``modified[c]`` hold the (top, right, bottom, left) values of the card on cell ``c`` (``None`` when
empty); ``owner[c]`` is the seat index (0/1) whose colour the card shows, or -1 when empty.
``modified`` equals ``printed`` unless the Elemental rule changes a card on an elemental cell.

Resolution reads only the board as it was before the move plus the placed card, and every
decision is a set (never a "first found"), so the result does not depend on the order in which
sides or chained cards are visited: ``order`` lets tests prove that.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

TOP, RIGHT, BOTTOM, LEFT = 0, 1, 2, 3
SIDES: tuple[int, ...] = (TOP, RIGHT, BOTTOM, LEFT)
OPPOSITE: tuple[int, ...] = (BOTTOM, LEFT, TOP, RIGHT)
WALL_VALUE = 10  # Pared: the board edge counts as an A for Igual


def _neighbours(cell: int) -> tuple[int, int, int, int]:
    row, col = divmod(cell, 3)
    return (
        cell - 3 if row > 0 else -1,
        cell + 1 if col < 2 else -1,
        cell + 3 if row < 2 else -1,
        cell - 1 if col > 0 else -1,
    )


NEIGHBOURS: tuple[tuple[int, int, int, int], ...] = tuple(_neighbours(c) for c in range(9))


class RuleSet(NamedTuple):
    same: bool = False
    same_wall: bool = False
    plus: bool = False
    combo: bool = False


class Flips(NamedTuple):
    """Cells that change colour, by the rule that took them (each sorted, disjoint)."""

    same: tuple[int, ...]  # taken by Igual (Pared included)
    plus: tuple[int, ...]  # taken by Suma and not by Igual
    basic: tuple[int, ...]  # taken by the basic rule only
    combo: tuple[int, ...]  # taken by Cadena
    same_wall: bool  # a wall counted towards an Igual that took cards

    @property
    def all(self) -> tuple[int, ...]:
        return tuple(sorted(self.same + self.plus + self.basic + self.combo))


NO_FLIPS = Flips((), (), (), (), False)


def elemental_modifier(cell_element: str | None, card_element: str | None) -> int:
    """+1 on the card's own element, -1 on any other element (also for element-less cards)."""
    if cell_element is None:
        return 0
    return 1 if card_element == cell_element else -1


def modified_values(
    printed: Sequence[int], cell_element: str | None, card_element: str | None
) -> tuple[int, int, int, int]:
    delta = elemental_modifier(cell_element, card_element)
    t, r, b, lft = printed
    return (t + delta, r + delta, b + delta, lft + delta)


def resolve(
    cell: int,
    placer: int,
    printed: Sequence[Sequence[int] | None],
    modified: Sequence[Sequence[int] | None],
    owner: Sequence[int],
    rules: RuleSet,
    order: Sequence[int] = SIDES,
    lifo: bool = True,
) -> Flips:
    """The cards that flip when ``placer`` has just put a card on ``cell``.

    The placed card must already be on the board (``printed[cell]``, ``modified[cell]``); ``owner``
    is the ownership before any flip of this move. Nothing is mutated.
    """
    opponent = 1 - placer
    nbs = NEIGHBOURS[cell]
    mine_p = printed[cell]
    mine_m = modified[cell]
    assert mine_p is not None and mine_m is not None

    same_taken: set[int] = set()
    plus_taken: set[int] = set()
    wall_used = False
    if rules.same:
        matched: list[int] = []
        walls = 0
        for side in order:
            q = nbs[side]
            if q < 0:
                if rules.same_wall and mine_p[side] == WALL_VALUE:
                    walls += 1
            else:
                theirs = printed[q]
                if theirs is not None and mine_p[side] == theirs[OPPOSITE[side]]:
                    matched.append(q)
        if len(matched) + walls >= 2:
            same_taken = {q for q in matched if owner[q] == opponent}
            wall_used = walls > 0 and bool(same_taken)
    if rules.plus:
        by_sum: dict[int, list[int]] = {}
        for side in order:
            q = nbs[side]
            if q >= 0:
                theirs = printed[q]
                if theirs is not None:
                    by_sum.setdefault(mine_p[side] + theirs[OPPOSITE[side]], []).append(q)
        for group in by_sum.values():
            if len(group) >= 2:
                plus_taken.update(q for q in group if owner[q] == opponent)
        plus_taken -= same_taken
    special = same_taken | plus_taken

    basic: set[int] = set()
    for side in order:
        q = nbs[side]
        if q >= 0 and owner[q] == opponent and q not in special:
            theirs_m = modified[q]
            assert theirs_m is not None
            if mine_m[side] > theirs_m[OPPOSITE[side]]:
                basic.add(q)

    chained: set[int] = set()
    if rules.combo and special:
        taken = special | basic
        frontier = sorted(special)
        while frontier:
            x = frontier.pop() if lifo else frontier.pop(0)
            x_m = modified[x]
            assert x_m is not None
            xn = NEIGHBOURS[x]
            for side in order:
                q = xn[side]
                if q >= 0 and owner[q] == opponent and q not in taken:
                    theirs_m = modified[q]
                    assert theirs_m is not None
                    if x_m[side] > theirs_m[OPPOSITE[side]]:
                        taken.add(q)
                        chained.add(q)
                        frontier.append(q)

    return Flips(
        tuple(sorted(same_taken)),
        tuple(sorted(plus_taken)),
        tuple(sorted(basic)),
        tuple(sorted(chained)),
        wall_used,
    )
