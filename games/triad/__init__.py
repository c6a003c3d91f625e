"""Triple Triad (game key ``triad``): see ``/work/shared/rules/triple_triad.md``.

``GAME.new(seats, seed, options, hands={seat: [5 card ids]})`` starts a match from two chosen
hands; the outcome's ``details["transfers"]`` lists the cards the payout moves.
"""

from games.triad.actions import PickCard, PlaceCard
from games.triad.game import TriadGame
from games.triad.options import Options
from games.triad.state import TriadState
from games.triad.view import TriadView

GAME = TriadGame()

__all__ = ["GAME", "Options", "PickCard", "PlaceCard", "TriadGame", "TriadState", "TriadView"]
