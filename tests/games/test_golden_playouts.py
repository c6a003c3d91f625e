"""The engines play exactly as ``main``'s did before the copy-on-write working copies, Chúpate 2's
slotted state and the bulk shuffle: the same moves, events and stored states (``golden_playouts.py``;
regenerated for issue 26's new action texts and ``turn`` field, and for its one event log, see
there)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.games import golden_playouts


def test_seeded_playouts_match_main_move_by_move():
    expected = json.loads((Path(__file__).parent / "golden_playouts.json").read_text())
    assert golden_playouts.digests() == expected
