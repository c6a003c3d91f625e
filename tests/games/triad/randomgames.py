"""Seeded random Triple Triad games for property tests and benches."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from pydantic import ValidationError

from games.triad import GAME
from games.triad.cards import catalogue
from games.triad.options import Options
from games.triad.state import TriadState

SEATS = ["p1", "p2"]
CARD_IDS = [c.id for c in catalogue().cards]
RULE_FLAGS = ("same", "same_wall", "plus", "combo", "elemental")


def rule_sets() -> dict[str, dict[str, bool]]:
    """Every combination of the capture rules that ``Options`` accepts (its own validation
    decides: Pared needs Igual, Cadena needs Igual or Suma), by name ("basic", "same+plus"…)."""
    out = {}
    for bits in itertools.product((False, True), repeat=len(RULE_FLAGS)):
        rules = dict(zip(RULE_FLAGS, bits, strict=True))
        try:
            Options(**rules)
        except ValidationError:
            continue
        out["+".join(k for k in RULE_FLAGS if rules[k]) or "basic"] = rules
    return out


def random_options(rng: random.Random) -> dict:
    same = rng.random() < 0.5
    plus = rng.random() < 0.5
    return {
        "same": same,
        "same_wall": same and rng.random() < 0.5,
        "plus": plus,
        "combo": (same or plus) and rng.random() < 0.6,
        "elemental": rng.random() < 0.5,
        "open": rng.random() < 0.5,
        "random_hand": rng.random() < 0.15,
        "sudden_death": rng.random() < 0.5,
        "payout": rng.choice(["una", "diferencia", "directo", "todas"]),
    }


def random_hands(rng: random.Random, low_levels: bool = False) -> dict[str, list[str]]:
    pool = CARD_IDS[:33] if low_levels else CARD_IDS
    return {s: [rng.choice(pool) for _ in range(5)] for s in SEATS}


@dataclass
class Game:
    seed: str
    options: dict
    hands: dict[str, list[str]]
    states: list[TriadState] = field(default_factory=list)
    moves: list[tuple[str, object]] = field(default_factory=list)


def random_game(n: int, low_levels: bool = False) -> Game:
    """Game ``n``: random rules, hands and legal moves (low-level hands draw more often,
    which exercises Sudden Death)."""
    rng = random.Random(n)
    g = Game(seed=f"prop-{n}", options=random_options(rng), hands=random_hands(rng, low_levels))
    state = GAME.new(SEATS, g.seed, g.options, hands=g.hands)
    g.states.append(state)
    while GAME.outcome(state) is not None or GAME.to_act(state):
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        action = rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
        g.moves.append((seat, action))
        g.states.append(state)
    return g
