"""Actions and their one text grammar, shared by every game.

Every action of every game has one compact text form (like UCI in python-chess), short enough to
sit inside a Discord custom_id next to a table id and a version::

    action := verb ( "." arg )*
    verb   := [a-z]+                  e.g. "p", "draw", "pass", "catch"
    arg    := [A-Za-z0-9_+-]+         e.g. a card id, a seat index, a cell, a colour letter

``:`` never appears, so the bot can wrap the text as ``t:{table}:{version}:{action}``; an action
text is at most ``MAX_ACTION_TEXT`` characters (an action class that never sits in a custom_id,
such as a whole arrangement typed in a modal, may raise its own ``max_text``). An action class
names its ``verb`` and, by default, its arguments are its fields in declaration order (``None``
fields are left out at the end; a ``kind`` field, the discriminator of a pydantic union, is not an
argument).
Classes whose fields do not map one to one onto arguments override ``args`` / ``from_args``.

The same move has the same class name and verb in every game: ``Play`` ``p``, ``Draw``
``draw``, ``Pass`` ``pass``, ``Announce`` ``announce`` (declaring one card left), ``Catch``
``catch`` (catching a player who did not). A class
whose verb changed lists its former verbs in ``old_verbs`` (a shared class, whose former verbs
differ by game, gets them from the game's codec: ``ActionCodec(..., old_verbs={"d": Draw})``):
texts written with them (stored action rows, buttons already posted) still decode, to the same
action, whose ``encode`` then gives the current text.
``ActionCodec(*classes).decode(a.encode()) == a`` holds for every action, and ``decode`` accepts only
that one canonical text (``p.02`` is not ``p.2``); anything else raises
``IllegalAction(BAD_ACTION)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast, final

from pydantic import BaseModel, ConfigDict, ValidationError

from games.core.errors import BAD_ACTION, IllegalAction

MAX_ACTION_TEXT = 60
DISCRIMINATOR = "kind"
VERB = re.compile(r"[a-z]+")
ARG = re.compile(r"[A-Za-z0-9_+\-]+")
ACTION_TEXT = re.compile(r"[a-z]+(?:\.[A-Za-z0-9_+\-]+)*")

A = TypeVar("A", bound="Action")
N = TypeVar("N", bound="NoArgs")
IN = TypeVar("IN", bound="Interned")


@cache  # read once per class: ``model_fields`` is pydantic's descriptor, and every button's
# action is encoded at every move (a fifth of ``encode``)
def _arg_fields(cls: type[Action]) -> tuple[str, ...]:
    return tuple(name for name in cls.model_fields if name != DISCRIMINATOR)


def _arg_text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return value if type(value) is str else str(value)


class Action(BaseModel):
    """A move: a frozen value with a ``verb`` and positional text arguments."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verb: ClassVar[str]
    # Verbs this class was written with before (their texts still decode; ``encode`` writes
    # ``verb``).
    old_verbs: ClassVar[tuple[str, ...]] = ()
    # Longest text form. Only actions that never sit in a custom_id (typed in a modal) raise it.
    max_text: ClassVar[int] = MAX_ACTION_TEXT

    def args(self) -> tuple[str, ...]:
        """The text arguments; by default each field's value in declaration order."""
        fields = self.__dict__
        values = [fields[name] for name in _arg_fields(type(self))]
        while values and values[-1] is None:
            values.pop()
        return tuple([_arg_text(v) for v in values])

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        """Inverse of ``args``; raises ``IllegalAction(BAD_ACTION)`` on anything else."""
        names = _arg_fields(cls)
        if len(args) > len(names):
            raise IllegalAction(BAD_ACTION)
        try:
            return cls.model_validate(dict(zip(names, args, strict=False)))
        except ValidationError as exc:
            raise IllegalAction(BAD_ACTION) from exc

    @final
    def encode(self) -> str:
        # A frozen value's text never changes: kept by the instance (the games' legal actions
        # are shared instances, each encoded for a button at every payload that offers it).
        kept = _ENCODED.get(id(self))
        if kept is not None and kept[0] is self:  # (the entry holds the action: its id is
            return kept[1]  # no other object's while it is kept)
        text = format_action(self.verb, self.args(), self.max_text)
        if len(_ENCODED) >= ENCODED_KEPT:
            try:
                del _ENCODED[next(iter(_ENCODED))]  # the oldest encoded
            except (KeyError, RuntimeError, StopIteration):
                pass  # another thread (a test's inline worker) evicted it meanwhile
        _ENCODED[id(self)] = (self, text)
        _remember_text(text, self)
        return text


# Actions' texts, per process, by the action's id (the entry holds the action): the five games'
# shared legal actions with room to spare; the oldest go first.
ENCODED_KEPT = 8192
_ENCODED: dict[int, tuple[Action, str]] = {}

# The other way: each text ``encode`` wrote, to the action it wrote it of (a button's text comes
# back in the click: ``ActionCodec.decode`` hands out that frozen value instead of validating a
# new one, ~5 us for a Macarena series or a Triple Triad placement). Bounded as ``_ENCODED``.
_DECODED: dict[str, Action] = {}


def _remember_text(text: str, action: Action) -> None:
    if len(_DECODED) >= ENCODED_KEPT:
        try:
            del _DECODED[next(iter(_DECODED))]  # the oldest
        except (KeyError, RuntimeError, StopIteration):
            pass  # another thread (a test's inline worker) evicted it meanwhile
    _DECODED[text] = action


class Interned(Action):
    """An action with a closed set of values, each built once (``intern``) and shared: decoding
    hands out that instance, the same object ``legal_actions`` offers (a frozen value, so
    sharing it is safe and a playout never builds one again), and refuses a text naming none."""

    _by_args: ClassVar[dict[tuple[str, ...], Any]]  # this class's instances by their arguments

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._by_args = {}

    @classmethod
    def intern(cls: type[IN], **fields: Any) -> IN:
        """The shared instance with these fields (made the first time)."""
        action = cls(**fields)
        shared: IN = cls._by_args.setdefault(action.args(), action)
        return shared

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        action: Action | None = cls._by_args.get(tuple(args))
        if action is None:
            raise IllegalAction(BAD_ACTION)
        return action


class NoArgs(Interned):
    """An action without arguments (draw, pass...), written as its ``kind`` unless the class
    names another ``verb``: one shared instance, ``instance()``."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if "verb" not in vars(cls):  # the text is the move's kind unless the class names one
            cls.verb = cls.model_fields[DISCRIMINATOR].default
        cls.intern()

    @classmethod
    def instance(cls: type[N]) -> N:
        shared: N = cls._by_args[()]
        return shared


# The common moves without arguments, one class each for every game that has them (each game's
# codec lists them, with the verbs that game wrote for them before issue 26).
class Draw(NoArgs):
    """Draw a card from the stock."""

    kind: Literal["draw"] = "draw"


class Pass(NoArgs):
    """End the turn without playing."""

    kind: Literal["pass"] = "pass"


class Announce(NoArgs):
    """Declare one card left (Amapatolli's "Ce", Chúpate 2's "¡Última!")."""

    kind: Literal["announce"] = "announce"


def format_action(verb: str, args: Sequence[str] = (), limit: int = MAX_ACTION_TEXT) -> str:
    """``verb.arg1.arg2``; checks the grammar so a bad encoder fails where it is written."""
    text = ".".join([verb, *args])
    if len(text) > limit or not ACTION_TEXT.fullmatch(text):
        raise ValueError(f"not a valid action text: {text!r}")
    return text


def parse_action(text: str, limit: int = MAX_ACTION_TEXT) -> tuple[str, tuple[str, ...]]:
    """Split an action text into verb and arguments, or raise ``IllegalAction(BAD_ACTION)``."""
    if not isinstance(text, str) or len(text) > limit or not ACTION_TEXT.fullmatch(text):
        raise IllegalAction(BAD_ACTION)
    verb, *args = text.split(".")
    return verb, tuple(args)


class ActionCodec(Generic[A]):
    """The text codec of one game's action union: verb -> class. ``old_verbs``: this game's
    former verbs of shared classes (``Draw``...), read as a class's own ``old_verbs`` are."""

    def __init__(self, *classes: type[A], old_verbs: Mapping[str, type[A]] | None = None) -> None:
        by_verb: dict[str, type[A]] = {}
        pairs = [(verb, cls) for cls in classes for verb in (cls.verb, *cls.old_verbs)]
        for verb, cls in [*pairs, *(old_verbs or {}).items()]:
            if not VERB.fullmatch(verb) or verb in by_verb or cls not in classes:
                raise ValueError(f"bad or repeated verb {verb!r} in {cls.__name__}")
            by_verb[verb] = cls
        self._by_verb = by_verb
        self._max_text = max((cls.max_text for cls in classes), default=MAX_ACTION_TEXT)
        self.types: tuple[type[A], ...] = tuple(classes)
        # the same classes as a set: ``type(a) in exact_types`` answers for the common case at
        # once (``isinstance`` with pydantic classes runs their metaclass's check in Python)
        self.exact_types: frozenset[type] = frozenset(classes)

    def decode(self, text: str) -> A:
        known = _DECODED.get(text)
        if known is not None:
            # ``text`` is ``known.encode()``: written with its class's verb, which this codec
            # must read as that class (a verb means one class per game); the class's
            # ``from_args`` of the text's arguments is then ``known`` (the codec's round trip)
            kind = type(known)
            if self._by_verb.get(kind.verb) is kind:
                return cast(A, known)
        verb, args = parse_action(text, self._max_text)
        cls = self._by_verb.get(verb)
        if cls is None or len(text) > cls.max_text:
            raise IllegalAction(BAD_ACTION)
        action = cls.from_args(args)
        if not isinstance(action, cls):  # a from_args override returning something else
            raise IllegalAction(BAD_ACTION)
        # one text per action and verb: "p.02" or "p.+2" is not "p.2" (an old verb's text is
        # the action's arguments after that verb)
        canonical = action.encode() if verb == cls.verb else ".".join((verb, *action.args()))
        if canonical != text:
            raise IllegalAction(BAD_ACTION)
        return action
