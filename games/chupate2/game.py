"""The Chúpate 2 engine object: its modules as one ``RulesGame`` (spec: docs/rules/chupate2.md)."""

from __future__ import annotations

from games.chupate2 import ai, rules, view
from games.chupate2.actions import CODEC, Chupate2Action
from games.chupate2.options import Options
from games.chupate2.state import Chupate2State
from games.chupate2.view import Chupate2View
from games.core.rules import Parts, RulesGame, Spec


class Chupate2Game(RulesGame[Chupate2State, Chupate2Action, Chupate2View, Options]):
    spec = Spec("chupate2", "Chúpate 2", players=(2, 6))
    parts = Parts(rules, view, ai, CODEC)


GAME = Chupate2Game()
