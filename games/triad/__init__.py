"""Triple Triad (game key ``triad``): spec: ``docs/rules/triad.md``.

Creating a match: ``GAME.new(seats, seed, options, hands={seat: [5 card ids]})`` from the two
chosen hands (card ids of ``data/cards.json``). Under Mano mezclada pass
``collections={seat: {card id: quantity}}`` and the engine draws the five from the seed. A seat
with neither gets a seeded level-3 deck (tests, benches). ``cards.starter_set``, ``top_up``,
``random_hand``, ``deck_for_level`` and ``cpu_deck`` are pure helpers for collections and the
computer's decks.

Playing: ``legal_actions`` lists every card x empty cell as ``Play(slot, card, cell)``
(``p.{slot}.{card}.{cell}``). After the last placement, under Una and Diferencia the game waits
for the winner's ``PickCard(index, card)`` actions (``k.{index}.{card}``; ``to_act`` is the
winner, ``view.pick`` lists the loser's five with what is already picked); ``outcome`` is None
until then. The outcome is a ``TriadOutcome``: ``transfers`` lists each card that changes owner
(``CardTransfer(card, giver, receiver)``), ``winner`` (None on a draw), ``scores`` and ``rounds``
are typed fields; ``points`` are the final scores (cards).

Layout: ``actions`` (the two actions, ``CODEC``), ``state``, ``rules`` (flips, placements,
rounds, payout: pure functions), ``view`` (``build_view``; ``rules.outcome`` builds the ``TriadOutcome``),
``ai`` (the computer, from a view), ``search`` (the exact search of ``hard``), ``cards`` (the
catalogue), ``game`` (the wiring).

The decisions beyond the spec (Elemental boards, Pared, Sudden Death, Diferencia, Directo,
what is shown face up) are in ``docs/rules/triad.md``, "Decisions the engine made".
"""

from games.triad.actions import PickCard, Play
from games.triad.game import GAME, TriadGame
from games.triad.options import Options
from games.triad.rules import TriadOutcome
from games.triad.state import TriadState
from games.triad.view import TriadView

__all__ = [
    "GAME",
    "Options",
    "PickCard",
    "Play",
    "TriadGame",
    "TriadOutcome",
    "TriadState",
    "TriadView",
]
