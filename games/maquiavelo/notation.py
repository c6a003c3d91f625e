"""Typed arrangements: ``7♥ 7♦ 7♠ | 3♠ 4♠ 5♠`` <-> ``Arrange``.

Groups are separated by ``|``, ``;``, ``/`` or new lines; cards by spaces or commas (or nothing:
``7♥7♦7♠``). A card is a rank (A, 2-10, T, J, Q, K; any case) and a suit (♠♥♦♣ or S H D C; the
emoji variation selector is ignored). Syntax errors raise ``IllegalAction``:

- ``arrangement_empty`` -- no card at all;
- ``arrangement_syntax`` (``token``, ``group``) -- something that is not a card.

Whether each group is a valid meld and whether the cards are the table's plus some of the
player's is decided by the engine (``invalid_meld``, ``table_card_missing``, ``card_not_in_hand``
...), because in the "estricto" variant a submitted wrong proposal has a cost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from games.core import IllegalAction
from games.core.cards import parse_card
from games.maquiavelo.actions import Arrange
from games.maquiavelo.cards import face_code, face_pretty
from games.maquiavelo.solver import face_of, normalise_meld

ARRANGEMENT_EMPTY = "arrangement_empty"
ARRANGEMENT_SYNTAX = "arrangement_syntax"

_GROUP_SEP = re.compile(r"[|;/\n]+")
_CARD = re.compile(r"(10|[2-9TJQKA])\s*([SHDC♠♥♦♣])", re.IGNORECASE)
_SKIP = re.compile(r"[\s,\ufe0f]+")


def parse_arrangement(text: str) -> Arrange:
    groups: list[tuple[str, ...]] = []
    for index, chunk in enumerate(_GROUP_SEP.split(text.replace("\r", "\n")), start=1):
        faces: list[str] = []
        pos = 0
        while pos < len(chunk):
            skip = _SKIP.match(chunk, pos)
            if skip:
                pos = skip.end()
                continue
            m = _CARD.match(chunk, pos)
            if not m:
                token = re.match(r"\S+", chunk[pos:])
                raise IllegalAction(
                    ARRANGEMENT_SYNTAX,
                    token=(token.group(0) if token else chunk[pos:])[:20],
                    group=len(groups) + 1,
                )
            c = parse_card(m.group(1) + m.group(2))
            faces.append(face_code(face_of(c.rank, c.suit)))
            pos = m.end()
        if faces:
            groups.append(tuple(faces))
        del index
    if not groups:
        raise IllegalAction(ARRANGEMENT_EMPTY)
    if len(groups) > 60 or sum(len(g) for g in groups) > 104:
        raise IllegalAction(ARRANGEMENT_SYNTAX, token="…", group=len(groups))
    return Arrange(groups=tuple(groups))


def format_arrangement(melds: Sequence[Sequence[int]], *, ids: bool = True) -> str:
    """Text for a modal's default value: ``7♥ 7♦ 7♠ | 3♠ 4♠ 5♠``. ``melds`` are card ids
    (``ids=True``) or faces."""
    out = []
    for meld in melds:
        faces = [c % 52 for c in meld] if ids else list(meld)
        out.append(" ".join(face_pretty(f) for f in normalise_meld(faces)))
    return " | ".join(out)
