"""What the players see of a fair deal (the check itself: ``games/core/fairness.py``).

It is on every public table's render, so it reads the seal with ``games.core.fairness`` alone
(one module more on a click's path: ``tests/e2e/test_click_path.py``).

- While a game runs, its public table shows the commitment (short form in the field's name,
  in full in its value) and nothing else: the seed and the salt stay in the database.
- Once the game is over, the same field reveals seed and salt.
- ``/replay`` says whether the deal is verified (``replay_verdict``).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Translator, per_language
from bot.service import Table
from games.core.fairness import SEAL_META, Verdict, check_seal, seal_in, short


def commitment_line(table: Table, tr: Translator) -> tuple[str, str] | None:
    """(title, text) of the table's deal line: the commitment while the game runs, seed and
    salt once it is over; None for a table without a seal (started before deals were sealed)
    or not started."""
    sealed = seal_in(table.record.meta)
    if sealed is None or table.state is None:
        return None
    if table.game.outcome(table.state) is None:
        return _sealed(sealed.commitment, table.id, tr)  # the same line at every move
    return (
        tr("fair.revealed.name", short=short(sealed.commitment)),
        tr("fair.revealed.value", seed=table.record.seed, salt=sealed.salt, table=table.id),
    )


# Written once per table playing and language (bounded).
@per_language(maxsize=4096)
def _sealed(commitment: str, table_id: int, tr: Translator) -> tuple[str, str]:
    return (
        tr("fair.sealed.name", short=short(commitment)),
        tr("fair.sealed.value", commitment=commitment, table=table_id),
    )


def verdict_of(table: Table, first_state: str | None) -> Verdict:
    """The replay's check: the commitment recomputed from the revealed seed and the stored
    salt, and the deal re-dealt from the seed (``first_state``, by the replay's worker)
    compared with the deal stored at the start."""
    return check_seal(table.game, table.record.meta.get(SEAL_META), table.record.seed, first_state)


def replay_verdict(table: Table, first_state: str | None, tr: Translator) -> str:
    """The line ``/replay`` shows above a finished game: deal verified, or why not."""
    verdict = verdict_of(table, first_state)
    sealed = seal_in(table.record.meta)
    if verdict.verified and sealed is not None:
        return tr(
            "fair.verified",
            short=short(sealed.commitment),
            seed=table.record.seed,
            salt=sealed.salt,
        )
    kind = _reason_kind(verdict.reasons[0] if verdict.reasons else "", sealed)
    return tr("fair.not_verified", reason=tr(f"fair.reason.{kind}"))


def _reason_kind(reason: str, sealed: Any) -> str:
    if sealed is None:
        return "none"
    kind = reason.split(":", 1)[0]
    return kind if kind in ("commitment", "deal", "salt") else "deal"
