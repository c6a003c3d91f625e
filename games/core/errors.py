"""Typed errors with codes: the bot translates codes, engines never write sentences."""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):
    """An action that the rules do not allow in this state.

    `code` is a stable machine-readable reason (e.g. ``not_your_turn``) and ``params`` carry the
    values a translated message needs. The engine's ``apply`` raises it for anything forged,
    stale or simply against the rules.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, IllegalAction)
            and other.code == self.code
            and other.params == self.params
        )

    def __hash__(self) -> int:
        return hash(self.code)


# Codes every engine shares, so the bot has one translation for each.
NOT_YOUR_TURN = "not_your_turn"
NOT_A_PLAYER = "not_a_player"
GAME_OVER = "game_over"
BAD_ACTION = "bad_action"
BAD_OPTIONS = "bad_options"  # Game.parse_options: options the game's model refuses (``reason``)
PLAYER_COUNT = "player_count"  # Game.new: a seat count outside min_players..max_players
DUPLICATE_SEAT = "duplicate_seat"
NOBODY_CAN_MOVE = "nobody_can_move"  # a search asked to play where no seat may act
