"""The Macarena engine (game key ``macarena``): the whole multi-hand match is one state.

Its modules as one ``RulesGame``: the rules are in ``rules.py``, the views in ``view.py``, the
computer in ``ai.py``.
"""

from __future__ import annotations

from games.core.rules import Parts, RulesGame, Spec
from games.macarena import ai, rules, view
from games.macarena.actions import CODEC, MacarenaAction
from games.macarena.options import Options
from games.macarena.state import MacarenaState
from games.macarena.view import MacarenaView


class MacarenaGame(RulesGame[MacarenaState, MacarenaAction, MacarenaView, Options]):
    spec = Spec("macarena", "Macarena", players=(2, 5))
    parts = Parts(rules, view, ai, CODEC)


GAME = MacarenaGame()
