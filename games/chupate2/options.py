"""Table options: every variant of the rules spec (chosen at /play)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict


class Options(BaseModel):
    """Chúpate 2 variants.

    - ``points``: ``off`` = single round (the first player out wins); ``50``/``150``/``300`` =
      rounds are dealt until a player (or team) reaches that many points.
    - ``teams``: ``off``; ``pairs`` = teams of 2 (4 players -> 2x2, 6 players -> 3x2);
      ``trios`` = teams of 3 (6 players -> 2x3). Team-mates sit alternately.
    - ``stack_plus4``: a Comodín +4 may be stacked on a +4 and on a Chúpate 2 stack.
    - ``last_card``: a "¡Última!" call (UNO-style) is required when going down to one card;
      another player who catches a missing call makes that player draw 2.
    - House rules: ``jump_in`` (play a card identical to the top at once, even out of turn);
      ``seven_o`` (a 7 swaps hands with a chosen player, a 0 passes every hand on);
      ``draw_until_playable`` (a draw goes on until a playable card comes).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    points: Literal["off", "50", "150", "300"] = "off"
    teams: Literal["off", "pairs", "trios"] = "off"
    stack_plus4: bool = False
    last_card: bool = False
    jump_in: bool = False
    seven_o: bool = False
    draw_until_playable: bool = False

    @property
    def target(self) -> int | None:
        return None if self.points == "off" else int(self.points)

    @property
    def team_size(self) -> int | None:
        return {"off": None, "pairs": 2, "trios": 3}[self.teams]


DEFAULT_OPTIONS = Options()  # frozen: shared by every game started without options

ALLOWED_PLAYER_COUNTS = (2, 3, 4, 6)
TEAM_PLAYER_COUNTS = {"pairs": (4, 6), "trios": (6,)}


def team_groups(n_players: int, options: Options) -> tuple[tuple[int, ...], ...] | None:
    """Seat indices per team: team-mates alternate (seat i is in team i mod number of teams)."""
    size = options.team_size
    if size is None:
        return None
    return _groups(n_players, size)


@lru_cache(maxsize=16)
def _groups(n_players: int, size: int) -> tuple[tuple[int, ...], ...]:
    n_teams = n_players // size
    return tuple(tuple(i for i in range(n_players) if i % n_teams == t) for t in range(n_teams))
