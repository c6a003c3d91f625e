"""The one action text grammar (games/core/actions.py) and its codec."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

import pytest

from games.core import (
    Action,
    ActionCodec,
    IllegalAction,
    Interned,
    NoArgs,
    format_action,
    parse_action,
)
from games.core.actions import MAX_ACTION_TEXT
from games.core.errors import BAD_ACTION


class Play(Action):
    verb: ClassVar[str] = "p"
    kind: Literal["play"] = "play"
    card: str
    target: int | None = None
    colour: str | None = None


class Draw(Action):
    verb: ClassVar[str] = "draw"


class Flag(Action):
    verb: ClassVar[str] = "flag"
    on: bool


class Cards(Action):
    """Several cards in one argument each: overrides ``args`` / ``from_args``."""

    verb: ClassVar[str] = "cards"
    cards: tuple[str, ...]

    def args(self) -> tuple[str, ...]:
        return self.cards

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        if not args:
            raise IllegalAction(BAD_ACTION)
        return cls(cards=tuple(args))


CODEC = ActionCodec(Play, Draw, Flag, Cards)


@pytest.mark.parametrize(
    "action,text",
    [
        (Play(card="AS"), "p.AS"),
        (Play(card="AS", target=2), "p.AS.2"),
        (Play(card="AS", target=2, colour="r"), "p.AS.2.r"),
        (Draw(), "draw"),
        (Flag(on=True), "flag.1"),
        (Flag(on=False), "flag.0"),
        (Cards(cards=("7H", "8H", "9H")), "cards.7H.8H.9H"),
    ],
)
def test_encode_and_decode_round_trip(action: Action, text: str):
    assert action.encode() == text
    decoded = CODEC.decode(text)
    assert type(decoded) is type(action) and decoded == action


def test_kind_is_not_an_argument():
    assert Play(card="AS").args() == ("AS",)
    assert "play" not in Play(card="AS").encode()


def test_codec_types_are_the_classes_in_order():
    assert CODEC.types == (Play, Draw, Flag, Cards)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p.",
        ".p",
        "p..AS",
        "P.AS",
        "p:AS",
        "p.AS 2",
        "p.é",
        "zz",  # no such verb
        "draw.1",  # too many arguments
        "p",  # a required argument missing
        "p.AS.x",  # not an int
        "flag.maybe",
        "cards",  # from_args refuses
        "p." + "A" * MAX_ACTION_TEXT,  # too long
    ],
)
def test_decode_refuses_with_bad_action(text: str):
    with pytest.raises(IllegalAction) as caught:
        CODEC.decode(text)
    assert caught.value.code == BAD_ACTION


def test_decode_refuses_non_text():
    with pytest.raises(IllegalAction):
        CODEC.decode(None)  # type: ignore[arg-type]  # what a forged payload could carry


def test_from_args_returning_another_class_is_refused():
    class Liar(Action):
        verb: ClassVar[str] = "liar"

        @classmethod
        def from_args(cls, args: Sequence[str]) -> Action:
            return Draw()

    with pytest.raises(IllegalAction):
        ActionCodec(Liar).decode("liar")


def test_codec_refuses_bad_or_repeated_verbs():
    class Again(Action):
        verb: ClassVar[str] = "draw"

    class Upper(Action):
        verb: ClassVar[str] = "Up"

    with pytest.raises(ValueError):
        ActionCodec(Draw, Again)
    with pytest.raises(ValueError):
        ActionCodec(Upper)


def test_format_action_checks_the_grammar_where_the_text_is_made():
    assert format_action("p", ("AS", "2")) == "p.AS.2"
    for verb, args in [("p", ("a:b",)), ("p", ("",)), ("P", ()), ("p", ("x" * MAX_ACTION_TEXT,))]:
        with pytest.raises(ValueError):
            format_action(verb, args)
    with pytest.raises(ValueError):
        Play(card="A S").encode()


def test_parse_action_splits_verb_and_arguments():
    assert parse_action("p.AS.2") == ("p", ("AS", "2"))
    assert parse_action("draw") == ("draw", ())


def test_actions_are_frozen_values():
    action = Play(card="AS")
    with pytest.raises(ValueError):
        action.card = "KS"  # type: ignore[misc]  # frozen: the assignment itself is the test
    assert action == Play(card="AS") and hash(action) == hash(Play(card="AS"))
    with pytest.raises(ValueError):
        Play(card="AS", extra=1)  # type: ignore[call-arg]  # extra fields are forbidden


class Seat(Interned):
    verb: ClassVar[str] = "seat"
    kind: Literal["seat"] = "seat"
    target: int | None = None


class Rest(NoArgs):
    kind: Literal["rest"] = "rest"


SEATS = {i: Seat.intern(target=i) for i in range(3)}
ANY_SEAT = Seat.intern()
INTERNED = ActionCodec(Seat, Rest)


def test_interned_actions_decode_to_their_one_instance():
    assert INTERNED.decode("seat.1") is SEATS[1] and INTERNED.decode("seat") is ANY_SEAT
    assert Seat.intern(target=1) is SEATS[1]  # made once
    assert INTERNED.decode("rest") is Rest.instance() and Rest.intern() is Rest.instance()


@pytest.mark.parametrize("text", ["seat.3", "seat.01", "seat.1.2", "rest.1"])
def test_interned_actions_refuse_a_text_naming_none(text: str):
    with pytest.raises(IllegalAction) as err:
        INTERNED.decode(text)
    assert err.value.code == BAD_ACTION


def test_a_move_without_arguments_is_written_as_its_kind_unless_it_names_a_verb():
    assert Rest.verb == "rest" and Rest.instance().encode() == "rest"
    assert Seat.verb == "seat"


def test_an_actions_text_kept_by_the_instance_is_its_own(monkeypatch):
    """``encode`` keeps each instance's text (``_ENCODED``, bounded): every action, encoded
    again after many others pushed it out, and an equal action built anew, give the text of
    its own fields; ids of actions gone are never mistaken for new ones."""
    from games.core import actions

    monkeypatch.setattr(actions, "ENCODED_KEPT", 16)
    monkeypatch.setattr(actions, "_ENCODED", {})
    kept = [Play(card=f"c{i}", target=i % 3) for i in range(40)]
    texts = [format_action("p", a.args()) for a in kept]
    for _ in range(3):
        assert [a.encode() for a in kept] == texts
    assert len(actions._ENCODED) <= 16
    for i in range(200):  # built and dropped: a freed id may come back for another action
        dropped = Play(card=f"d{i}", colour="r")
        assert dropped.encode() == format_action("p", Play(card=f"d{i}", colour="r").args())
    assert Play(card="c7", target=1).encode() == kept[7].encode() == texts[7]


class OtherPlay(Action):
    """Another game's move written with the same verb as ``Play``."""

    verb: ClassVar[str] = "p"
    kind: Literal["other"] = "other"
    card: str
    target: int | None = None
    colour: str | None = None


def test_a_text_encode_wrote_decodes_to_its_action_in_its_own_codec_only(monkeypatch):
    """``decode`` hands out the action a text was encoded of (``_DECODED``, bounded): the same
    action the full decoding gives; a codec reading that verb as another class decodes the
    text afresh; a refused text is refused still; texts pushed out decode as before."""
    from games.core import actions

    monkeypatch.setattr(actions, "ENCODED_KEPT", 16)
    monkeypatch.setattr(actions, "_ENCODED", {})
    monkeypatch.setattr(actions, "_DECODED", {})
    mine, other = ActionCodec(Play, Flag), ActionCodec(OtherPlay)
    offered = Play(card="c1", target=2)
    text = offered.encode()
    assert mine.decode(text) is offered
    assert isinstance(other.decode(text), OtherPlay)  # the verb is another class there
    assert other.decode(text) == OtherPlay(card="c1", target=2)
    kept = [Play(card=f"k{i}") for i in range(40)]
    for action in kept:
        assert mine.decode(action.encode()) == action
    assert len(actions._DECODED) <= 16
    assert mine.decode(kept[0].encode()) == kept[0]
    assert mine.decode(text) == offered  # pushed out: decoded afresh, the same value
    with pytest.raises(IllegalAction):
        mine.decode("p.c1.02")  # not canonical: refused, cached or not
