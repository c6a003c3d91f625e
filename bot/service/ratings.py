"""Ratings: openskill's Plackett-Luce model over the engine's ranking.

Why Plackett-Luce (one of openskill's Weng-Lin Bayesian models): every game here is a free-for-
all ranking of 2-6 sides (or teams), with ties. Plackett-Luce rates a whole ranking at once in
time linear in the number of sides, handles ties and teams natively, and is openskill's default
and best-tested model; the pairwise Bradley-Terry/Thurstone-Mosteller variants cost O(n^2) and
treat a 6-player result as 15 independent duels.

Policies (each one short, and the reason beside it):
- Chúpate 2 team games are rated as teams (``Outcome.teams``): the team's sides share a place.
- Computer seats have a fixed rating per level (``CPU_SKILLS``): they count in the maths, so
  beating ``hard`` is worth more than beating ``easy``, but their rating never moves. A person
  whose seat the computer took (left, timed out, kicked) is still rated as that person.
- Games with house rules on (``HOUSE_RULES``: Chúpate 2's jump-in, 7-0, draw-until-playable)
  are not rated (their standings still count): those rules change the luck/skill mix, and a
  pool per combination would hold too few games to mean anything. The published variants
  (points, teams, hand sizes, Triple Triad's rules...) are the game as designed and are rated.
- A game needs two sides and a person to be rated.
Ratings exist per (place, game) and globally per game; a guild that opts out of the global board
(``/settings``) has its games rated in its own pool only. A place is ``bot/places.py``'s scope: a
server (with the bot or without it: one community, one pool) or a group DM (``channel:<id>``,
its own pool). A group DM's games never reach the global board: it is a private place whose
members cannot opt out (no ``/settings`` there), and the global board is the one view across
places (``storage/ratings.py``'s ``PRIVATE_SCOPE_PREFIX``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from bot.service.choose import GameRef, game_ref, resolve
from bot.service.models import Table, is_human_id
from bot.service.versions import engine_version
from bot.workers import Workers
from games.core import Game, Outcome
from storage import (
    GLOBAL,
    RATED,
    Database,
    FinishedGame,
    FinishedRow,
    RatingsRepo,
    Skill,
    TablesRepo,
)

MODEL = PlackettLuce()
INITIAL: Skill = (MODEL.mu, MODEL.sigma)
CPU_SIGMA = 1.0
CPU_SKILLS: dict[str, Skill] = {
    "easy": (18.0, CPU_SIGMA),
    "normal": (25.0, CPU_SIGMA),
    "hard": (32.0, CPU_SIGMA),
}
HOUSE_RULES: dict[str, frozenset[str]] = {
    "chupate2": frozenset({"jump_in", "seven_o", "draw_until_playable"}),
}


def rate(teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
    """New skills of ``teams`` after a game where they placed ``ranks`` (0 best)."""
    rated = MODEL.rate(
        [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def house_rules_on(game_key: str, options: dict[str, Any]) -> list[str]:
    return sorted(name for name in HOUSE_RULES.get(game_key, ()) if options.get(name))


def stored_outcome(outcome: Outcome) -> dict[str, Any]:
    """What is kept of an outcome: enough to list it and to rate it again."""
    teams = getattr(outcome, "teams", None)
    return {
        "ranking": [list(group) for group in outcome.ranking],
        "points": dict(outcome.points),
        "teams": [list(t) for t in teams] if teams else None,
    }


def sides(outcome: dict[str, Any], seats: Sequence[str]) -> tuple[list[list[str]], list[int]]:
    """The rating sides (teams, or one seat each) and their places, from a stored outcome."""
    place = {s: i for i, group in enumerate(outcome["ranking"]) for s in group}
    teams = outcome.get("teams") or [[s] for s in seats]
    ranks = [min(place.get(s, len(outcome["ranking"])) for s in team) for team in teams]
    return [list(t) for t in teams], ranks


def finished_game(
    table_id: int,
    guild_id: str,
    game_key: str,
    options: dict[str, Any],
    seats: Sequence[tuple[str, str | None]],
    outcome: dict[str, Any],
    engine: str,
) -> FinishedGame:
    """The final transaction's record of a game; ``seats`` are (seat id, computer level or
    None) in seat order."""
    seat_ids = [s for s, _ in seats]
    teams, ranks = sides(outcome, seat_ids)
    people = [s for s in seat_ids if is_human_id(s)]
    fixed = {s: CPU_SKILLS.get(level or "normal", CPU_SKILLS["normal"]) for s, level in seats}
    fixed = {s: skill for s, skill in fixed.items() if not is_human_id(s)}
    reason = RATED
    if house_rules_on(game_key, options):
        reason = "house_rules"
    elif not people or len(teams) < 2:
        reason = "no_opponent"
    return FinishedGame(
        table_id=table_id,
        guild_id=guild_id,
        game=game_key,
        engine=engine,
        outcome=outcome,
        players=people,
        rated=reason,
        teams=teams,
        ranks=ranks,
        fixed=fixed,
        initial=INITIAL,
    )


def finished_table(table: Table, outcome: Outcome) -> FinishedGame:
    """The record of ``table``'s game, which just ended with ``outcome``."""
    record = table.record
    state_seats = list(table.state.seats) if table.state is not None else []
    levels = {s.id: s.cpu_level for s in record.seats}
    return finished_game(
        record.id,
        record.guild_id,
        record.game,
        record.options,
        [(s, levels.get(s)) for s in state_seats or levels],
        stored_outcome(outcome),
        engine_version(record.game),
    )


# ----- the stored outcomes again: recomputation (checks) and the backfill ---------------------
def recompute(rows: Sequence[FinishedRow]) -> dict[tuple[str, str, str], tuple[float, float, int]]:
    """Every rating from the stored outcomes alone, in finishing order: (scope, game, user) ->
    (mu, sigma, games). Equal to the ``ratings`` table when every final transaction rated right."""
    found: dict[tuple[str, str, str], tuple[float, float, int]] = {}
    for row in rows:
        if row.rated != RATED:
            continue
        seats = [(str(s["id"]), s.get("cpu_level")) for s in row.seats]
        game = finished_game(
            row.table_id, row.guild_id, row.game, {}, seats, row.outcome, row.engine
        )
        for scope in [row.guild_id, *([GLOBAL] if row.global_ else [])]:
            skills = [
                [
                    game.fixed.get(s) or found.get((scope, row.game, s), (*INITIAL, 0))[:2]
                    for s in team
                ]
                for team in game.teams
            ]
            for team, new in zip(game.teams, rate(skills, game.ranks), strict=True):
                for seat, (mu, sigma) in zip(team, new, strict=True):
                    if seat in game.fixed:
                        continue
                    played = found.get((scope, row.game, seat), (0.0, 0.0, 0))[2]
                    found[(scope, row.game, seat)] = (mu, sigma, played + 1)
    return found


def outcome_of_state(game: GameRef, state_json: str) -> dict[str, Any] | None:
    """The stored outcome of a finished game from its final snapshot (in a worker process: a
    module-level function of plain data)."""
    engine = resolve(game)
    outcome = engine.outcome(engine.load_state(state_json))
    return stored_outcome(outcome) if outcome is not None else None


async def backfill(db: Database, games: Mapping[str, Game], workers: Workers) -> int:
    """Record and rate every finished game that predates the ratings (from its final snapshot,
    which equals its replay), in the order they finished. Returns how many were recorded; run
    at start-up before any table moves, so the order is the finishing order."""
    ratings, tables = RatingsRepo(db), TablesRepo(db)
    pending = await ratings.unrecorded_finished()
    found: list[FinishedGame] = []
    for table_id, _guild, game_key, state_json in pending:
        record = await tables.get(table_id)
        if record is None or game_key not in games:
            continue
        outcome = await workers.run(outcome_of_state, game_ref(games[game_key]), state_json)
        if outcome is None:
            continue
        seats = [(s.id, s.cpu_level) for s in record.seats]
        order = [str(s) for s in json.loads(state_json).get("seats", [])] or [s for s, _ in seats]
        levels = dict(seats)
        found.append(
            finished_game(
                record.id,
                record.guild_id,
                game_key,
                record.options,
                [(s, levels.get(s)) for s in order],
                outcome,
                "",  # played before engine versions were stored
            )
        )
    if found:
        await ratings.record(found, rate)
    return len(found)
