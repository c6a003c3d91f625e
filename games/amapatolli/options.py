"""Table options: every variant of the rules spec is one flat field."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    hand_size: int = Field(default=7, ge=3, le=7)
    """Cards dealt to each player (the source's "faster game" variant uses fewer)."""
    inverse_once: bool = False
    """An inverse card triggers the double play only once per player per game."""
    no_birds: bool = False
    """Birds (Cuauhtli, Cozcacuauhtli) are ordinary cards."""
    no_tlapiani: bool = False
    """The four Tlapiāni are removed (80 cards)."""
    powers: bool = False
    """Tochtli (rabbit) skips like a bird and Ollin (movement) reverses the order."""
