"""A game state's stored JSON written by orjson from its fields, the same text as pydantic's.

``Game.dump_state`` runs once per move. Pydantic serializes a nested model (a ``PlayingCard``:
Macarena holds 104) through its model serializer, ~0.23 us each: most of a Macarena dump. Here
each field is turned into what orjson writes as the same JSON, decided once per state class from
the field's type: plain JSON values (strings, ints, bools, ``None``, literals, and lists and
string-keyed dicts of them) are handed to orjson as they are; a model's fields become a dict in
the model's field order; a ``PlayingCard`` is its JSON text, written once per card of the shared
decks (``games.core.cards.two_decks``). Any type this does not know (floats, unions of models,
non-string keys, aliases, custom serializers) is written by pydantic for that field alone
(``TypeAdapter``), so the text stays pydantic's; the tests compare every state of random games.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Hashable
from functools import cache
from operator import attrgetter
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin

import orjson
from pydantic import BaseModel, TypeAdapter

from games.core.cards import CARD_JSON, PlayingCard, card_json

Encode = Callable[[Any], Any]
_PLAIN = (str, int, bool, type(None))
_Fragment = orjson.Fragment


def _plain(tp: Any) -> bool:
    """Whether values of ``tp`` are JSON values orjson writes as pydantic does, as they are."""
    if tp in _PLAIN:
        return True
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        return all(type(a) in _PLAIN for a in args)
    if origin is Annotated:
        return _plain(args[0])
    if origin in (list, tuple):
        return all(_plain(a) for a in args if a is not Ellipsis)
    if origin is dict:
        return args[0] is str and _plain(args[1])
    if origin in (Union, types.UnionType):
        return all(_plain(a) for a in args)
    return False


def _simple_model(cls: type[BaseModel]) -> bool:
    """A model pydantic writes as its fields in order, by name, nothing else."""
    decorators = cls.__pydantic_decorators__
    return (
        cls.model_config.get("extra") != "allow"
        and not cls.model_computed_fields
        and not decorators.field_serializers
        and not decorators.model_serializers
        and all(
            f.serialization_alias is None and f.alias is None and not f.exclude
            for f in cls.model_fields.values()
        )
    )


def encoder(tp: Any, cards: Encode | None = None) -> Encode | None:
    """What turns a value of ``tp`` into what orjson writes as pydantic's JSON of it; ``None``:
    the value as it is. ``cards``: what writes a list of cards (``_cards`` unless given)."""
    if _plain(tp):
        return None
    origin, args = get_origin(tp), get_args(tp)
    if tp is PlayingCard:
        return _card
    if origin is Annotated:
        return encoder(args[0], cards)
    if origin is list and args and args[0] is PlayingCard:
        return cards or _cards
    if origin is list and len(args) == 1:
        item = encoder(args[0], cards)
        if item is not None:
            return lambda v: [item(x) for x in v]
    if origin is dict and len(args) == 2 and args[0] is str:
        value = encoder(args[1], cards)
        if value is not None:
            return lambda v: {k: value(x) for k, x in v.items()}
    if origin in (Union, types.UnionType) and type(None) in args and len(args) == 2:
        inner = encoder(next(a for a in args if a is not type(None)), cards)
        if inner is not None:
            return lambda v: None if v is None else inner(v)
    if isinstance(tp, type) and issubclass(tp, BaseModel) and _simple_model(tp):
        return model_encoder(tp, cards)
    adapter: TypeAdapter[Any] = TypeAdapter(tp)  # pydantic's own text of this field
    return lambda v: _Fragment(adapter.dump_json(v))


def model_encoder(cls: type[BaseModel], cards: Encode | None = None) -> Encode:
    """A model of ``cls`` as the dict of its fields in order (each encoded): its own
    ``__dict__`` when that holds them in that order, as they are (a model validated, or built
    by ``trusted``/``replace`` in that order)."""
    fields = [(n, encoder(f.annotation, cards)) for n, f in cls.model_fields.items()]
    names = tuple(n for n, _ in fields)
    if all(e is None for _, e in fields):

        def plain(m: BaseModel) -> dict[str, Any]:
            d = m.__dict__
            return d if tuple(d) == names else {n: d[n] for n in names}

        return plain

    def encode(m: BaseModel) -> dict[str, Any]:
        d = m.__dict__
        return {n: (d[n] if e is None else e(d[n])) for n, e in fields}

    return encode


def _card(card: PlayingCard) -> Any:
    return _Fragment(card_json(card))


def _cards(cards: list[PlayingCard], _known: Any = CARD_JSON.get) -> Any:
    parts = list(map(_known, map(id, cards)))  # (C loops: ~100 cards a Macarena dump)
    if None in parts:  # a card not of the shared decks (a loaded state's)
        parts = [card_json(c) for c in cards]
    return _Fragment(b"[" + b",".join(parts) + b"]")


class KeptCards:
    """The JSON of a game's card lists kept by the list (the very object), for a state class
    whose card lists are copy-on-write (``card_lists_shared``): a list of a state is shared,
    never changed in place, by the states after it, so its JSON does not change while it lives;
    a move replaces one to three of Macarena's sixteen. Per game (its seed): the lists of its
    last dump only, so a superseded list is not held; at most ``games`` games, the one dumped
    longest ago dropped first. Each entry holds its list: its ``id`` names it while kept, and a
    list not the kept one (another game's, a thread's) is written anew: the text is always the
    list's."""

    def __init__(self, games: int) -> None:
        self.games = games
        self._by_game: dict[str, dict[int, tuple[list[PlayingCard], Any]]] = {}
        self._before: dict[int, tuple[list[PlayingCard], Any]] = {}
        self._now: dict[int, tuple[list[PlayingCard], Any]] = {}

    def start(self, game: str) -> None:
        """A dump of the game ``game`` begins: its lists are read from its last dump's."""
        by_game = self._by_game
        self._before = by_game.pop(game, {})
        self._now = {}
        if len(by_game) >= self.games:
            try:
                del by_game[next(iter(by_game))]
            except (KeyError, RuntimeError, StopIteration):
                pass  # another thread (a test's inline worker) evicted it meanwhile
        by_game[game] = self._now

    def __call__(self, cards: list[PlayingCard]) -> Any:
        kept = self._before.get(id(cards))
        if kept is None or kept[0] is not cards:
            kept = (cards, _cards(cards))
        self._now[id(cards)] = kept
        return kept[1]


# Games whose card lists are kept per state class that shares them (a Macarena table holds ~16
# lists, ~4 KB of JSON): room for a busy bot's Macarena tables.
CARD_LIST_GAMES = 512


class StateWriter:
    """Writes the stored fields of one state class: those of its stored model (the state's
    class, or its ``stored_model``), in order, read from the state by name."""

    def __init__(self, cls: type) -> None:
        model: type[BaseModel] = getattr(cls, "stored_model", cls)
        stored = {n: f for n, f in model.model_fields.items() if not f.exclude}
        self.names = tuple(stored)
        # a state class whose card lists are never changed in place once made
        # (``card_lists_shared``): each list's JSON written once (``KeptCards``)
        self.kept_cards = (
            KeptCards(CARD_LIST_GAMES) if getattr(cls, "card_lists_shared", False) else None
        )
        encoders = {n: encoder(f.annotation, self.kept_cards) for n, f in stored.items()}
        self.encoded = tuple((n, e) for n, e in encoders.items() if e is not None)
        self.read = attrgetter(*self.names)
        # where the state asks for it (``dump_by_orjson``: where that measured faster than
        # pydantic), and pydantic writes such a model's fields by name, in order, as they are
        self.usable = (
            len(stored) > 1 and getattr(cls, "dump_by_orjson", False) and _simple_fields(model)
        )

    def fields(self, state: Any) -> dict[str, Any]:
        """The state's stored fields, as orjson writes them (pydantic's text)."""
        if self.kept_cards is not None:
            self.kept_cards.start(state.seed)
        out = dict(zip(self.names, self.read(state), strict=True))  # (plain ones as they are)
        for name, encode in self.encoded:
            out[name] = encode(out[name])
        return out


def _simple_fields(model: type[BaseModel]) -> bool:
    decorators = model.__pydantic_decorators__
    return (
        model.model_config.get("extra") != "allow"
        and set(model.model_computed_fields) <= {"log", "log_versions"}  # (written apart)
        and not decorators.field_serializers
        and not decorators.model_serializers
        and all(
            f.serialization_alias is None and f.alias is None
            for f in model.model_fields.values()
            if not f.exclude
        )
    )


def writer(cls: type) -> StateWriter:
    """The writer of a state class's stored fields (one per class)."""
    return _writer(cast(Hashable, cls))


@cache
def _writer(cls: Any) -> StateWriter:
    return StateWriter(cls)
