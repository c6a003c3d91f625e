"""What one seat (or the public) may see of a Chúpate 2 game, and how a finished one ended."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.chupate2.cards import sort_hand
from games.chupate2.options import Options, team_groups
from games.chupate2.state import Chupate2State, Reveal, RoundResult, Signals
from games.core import Event, Outcome, PlayerView
from games.core.engine import TURN, Seat
from games.core.fast import trusted


class PlusFourInfo(BaseModel):
    """The public side of a +4 waiting for an answer: who played it on which colour."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    by: Seat
    victim: Seat
    prev_colour: str
    by_hand_count: int


class Chupate2View(PlayerView):
    """Everything a presenter or a computer player needs, and nothing secret.

    - ``hand``: this seat's cards grouped by colour (empty for the public view);
      ``drawn_card``: the card it just drew and may play (phase ``drawn``).
    - ``hand_counts``: cards held by every seat; ``stock_count``; ``discard`` (bottom -> top,
      every card in it was played face up); ``top_card`` and ``colour`` (the colour in force).
    - ``direction``: +1 clockwise (increasing seat order), -1 counter-clockwise.
    - ``turn`` / ``phase``: whose turn and what it must do (see ``state.Phase``);
      ``pending_draw``: cards the seat at turn must take unless it stacks (or challenges);
      ``plus4``: the +4 awaiting ``plus4.victim``'s "¡Mentira!" / accept choice.
    - ``reveal``: the challenge reveal, only in the challenger's view, right after challenging.
    - ``teams`` (seat lists), ``team_of``; points game: ``target``, ``scores`` (per seat, solo),
      ``team_scores`` (per team), ``results`` (one per finished round), ``round``, ``dealer``.
    - ``last_card_called`` / ``exposed``: the "¡Última!" variant (``exposed``: every seat that
      went down to one card without calling and may still be caught, longest exposed first).
    - ``signals``: public table memory per seat (colours it drew on, colour it last named).
    - ``last_events``: the latest events this seat may see (public ones and its private ones),
      oldest first; ``last_event_versions[i]``: the state version ``last_events[i]`` produced
      (events with ``v == version`` came from the latest action).
    """

    hand: list[str]
    drawn_card: str | None
    hand_counts: dict[Seat, int]
    top_card: str
    colour: str | None
    direction: int
    turn: Seat | None = Field(validation_alias=TURN)  # None once finished
    phase: str
    pending_draw: int
    plus4: PlusFourInfo | None
    reveal: Reveal | None
    stock_count: int
    discard: list[str]
    round: int
    dealer: Seat
    starter: Seat
    options: Options
    target: int | None
    scores: dict[Seat, int]
    teams: list[list[Seat]] | None
    team_of: dict[Seat, int] | None
    team_scores: list[int] | None
    results: list[RoundResult]
    last_card_called: list[Seat]
    exposed: list[Seat]
    signals: dict[Seat, Signals]
    last_events: list[Event]
    last_event_versions: list[int]


class Chupate2Outcome(Outcome):
    """The result with what the presenter shows besides ranking and points.

    ``mode``: ``single`` (one round) or ``points`` (played to ``target``); ``rounds``: every
    round's result (winner, team, points, points left in each hand). Team games: ``teams`` (seat
    lists), ``winning_team`` (index) and ``team_scores`` (per team; the single round's points
    for the winning team, 0 for the others). ``points`` are per seat (a team's score for each
    member) and ``team_winners`` the winning team's seats.
    """

    mode: Literal["single", "points"]
    target: int | None = None
    rounds: list[RoundResult]
    teams: list[list[Seat]] | None = None
    winning_team: int | None = None
    team_scores: list[int] | None = None


def build_view(state: Chupate2State, seat: Seat | None) -> Chupate2View:
    seats = state.seats
    over = state.finished
    turn = None if over else seats[state.turn]
    own_hand = state.hands.get(seat) if seat is not None else None
    groups = team_groups(len(seats), state.options)
    teams = None if groups is None else [[seats[i] for i in g] for g in groups]
    team_of = None if teams is None else {s: t for t, ms in enumerate(teams) for s in ms}
    plus4 = None
    if state.plus4 is not None and state.phase == "challenge":
        p = state.plus4
        plus4 = trusted(
            PlusFourInfo,
            {
                "by": p.by,
                "victim": seats[state.turn],
                "prev_colour": p.prev_colour,
                "by_hand_count": len(p.hand),
            },
        )
    events, versions = state.visible_entries(seat)
    reveal = state.reveal if (state.reveal is not None and state.reveal.to == seat) else None
    # Built with ``trusted`` (no validation: every value comes from the state, with the field's
    # type; ``tests/games/test_contract.py`` checks a view is what validating its JSON gives).
    return trusted(
        Chupate2View,
        {
            "seat": seat,
            "version": state.version,
            "seats": list(seats),
            "to_act": [] if turn is None else [turn],
            "finished": over,
            "hand": [] if own_hand is None else sort_hand(own_hand),
            "drawn_card": (
                state.drawn
                if (own_hand is not None and state.phase == "drawn" and turn == seat)
                else None
            ),
            "hand_counts": {s: len(h) for s, h in state.hands.items()},
            "top_card": state.discard[-1],
            "colour": state.colour,
            "direction": state.direction,
            "turn": turn,
            "phase": state.phase,
            "pending_draw": state.pending,
            "plus4": plus4,
            "reveal": reveal,
            "stock_count": len(state.stock),
            "discard": list(state.discard),
            "round": state.round,
            "dealer": seats[state.dealer],
            "starter": seats[state.starter],
            "options": state.options,
            "target": state.options.target,
            "scores": dict(state.scores),
            "teams": teams,
            "team_of": team_of,
            "team_scores": None if teams is None else list(state.team_scores),
            "results": list(state.results),
            "last_card_called": list(state.called),
            "exposed": list(state.exposed),
            "signals": dict(state.signals),
            "last_events": events,
            "last_event_versions": versions,
        },
    )
