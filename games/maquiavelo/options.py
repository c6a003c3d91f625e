"""Table options: every variant of the Maquiavelo spec."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

NUM_HELPERS = 4
AYUDA_HAND_SIZE = 6


class Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # 0 = automatic: 11 for up to 4 players, floor(104 * 0.6 / players) (3..11) for more,
    # 6 with "ayuda"; otherwise the number of cards dealt to each player (3..11).
    hand_size: int = Field(default=0, ge=0, le=11)
    # the source's alternative version: 6 cards each, 4 face-up helpers usable only in sets
    ayuda: bool = False
    # a rejected proposal costs 3 cards from the stock and ends the turn
    estricto: bool = False

    @model_validator(mode="after")
    def _check(self) -> Options:
        if self.hand_size and self.hand_size < 3:
            raise ValueError("hand_size must be 0 (automatic) or 3..11")
        return self

    def cards_per_player(self, players: int) -> int:
        if self.hand_size:
            return self.hand_size
        if self.ayuda:
            return AYUDA_HAND_SIZE
        return default_hand_size(players)


def default_hand_size(players: int) -> int:
    if players <= 4:
        return 11
    return max(3, min(11, (104 * 6) // (10 * players)))
