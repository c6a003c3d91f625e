"""Triple Triad (game key ``triad``): ``/work/shared/rules/triple_triad.md``.

Creating a match: ``GAME.new(seats, seed, options, hands={seat: [5 card ids]})`` from the two
chosen hands (card ids of ``data/cards.json``). Under Mano mezclada pass
``collections={seat: {card id: quantity}}`` and the engine draws the five from the seed. A seat
with neither gets a seeded level-3 deck (tests, benches). ``cards.starter_set``, ``top_up``,
``random_hand``, ``deck_for_level`` and ``cpu_deck`` are pure helpers for collections and the
computer's decks.

Playing: ``legal_actions`` lists every card x empty cell as ``PlaceCard(slot, card, cell)``
(``p.{slot}.{card}.{cell}``). After the last placement, under Una and Diferencia the game waits
for the winner's ``PickCard(index, card)`` actions (``k.{index}.{card}``; ``to_act`` is the
winner, ``view.pick`` lists the loser's five with what is already picked); ``outcome`` is None
until then. The outcome is a ``TriadOutcome``: ``transfers`` lists each card that changes owner
(``CardTransfer(card, giver, receiver)``), ``winner`` (None on a draw), ``scores`` and ``rounds``
are typed fields; ``points`` are the final scores (cards).

Layout: ``actions`` (the two actions, ``CODEC``), ``state``, ``rules`` (flips, placements,
rounds, payout: pure functions), ``view`` (``build_view``, ``build_outcome``, ``TriadOutcome``),
``ai`` (the computer, from a view), ``search`` (the exact search of ``hard``), ``cards`` (the
catalogue), ``game`` (the wiring).

Decisions beyond the spec:
- Elemental: 1-4 cells (uniformly) get an element, each drawn among the eight; a new board is
  drawn for every Sudden Death rematch. Modified values above 10 show as "A+".
- Pared counts a wall as a match only for a printed A facing it; a Pared-Igual must still take
  at least one opponent card (walls alone take nothing).
- Sudden Death: each new round draws its first player again at random; hands keep the order
  "cards on the board of your colour (cell order), then the one left in hand". Cards seen on
  the board stay visible in the view of a later round even without Abierto.
- Diferencia: the winner picks the score difference, at most the loser's five cards.
- Directo: a card ends with the side whose colour it shows on the board, or whose hand holds it;
  every card whose original owner differs moves (on a draw too, also after 5 rematches).
- The hands are shown face up to everyone once the game is over, and the loser's five are shown
  to everyone while the winner picks.
"""

from games.triad.actions import PickCard, PlaceCard
from games.triad.game import TriadGame
from games.triad.options import Options
from games.triad.state import TriadState
from games.triad.view import TriadOutcome, TriadView

GAME = TriadGame()

__all__ = [
    "GAME",
    "Options",
    "PickCard",
    "PlaceCard",
    "TriadGame",
    "TriadOutcome",
    "TriadState",
    "TriadView",
]
