"""``bot.trusted_json``: a model rebuilt from the JSON pydantic wrote of it, without validating
it again, is what validating that JSON gives, type for type (issue 29: the render workers'
drawn parts, the search workers' views); what it cannot rebuild so is refused, and its caller
validates."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Annotated, Any, Literal

import pytest
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    computed_field,
    field_serializer,
    field_validator,
    model_validator,
)

from bot.trusted_json import (
    Decoder,
    Unsupported,
    from_json,
    model_path,
    sendable,
    whole_decoder,
)
from bot.ui.rendering import (
    ImageRequest,
    _decoder,
    image_inputs,
    view_from_json,
    view_validated_from_json,
)
from games.core import Event
from tests.bot.test_pipe_workers import _same_models
from tests.bot.test_rendering import GAMES, _views


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Leaf(BaseModel):
    model_config = ConfigDict(frozen=True)

    rank: int = Field(ge=1)
    suit: str = Field(pattern="^[SH]$")
    colour: Colour = Colour.RED

    @model_validator(mode="after")
    def _checked(self) -> Leaf:  # a check: not run again
        return self


class Everything(BaseModel):
    pair: tuple[int, str]
    many: tuple[int, ...]
    tags: set[str]
    frozen: frozenset[int]
    weight: float
    by_number: dict[int, list[Leaf]]
    by_name: dict[str, tuple[int, int]]
    maybe_leaf: Leaf | None
    leaves: list[Leaf | None]
    level: Level
    colours: list[Colour]
    literal: Literal["a", "b"]
    either: int | str
    anything: Any
    events: list[Event]
    nested: list[list[Leaf]]
    checked: Annotated[int, Field(ge=0)]


def _everything() -> Everything:
    leaf = Leaf(rank=3, suit="S", colour=Colour.BLUE)
    return Everything(
        pair=(1, "x"),
        many=(3, 2, 1),
        tags={"b", "a"},
        frozen=frozenset({4, 5}),
        weight=2,
        by_number={1: [leaf], 7: []},
        by_name={"k": (1, 2)},
        maybe_leaf=None,
        leaves=[leaf, None],
        level=Level.HIGH,
        colours=[Colour.RED, Colour.BLUE],
        literal="b",
        either="text",
        anything={"deep": [1, {"x": None}]},
        events=[Event("played", "1", {"card": "3S"}, ("1", "2")), Event("drew", None)],
        nested=[[leaf], []],
        checked=5,
    )


def test_a_model_of_every_supported_kind_of_field_is_what_validating_its_json_gives():
    model = _everything()
    data = model.__pydantic_serializer__.to_json(model)
    decoder = whole_decoder(Everything)
    assert decoder is not None
    rebuilt = decoder(data)
    assert _same_models(rebuilt, Everything.model_validate_json(data)) == 4  # (and 3 leaves)
    assert rebuilt == model
    assert isinstance(rebuilt.weight, float) and rebuilt.pair == (1, "x")
    assert rebuilt.by_number[1][0].colour is Colour.BLUE and rebuilt.level is Level.HIGH
    assert rebuilt.events[0].to == ("1", "2") and type(rebuilt.events[0]) is Event


def test_a_model_sent_as_json_is_rebuilt_as_the_model():
    model = _everything()
    assert sendable(Everything)
    data = model.__pydantic_serializer__.to_json(model)
    back = from_json(model_path(Everything), data)
    assert back == model and type(back) is Everything


class _Before(BaseModel):
    value: int

    @field_validator("value", mode="before")
    @classmethod
    def _parsed(cls, value: Any) -> Any:
        return int(str(value).strip())


class _Serialized(BaseModel):
    value: int

    @field_serializer("value")
    def _written(self, value: int) -> str:
        return str(value)


class _Computed(BaseModel):
    value: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def double(self) -> int:
        return 2 * self.value


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")
    value: int


class _Excluded(BaseModel):
    value: int
    hidden: int = Field(default=0, exclude=True)


class _Dated(BaseModel):
    when: datetime


class _TupleKeys(BaseModel):
    cells: dict[tuple[int, int], int]


class _Models(BaseModel):
    either: Leaf | _Dated


class _Annotated(BaseModel):
    value: Annotated[int, BeforeValidator(int)]


class _AnnotatedAfter(BaseModel):
    value: Annotated[int, AfterValidator(abs)]


@pytest.mark.parametrize(
    "model",
    [
        _Before,
        _Serialized,
        _Computed,
        _Loose,
        _Excluded,
        _Dated,
        _TupleKeys,
        _Models,
        _Annotated,
        _AnnotatedAfter,
    ],
)
def test_a_model_whose_json_validation_does_more_has_no_decoder(model):
    """Validators before pydantic's or in ``Annotated``, serializers, computed, extra or left
    out fields, types not understood here: refused; such a model is validated (``from_json``)
    or pickled as it is."""
    with pytest.raises(Unsupported):
        Decoder(model, tuple(model.model_fields), whole=True)
    assert whole_decoder(model) is None and not sendable(model)


def test_a_model_without_a_decoder_sent_as_json_is_validated():
    path = f"{__name__}:_Before"
    assert from_json(path, b'{"value": " 4 "}') == _Before(value=4)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_games_drawn_part_rebuilt_is_what_validating_its_json_gives(key):
    """A render worker's part (``view_from_json``: the game's decoders) equals the part
    validated from the same JSON field for field, type for type, fields set too, for every
    renderer's declared inputs and for every field drawn."""
    seats, views = _views(key, moves=12)
    compared = 0
    for _, view in views:
        for function in ("render_table", "render_hand"):
            for inputs in (image_inputs(key, function), None):
                request = ImageRequest(key, function, view, "es", None, "i.png", {}, inputs)
                assert _decoder(type(view), inputs) is not None
                data = request.drawn_json
                ours = view_from_json(type(view), inputs, data)
                validated = view_validated_from_json(type(view), inputs, data)
                # (the validated part holds a dotted input's field after the whole ones; ours
                # holds them in the view's order: renderers read them by name)
                assert ours.__dict__.keys() == validated.__dict__.keys()
                ordered = {name: validated.__dict__[name] for name in ours.__dict__}
                object.__setattr__(validated, "__dict__", ordered)
                compared += _same_models(ours, validated)
    assert compared > len(views)


def test_a_part_with_a_field_no_decoder_rebuilds_is_validated():
    """A view whose drawn fields' validation does more than ``trusted_json`` reproduces gets
    no decoder: its part is validated from its JSON, as before."""
    seats, views = _views("triad")
    view = views[0][1]

    class _DatedView(type(view)):  # type: ignore[misc]
        when: datetime = datetime(2026, 1, 2, 3, 4, 5)

    dated = _DatedView(**view.__dict__)
    inputs = frozenset({"when", "seats"})
    assert _decoder(_DatedView, inputs) is None
    request = ImageRequest("triad", "render_table", dated, "es", None, "i.png", {}, inputs)
    part = view_from_json(_DatedView, inputs, request.drawn_json)
    assert part.when == dated.when and part.seats == dated.seats
