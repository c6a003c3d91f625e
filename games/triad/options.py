"""The rules agreed before a Triple Triad match: every optional rule and the payout rule."""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, model_validator

Payout = Literal["una", "diferencia", "directo", "todas"]
PAYOUTS: tuple[str, ...] = ("una", "diferencia", "directo", "todas")
MAX_REMATCHES = 5  # Hasta la muerte: at most 5 rematches, then a draw


class RuleSet(NamedTuple):
    """The flip rules in force, as plain flags for ``rules.resolve`` and the computer's search."""

    same: bool = False
    same_wall: bool = False
    plus: bool = False
    combo: bool = False


class Options(BaseModel):
    """Flat fields (each becomes a slash-command option). All rules are off by default; the
    payout defaults to *Una*, the manual's basic payout rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    same: bool = False  # Igual
    same_wall: bool = False  # Pared (needs Igual)
    plus: bool = False  # Suma
    combo: bool = False  # Cadena (needs Igual or Suma)
    elemental: bool = False  # Elemental
    open: bool = False  # Abierto
    random_hand: bool = False  # Mano mezclada
    sudden_death: bool = False  # Hasta la muerte
    payout: Payout = "una"  # reglas de pago

    @model_validator(mode="after")
    def _combinations(self) -> Options:
        if self.same_wall and not self.same:
            raise ValueError("same_wall needs same")
        if self.combo and not (self.same or self.plus):
            raise ValueError("combo needs same or plus")
        return self

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet(self.same, self.same_wall, self.plus, self.combo)
