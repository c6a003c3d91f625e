"""The contract spec of Triple Triad (``tests/games/test_contract.py``).

``new`` gets no hands here (the contract test passes only options), so each seat plays a seeded
level-3 deck (``cards.deck_for_level``): five distinct cards, which also keeps ``legal_actions``
complete (it lists one slot per (card, original owner), and one owner never holds a card twice
here). Chosen hands, collections and Mano mezclada's draws are covered by the property tests.
"""

from __future__ import annotations

import json

from games.core import GameState, PlayerView
from games.triad import GAME, TriadState, TriadView
from games.triad.options import MAX_REMATCHES
from tests.games.contract import ContractSpec

HAND = 5

# Every optional rule and every payout rule, each in at least one set; Hasta la muerte with each
# payout that settles differently after a rematch (a pick, Directo by colour, Todas).
OPTION_SETS: list[dict[str, object]] = [
    {},
    {"same": True, "same_wall": True, "combo": True, "payout": "diferencia"},
    {"plus": True, "combo": True, "elemental": True, "payout": "directo"},
    {"open": True, "random_hand": True, "sudden_death": True, "payout": "todas"},
    {"sudden_death": True, "payout": "una"},
    {"same": True, "plus": True, "elemental": True, "sudden_death": True, "payout": "directo"},
    {
        "same": True,
        "same_wall": True,
        "plus": True,
        "combo": True,
        "elemental": True,
        "open": True,
        "sudden_death": True,
        "payout": "diferencia",
    },
]


def triad_invariant(state: GameState) -> None:
    assert isinstance(state, TriadState)
    assert len(state.seats) == 2 and len(state.board) == 9 and len(state.elements) == 9
    assert [len(o) for o in state.originals] == [HAND, HAND]
    assert sum(state.scores()) == 10
    # The ten cards of the match, each once, each the card its uid names.
    held = [(p.uid, p.card) for p in state.board if p is not None]
    held += [(h.uid, h.card) for hand in state.hands for h in hand]
    assert sorted(uid for uid, _ in held) == list(range(2 * HAND))
    assert all(state.originals[uid // HAND][uid % HAND] == card for uid, card in held)
    empty = sum(1 for p in state.board if p is None)
    assert sum(len(h) for h in state.hands) == empty + 1
    assert set(state.revealed) >= {p.uid for p in state.board if p is not None}
    assert state.revealed == sorted(set(state.revealed))
    assert 0 <= state.round <= (MAX_REMATCHES if state.options.sudden_death else 0)
    if not state.options.elemental:
        assert state.elements == [None] * 9
    if state.phase == "play":
        assert state.winner is None and state.turn in (0, 1) and empty > 0
        assert len(state.history) == state.round
    else:
        assert empty == 0 and len(state.history) == state.round + 1
        scores = state.scores()
        if state.winner is None:
            assert scores[0] == scores[1] and state.phase == "over" and not state.picks
        else:
            assert scores[state.winner] > scores[1 - state.winner]
    loser_uids = (
        set() if state.winner is None else {(1 - state.winner) * HAND + i for i in range(5)}
    )
    assert len(set(state.picks)) == len(state.picks) and set(state.picks) <= loser_uids
    if state.phase == "pick":
        assert state.options.payout in ("una", "diferencia")
        assert len(state.picks) < state.picks_required <= HAND


def triad_hands_hidden(state: GameState, viewer: str | None, view: PlayerView) -> None:
    """A hand card shows only to its holder, under Abierto, once seen on the board, or once the
    game is over; a hidden card's id appears nowhere in the view unless it shows elsewhere."""
    assert isinstance(state, TriadState) and isinstance(view, TriadView)
    visible = {cv.card.card for cv in view.board if cv.card is not None}
    visible |= {f.card for faces in view.hands.values() for f in faces if f is not None}
    if view.pick is not None:  # the loser's five show to everyone while the winner picks
        visible |= {c.face.card for c in view.pick.choices}
    if view.last_move is not None:
        visible.add(view.last_move.card)
    visible |= {t.card for t in view.transfers}
    dumped = json.dumps(view.model_dump(mode="json"))
    for s, seat in enumerate(state.seats):
        faces = view.hands[seat]
        assert len(faces) == len(state.hands[s]) == view.hand_counts[seat]
        for face, card in zip(faces, state.hands[s], strict=True):
            shown = (
                seat == viewer
                or state.options.open
                or state.phase == "over"
                or card.uid in state.revealed
            )
            assert (face is not None) == shown, (viewer, seat, card)
            if face is not None:
                assert face.card == card.card and face.uid == card.uid
            elif card.card not in visible:
                assert f'"{card.card}"' not in dumped, (viewer, seat, card)


SPEC = ContractSpec(
    game=GAME,
    option_sets=OPTION_SETS,
    player_counts=[1, 2, 3],  # only 2 plays; 1 and 3 are left out by the contract test
    invariant=triad_invariant,
    assert_hidden=triad_hands_hidden,
    max_steps=9 * (MAX_REMATCHES + 1) + HAND,  # every round drawn, then five picks
    playouts=6,  # random play draws now and then, so Sudden Death rematches get played
)
