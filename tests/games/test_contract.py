"""One contract test for every game (OpenSpiel's random_sim_test idea).

Every game with a ``tests/games/<game>/spec.py`` defining ``SPEC`` (a ``ContractSpec``), plus the
toy game of ``tests/bot/toy_game.py``, is played in seeded random playouts for each option set ×
player count it declares. At every step the playout checks: the game's own invariant; views of
every seat and of the public (the game's secrecy check, plus: the seed never shows, the view's
header fields match the state, a view is what validating its JSON gives); JSON round trip;
``is_over`` agreeing with ``outcome``; every seat in ``to_act`` holding a legal action; legal
actions round-tripping through their text (which fits ``games.core.actions.ACTION_TEXT`` and a
custom_id's ``MAX_ACTION_TEXT``); ``apply`` leaving its input untouched. On a share of the steps
(``SPEC.extra["forge_rate"]``) it also tries forged actions — a non-player seat, another seat's
turn action, garbage texts, another game's action — which must all raise ``IllegalAction`` and
leave the state as it was, and it checks the timeout move (``default_action``). At the end:
termination within ``SPEC.max_steps``, ``GAME_OVER`` refusals, an ``Outcome`` ranking every seat
once, and replay determinism (``new`` + the recorded action texts gives the same final state).
"""

from __future__ import annotations

import importlib
import json
import random
import re
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.registry import GAME_KEYS, load_games
from games.core import Action, Event, GameState, IllegalAction, Outcome
from games.core.actions import ACTION_TEXT, MAX_ACTION_TEXT
from games.core.errors import BAD_ACTION, GAME_OVER, NOT_A_PLAYER
from tests.bot.toy_game import Take
from tests.games.contract import ContractSpec

HERE = Path(__file__).resolve().parent
TOY_SPEC_MODULE = "tests.games.toy_spec"
NON_PLAYER = "intruder:99"
DEFAULT_FORGE_RATE = 0.1
DEFAULT_ROUNDTRIP_SAMPLE = 8
DEFAULT_CALLOUT_RATE = 0.2


class Foreign(Action):
    """An action of no real game: every game must refuse it as ``BAD_ACTION``."""

    verb: ClassVar[str] = "foreign"
    n: int = 1


FOREIGN_ACTIONS: tuple[Action, ...] = (Foreign(), Take(n=1))

# Texts outside the grammar: decoding them must raise IllegalAction (and nothing else).
UNPARSABLE_TEXTS = [
    "",
    ".",
    "p.",
    ".p",
    "p..1",
    "P",
    "p 1",
    " p",
    "p\n",
    "p:1",
    "t:1:2:p",
    "p.é",
    "é",
    "\x00",
    "🂡",
    "p.1.🂡",
    "x" * (MAX_ACTION_TEXT + 1),
    "p." + "1" * 10_000,
]
# Texts inside the grammar that are no game's action, or are one with nonsense arguments.
WRONG_ARGS = ["zz", "-1", "0", "999999999", "Z" * 40, "a_b+c-d", "1.2.3.4.5.6.7.8"]


# ----- discovery -----------------------------------------------------------------------------


def _spec_modules() -> dict[str, str]:
    modules = {"toy": TOY_SPEC_MODULE}
    for path in sorted(HERE.glob("*/spec.py")):
        modules[path.parent.name] = f"tests.games.{path.parent.name}.spec"
    return modules


def _load_specs() -> tuple[dict[str, ContractSpec], dict[str, str]]:
    specs: dict[str, ContractSpec] = {}
    errors: dict[str, str] = {}
    for key, module in _spec_modules().items():
        try:
            spec = importlib.import_module(module).SPEC
            if not isinstance(spec, ContractSpec):
                raise TypeError(f"{module}.SPEC is a {type(spec).__name__}, not a ContractSpec")
        except Exception:  # reported by test_spec_loads, so one broken game fails alone
            errors[key] = traceback.format_exc()
        else:
            specs[key] = spec
    return specs, errors


SPECS, SPEC_ERRORS = _load_specs()


def seats_for(count: int) -> list[str]:
    """Opaque seats the way the bot makes them: Discord user ids and CPU ids, mixed."""
    return [str(10**17 + 7919 * i) if i % 2 == 0 else f"cpu:{i}" for i in range(count)]


def _options_id(options: dict[str, Any]) -> str:
    """``key:value+key:value``, in characters ``pytest -k`` accepts."""
    if not options:
        return "default"
    parts = [f"{key}:{json.dumps(value, default=str)}" for key, value in sorted(options.items())]
    return re.sub(r"[^\w:+.-]", "", "+".join(parts))[:60]


@dataclass(frozen=True)
class Case:
    key: str
    option_index: int
    players: int
    playout: int

    @property
    def spec(self) -> ContractSpec:
        return SPECS[self.key]

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.spec.option_sets[self.option_index])

    @property
    def seed(self) -> str:
        return f"contract-{self.key}-{self.option_index}-{self.players}-{self.playout}"

    def __str__(self) -> str:
        opts = _options_id(self.spec.option_sets[self.option_index])
        return f"{self.key}-{opts}-{self.players}p-{self.playout}"


def _allowed(spec: ContractSpec, options: dict[str, Any], players: int) -> bool:
    """Whether ``options`` can be played by ``players`` (``new`` refusing the count: no)."""
    try:
        spec.game.new(seats_for(players), "contract-probe", dict(options))
    except IllegalAction:
        return False
    except Exception:  # let the playout test show the error
        return True
    return True


def _cases() -> Iterator[Case]:
    for key, spec in SPECS.items():
        for index, options in enumerate(spec.option_sets):
            for players in spec.player_counts:
                if _allowed(spec, options, players):
                    for playout in range(spec.playouts):
                        yield Case(key, index, players, playout)


CASES = list(_cases())


# ----- the specs themselves ------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(_spec_modules()))
def test_spec_loads(key: str):
    assert key not in SPEC_ERRORS, f"{_spec_modules()[key]} did not load:\n{SPEC_ERRORS[key]}"
    spec = SPECS[key]
    assert spec.option_sets and spec.player_counts and spec.playouts > 0
    dead = [
        options
        for options in spec.option_sets
        if not any(_allowed(spec, options, n) for n in spec.player_counts)
    ]
    assert dead == [], f"option sets playable at none of {list(spec.player_counts)} players"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_registered_game_has_its_spec(key: str):
    assert key in _spec_modules(), f"no tests/games/{key}/spec.py defining SPEC"
    assert key in SPECS, f"tests/games/{key}/spec.py did not load (see test_spec_loads)"
    game = SPECS[key].game
    assert game.key == key
    registered = load_games((key,)).get(key)
    assert registered is not None, f"games.{key} exposes no GAME"
    assert type(registered) is type(game)


@pytest.mark.parametrize("key", sorted(SPECS))
def test_player_count_bounds(key: str):
    game = SPECS[key].game
    options = dict(SPECS[key].option_sets[0])
    for count in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(IllegalAction):
            game.new(seats_for(max(count, 0)), "contract-bounds", dict(options))
    duplicated = seats_for(game.min_players)
    duplicated[-1] = duplicated[0]
    with pytest.raises(IllegalAction):
        game.new(duplicated, "contract-bounds", dict(options))


# ----- one playout -----------------------------------------------------------------------------


class Playout:
    """One seeded random playout of a case, checking the contract at every step."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.spec = case.spec
        self.game = case.spec.game
        self.rng = random.Random(case.seed)
        extra = self.spec.extra
        self.forge_rate = float(extra.get("forge_rate", DEFAULT_FORGE_RATE))
        self.roundtrip_sample = int(extra.get("roundtrip_sample", DEFAULT_ROUNDTRIP_SAMPLE))
        self.callout_rate = float(extra.get("callout_rate", DEFAULT_CALLOUT_RATE))
        self.seats = seats_for(case.players)
        self.history: list[tuple[str, str]] = []
        self.step = 0
        self.timeout_check_step = -1

    # --- helpers ---
    def new(self) -> GameState:
        return self.game.new(list(self.seats), self.case.seed, self.case.options)

    def where(self) -> str:
        return f"{self.case} seed={self.case.seed!r} step {self.step}; actions so far: " + (
            " ".join(f"{seat}:{text}" for seat, text in self.history[-12:])
        )

    def refused(self, state: GameState, dump: str, seat: str, action: Any, code: str | None = None):
        """``apply`` must raise IllegalAction (with ``code`` if given) and leave ``state`` as is."""
        try:
            self.game.apply(state, seat, action)
        except IllegalAction as exc:
            if code is not None:
                assert exc.code == code, f"{seat} {action!r}: code {exc.code!r}, want {code!r}"
        else:
            raise AssertionError(f"apply accepted a forged action: {seat} {action!r}")
        assert self.game.dump_state(state) == dump, f"refused {seat} {action!r} changed the state"

    # --- the playout ---
    def run(self) -> None:
        state = self.new()
        assert self.game.dump_state(self.new()) == self.game.dump_state(state), "new() is seeded"
        # The timeout move (an AI call, so not every step) is tried first and at one later step.
        self.timeout_check_step = self.rng.randrange(1, max(2, min(self.spec.max_steps, 40)))
        while True:
            # Deep steps add the costlier checks: forgeries, model equality, the seed in views.
            deep = self.step == 0 or self.rng.random() < self.forge_rate
            dump, legal, over = self.check_state(state, deep or self.step >= self.spec.max_steps)
            if over:
                break
            assert self.step < self.spec.max_steps, f"no end after {self.spec.max_steps} steps"
            if deep:
                self.check_forgeries(state, dump, legal)
            if self.step in (0, self.timeout_check_step):
                self.check_timeout_moves(state, dump)
            seat, action = self.choose(state, legal)
            state = self.play(state, dump, seat, action)
            self.step += 1
        self.check_finished(state, dump)
        self.check_replay(state, dump)

    def check_state(self, state: GameState, deep: bool) -> tuple[str, dict[str, list[Any]], bool]:
        game = self.game
        self.spec.invariant(state)
        dump = game.dump_state(state)
        loaded = game.load_state(dump)
        assert type(loaded) is type(state)
        assert game.dump_state(loaded) == dump, "the JSON of a reloaded state differs"
        outcome = game.outcome(state)
        over = game.is_over(state)
        if deep or over:
            assert loaded == state, "load_state(dump_state(s)) != s"
        assert over == (outcome is not None), f"is_over={over} but outcome={outcome!r}"
        to_act = game.to_act(state)
        assert isinstance(to_act, set) and to_act <= set(state.seats), f"to_act={to_act!r}"
        for viewer in [*state.seats, None]:
            view = game.view(state, viewer)
            assert view.seat == viewer and view.version == state.version
            assert list(view.seats) == list(state.seats)
            assert set(view.to_act) == to_act, f"view.to_act={view.to_act} to_act={to_act}"
            assert view.finished == over
            if deep or over:
                text = view.model_dump_json()
                assert state.seed not in text, f"the seed shows to {viewer}"
                # Views are built without validation (``games.core.fast.trusted``): what was
                # built is what validating it gives, field by field and type by type.
                assert type(view).model_validate_json(text) == view, f"{viewer}'s view"
                assert type(view).model_validate(view.model_dump()) == view, f"{viewer}'s view"
            self.spec.assert_hidden(state, viewer, view)
        legal = {seat: game.legal_actions(state, seat) for seat in state.seats}
        if over:
            assert to_act == set(), f"finished but waiting on {to_act}"
            assert all(not actions for actions in legal.values()), "finished but actions legal"
            return dump, legal, True
        stuck = sorted(seat for seat in to_act if not legal[seat])
        assert stuck == [], f"{stuck} in to_act without a legal action"
        assert any(legal.values()), "not finished, yet nobody has a legal action"
        self.check_texts(legal)
        return dump, legal, False

    def check_texts(self, legal: dict[str, list[Any]]) -> None:
        actions = [action for seat_actions in legal.values() for action in seat_actions]
        if len(actions) > self.roundtrip_sample:
            actions = self.rng.sample(actions, self.roundtrip_sample)
        for action in actions:
            self.check_text(action, MAX_ACTION_TEXT)  # legal actions become buttons' custom_ids

    def check_text(self, action: Any, limit: int | None = None) -> None:
        """The text fits the grammar and ``limit`` (default: the class's own ``max_text``, which
        only actions typed in a modal raise) and decodes back to the same action."""
        assert isinstance(action, self.game.action_codec.types), f"{action!r} not in the codec"
        text = action.encode()
        limit = type(action).max_text if limit is None else limit
        assert len(text) <= limit and ACTION_TEXT.fullmatch(text), f"bad text {text!r}"
        decoded = self.game.decode_action(text)
        assert type(decoded) is type(action) and decoded == action, f"{text!r} -> {decoded!r}"

    def choose(self, state: GameState, legal: dict[str, list[Any]]) -> tuple[str, Any]:
        to_act = self.game.to_act(state)
        in_turn = [seat for seat in state.seats if seat in to_act and legal[seat]]
        callers = [seat for seat in state.seats if seat not in to_act and legal[seat]]
        if callers and (not in_turn or self.rng.random() < self.callout_rate):
            seat = self.rng.choice(callers)
            return seat, self.rng.choice(legal[seat])
        seat = self.rng.choice(in_turn)
        action = None
        if self.spec.policy is not None:
            action = self.spec.policy(state, seat, list(legal[seat]), self.rng)
        if action is None:
            action = self.rng.choice(legal[seat])
        elif self.spec.complete_legal:
            assert action in legal[seat], f"policy chose {action!r}, not a legal action"
        return seat, action

    def play(self, state: GameState, dump: str, seat: str, action: Any) -> GameState:
        self.check_text(action)
        try:
            new_state, events = self.game.apply(state, seat, action)
        except IllegalAction as exc:
            raise AssertionError(
                f"{seat} {action!r} was chosen as legal but refused: {exc}"
            ) from exc
        assert self.game.dump_state(state) == dump, f"apply({seat}, {action!r}) mutated its input"
        assert new_state is not state and new_state.version == state.version + 1
        assert isinstance(events, list) and all(isinstance(e, Event) for e in events)
        for event in events:
            assert event.to is None or set(event.to) <= set(state.seats), f"{event!r}"
        self.history.append((seat, action.encode()))
        return new_state

    def check_forgeries(self, state: GameState, dump: str, legal: dict[str, list[Any]]) -> None:
        game, rng = self.game, self.rng
        to_act = game.to_act(state)
        actions = [(seat, a) for seat, seat_actions in legal.items() for a in seat_actions]
        # A copy is equal to the original (and apply's purity is checked on every move).
        assert game.dump_state(game.copy_state(state)) == dump, "copy_state changed the state"
        # Someone who is not at the table, with an action a player could take.
        for _, action in rng.sample(actions, min(3, len(actions))):
            self.refused(state, dump, NON_PLAYER, action, NOT_A_PLAYER)
        # Another game's action.
        for action in FOREIGN_ACTIONS:
            if not isinstance(action, game.action_codec.types):
                self.refused(state, dump, rng.choice(state.seats), action, BAD_ACTION)
        # A seat's action tried by a seat that may not take it.
        for owner, action in rng.sample(actions, min(4, len(actions))):
            for other in state.seats:
                if other != owner and self.must_refuse(other, action, legal, to_act):
                    self.refused(state, dump, other, action)
        # Garbage texts: decoding raises IllegalAction, or gives an action apply must refuse.
        for text in UNPARSABLE_TEXTS + self.random_unparsable_texts():
            assert not ACTION_TEXT.fullmatch(text) or len(text) > MAX_ACTION_TEXT, text
            with pytest.raises(IllegalAction):
                game.decode_action(text)
        for text in self.wrong_arg_texts(actions):
            self.check_garbage_text(state, dump, text, legal, to_act)

    def must_refuse(
        self, seat: str, action: Any, legal: dict[str, list[Any]], to_act: set[str]
    ) -> bool:
        if action in legal[seat]:
            return False
        return seat not in to_act or self.spec.complete_legal

    def random_unparsable_texts(self) -> list[str]:
        rng = self.rng
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
        unicode = "".join(chr(rng.randrange(0x80, 0x2FFFF)) for _ in range(rng.randrange(1, 12)))
        return [raw.decode("latin-1") + "\x7f", unicode, "p." + unicode]

    def wrong_arg_texts(self, actions: list[tuple[str, Any]]) -> list[str]:
        rng = self.rng
        verbs = [cls.verb for cls in self.game.action_codec.types]
        texts = ["zz", "foreign", "foreign.1"]
        for verb in verbs:
            texts.append(verb)
            texts.extend(f"{verb}.{arg}" for arg in rng.sample(WRONG_ARGS, 3))
        for _, action in rng.sample(actions, min(2, len(actions))):
            verb, *args = action.encode().split(".")
            texts.append(".".join([verb, *args, rng.choice(WRONG_ARGS)]))
            if args:
                broken = list(args)
                broken[rng.randrange(len(broken))] = rng.choice(WRONG_ARGS)
                texts.append(".".join([verb, *broken]))
        return [text for text in texts if len(text) <= MAX_ACTION_TEXT]

    def check_garbage_text(
        self,
        state: GameState,
        dump: str,
        text: str,
        legal: dict[str, list[Any]],
        to_act: set[str],
    ) -> None:
        try:
            action = self.game.decode_action(text)
        except IllegalAction:
            return
        self.check_text(action)  # whatever decodes must round-trip too
        for seat in state.seats:
            if self.must_refuse(seat, action, legal, to_act):
                self.refused(state, dump, seat, action)
            elif action not in legal[seat]:  # a free-form action apply alone judges
                try:
                    self.game.apply(state, seat, action)
                except IllegalAction:
                    pass
                assert self.game.dump_state(state) == dump, f"{seat} {text!r} changed the state"

    def check_timeout_moves(self, state: GameState, dump: str) -> None:
        """The move played for a seat whose timer ran out is one ``apply`` accepts."""
        for seat in sorted(self.game.to_act(state)):
            action = self.game.default_action(state, seat)
            self.check_text(action)
            try:
                self.game.apply(state, seat, action)
            except IllegalAction as exc:
                raise AssertionError(
                    f"default_action for {seat} is refused: {action!r} {exc}"
                ) from exc
            assert self.game.dump_state(state) == dump

    def check_finished(self, state: GameState, dump: str) -> None:
        game = self.game
        outcome = game.outcome(state)
        assert isinstance(outcome, Outcome), f"outcome is a {type(outcome).__name__}"
        ranked = [seat for group in outcome.ranking for seat in group]
        assert all(outcome.ranking), f"empty group in the ranking {outcome.ranking}"
        assert sorted(ranked) == sorted(state.seats), f"ranking {outcome.ranking} of {state.seats}"
        assert set(outcome.points) <= set(state.seats) and set(outcome.stats) <= set(state.seats)
        assert set(outcome.team_winners) <= set(state.seats)
        # The game's Outcome subclass (typed fields for its presenter) round-trips through JSON.
        assert type(outcome).model_validate_json(outcome.model_dump_json()) == outcome
        last = [game.decode_action(text) for _, text in self.history[-1:]]
        for seat in state.seats:
            for action in [*last, *FOREIGN_ACTIONS]:
                self.refused(state, dump, seat, action, GAME_OVER)
        for action in [*last, *FOREIGN_ACTIONS]:
            self.refused(state, dump, NON_PLAYER, action, NOT_A_PLAYER)

    def check_replay(self, final: GameState, dump: str) -> None:
        """``new`` + the recorded action texts reproduce the final state exactly."""
        state = self.new()
        for seat, text in self.history:
            state, _ = self.game.apply(state, seat, self.game.decode_action(text))
        assert self.game.dump_state(state) == dump, "replaying the action texts diverged"
        assert state == final


@pytest.mark.parametrize("case", CASES, ids=str)
def test_random_playout(case: Case):
    playout = Playout(case)
    try:
        playout.run()
    except Exception as exc:
        exc.add_note(playout.where())
        raise
