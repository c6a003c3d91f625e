"""Table options: every variant of the Macarena spec."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Variant `amulets_to_win` (1–3). 0 keeps the published objective: 2 amulets with 2–3
    # players, 1 with 4–5.
    amulets_to_win: int = Field(default=0, ge=0, le=3)


def amulets_target(options: Options, players: int) -> int:
    if options.amulets_to_win:
        return options.amulets_to_win
    return 2 if players <= 3 else 1
