"""Table and hand images, rendered off the event loop and reused while unchanged.

A payload builder (``bot.ui.messages``) describes the image it wants as an ``ImageRequest``
(plain, picklable data: the game, the renderer's name, the view model, the locale and the seat
names); the ``Renderer`` turns it into PNG bytes in a worker process (``bot.workers``) and keeps
recent results by a digest of what the image depends on, so an unchanged hand is neither drawn
nor uploaded again. Two requests for the same digest share one render.

Renders wait their turn in order (issue 25): ``first`` ones (an image a player waits for to
act, or to see the answer to their click) before the others, then by how long their message has
waited. A render whose message moved on before a worker was free for it is not drawn
(``Superseded``), and the render of that message's newer version keeps its place in line
(``place``: the message's key), so a busy table is not sent to the back each time it moves.

The drawing itself stays in the game's images module (``bot.ui.<game>.images``:
``render_table(view, tr, names=None)``, ``render_hand(view, tr, names=None, *, playable=None)``);
this module only decides where and when they run.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import importlib
import json
import logging
import time
import typing
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

from pydantic import BaseModel, ConfigDict, create_model
from pydantic.fields import FieldInfo

from bot import metrics
from bot.i18n import translator
from bot.trusted_json import Decoder, Nested, Unsupported, model_at, model_path
from bot.ui.modules import game_module
from bot.workers import Sent, Superseded, Workers
from games.core import PlayerView

log = logging.getLogger(__name__)

# View fields no image draws: a new version or a new event line alone does not change a picture
# (``tests/bot/test_rendering.py`` checks this holds for every game's renderers).
NOT_DRAWN = {"version", "last_events", "last_event_versions"}
# A game's images module may name, per renderer, exactly the view fields that renderer reads
# (``IMAGE_INPUTS = {"render_hand": frozenset({"hand", "playable"})}``): then only those fields
# make the cache key, so a hand image is not drawn (nor uploaded) again when only the table moved
# on. A dotted name reads one field of a model field (``"top.sign"``: the top card's sign, not
# which copy of it lies there) or of every item of a list of models (``"players.coins"``: each
# player's coins, not their hand count). ``tests/bot/test_rendering.py`` checks that every
# declared set is complete.
INPUTS_ATTRIBUTE = "IMAGE_INPUTS"
# Drawn images kept by digest in the bot process. An image is asked again only soon after it was
# drawn (a version asked again before its message's edit went out; a message shown anew): an
# unchanged image is neither drawn nor uploaded anyway (the message's shown digest), and at 1,000
# busy tables 2-3 % of asks hit (at 300 tables 66 of 3,911, 88 % of them within 16 MB of newer
# images: ``bench/memory_census.py``). 64 MiB held ~8,000 PNGs, 85 s of renders there, and the
# bot's RSS grew by their ~4 KB per move until full (issue 29: RSS goal); 8 MiB is ~1,000 images,
# the last ~10 s at 1,000 tables.
CACHE_BYTES = 8 * 1024 * 1024
# Metric names (``bot.metrics``): an image answered without drawing it, and each drawn image's
# size; with ``render`` (one per image drawn) they give the hit rate and the bytes per image.
REUSED = "render_reused"
IMAGE_KIB = "image_kib"
# The render queue's trace (``bench/``): each drawn image's wait for a worker (all, and those
# ranked first), each image skipped because its message moved on, and images drawn by game and
# renderer (``image_<game>_<function>``, one timing per image: its draw).
WAIT = "render_wait"
WAIT_FIRST = "render_wait_first"
SKIPPED = "render_superseded"
# Messages whose render was superseded, with since when their change waits (their next render
# keeps that place); bounded, oldest forgotten first.
OWED_PLACES = 4096
# Alt texts written by the render workers with their images (``Renderer(job=...)``), held until
# the image's payload takes its own (``description``); bounded, oldest forgotten first.
DESCRIPTIONS = 256


T = TypeVar("T")


def builtin_sha256() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 (``_sha2`` from 3.12, ``_sha256`` before), else ``hashlib``'s.

    ``hashlib.sha256`` is OpenSSL's: once a move, its caches cold, creating a hash there,
    feeding it and reading it cost the bot's loop 45 us live against 13 for CPython's own, for
    a few hundred bytes to 2 KB (issue 29, session 31: ``bench/probe_calls.py``, both in one
    bot, 300 tables; hot they are alike). The same digests."""
    for name in ("_sha2", "_sha256"):
        try:
            found: Callable[[bytes], Any] = importlib.import_module(name).sha256
        except (ImportError, AttributeError):
            continue
        return found
    return hashlib.sha256


sha256 = builtin_sha256()


class kept_once(functools.cached_property[T]):  # (a decorator, named as its base is)
    """``functools.cached_property`` without Python 3.11's lock (an ``RLock`` taken at every
    first read: a request's digest is read once per payload, issue 29): the value is computed
    at the first read and kept in the instance's ``__dict__``, where later reads find it."""

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> kept_once[T]: ...

    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type[Any] | None = None) -> Any:
        if instance is None:
            return self
        # (``attrname``: set by ``__set_name__`` as the class is built)
        value = instance.__dict__[self.attrname] = self.func(instance)  # type: ignore[index]
        return value


class NameBook(dict[str, str]):
    """Seat -> display name, usable both as a mapping and as a function (renderers use
    either)."""

    def __call__(self, seat: str | None) -> str:
        return self.get(seat or "", seat or "")


@dataclass(frozen=True)
class ImageRequest:
    game_key: str
    function: str  # "render_table" or "render_hand"
    view: PlayerView
    locale: str
    names: dict[str, str] | None
    filename: str
    extras: dict[str, Any] = field(default_factory=dict)  # more keyword arguments (JSON data)
    inputs: frozenset[str] | None = None  # the view fields the renderer reads (None: all drawn)

    @property
    def args(self) -> tuple[Any, ...]:
        """``render_image``'s arguments (picklable: they go to a worker process), the view cut
        to the fields the renderer reads (``drawn_part``)."""
        view = drawn_part(self.view, self.inputs)
        return (self.game_key, self.function, view, self.locale, self.names, self.extras)

    @property
    def sent_args(self) -> tuple[Any, ...] | None:
        """``args`` as a render worker is sent them (``SentRender``'s): the drawn part as the
        JSON its digest hashed (one serialisation per image, not a second one to pickle a
        tree of models; the worker rebuilds the part from it), with its model's path and its
        inputs; None where its fields do not allow (then ``args`` go)."""
        view = self.view
        if not json_rebuilds(type(view), self.inputs):
            return None
        inputs: Inputs = self.inputs
        if inputs is not None and inputs is image_inputs(self.game_key, self.function):
            inputs = (self.game_key, self.function)  # the declared ones, named (not pickled)
        path = model_path(type(view))
        return (
            self.game_key,
            self.function,
            path,
            inputs,
            self.drawn_json,
            self.locale,
            self.names,
            self.extras,
        )

    @kept_once
    def drawn_json(self) -> bytes:
        """The drawn part's JSON bytes as pydantic writes them (``model_dump_json`` is their
        text): the fields ``inputs`` name, else every field but ``NOT_DRAWN``."""
        view = self.view
        serializer = view.__pydantic_serializer__
        if self.inputs is not None:
            return serializer.to_json(view, include=included(type(view), self.inputs))
        return serializer.to_json(view, exclude=_drawn_exclude(type(view)))

    @kept_once
    def digest(self) -> str:
        """SHA-256 of ``{head}\n{the drawn fields' JSON}``: the drawn part's JSON bytes
        (``drawn_json``) after the head's bytes, without a text of both built and encoded
        again (issue 29), by CPython's own SHA-256 (``sha256``). Digests are stored (what a
        message shows): the same text, the same digest, from release to release."""
        drawn = self.drawn_json
        if self.extras:
            head = _head(self.game_key, self.function, self.locale, self.names, self.extras)
            return sha256(f"{head}\n".encode() + drawn).hexdigest()
        # a table's: its seats' names, kept written (the same every move)
        names = tuple(self.names.items()) if self.names is not None else None
        head_line = _plain_head(self.game_key, self.function, self.locale, names)
        return sha256(head_line + drawn).hexdigest()


def drawn_part(view: PlayerView, inputs: frozenset[str] | None) -> PlayerView:
    """``view`` with only the fields ``inputs`` name (whole: ``"players.coins"`` keeps
    ``players``): what is pickled to a render worker and unpickled there per image is the
    picture's inputs, not the whole view (issue 29: a Chúpate 2 table's job 1.6 -> 0.6 KB). A
    renderer reading an undeclared field fails there (AttributeError);
    ``tests/bot/test_rendering.py`` draws every game's images from these parts."""
    if inputs is None:
        return view
    kept = _kept_fields(inputs)
    if view.__pydantic_extra__ is not None or view.__pydantic_private__ is not None:
        part = view.model_copy()  # copies those too
        for name in [name for name in part.__dict__ if name not in kept]:
            del part.__dict__[name]
        part.model_fields_set.intersection_update(kept)  # the copy's own set: pickled too
        return part
    # A shallow copy of the kept fields, built as pydantic's own ``model_copy`` builds one
    # (~1 us against ~4: a part is cut for every image drawn; ``model_construct`` would run
    # every missing field's default factory, through ``inspect.signature``: 0.5 ms for a
    # Macarena view)
    values = {k: v for k, v in view.__dict__.items() if k in kept}
    return _model_of(type(view), values, view.__pydantic_fields_set__ & kept)


def _model_of(model: type[BaseModel], values: dict[str, Any], fields_set: set[str]) -> Any:
    """An instance of ``model`` holding ``values`` (no validation), built as pydantic's own
    ``model_copy`` builds one, with no extra or private values."""
    instance = _new_model(model)
    _set_attribute(instance, "__dict__", values)
    _set_attribute(instance, "__pydantic_fields_set__", fields_set)
    _set_attribute(instance, "__pydantic_extra__", None)
    _set_attribute(instance, "__pydantic_private__", None)
    return instance


_new_model = object.__new__  # (a model class has no ``__new__`` of its own)
_set_attribute = object.__setattr__


# A part's inputs as sent: a set of fields, None (all drawn), or (game, renderer): those the
# game's images module declares for that renderer (``image_inputs``), a set not pickled per job
Inputs = frozenset[str] | tuple[str, str] | None


class SentRender(Sent):
    """A render job (``job``: ``render_image``'s arguments) as the render pool runs it: sent
    ``ImageRequest.sent_args`` (plain data: a pickled view part, a model class or a function
    among them is looked up by its module and name at every pickling and unpickling, issue
    29), its drawn part rebuilt in the worker (``arguments``: ``view_from_json`` of the model
    at its path, the same fields with the same values), then drawn. Pickled once per worker
    (``bot.pipe_workers``: a function sent before goes by its index)."""

    __slots__ = ("job",)

    def __init__(self, job: Callable[..., Any]) -> None:
        self.job = job

    def __reduce__(self) -> tuple[Any, ...]:
        return (SentRender, (self.job,))

    def arguments(self, sent: tuple[Any, ...]) -> tuple[Any, ...]:
        game_key, function, path, inputs, data, locale, names, extras = sent
        if isinstance(inputs, tuple):
            inputs = image_inputs(*inputs)
        view = view_from_json(model_at(path), inputs, data)
        return (game_key, function, view, locale, names, extras)

    def __call__(self, *args: Any) -> Any:
        return self.job(*args)


def view_from_json(model: type[PlayerView], inputs: frozenset[str] | None, data: bytes) -> Any:
    """The drawn part of a ``model`` view from its JSON (``ImageRequest.drawn_json``): an
    instance of ``model`` holding only the drawn fields, each as validating it as ``model``
    does gives it (a view is what validating its JSON gives: ``tests/games/test_contract.py``);
    a dotted input's model (``"top.sign"``) or items (``"players.coins"``) instances of their
    own model holding only the drawn parts. A renderer reading an undeclared field fails
    (AttributeError), as on ``drawn_part``. Rebuilt by the part's ``trusted_json.Decoder`` (the
    bot wrote the JSON of values its models hold: nothing is validated again, issue 29), else
    validated."""
    decode = _decoder(model, inputs)
    if decode is not None:
        return decode(data)
    return view_validated_from_json(model, inputs, data)


@functools.lru_cache(maxsize=64)
def _decoder(model: type[PlayerView], inputs: frozenset[str] | None) -> Decoder | None:
    """The drawn part's decoder, built once per process; None if its fields' validation does
    more than ``trusted_json`` reproduces (``Unsupported``)."""
    parts = _part_fields(model, inputs)
    assert parts is not None, "json_rebuilds() first"
    try:
        return Decoder(model, *parts)
    except Unsupported:
        log.debug("the drawn part of %s is validated", model.__name__, exc_info=True)
        return None


def view_validated_from_json(
    model: type[PlayerView], inputs: frozenset[str] | None, data: bytes
) -> Any:
    """``view_from_json`` by validating the JSON (``_part_model``)."""
    part = _part_model(model, inputs).model_validate_json(data)
    values = part.__dict__
    fields = _part_fields(model, inputs)
    assert fields is not None, "json_rebuilds() first"
    for name, item_model, _, listed in fields[1]:
        value = values[name]
        if listed:
            values[name] = [_as_instance(item_model, item) for item in value]
        else:
            values[name] = _as_instance(item_model, value)
    return _as_instance(model, part)


def _as_instance(model: type[BaseModel], part: BaseModel) -> Any:
    """``part``'s values as an instance of ``model`` (built as ``drawn_part`` builds one)."""
    return _model_of(model, part.__dict__, part.__pydantic_fields_set__)


# (fields kept whole, the fields of which a dotted input keeps some: their model's fields kept)
PartFields = tuple[tuple[str, ...], tuple[Nested, ...]]


def json_rebuilds(model: type[PlayerView], inputs: frozenset[str] | None) -> bool:
    """Whether a ``model`` view's drawn part can go to a worker as its JSON (``SentRender``):
    models without private or extra values, a dotted input's field a model or a list of
    models."""
    return _part_fields(model, inputs) is not None


@functools.lru_cache(maxsize=64)
def _part_fields(model: type[BaseModel], inputs: frozenset[str] | None) -> PartFields | None:
    """The drawn part's fields (``PartFields``), or None if it cannot be rebuilt from JSON."""
    if inputs is None:
        return _plain_fields(model, tuple(n for n in model.model_fields if n not in NOT_DRAWN))
    whole = tuple(n for n in model.model_fields if n in inputs)
    nested = []
    for name, wanted in _dotted(inputs).items():
        if name in whole:
            continue
        found = _nested_model(model, name)
        if found is None or _plain_fields(found[0], tuple(wanted)) is None:
            return None
        item, listed = found
        kept = tuple(n for n in item.model_fields if n in wanted)
        nested.append(Nested(name, item, kept, listed))
    if _plain_fields(model, whole + tuple(part.name for part in nested)) is None:
        return None
    return whole, tuple(nested)


def _plain_fields(model: type[BaseModel], names: tuple[str, ...]) -> PartFields | None:
    """``names`` kept whole, if ``model`` holds no private or extra values and has them all."""
    config = model.model_config
    if model.__private_attributes__ or config.get("extra") == "allow":
        return None
    fields = model.model_fields
    if any(name not in fields or fields[name].exclude for name in names):
        return None
    return names, ()


def _nested_model(model: type[BaseModel], name: str) -> tuple[type[BaseModel], bool] | None:
    """The model of field ``name`` of ``model`` and whether the field is a list of them
    (``list[M]``: True; ``M``: False), else None (not a model's field, nor a list of them)."""
    info = model.model_fields.get(name)
    if info is None:
        return None
    annotation, listed = info.annotation, typing.get_origin(info.annotation) is list
    if listed:
        (annotation,) = typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, listed
    return None


@functools.lru_cache(maxsize=64)
def _part_model(model: type[BaseModel], inputs: frozenset[str] | None) -> type[BaseModel]:
    """A model of the drawn part's fields only, each declared as ``model`` declares it (a
    dotted input's items: a model of their drawn fields), built once per process."""
    parts = _part_fields(model, inputs)
    assert parts is not None, "json_rebuilds() first"
    whole, nested = parts
    fields: dict[str, Any] = {name: _field(model, name) for name in whole}
    for name, item, kept, listed in nested:
        item_part: Any = _subset_model(item, kept)
        fields[name] = (list[item_part] if listed else item_part, model.model_fields[name])
    return _subset_model(model, (), fields)


def _field(model: type[BaseModel], name: str) -> tuple[Any, FieldInfo]:
    info = model.model_fields[name]
    return info.annotation, info


def _subset_model(
    model: type[BaseModel], names: tuple[str, ...], more: dict[str, Any] | None = None
) -> type[BaseModel]:
    fields = {name: _field(model, name) for name in names} | (more or {})
    config = ConfigDict(**model.model_config)
    config["validate_by_name"] = True  # the JSON has the fields' names, not their aliases
    built: type[BaseModel] = create_model(f"{model.__name__}Drawn", __config__=config, **fields)
    return built


@functools.lru_cache(maxsize=64)
def _drawn_exclude(model: type[PlayerView]) -> set[str]:
    """What a view's digest leaves out when no inputs are declared: its ``NOT_DRAWN`` fields."""
    return NOT_DRAWN & set(model.model_fields)


@functools.lru_cache(maxsize=64)
def _kept_fields(inputs: frozenset[str]) -> frozenset[str]:
    """The view's fields ``inputs`` keep whole: ``"players.coins"`` keeps ``players``."""
    return frozenset(name.partition(".")[0] for name in inputs)


@functools.lru_cache(maxsize=64)
def included(model: type[BaseModel], inputs: frozenset[str]) -> dict[str, Any]:
    """Declared inputs of a ``model`` view as pydantic's ``include``: ``"pozos"`` whole,
    ``"top.sign"`` the ``sign`` of the model ``top``, ``"players.coins"`` the ``coins`` of
    every item of ``players``."""
    spec: dict[str, Any] = {name: True for name in sorted(inputs) if "." not in name}
    for name, parts in _dotted(inputs).items():
        if name not in spec:  # (else kept whole)
            found = _nested_model(model, name)
            one_model = found is not None and not found[1]
            spec[name] = set(parts) if one_model else {"__all__": set(parts)}
    return spec


def _dotted(inputs: frozenset[str]) -> dict[str, frozenset[str]]:
    """The fields of which dotted inputs name some: ``"players.coins"`` -> ``players: {coins}``."""
    parts: dict[str, set[str]] = {}
    for name in sorted(inputs):  # (the same order in every process)
        head, _, part = name.partition(".")
        if part:
            parts.setdefault(head, set()).add(part)
    return {head: frozenset(names) for head, names in parts.items()}


def _head(
    game_key: str,
    function: str,
    locale: str,
    names: dict[str, str] | None,
    extras: dict[str, Any],
) -> str:
    """The digest's first line: everything an image depends on besides its view."""
    return json.dumps(
        [game_key, function, locale, names, extras], sort_keys=True, default=_canonical
    )


# Heads of images without extras (every table) kept per process: a table asks the same one
# for each image while its players stay (json.dumps was a fifth of a digest; issue 29).
HEADS = 4096


@functools.lru_cache(maxsize=HEADS)
def _plain_head(
    game_key: str, function: str, locale: str, names: tuple[tuple[str, str], ...] | None
) -> bytes:
    """The head's line, its newline included, as the bytes hashed."""
    head = _head(game_key, function, locale, dict(names) if names is not None else None, {})
    return f"{head}\n".encode()


def _canonical(value: Any) -> Any:
    """JSON for the digest of what ``json`` cannot write itself (sets: sorted)."""
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)


@functools.cache  # a pure look-up (the module search costs an import attempt)
def image_inputs(game_key: str, function: str) -> frozenset[str] | None:
    """The view fields ``function`` of ``game_key``'s images module reads, if it says so."""
    module = game_module(game_key, "images")
    declared: dict[str, frozenset[str]] = getattr(module, INPUTS_ATTRIBUTE, None) or {}
    return declared.get(function)


def render_image(
    game_key: str,
    function: str,
    view: PlayerView,
    locale: str,
    names: dict[str, str] | None,
    extras: dict[str, Any] | None = None,
) -> bytes | None:
    """Run one game renderer (in a worker process; a module-level function, so picklable)."""
    func = _renderer(game_key, function)
    if func is None:
        return None
    book = NameBook(names) if names is not None else None
    image: bytes = func(view, translator(locale), names=book, **(extras or {}))
    return image


@functools.cache  # per process: the module search, once
def _renderer(game_key: str, function: str) -> Callable[..., bytes] | None:
    """The game's ``render_table(view, tr, names=None)`` or ``render_hand(view, tr, names=None,
    *, playable=None)`` (one signature for every game: tests/test_structure.py)."""
    module = game_module(game_key, "images")
    return getattr(module, function, None) if module is not None else None


class Renderer:
    """Renders ``ImageRequest``s on ``workers`` (None: inline, on the calling thread).

    At most ``workers.depth`` renders per worker are handed to the pool at a time (the pipe pool:
    the one drawn and the next, so a worker never waits for the event loop between two images);
    the others wait here, so a render whose message has meanwhile moved on (``wanted()`` is
    false when its turn comes) is skipped instead of drawn."""

    def __init__(
        self,
        workers: Workers | None = None,
        cache_bytes: int = CACHE_BYTES,
        clock: Callable[[], float] = time.perf_counter,
        job: Callable[..., tuple[bytes | None, str | None]] | None = None,
    ) -> None:
        self.workers = workers
        # Whether ``workers`` pickle each job to another process (the pipe pool), so a
        # view's drawn part may go as its JSON (``sent_args``)
        self._pickles = bool(getattr(workers, "pickles", False))
        # What a worker runs for an image: ``job(*request.args)``, its PNG and alt text
        # (``bot.ui.alt_text.render_described``: the description written off the event loop,
        # issue 29); None: ``render_image`` alone, the caller describes it.
        self._job = job
        self._sent_job = SentRender(self._run)  # (one object: the pool sends it once a worker)
        self._descriptions: OrderedDict[str, str] = OrderedDict()
        self._clock = clock  # the ordered pool's clock: since when a render waits in line
        self._free = (
            asyncio.Semaphore(workers.size * workers.depth) if workers is not None else None
        )
        self.skipped = 0  # renders superseded before they started
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[str, bytes | None] = OrderedDict()
        self._cached_bytes = 0
        self._running: dict[str, asyncio.Future[bytes | None]] = {}
        self._owed: OrderedDict[Hashable, float] = OrderedDict()
        self.renders = 0  # images actually drawn (cache misses)
        self.reused = 0  # images answered from the cache or a render already under way

    async def render(
        self,
        request: ImageRequest,
        wanted: Callable[[], bool] | None = None,
        *,
        first: bool = True,
        place: Hashable | None = None,
    ) -> bytes | None:
        """The image's PNG bytes (None if it has none); ``Superseded`` if ``wanted`` says, when
        a worker is free for it, that it is no longer needed. ``first``: someone waits for it
        (the view that lets a player act, an answer to a click), it goes before the others;
        ``place``: the message it is for (a superseded render's successor keeps its place)."""
        digest = request.digest
        if digest in self._cache:
            self._cache.move_to_end(digest)
            self._reuse()
            return self._cache[digest]
        running = self._running.get(digest)
        if running is not None:
            self._reuse()
            try:
                return await asyncio.shield(running)
            except Superseded:
                # Its first asker moved on before a worker was free; this asker may still
                # want the image (an answer to a click does): it asks again, for itself.
                return await self.render(request, wanted, first=first, place=place)
            except asyncio.CancelledError:
                # Its first asker was cancelled (e.g. a click's answer out of time): not this
                # asker, unless it is being cancelled itself; it asks again, for itself. (The
                # cancellation used to reach every sharer: five identical tables' clicks at
                # once, one timed out, the other four handlers died unanswered.)
                task = asyncio.current_task()
                if not running.cancelled() or (task is not None and task.cancelling()):
                    raise
                return await self.render(request, wanted, first=first, place=place)
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._running[digest] = future
        try:
            image = await self._draw(request, wanted, first, place)
            self._remember(digest, image)
            if image is not None:
                metrics.observe(IMAGE_KIB, len(image) / 1024)
            future.set_result(image)
        except asyncio.CancelledError:
            future.cancel()  # its sharers are not cancelled: they ask again (above)
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a failed render is logged once, below
            raise
        finally:
            del self._running[digest]
            # A failed render's exception holds this frame in its traceback, and the frame
            # the future holding the exception: a cycle only the collector would free.
            del future
        return image

    def _reuse(self) -> None:
        self.reused += 1
        metrics.observe(REUSED, 0.0)  # counted: ``bench/`` prints the hit rate from the log

    async def _draw(
        self,
        request: ImageRequest,
        wanted: Callable[[], bool] | None,
        first: bool = True,
        place: Hashable | None = None,
    ) -> bytes | None:
        if self.workers is None or self._free is None:
            return self._timed(request)
        if self.workers.ordered:
            return await self._draw_in_line(request, wanted, first, place)
        async with self._free:
            if wanted is not None and not wanted():
                self.skipped += 1
                raise Superseded
            self.renders += 1
            start = time.perf_counter()
            try:
                fn, args = self._sent(request)
                return self._described(request, await self.workers.run(fn, *args))
            finally:
                metrics.observe("render", (time.perf_counter() - start) * 1000)

    async def _draw_in_line(
        self,
        request: ImageRequest,
        wanted: Callable[[], bool] | None,
        first: bool,
        place: Hashable | None,
    ) -> bytes | None:
        """On a pool that orders its waiting jobs: handed to it at once with the render's rank
        and place in line; the pool asks ``wanted`` when a worker is free for it."""
        asked = self._clock()
        since = self._owed.pop(place, asked) if place is not None else asked
        started: list[float] = []

        def still_wanted() -> bool:  # called by the pool as it hands the job to a worker
            started.append(self._clock())
            return wanted is None or wanted()

        assert self.workers is not None
        fn, args = self._sent(request)
        try:
            result = await self.workers.run(
                fn,
                *args,
                rank=0 if first else 1,
                since=since,
                wanted=still_wanted,
                affinity=place,  # a message's images drawn by one worker: its caches warm
            )
        except Superseded:
            self.skipped += 1
            metrics.observe(SKIPPED, (self._clock() - asked) * 1000)
            if place is not None:
                self._owed[place] = since  # its successor keeps this place in line
                while len(self._owed) > OWED_PLACES:
                    self._owed.popitem(last=False)
            raise
        self.renders += 1
        done = self._clock()
        begun = started[0] if started else asked
        histograms = metrics.histograms  # (``metrics.observe``'s own, without its calls)
        histograms[WAIT].add((begun - asked) * 1000)
        if first:
            histograms[WAIT_FIRST].add((begun - asked) * 1000)
        histograms["render"].add((done - begun) * 1000)
        histograms[f"image_{request.game_key}_{request.function}"].add((done - begun) * 1000)
        return self._described(request, result)

    def _sent(self, request: ImageRequest) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """The job's function and arguments: the drawn part as its JSON to a pool that pickles
        its jobs (``SentRender``), else the drawn part itself (a pool running jobs in this
        process, or a part its JSON cannot give back)."""
        if self._pickles:
            sent = request.sent_args
            if sent is not None:
                return self._sent_job, sent
        return self._run, request.args

    @property
    def _run(self) -> Callable[..., Any]:
        return self._job if self._job is not None else _safe_render_args

    def _described(self, request: ImageRequest, result: Any) -> bytes | None:
        """The image of a worker's ``result``; its alt text, if the job wrote one, kept for
        ``description``."""
        if self._job is None:
            image: bytes | None = result
            return image
        image, alt = result
        if image is not None and alt is not None:
            self._descriptions[request.digest] = alt
            while len(self._descriptions) > DESCRIPTIONS:
                self._descriptions.popitem(last=False)
        return image

    def description(self, digest: str) -> str | None:
        """The alt text a worker wrote with the image of ``digest`` (taken: its payload keeps
        it from then on), or None."""
        return self._descriptions.pop(digest, None)

    def _timed(self, request: ImageRequest) -> bytes | None:
        self.renders += 1
        start = time.perf_counter()
        try:
            return _safe_render(request)
        finally:
            metrics.observe("render", (time.perf_counter() - start) * 1000)

    def _remember(self, digest: str, image: bytes | None) -> None:
        self._cache[digest] = image
        self._cached_bytes += len(image or b"")
        while self._cached_bytes > self.cache_bytes and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cached_bytes -= len(old or b"")

    def close(self) -> None:
        if self.workers is not None:
            self.workers.shutdown()


def _safe_render(request: ImageRequest) -> bytes | None:
    return _safe_render_args(*request.args)


def _safe_render_args(*args: Any) -> bytes | None:
    try:
        return render_image(*args)
    except Exception:  # an image is a nicety: the text still carries everything
        log.exception("rendering %s for %s failed", args[1], args[0])
        return None


_current = Renderer()


def renderer() -> Renderer:
    """The process's renderer (the bot installs one on its worker pool at start-up; until
    then, and in tools and tests, images are drawn inline)."""
    return _current


def install(new: Renderer) -> Renderer:
    """Make ``new`` the process's renderer; returns the previous one."""
    global _current  # one renderer per process, like its worker pool
    previous, _current = _current, new
    return previous
