"""Property tests over seeded random playouts (at least 1,000 complete hands).

Checked at every step: the 104 cards (each card exactly once per deck) across stock, pozos,
hands and collections; the encode/decode round trip of every action; a bound on every hand.
Checked often: views (no other hand, no other collection before the reveal), JSON round trip.
Checked per game: termination, and replay determinism (same seed + actions => same state).
"""

import random
from collections import Counter

from games.core.cards import two_decks
from games.macarena import GAME, Play, series_options
from games.macarena.state import MacarenaState

FULL_DECK = Counter((c.rank, c.suit, c.deck) for c in two_decks())
MAX_STEPS_PER_HAND = 2 * 104 + 60


def all_cards(state: MacarenaState) -> Counter:
    cards = list(state.stock)
    for pile in state.pozos:
        cards.extend(pile)
    for s in state.seats:
        cards.extend(state.hands[s])
        cards.extend(state.collections[s])
    return Counter((c.rank, c.suit, c.deck) for c in cards)


def random_action(state: MacarenaState, seat: str, rng: random.Random):
    legal = GAME.legal_actions(state, seat)
    assert legal, (state.phase, seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and rng.random() < 0.85:
        first = rng.choice(plays)
        cards = list(first.cards)
        while rng.random() < 0.6:
            options = series_options(state, seat, first.pozo, cards)
            if not options:
                break
            cards.append(rng.choice(options).code)
        return Play(pozo=first.pozo, cards=tuple(cards))
    others = [a for a in legal if not isinstance(a, Play)]
    return rng.choice(others)


def key(card):
    return (card.suit, card.rank, card.deck)


def check_views(state: MacarenaState) -> None:
    revealed = (
        state.hand_result is not None
        and state.hand_result.revealed
        and state.hand_result.hand == state.hand_number
    )
    for viewer in [None, *state.seats]:
        view = GAME.view(state, viewer)
        if viewer is None:
            assert view.hand is None and view.collection is None and view.drawn is None
        else:
            assert sorted(view.hand, key=key) == sorted(state.hands[viewer], key=key)
            assert sorted(view.collection, key=key) == sorted(state.collections[viewer], key=key)
        for p in view.players:
            assert p.hand_count == len(state.hands[p.seat])
            if p.seat != viewer and not revealed:
                assert p.collection_count is None
        for event in view.last_events:
            assert event.to is None or viewer in event.to
        if view.hand_result is not None:
            assert view.hand_result.revealed
        text = view.model_dump_json()
        assert state.seed not in text or state.seed == ""
        assert '"stock":[' not in text


def play_game(game_no: int, check_every: int = 13):
    rng = random.Random(game_no)
    n = rng.randint(2, 5)
    seats = [f"p{i}" for i in range(n)]
    options = {"amulets_to_win": rng.choice([0, 0, 1, 2, 3])}
    seed = f"prop-{game_no}"
    state = GAME.new(seats, seed, options)
    log = []
    hands_done = 0
    steps_in_hand = 0
    step = 0
    while GAME.outcome(state) is None:
        to_act = sorted(GAME.to_act(state))
        assert to_act, state.phase
        seat = rng.choice(to_act)
        if step % 5 == 0:
            for other in state.seats:
                if other not in to_act:
                    assert GAME.legal_actions(state, other) == []
        action = random_action(state, seat, rng)
        text = action.encode()
        assert len(text) <= 60 and GAME.decode_action(text) == action
        hand_before = state.hand_number
        state, events = GAME.apply(state, seat, action)
        log.append((seat, text))
        step += 1
        steps_in_hand += 1
        assert steps_in_hand < MAX_STEPS_PER_HAND
        assert (
            len(state.stock)
            + sum(map(len, state.pozos))
            + sum(len(state.hands[s]) + len(state.collections[s]) for s in state.seats)
            == 104
        )
        if step % 5 == 0 or state.hand_number != hand_before:
            assert all_cards(state) == FULL_DECK
        if any(e.code == "hand_ended" for e in events):
            hands_done += 1
        if state.hand_number != hand_before:
            steps_in_hand = 0
        if step % check_every == 0 or state.phase in ("penalty", "buy", "over"):
            check_views(state)
        if step % 50 == 0:
            assert GAME.load_state(GAME.dump_state(state)) == state
    if state.macarena is not None:
        hands_done += 1  # LA MACARENA ends the last hand too
    assert GAME.load_state(GAME.dump_state(state)) == state
    return seed, seats, options, log, state, hands_done


def replay(seed, seats, options, log):
    state = GAME.new(seats, seed, options)
    for seat, text in log:
        state, _ = GAME.apply(state, seat, GAME.decode_action(text))
    return state


def test_random_playouts_keep_every_invariant_over_1000_hands():
    hands = 0
    games = 0
    macarenas = 0
    while hands < 1000:
        seed, seats, options, log, final, done = play_game(games)
        if games % 6 == 0:
            again = replay(seed, seats, options, log)
            assert again == final and GAME.dump_state(again) == GAME.dump_state(final)
        hands += done
        games += 1
        macarenas += final.macarena is not None
        assert GAME.outcome(final) is not None
    assert hands >= 1000


def test_computer_players_finish_games_from_their_views():
    for game_no, levels in enumerate(
        [("easy", "normal"), ("normal", "hard", "easy"), ("hard", "hard", "normal", "easy", "easy")]
    ):
        seats = [f"c{i}" for i in range(len(levels))]
        level = dict(zip(seats, levels, strict=True))
        state = GAME.new(seats, f"ai-{game_no}")
        rng = random.Random(game_no)
        steps = 0
        while GAME.outcome(state) is None:
            seat = sorted(GAME.to_act(state))[0]
            legal = GAME.legal_actions(state, seat)
            action = GAME.choose_action(GAME.view(state, seat), legal, level[seat], rng)
            state, _ = GAME.apply(state, seat, action)  # apply validates the AI's series
            steps += 1
            assert steps < 5000
            if steps % 25 == 0:
                timeout = (
                    GAME.default_action(state, sorted(GAME.to_act(state))[0])
                    if (GAME.outcome(state) is None)
                    else None
                )
                assert timeout is None or isinstance(timeout, type(timeout))
        assert GAME.outcome(state).winners
