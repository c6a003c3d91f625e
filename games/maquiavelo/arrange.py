"""Arranging a play on the table, keeping as many existing melds as possible.

The exact solver (``solver``) decides whether table + played cards can be arranged at all; this
module picks, among the arrangements, one that disturbs the table little: old melds stay as they
are where possible, else grow in place, and new melds go last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.maquiavelo.solver import (
    NUM_FACES,
    counts_of,
    feasible,
    meld_kind,
    run_order,
    solve,
)


@dataclass
class PlannedMeld:
    faces: list[int]
    tags: list[str]  # per slot: "h" = a set-only (helper) card goes here, "a" = any card
    origin: int | None  # index of the old meld it keeps or contains, if any
    kept: bool  # the old meld ``origin`` is kept unchanged


def arrange_play(
    old_melds: Sequence[Sequence[int]],
    added: Iterable[int],
    added_set_only: Iterable[int] = (),
) -> list[PlannedMeld] | None:
    """Arrange the table ``old_melds`` (faces) plus ``added`` and ``added_set_only`` (sets only).

    ``None`` if no arrangement exists (exact). Otherwise the new table, keeping as many old melds
    unchanged as a greedy pass finds: old melds are frozen one by one (those far from the added
    cards first) whenever the rest can still be arranged, which is checked exactly each time, so
    the result is always valid. Old melds keep their order; a new meld that contains an old one
    takes its place; other new melds come last.
    """
    added = list(added)
    added_set_only = list(added_set_only)
    table_faces = [f for m in old_melds for f in m]
    so_counts = counts_of(added_set_only)
    if not feasible(counts_of(table_faces + added), so_counts):
        return None
    everything = set(range(len(old_melds)))
    near = _closeness(added + added_set_only)
    order = sorted(everything, key=lambda i: (_meld_touch(old_melds[i], near), i))
    if _remainder_ok(old_melds, everything, added, so_counts):
        frozen = everything
    else:
        frozen = set()
        for i in order:
            if _remainder_ok(old_melds, frozen | {i}, added, so_counts):
                frozen.add(i)
    # second pass: an old meld that cannot stay as it is may still grow in place
    grown: dict[int, list[int]] = {}
    pool = Counter(f for i, m in enumerate(old_melds) if i not in frozen for f in m) + Counter(
        added
    )
    for i in order:
        if i in frozen or Counter(old_melds[i]) - pool:  # gone (partly) into another meld
            continue
        for ext in _extensions(old_melds[i], pool - Counter(old_melds[i])):
            trial = pool - Counter(ext)
            if feasible(_counts(trial), so_counts):
                grown[i] = ext
                pool = trial
                break
    sol = solve(_counts(pool), so_counts)
    assert sol is not None
    new_melds = list(zip(sol.melds, sol.tags, strict=True))
    out: list[PlannedMeld] = []
    for i, m in enumerate(old_melds):
        if i in frozen:
            out.append(PlannedMeld(list(m), ["a"] * len(m), i, True))
        elif i in grown:
            out.append(PlannedMeld(grown[i], ["a"] * len(grown[i]), i, False))
        else:
            # the new meld sharing most cards with the old one takes its place
            overlap = [len(Counter(m) & Counter(nm)) for nm, _ in new_melds]
            if overlap and max(overlap) >= 2:
                j = overlap.index(max(overlap))
                nm, nt = new_melds.pop(j)
                out.append(PlannedMeld(nm, nt, i, False))
    out.extend(PlannedMeld(nm, nt, None, False) for nm, nt in new_melds)
    return out


def _counts(c: Counter) -> list[int]:
    out = [0] * NUM_FACES
    for f, n in c.items():
        out[f] = n
    return out


def _extensions(meld: Sequence[int], avail: Counter) -> list[list[int]]:
    """Bigger valid melds containing ``meld``, using cards of ``avail``, smallest first."""
    kind = meld_kind(meld)
    out: list[list[int]] = []
    if kind == "set":
        r = meld[0] % 13
        for s in range(4):
            f = s * 13 + r
            if f not in meld and avail[f] > 0:
                out.append(sorted([*meld, f]))
        return out
    if kind != "run":
        return out
    ordered = run_order(meld)
    suit = ordered[0] // 13
    lo = ordered[0] % 13 + 1
    hi = lo + len(ordered) - 1  # 14 when the ace is high
    for left in range(0, 4):
        for right in range(0, 4):
            if not left and not right:
                continue
            start, end = lo - left, hi + right
            if start < 1 or end > 14 or end - start + 1 > 13:
                continue
            need = Counter(suit * 13 + (r - 1) % 13 for r in range(start, lo))
            need += Counter(suit * 13 + (r - 1) % 13 for r in range(hi + 1, end + 1))
            if any(avail[f] < n for f, n in need.items()):
                continue
            faces = [suit * 13 + (r - 1) % 13 for r in range(start, end + 1)]
            if meld_kind(faces) == "run":
                out.append(faces)
    out.sort(key=len)
    return out


def _remainder_ok(old_melds, frozen: set[int], added: list[int], so_counts: list[int]) -> bool:
    rest = [f for i, m in enumerate(old_melds) if i not in frozen for f in m] + added
    return feasible(counts_of(rest), so_counts)


def _closeness(faces: list[int]) -> set[int]:
    """Faces within two ranks in the same suit, or of the same rank, of the given faces."""
    out = set()
    for f in faces:
        s, r = divmod(f, 13)
        for dr in range(-2, 3):
            rr = r + dr
            out.add(s * 13 + rr % 13)
        for ss in range(4):
            out.add(ss * 13 + r)
    return out


def _meld_touch(meld: Sequence[int], near: set[int]) -> int:
    return sum(1 for f in meld if f in near)
