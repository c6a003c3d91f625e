"""Ce Amapatolli: match the last card by margin or background colour; first out wins."""

from games.amapatolli.game import GAME, AmapatolliGame

__all__ = ["GAME", "AmapatolliGame"]
