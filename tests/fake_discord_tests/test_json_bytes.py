"""The fake's answers and gateway events are written by orjson, and by the json module for what
orjson does not write: either way they read back as the data."""

from __future__ import annotations

import json

from tests.fakediscord.errors import invalid_form_body, json_bytes
from tests.fakediscord.spec import SchemaError


def test_data_reads_back_as_it_was():
    data = {
        "id": "1579211053735091149",
        "content": 'ñandú \u2028 "quoted" \\',
        "flags": 1 << 15,
        "components": [{"type": 10, "content": "x", "id": 1}],
        "embeds": [],
        "retry_after": 0.25,
        "ok": True,
        "none": None,
    }
    assert json.loads(json_bytes(data)) == data


def test_what_orjson_does_not_write_is_written_by_the_json_module():
    data = {"big": 1 << 70, 3: "an integer key"}
    assert json.loads(json_bytes(data)) == {"big": 1 << 70, "3": "an integer key"}


def test_an_invalid_form_body_answer_reads_back_as_discords_error_tree():
    error = invalid_form_body([SchemaError(("components", 0, "custom_id"), "X", "bad")])
    body = json.loads(error.response().body)
    assert body["code"] == 50035
    assert body["errors"] == {
        "components": {"0": {"custom_id": {"_errors": [{"code": "X", "message": "bad"}]}}}
    }
