"""One vocabulary for five games (issue 26): the same module names and the same public names for
the same jobs in every ``games/<game>/``, every presenter typed ``GamePresenter[View, Action]``,
and one signature for every game's images.

The per-game layout is read from the modules themselves (imports and ``inspect``), so a game that
names a shared job its own way, or a presenter left untyped, fails here with its name.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import random
import typing
from pathlib import Path

import pytest
from pydantic import AliasChoices, BaseModel

from bot.registry import GAME_KEYS
from bot.ui.modules import game_module
from bot.ui.presenter import GamePresenter, presenter_for
from games.core import Action, Budget, Game, NoArgs, PlayerView
from games.core import actions as core_actions
from games.core.eventlog import LoggedState, LogReader
from games.core.rules import BOUND, Parts, RulesGame, Spec

ROOT = Path(__file__).resolve().parents[1]
# Every game package has these modules (its own helpers beside them are free).
SHARED_MODULES = ("__init__", "actions", "state", "view", "rules", "ai", "options", "game")
# The public names of the shared jobs: module -> names every game defines there.
SHARED_NAMES = {
    "actions": ("CODEC", "Play"),
    "options": ("Options",),
    "view": ("build_view",),
    "rules": ("new_state", "to_act", "legal_actions", "copy_state", "resolve_action", "outcome"),
    "ai": ("decide", "choose_action", "THINK_RATE"),
    "game": ("GAME",),
}


def _module(key: str, name: str):
    return importlib.import_module(f"games.{key}" if name == "__init__" else f"games.{key}.{name}")


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_has_the_shared_modules(key):
    package = ROOT / "games" / key
    missing = [name for name in SHARED_MODULES if not (package / f"{name}.py").is_file()]
    assert missing == [], f"games/{key} lacks {missing}"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_has_the_shared_public_names(key):
    missing = [
        f"{module}.{name}"
        for module, names in SHARED_NAMES.items()
        for name in names
        if not hasattr(_module(key, module), name)
    ]
    assert missing == [], f"games/{key} lacks {missing}"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_game_lives_in_game_py_and_wires_the_rules(key):
    package, game_py, rules = _module(key, "__init__"), _module(key, "game"), _module(key, "rules")
    game = game_py.GAME
    assert package.GAME is game and isinstance(game, Game) and game.key == key
    assert type(game).__module__ == f"games.{key}.game"
    # One ``RulesGame`` declaration for all five: a ``Spec`` and the game's own modules as
    # ``Parts``, whose functions are bound as they are (no forwarding wrapper in any
    # ``game.py``; mypy checks each module against its protocol).
    cls = type(game)
    assert isinstance(game, RulesGame) and isinstance(cls.spec, Spec) and cls.spec.key == key
    assert isinstance(cls.parts, Parts) and cls.rules is rules
    ai, view, actions = _module(key, "ai"), _module(key, "view"), _module(key, "actions")
    assert (cls.parts.views, cls.parts.ai, cls.parts.codec) == (view, ai, actions.CODEC)
    functions = {method: getattr(rules, name) for method, name in BOUND.items()}
    functions |= {"view": view.build_view, "choose_action": ai.choose_action}
    for method, function in functions.items():
        bound = inspect.getattr_static(cls, method)
        assert isinstance(bound, staticmethod), (key, method)
        assert bound.__func__ is function, (key, method)
    assert cls.think_rate == ai.THINK_RATE, "think_rate: each game's ai declares its search speed"
    # the models are the classes the game is typed with, named once
    state, _, _, options = typing.get_args(cls.__orig_bases__[0])
    assert (cls.state_model, cls.options_model) == (state, _module(key, "options").Options)
    assert min(cls.spec.players) == cls.min_players and max(cls.spec.players) == cls.max_players


@pytest.mark.parametrize("key", GAME_KEYS)
def test_game_py_declares_only_what_is_its_own(key):
    """No ``game.py`` repeats a declaration ``RulesGame`` makes from the spec and the parts."""
    own = set(vars(type(_module(key, "game").GAME)))
    made = {"key", "names", "min_players", "max_players", "options_model", "state_model"}
    made |= {"action_codec", "think_rate", "lists_every_action", "rules"}
    tree = ast.parse((ROOT / "games" / key / "game.py").read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef)).body
    written = {t.id for n in body if isinstance(n, ast.Assign) for t in n.targets}
    written |= {n.target.id for n in body if isinstance(n, ast.AnnAssign)}
    assert written == {"spec", "parts"}, (key, written)
    assert made <= own  # set on the class by ``RulesGame`` itself


@pytest.mark.parametrize("key", GAME_KEYS)
def test_one_computer_player_entry(key):
    """``choose_action(view, legal, level, rng, *, budget)`` with the core ``Budget``, in ``ai``
    and on the engine."""
    for func in (_module(key, "ai").choose_action, type(_module(key, "game").GAME).choose_action):
        params = list(inspect.signature(func).parameters.values())
        if params[0].name == "self":
            params = params[1:]
        assert [p.name for p in params[:4]] == ["view", "legal", "level", "rng"], func
        budget = next(p for p in params if p.name == "budget")
        assert budget.kind is inspect.Parameter.KEYWORD_ONLY and budget.default is None
        annotation = str(budget.annotation)  # a string: modules use ``from __future__``
        assert annotation.replace(" ", "") in ("Budget|None", "games.core.Budget|None"), func
        assert inspect.getmodule(func).Budget is Budget, func
    for name in ("think_budget", "make_budget", "node_budget_for"):
        assert not hasattr(_module(key, "ai"), name), f"{key}.ai.{name}: the core decides it"


def test_the_core_computer_entry_answers_none_without_a_choice_and_fills_in_the_budget():
    """``games.core.computer.computer_player``: the entry every game declares in one line."""
    from games.core.computer import computer_player

    asked: list[tuple[list[str], Budget]] = []

    def decide(view, legal, level, rng, budget):
        asked.append((legal, budget))
        return legal[-1]

    default, given = Budget(iterations=3), Budget(iterations=9)
    choose = computer_player(decide, default)
    rng = random.Random(26)
    assert choose(None, [], "hard", rng) is None and asked == []  # nothing legal: not asked
    assert choose(None, ["a", "b"], "hard", rng) == "b"
    assert choose(None, ["c"], "normal", rng, budget=given) == "c"
    assert asked == [(["a", "b"], default), (["c"], given)]
    for key in GAME_KEYS:  # the entry made by the core, not written again
        entry = _module(key, "ai").choose_action
        assert entry.__qualname__ == "computer_player.<locals>.choose_action", key


@pytest.mark.parametrize("key", GAME_KEYS)
def test_common_moves_share_class_names_and_no_argument_moves_are_interned(key):
    actions = _module(key, "actions")
    codec_types = set(actions.CODEC.types)
    assert actions.Play in codec_types
    for name in ("Draw", "Pass", "Announce"):  # one class each, in ``games.core.actions``
        cls = getattr(actions, name, None)
        if cls is not None:
            assert cls is getattr(core_actions, name) and cls in codec_types, f"{key}.{name}"
            assert issubclass(cls, NoArgs), f"{key}.{name}"
            assert cls.instance() is actions.CODEC.decode(cls.instance().encode())
    for cls in codec_types:
        if not [n for n in cls.model_fields if n != "kind"]:
            assert issubclass(cls, NoArgs), f"{key}.{cls.__name__} has no arguments: NoArgs"


def _literal_codes(path: Path) -> list[str]:
    """``IllegalAction("literal", ...)`` calls: error codes are named constants."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "IllegalAction"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]


def test_error_codes_are_constants():
    found = [hit for path in sorted((ROOT / "games").rglob("*.py")) for hit in _literal_codes(path)]
    assert found == []


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_presenter_is_typed_with_the_games_view_and_actions(key):
    game = _module(key, "game").GAME
    presenter = presenter_for(game)
    assert type(presenter) is not GamePresenter, f"{key} has no presenter"
    base = next(b for b in type(presenter).__orig_bases__ if typing.get_origin(b) is GamePresenter)
    view, action = typing.get_args(base)
    assert issubclass(view, PlayerView) and view is type(game.view(game_state(game), None))
    members = typing.get_args(
        typing.get_args(action)[0] if hasattr(action, "__metadata__") else action
    )
    assert members and all(issubclass(m, Action) for m in members)
    assert set(members) == set(game.action_codec.types)


def game_state(game: Game):
    seats = [f"s{i}" for i in range(game.min_players)]
    return game.new(seats, "structure")


EXPECTED = {
    "render_table": ["view", "tr", "names"],
    "render_hand": ["view", "tr", "names", "playable"],
}


@pytest.mark.parametrize("key", GAME_KEYS)
@pytest.mark.parametrize("function", sorted(EXPECTED))
def test_one_signature_for_every_games_images(key, function):
    images = game_module(key, "images")
    assert images is not None, f"{key} has no images module"
    params = inspect.signature(getattr(images, function)).parameters
    assert list(params) == EXPECTED[function]
    assert all(p.default is None for name, p in params.items() if name not in ("view", "tr"))
    if function == "render_hand":
        assert params["playable"].kind is inspect.Parameter.KEYWORD_ONLY


# The same move has the same class name and text in every game that has it.
COMMON_VERBS = {
    "Play": "p",
    "Draw": "draw",
    "Pass": "pass",
    "Announce": "announce",
    "Catch": "catch",
}


@pytest.mark.parametrize("key", GAME_KEYS)
def test_common_moves_have_the_same_text_in_every_game(key):
    actions = _module(key, "actions")
    for cls in actions.CODEC.types:
        if cls.__name__ in COMMON_VERBS:
            assert cls.verb == COMMON_VERBS[cls.__name__], f"{key}.{cls.__name__}: {cls.verb}"


# Labels under ``<game>.action.`` that are not an action's kind: variants of one kind's label.
ACTION_LABEL_VARIANTS = {
    "amapatolli": {"play_answer", "play_wild"},  # a bird answering a bird; a Tlapiāni
    "chupate2": {"play_wild", "accept"},  # a wild card; ``take`` answering a +4
    "maquiavelo": {"clear", "suggest"},  # the arrangement modal's two helper buttons
}


@pytest.mark.parametrize("key", GAME_KEYS)
def test_common_moves_have_one_kind_and_one_catalogue_key(key):
    """A common move's ``kind`` (its label's catalogue key ``<game>.action.<kind>``) is the same
    in every game (was ``uno``/``callout``/``place``); every ``<game>.action.`` key of both
    locales is a kind of the game's actions or a listed variant, so no old key is left."""
    from bot.i18n import catalogue

    actions = _module(key, "actions")
    kinds = {cls.model_fields["kind"].default for cls in actions.CODEC.types}
    for cls in actions.CODEC.types:
        if cls.__name__ in COMMON_VERBS:
            assert cls.model_fields["kind"].default == cls.__name__.lower(), (key, cls.__name__)
    for locale in ("es", "en"):
        labels = {
            k.removeprefix(f"{key}.action.")
            for k in catalogue(locale)
            if k.startswith(f"{key}.action.")
        }
        assert kinds <= labels, (key, locale, kinds - labels)
        assert labels - kinds == ACTION_LABEL_VARIANTS.get(key, set()), (key, locale)


def test_every_common_move_is_shared():
    """Each common name is used by at least two games (else it is one game's word)."""
    used = {
        name: [k for k in GAME_KEYS if hasattr(_module(k, "actions"), name)]
        for name in COMMON_VERBS
    }
    assert all(len(keys) >= 2 for keys in used.values()), used


# Texts as main wrote them before issue 26 renamed classes (``PlayCard``, ``PlaceCard`` ->
# ``Play``; ``CallOut`` -> ``Catch``, ``CallLast`` -> ``Announce``), interned the argument-less
# moves and gave the common moves one text (``d``/``x`` -> ``draw``/``pass``, ``ce``/``uno`` ->
# ``announce``, ``call.N`` -> ``catch.N``): stored action logs and buttons already posted carry
# these, so each still decodes, to the renamed class, and encodes to its current text (which
# decodes to the same action). A game added later has no old texts (and no entry here).
OLD_TEXTS = {
    "amapatolli": {
        "draw": ("Draw", "draw"),
        "pass": ("Pass", "pass"),
        "accept": ("AcceptSkip", "accept"),
        "ce": ("Announce", "announce"),
        "call.2": ("Catch", "catch.2"),
    },
    "chupate2": {
        "p.r7a": ("Play", "p.r7a"),
        "draw": ("Draw", "draw"),
        "pass": ("Pass", "pass"),
        "take": ("Take", "take"),
        "uno": ("Announce", "announce"),
        "catch": ("Catch", "catch"),
        "catch.1": ("Catch", "catch.1"),
    },
    "maquiavelo": {"d": ("Draw", "draw"), "x": ("Pass", "pass")},
    "macarena": {"d": ("Draw", "draw"), "x": ("Pass", "pass")},
    "triad": {"p.0.c001.4": ("Play", "p.0.c001.4"), "k.2.c001": ("PickCard", "k.2.c001")},
}


@pytest.mark.parametrize("key", GAME_KEYS)
def test_old_action_texts_still_decode(key):
    game = _module(key, "game").GAME
    for text, (name, current) in OLD_TEXTS.get(key, {}).items():
        action = game.decode_action(text)
        assert type(action).__name__ == name and action.encode() == current, text
        assert game.decode_action(current) == action
        if isinstance(action, NoArgs):
            assert action is type(action).instance()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_an_old_verb_reads_only_its_canonical_text(key):
    """``x.1`` or ``call.02`` were never texts: an old verb is as strict as the current one."""
    from games.core import IllegalAction

    game = _module(key, "game").GAME
    for text in OLD_TEXTS.get(key, {}):
        padded = text.replace(".", ".0", 1) if "." in text else f"{text}.+1"
        for bad in (f"{text}.+", padded):
            with pytest.raises(IllegalAction):
                game.decode_action(bad)
    # a shared class reads only the old texts this game wrote (``ActionCodec(old_verbs=...)``)
    others = {
        t
        for k in GAME_KEYS
        if k != key
        for t in OLD_TEXTS.get(k, {})
        if t not in OLD_TEXTS.get(key, {})
    }
    for text in others - {c for _, c in OLD_TEXTS.get(key, {}).values()}:
        verb = text.split(".")[0]
        if verb not in game.action_codec._by_verb:
            with pytest.raises(IllegalAction):
                game.decode_action(text)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_bad_options_raise_the_one_option_error(key):
    from games.core import IllegalAction
    from games.core.errors import BAD_OPTIONS

    game = _module(key, "game").GAME
    field = next(iter(game.options_model.model_fields))
    with pytest.raises(IllegalAction) as refused:
        game.parse_options({field: {"not": "a value"}})
    assert refused.value.code == BAD_OPTIONS and refused.value.params["reason"].startswith(field)
    with pytest.raises(IllegalAction) as refused:
        game.new([f"s{i}" for i in range(game.min_players)], "bad", {field: {"not": "a value"}})
    assert refused.value.code == BAD_OPTIONS


# ----- small classes (issue 25): no class in bot/ over MAX_METHODS methods ----------------------
MAX_METHODS = 25


def _methods_per_class() -> dict[str, int]:
    counts = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                methods = [
                    item
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                counts[f"{path.relative_to(ROOT)}:{node.name}"] = len(methods)
    return counts


def test_no_class_in_bot_has_more_than_25_methods():
    """Properties and private helpers count: a class this large does more than one job (split
    it into parts that own their jobs, as ``TableService`` was)."""
    counts = _methods_per_class()
    assert "bot/service/service.py:TableService" in counts  # the walk sees the service
    over = {name: n for name, n in counts.items() if n > MAX_METHODS}
    assert over == {}, f"classes over {MAX_METHODS} methods: {over}"


# Words that presenters and images share (card names, action and event parameters) live in
# ``bot/ui/<game>/text.py``; an image module only draws.
TEXT_HELPERS = ("card_label", "cards_label", "action_params", "action_key", "event_params")


@pytest.mark.parametrize("key", GAME_KEYS)
def test_text_helpers_live_in_one_module_per_game(key):
    assert (ROOT / "bot" / "ui" / key / "text.py").is_file(), f"bot/ui/{key}/text.py"
    images = ast.parse((ROOT / "bot" / "ui" / key / "images.py").read_text(encoding="utf-8"))
    defined = {n.name for n in images.body if isinstance(n, ast.FunctionDef)}
    assert defined.isdisjoint(TEXT_HELPERS), f"{key}: {defined & set(TEXT_HELPERS)} in images.py"
    presenter = (ROOT / "bot" / "ui" / key / "presenter.py").read_text(encoding="utf-8")
    assert f"bot.ui.{key}.text import" in presenter, f"{key}'s presenter takes its words from text"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_state_names_the_turn_and_the_end_alike(key):
    """``turn`` (the index in ``seats`` of the seat to act) and ``finished`` in all five states;
    no state keeps a ``current`` field."""
    game = _module(key, "game").GAME
    state = game_state(game)
    assert isinstance(state.turn, int) and 0 <= state.turn < len(state.seats)
    assert state.finished is False and not game.is_over(state)
    assert not hasattr(state, "current")
    stored = json.loads(game.dump_state(state))
    assert stored["turn"] == state.turn and "current" not in stored


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_view_names_the_seat_at_turn_turn(key):
    """Every view says whose turn it is as ``turn`` (the seat; ``current`` was the views' of
    Chúpate 2, Maquiavelo and Macarena), and no view model has a ``current`` field; a view
    written with ``current`` still validates (``games.core.engine.TURN``)."""
    game = _module(key, "game").GAME
    state = game_state(game)
    view = game.view(state, None)
    assert view.turn == state.seats[state.turn], key
    models = [type(view)]
    while models:
        model = models.pop()
        assert "current" not in model.model_fields, (key, model.__name__)
        for info in model.model_fields.values():
            args = typing.get_args(info.annotation) or (info.annotation,)
            for arg in args:
                for inner in (*typing.get_args(arg), arg):
                    if isinstance(inner, type) and issubclass(inner, BaseModel):
                        models.append(inner)
    alias = type(view).model_fields["turn"].validation_alias
    if isinstance(alias, AliasChoices) and "current" in alias.choices:
        old = {k: v for k, v in view.model_dump().items() if k != "turn"}
        assert type(view).model_validate({**old, "current": view.turn}) == view


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_finished_state_says_finished(key):
    game = _module(key, "game").GAME
    state = game_state(game)
    rng = random.Random(26)
    for _ in range(5000):
        if game.is_over(state):
            break
        seat = sorted(game.to_act(state))[0]
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert game.is_over(state) and state.finished is True
    assert game.load_state(game.dump_state(state)).finished is True


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_games_log_is_kept_by_the_core_event_log(key):
    """Every state keeps its log in the one form of ``games.core.eventlog``: read through
    ``LogReader`` (every pydantic state is a ``LoggedState``), stored as ``log`` and
    ``log_versions``, added to by the core (no game trims its own)."""
    game = _module(key, "game").GAME
    state = game_state(game)
    assert isinstance(state, LogReader), key
    stored = json.loads(game.dump_state(state))
    assert len(stored["log"]) == len(stored["log_versions"]) == len(state.log), key
    assert isinstance(state, LoggedState) or key == "chupate2", key  # its slotted state
    rules = inspect.getsource(_module(key, "rules"))
    assert ("add_to_log(" in rules or "eventlog.extend(" in rules) and "LOG_SIZE:]" not in rules


# ----- one UI layout for every game (issue 26 item 3) ---------------------------------------
# Every game's Discord side is one package, ``bot/ui/<game>/``: what it looks like in play
# (presenter), the pictures (images), their words for screen readers (alt) and the words the
# others share (text). No game module lives anywhere else in bot/ui/.
UI_MODULES = ("presenter", "images", "alt", "text")


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_games_ui_is_one_package(key):
    package = ROOT / "bot" / "ui" / key
    assert (package / "__init__.py").is_file(), f"bot/ui/{key}/ is no package"
    for name in UI_MODULES:
        assert game_module(key, name) is importlib.import_module(f"bot.ui.{key}.{name}")
    elsewhere = [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "bot" / "ui").rglob("*.py")
        if key in p.stem and p.parent != package
    ]
    assert elsewhere == [], f"{key}'s UI outside bot/ui/{key}/: {elsewhere}"


def _imported_modules(path: Path) -> dict[str, set[str]]:
    """``from M import a, b`` of a module: M -> the names it takes."""
    taken: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            taken.setdefault(node.module, set()).update(a.name for a in node.names)
    return taken


@pytest.mark.parametrize("key", GAME_KEYS)
def test_words_never_come_from_the_images(key):
    """Images only draw: the alt text and the shared words take nothing from images.py, and
    the presenter nothing private (Chúpate 2's presenter asks it which cards the hand image
    frames)."""
    package = ROOT / "bot" / "ui" / key
    images = f"bot.ui.{key}.images"
    for name in ("alt", "text"):
        assert images not in _imported_modules(package / f"{name}.py"), f"{key}/{name}.py"
    private = {
        n for n in _imported_modules(package / "presenter.py").get(images, ()) if n[0] == "_"
    }
    assert private == set(), f"{key}'s presenter imports {private} from images.py"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_presenter_hook_takes_the_games_own_view(key):
    """Not only the class is ``GamePresenter[View, Action]``: each hook a game overrides takes
    its own view, so mypy checks what the hook reads from it."""
    game = _module(key, "game").GAME
    cls = type(presenter_for(game))
    view_cls = type(game.view(game_state(game), None))
    hooks = [
        name
        for name, member in vars(GamePresenter).items()
        if callable(member) and "view" in inspect.signature(member).parameters
    ]
    checked = 0
    for name in hooks:
        if name in vars(cls):
            hints = typing.get_type_hints(getattr(cls, name))
            assert hints.get("view") is view_cls, f"{key}: {name}(view: {hints.get('view')})"
            checked += 1
    if "move_components" in vars(cls):
        hints = typing.get_type_hints(cls.move_components)
        assert typing.get_args(hints["move"])[0] is view_cls, key
        checked += 1
    assert checked >= 3, f"{key} overrides {checked} hooks"
