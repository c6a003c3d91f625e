"""What one seat (or the public, ``seat=None``) may see of a Macarena state, and the outcome.

``build_view`` is pure: it reads the state and never another seat's hand, the stock order or the
seed. Of the other collections it gives only what every seat watched being played (``shown``:
each card was shown face up on its way there); their counts wait for the reveal.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from games.core import Event, Outcome, PlayerView
from games.core.cards import PlayingCard
from games.core.engine import TURN
from games.core.fast import trusted
from games.macarena.elements import ELEMENTS, Element, sort_key
from games.macarena.options import amulets_target
from games.macarena.state import (
    MACAS_PER_PLAYER,
    EndReason,
    HandResult,
    MacarenaState,
    Phase,
)
from games.macarena.turns import TURN_PHASES, maca_sources, may_play_on, to_act

VIEW_EVENTS = 20


class PozoView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int  # 0–6 (shown as 1–7)
    top: PlayingCard
    size: int
    cards: list[PlayingCard]  # the whole pile, bottom .. top: every card was laid face up
    macas: dict[str, int]  # owner seat -> active MACAS on this pozo
    enchanted: bool
    shared: bool  # enchanted by two or more players
    playable: bool  # the viewing seat may play here now (its turn, play phase, allowed)


class PlayerInfo(BaseModel):
    # ``has_turn`` by name, or by ``current``, its name before issue 26
    model_config = ConfigDict(extra="forbid", validate_by_name=True)

    seat: str
    colour: int  # 0–4, index into the presenter's palette (catalogue macarena.colour.N)
    hand_count: int
    collection_count: int | None  # own seat, or everyone once a hand's collections are shown
    # The cards this player's series sent to its collection this hand, in the order played.
    # Each was shown face up in a play everyone watched (the public ``play`` / ``espejo_solo``
    # events), so a player who remembers every play knows them; the collection itself stays
    # face down (its count and the presenters' boards show nothing of it until the reveal).
    shown: list[PlayingCard] = Field(default_factory=list)
    coins: int
    elements: list[Element]
    amulets: int
    active_macas: int
    macas_left: int  # MACAS still in front of the player (7 - active)
    has_turn: bool = Field(validation_alias=AliasChoices("has_turn", "current"))


class MacarenaView(PlayerView):
    hand_number: int
    phase: Phase
    turn: str | None = Field(validation_alias=TURN)  # whose turn (draw / play / move_maca)
    espejo_turn: bool
    starter: str
    stock_count: int
    amulets_to_win: int
    pozos: list[PozoView]
    players: list[PlayerInfo]
    hand: list[PlayingCard] | None = None  # the viewing seat's hand, sorted
    collection: list[PlayingCard] | None = None  # the viewing seat's collection, sorted
    drawn: PlayingCard | None = None  # the card the viewing seat just drew
    choice: Literal["move_maca", "give_element", "buy_element"] | None = None
    maca_target: int | None = None
    maca_sources: list[int] = Field(default_factory=list)
    give_choices: list[Element] = Field(default_factory=list)
    buy_choices: list[Element] = Field(default_factory=list)
    last_events: list[Event] = Field(default_factory=list)  # public + the viewer's private
    hand_result: HandResult | None = None  # only once revealed (awards given)
    ending: EndReason | None = None  # set during the end-of-hand penalty (before the reveal)
    penalty_waiting: list[str] = Field(default_factory=list)
    buy_waiting: list[str] = Field(default_factory=list)
    winners: list[str] = Field(default_factory=list)
    macarena: str | None = None


class MacarenaOutcome(Outcome):
    """The core outcome plus what the presenter shows of the final standings.

    ``points`` are the amulets; ``stats`` are the leaderboard counters ``amulets`` (earned in
    this game; they are never lost) and ``macarenas``.
    """

    macarena: str | None = None  # the seat that achieved LA MACARENA, if the game ended so
    macarenas: dict[str, int] = Field(default_factory=dict)
    amulets: dict[str, int] = Field(default_factory=dict)
    elements: dict[str, list[Element]] = Field(default_factory=dict)
    coins: dict[str, int] = Field(default_factory=dict)
    hands: int = 1
    amulets_to_win: int = 0


def collections_revealed(state: MacarenaState) -> bool:
    """The current hand's collections are shown to all (awards given, hand not yet redealt)."""
    r = state.hand_result
    return r is not None and r.revealed and r.hand == state.hand_number


def build_view(state: MacarenaState, seat: str | None) -> MacarenaView:
    # Built with ``trusted`` (no validation: every value comes from the state, with the field's
    # type; ``tests/games/test_contract.py`` checks a view is what validating its JSON gives).
    in_game = seat is not None and seat in state.seats
    revealed = collections_revealed(state)
    turn_phase = state.phase in TURN_PHASES
    macas, seats = state.macas, state.seats
    placed: dict[str, int] = {}  # each seat's MACAS on the pozos, in one walk of them
    for on_pozo in macas:
        for owner, count in on_pozo.items():
            placed[owner] = placed.get(owner, 0) + count
    tokens, hands, collections = state.tokens, state.hands, state.collections
    turn = state.turn if turn_phase else -1
    players = []
    for i, s in enumerate(seats):
        t = tokens[s].__dict__
        active = placed.get(s, 0)
        collection = collections[s]
        players.append(
            trusted(
                PlayerInfo,
                {
                    "seat": s,
                    "colour": i,
                    "hand_count": len(hands[s]),
                    "collection_count": (len(collection) if (s == seat or revealed) else None),
                    # every card there was shown (see PlayerInfo)
                    "shown": list(collection),
                    "coins": t["coins"],
                    "elements": list(t["elements"]),
                    "amulets": t["amulets"],
                    "active_macas": active,
                    "macas_left": MACAS_PER_PLAYER - active,
                    "has_turn": i == turn,
                },
            )
        )
    # ``may_play_on`` for the viewing seat, on its turn of the play phase only (else none)
    mover = seat if in_game and state.phase == "play" and seats[state.turn] == seat else None
    pozos = []
    for i, pile in enumerate(state.pozos):
        owners = macas[i]
        pozos.append(
            trusted(
                PozoView,
                {
                    "index": i,
                    "top": pile[-1],
                    "size": len(pile),
                    "cards": list(pile),
                    "macas": dict(owners),
                    "enchanted": bool(owners),
                    "shared": len(owners) >= 2,
                    "playable": mover is not None and may_play_on(state, mover, i),
                },
            )
        )
    own: dict[str, object] = {}  # the viewing seat's own fields (their defaults for the others)
    if seat is not None and in_game:
        own["hand"] = sorted(state.hands[seat], key=sort_key)
        own["collection"] = sorted(state.collections[seat], key=sort_key)
        if state.phase == "play" and state.seats[state.turn] == seat:
            own["drawn"] = state.drawn
        if state.phase == "move_maca" and state.seats[state.turn] == seat:
            own["choice"] = "move_maca"
            own["maca_target"] = state.maca_target
            own["maca_sources"] = maca_sources(state)
        elif state.phase == "penalty" and seat in state.penalty_pending:
            own["choice"] = "give_element"
            own["give_choices"] = [e for e in ELEMENTS if e in state.tokens[seat].elements]
        elif state.phase == "buy" and seat in state.buy_pending:
            own["choice"] = "buy_element"
            own["buy_choices"] = [e for e in ELEMENTS if e not in state.tokens[seat].elements]
    result = state.hand_result
    return trusted(
        MacarenaView,
        {
            "seat": seat,
            "version": state.version,
            "seats": list(state.seats),
            "to_act": sorted(to_act(state), key=state.seats.index),
            "finished": state.finished,
            "hand_number": state.hand_number,
            "phase": state.phase,
            "turn": (state.seats[state.turn] if turn_phase else None),
            "espejo_turn": state.espejo_turn,
            "starter": state.seats[state.starter],
            "stock_count": len(state.stock),
            "amulets_to_win": amulets_target(state.options, len(state.seats)),
            "pozos": pozos,
            "players": players,
            "hand": own.get("hand"),
            "collection": own.get("collection"),
            "drawn": own.get("drawn"),
            "choice": own.get("choice"),
            "maca_target": own.get("maca_target"),
            "maca_sources": own.get("maca_sources", []),
            "give_choices": own.get("give_choices", []),
            "buy_choices": own.get("buy_choices", []),
            "last_events": state.latest_visible(seat, VIEW_EVENTS),
            "hand_result": result if result and result.revealed else None,
            "ending": (result.reason if state.phase == "penalty" and result is not None else None),
            "penalty_waiting": list(state.penalty_pending),
            "buy_waiting": list(state.buy_pending),
            "winners": list(state.winners),
            "macarena": state.macarena,
        },
    )
