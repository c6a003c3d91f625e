"""Every documented limit the fake checks, broken many at a time: each body's refusals (where,
code, message, in order) are pinned in `limits_corpus.json`, written by the checks as they were
before they walked a body once (session 27), so a faster check must refuse the same bodies with the
same errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fakediscord import limits

EXPECTED = json.loads((Path(__file__).parent / "limits_corpus.json").read_text())

V2 = 1 << 15


def btn(cid, label="b", **extra):
    return {"type": 2, "style": 1, "label": label, "custom_id": cid, **extra}


def row(*c):
    return {"type": 1, "components": list(c)}


def sel(cid="s", n=3, **extra):
    return {
        "type": 3,
        "custom_id": cid,
        "options": [{"label": f"L{i}", "value": f"v{i}"} for i in range(n)],
        **extra,
    }


text = lambda s="t": {"type": 10, "content": s}  # noqa: E731

MESSAGES = {
    "classic_everything": (
        {
            "content": "c" * 2001,
            "embeds": [{"title": "t" * 257, "fields": [{"name": "n", "value": "v" * 1025}] * 26}]
            + [{"description": "d" * 600}] * 10,
            "components": [
                row(btn("a"), btn("a"), btn("x" * 101), btn(7), btn("")),
                row(btn("b1"), btn("b2"), btn("b3"), btn("b4"), btn("b5"), btn("b6")),
                row(sel("s1"), btn("c1")),
                row({"type": 2, "style": 5, "label": "link", "custom_id": "l"}),
                row({"type": 2, "style": 6}, {"type": 2, "style": 1, "custom_id": "nolabel"}),
                {"type": 10, "content": "not a row"},
                row(sel("s2", n=0, min_values=30, max_values=0, placeholder="p" * 151)),
            ],
        },
        None,
        (),
    ),
    "selects": (
        {
            "components": [
                row(sel("s1", n=26, max_values=27)),
                row(
                    {
                        "type": 3,
                        "custom_id": "s2",
                        "max_values": 3,
                        "options": [
                            {"label": "", "value": "v" * 101, "description": "d" * 101},
                            {"label": "a", "value": "x"},
                            {"label": "b", "value": "x"},
                            "junk",
                        ],
                    }
                ),
                row({"type": 5, "custom_id": "u", "min_values": 5, "max_values": 2}),
                row(sel("s1")),
            ]
        },
        None,
        (),
    ),
    "v2_everything": (
        {
            "content": "legacy",
            "embeds": [{"title": "e"}],
            "sticker_ids": ["1"],
            "poll": {"question": {"text": "q"}},
            "flags": V2,
            "attachments": [{"id": "0", "filename": "up.png"}, {"id": 9, "filename": "kept.png"}],
            "components": [
                {
                    "type": 17,
                    "components": [
                        text("x" * 3990),
                        {
                            "type": 9,
                            "components": [text("y" * 20), {"type": 2}],
                            "accessory": {"type": 10},
                        },
                        {"type": 9, "components": [text(), text(), text(), text()]},
                        {
                            "type": 9,
                            "components": [text()],
                            "accessory": {"type": 11, "media": {"url": "attachment://nope.png"}},
                        },
                        {
                            "type": 9,
                            "components": [text()],
                            "accessory": btn("acc", custom_id_dup=1),
                        },
                        {"type": 12, "items": []},
                        {"type": 12, "items": [{"media": {"url": "attachment://up.png"}}] * 11},
                        {
                            "type": 12,
                            "items": [
                                {"media": {"url": "attachment://gone.png"}},
                                "junk",
                                {"media": {"url": "https://x/y.png"}},
                            ],
                        },
                        {"type": 13, "file": {"url": "attachment://file.txt"}},
                        row(btn("acc"), btn("r2")),
                    ],
                },
                {"type": 1, "components": [btn("z" * 101)]},
            ],
        },
        None,
        ("up.png",),
    ),
    "v2_too_many": (
        {
            "flags": V2,
            "components": [
                {"type": 17, "components": [text()] * 41},
                row(*[btn(f"b{i}") for i in range(6)]),
            ],
        },
        None,
        (),
    ),
    "v2_flag_removed_edit": (
        {
            "flags": 0,
            "components": [{"type": 12, "items": [{"media": {"url": "attachment://old.png"}}]}],
        },
        ("before", V2, "", 0, ((5, "old.png"),)),
        (),
    ),
    "v2_edit_keeps_legacy": (
        {
            "components": [
                text(),
                {"type": 13, "file": {"url": "attachment://old.png"}},
                {"type": 13, "file": {"url": "attachment://new.png"}},
            ]
        },
        ("before", V2, "still here", 2, ((5, "old.png"),)),
        (),
    ),
    "v2_added_by_edit_attachments_listed": (
        {
            "flags": V2,
            "content": "",
            "embeds": [],
            "attachments": [{"id": 5}],
            "components": [
                {
                    "type": 12,
                    "items": [
                        {"media": {"url": "attachment://old.png"}},
                        {"media": {"url": "attachment://other.png"}},
                    ],
                }
            ],
        },
        ("before", 0, "was classic", 1, ((5, "old.png"), (6, "other.png"))),
        (),
    ),
    "v2_row_mixed": (
        {
            "flags": V2,
            "components": [
                {
                    "type": 17,
                    "components": [
                        text("hi"),
                        {"type": 9, "components": [text()], "accessory": btn("go")},
                        {
                            "type": 12,
                            "items": [
                                {"media": {"url": "attachment://up.png"}, "description": "alt"}
                            ],
                        },
                        row(btn("a"), sel("q")),
                    ],
                }
            ],
        },
        None,
        ("up.png",),
    ),
    "valid_classic": (
        {"content": "hello", "components": [row(btn("a"), btn("b")), row(sel("c"))]},
        None,
        (),
    ),
}

MODALS = {
    "modal_everything": {
        "custom_id": "m",
        "title": "t" * 46,
        "components": [
            row({"type": 4, "custom_id": "t", "style": 1, "label": "l" * 46, "value": "v" * 4001}),
            row({"type": 4, "custom_id": "t", "style": 1, "label": "ok"}),
            {"type": 18, "label": "pick", "component": sel("s", n=0, placeholder="p" * 151)},
            row({"type": 4, "custom_id": "x" * 101, "style": 1, "label": "l"}),
            row({"type": 4, "custom_id": "e", "style": 1, "label": "l"}),
            row({"type": 4, "custom_id": "f", "style": 1, "label": "l"}),
        ],
    },
}

CALLBACKS = {
    "defer_v2": ({"type": 5, "data": {"flags": V2, "components": [text("x" * 4001)]}}, None),
    "update_removes_v2": (
        {"type": 7, "data": {"flags": 0, "components": [row(btn("a"), btn("a"))]}},
        ("before", V2, "", 0, ()),
    ),
    "reply_v2": (
        {
            "type": 4,
            "data": {
                "flags": V2 | 64,
                "content": "no",
                "components": [{"type": 9, "components": []}],
            },
        },
        ("before", V2, "", 0, ()),
    ),
}


def _before(spec):
    if spec is None:
        return None
    _, flags, content, embeds, attachments = spec
    return limits.Before(flags=flags, content=content, embeds=embeds, attachments=attachments)


def _found(errors) -> list[list[str]]:
    return [[".".join(map(str, e.path)), e.code, e.message] for e in errors]


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_a_message_body_is_refused_as_pinned(name):
    body, before, uploads = MESSAGES[name]
    assert (
        _found(limits.check_message(body, before=_before(before), uploads=uploads))
        == (EXPECTED[name])
    )


@pytest.mark.parametrize("name", sorted(MODALS))
def test_a_modal_is_refused_as_pinned(name):
    assert _found(limits.check_modal(MODALS[name])) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(CALLBACKS))
def test_a_callback_is_refused_as_pinned(name):
    body, before = CALLBACKS[name]
    assert _found(limits.check_callback(body, before=_before(before))) == EXPECTED[name]


def test_the_corpus_breaks_every_rule_it_is_meant_to():
    codes = {error[1] for errors in EXPECTED.values() for error in errors}
    assert codes >= {
        "BASE_TYPE_MAX_LENGTH",
        "BASE_TYPE_BAD_LENGTH",
        "BASE_TYPE_REQUIRED",
        "MAX_EMBED_SIZE_EXCEEDED",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
        "COMPONENT_TYPE_INVALID",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        "COMPONENT_INVALID_FIELD",
        "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
        "NUMBER_TYPE_MAX",
        "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX",
        "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        "MESSAGE_FLAGS_CANNOT_REMOVE_COMPONENTS_V2",
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        "UNFURLED_MEDIA_ATTACHMENT_NOT_FOUND",
        "INTERACTION_DEFERRED_CANNOT_USE_COMPONENTS_V2",
    }
    assert EXPECTED["valid_classic"] == []
