"""The validator: OpenAPI request schemas, Discord's documented limits, and the HTTP answers."""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.fakediscord import limits
from tests.fakediscord.spec import SPEC_ENV_VAR, load_spec, spec_path


def button(custom_id: str, label: str = "b") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def select(custom_id: str = "s", n: int = 3, **extra) -> dict:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": f"L{i}", "value": f"v{i}"} for i in range(n)],
        **extra,
    }


def paths(errors) -> set[str]:
    return {".".join(map(str, e.path)) for e in errors}


# --- the spec ------------------------------------------------------------------------------------


def test_spec_is_loaded_once_and_matches_operations():
    spec = load_spec()
    assert load_spec() is spec
    assert spec.match("PATCH", "/webhooks/1/tok/messages/@original").template.endswith("/@original")
    assert spec.match("PATCH", "/webhooks/1/tok/messages/5").template.endswith("/{message_id}")
    assert spec.match("POST", "/channels/1/messages").template == "/channels/{channel_id}/messages"
    assert spec.match("GET", "/nowhere") is None


def test_spec_path_can_be_overridden(monkeypatch, tmp_path):
    assert spec_path().name in ("openapi.json", "discord-openapi.json.gz")
    monkeypatch.setenv(SPEC_ENV_VAR, str(tmp_path / "other.json"))
    assert spec_path() == tmp_path / "other.json"


def test_the_bundled_copy_is_the_shared_spec():
    import gzip

    from tests.fakediscord.spec import BUNDLED_SPEC_PATH, DEFAULT_SPEC_PATH

    bundled = json.loads(gzip.decompress(BUNDLED_SPEC_PATH.read_bytes()))
    assert len(bundled["paths"]) == 150
    if DEFAULT_SPEC_PATH.exists():
        assert bundled == json.loads(DEFAULT_SPEC_PATH.read_text())


@pytest.mark.parametrize(
    "body",
    [
        {
            "type": 4,
            "data": {"content": "hi", "flags": 64, "components": [row(button("a"), button("b"))]},
        },
        {"type": 5, "data": {"flags": 64}},
        {"type": 5},
        {"type": 6},
        {"type": 7, "data": {"content": "x", "components": [row(select())]}},
        {"type": 8, "data": {"choices": [{"name": "a", "value": "a"}]}},
        {
            "type": 9,
            "data": {
                "custom_id": "m",
                "title": "T",
                "components": [row({"type": 4, "custom_id": "t", "style": 1, "label": "L"})],
            },
        },
    ],
)
def test_valid_callbacks_pass(body):
    spec = load_spec()
    op = spec.match("POST", "/interactions/1/tok/callback")
    assert spec.validate(op, "application/json", body) == []


def test_schema_errors_point_at_the_field():
    spec = load_spec()
    op = spec.match("POST", "/interactions/1/tok/callback")
    errors = spec.validate(op, "application/json", {"type": 4, "data": {"content": "x" * 2001}})
    assert paths(errors) == {"data.content"} and errors[0].code == "BASE_TYPE_MAX_LENGTH"
    errors = spec.validate(
        op,
        "application/json",
        {"type": 4, "data": {"components": [row({**button("a"), "label": "l" * 81})]}},
    )
    assert paths(errors) == {"data.components.0.components.0.label"}
    errors = spec.validate(op, "application/json", {"type": 42})
    assert paths(errors) == {"type"}
    errors = spec.validate(op, "application/json", {"type": 9, "data": {"title": "x"}})
    assert paths(errors) == {"data.custom_id", "data.components"}


def test_integer_snowflakes_are_accepted():
    spec = load_spec()
    op = spec.match("POST", "/users/@me/channels")
    assert spec.validate(op, "application/json", {"recipient_id": 123}) == []
    assert spec.validate(op, "application/json", {"recipient_id": "123"}) == []
    assert spec.validate(op, "application/json", {"recipient_id": "12x"}) != []


# --- documented limits the spec lacks -------------------------------------------------------------


def test_content_limit_is_2000_not_the_specs_4000():
    assert paths(limits.check_message({"content": "x" * 2001})) == {"content"}
    assert limits.check_message({"content": "x" * 2000}) == []


def test_embed_limits():
    assert paths(
        limits.check_message({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]})
    ) == {"embeds"}
    assert (
        limits.check_message(
            {
                "embeds": [
                    {"description": "d" * 3000},
                    {"title": "t" * 256, "description": "d" * 2744},
                ]
            }
        )
        == []
    )
    fields = [{"name": "n", "value": "v"}] * 26
    assert paths(limits.check_message({"embeds": [{"fields": fields}]})) == {"embeds.0.fields"}
    assert paths(
        limits.check_message({"embeds": [{"fields": [{"name": "n" * 257, "value": "v" * 1025}]}]})
    ) == {
        "embeds.0.fields.0.name",
        "embeds.0.fields.0.value",
    }
    assert paths(
        limits.check_message(
            {"embeds": [{"footer": {"text": "f" * 2049}, "author": {"name": "a" * 257}}]}
        )
    ) == {
        "embeds.0.footer.text",
        "embeds.0.author.name",
    }


def test_action_row_limits():
    six_rows = [row(button(f"b{i}")) for i in range(6)]
    assert paths(limits.check_components(six_rows)) == {"components"}
    assert limits.check_components(six_rows[:5]) == []
    six_buttons = [row(*(button(f"b{i}") for i in range(6)))]
    assert paths(limits.check_components(six_buttons)) == {"components.0.components"}
    mixed = [row(select(), button("b"))]
    assert paths(limits.check_components(mixed)) == {"components.0.components"}
    not_a_row = [button("b")]
    assert paths(limits.check_components(not_a_row)) == {"components.0.type"}


def test_custom_id_limits_and_uniqueness():
    assert paths(limits.check_components([row(button("x" * 101))])) == {
        "components.0.components.0.custom_id"
    }
    assert limits.check_components([row(button("x" * 100))]) == []
    dupes = [row(button("same")), row(button("same"))]
    [error] = limits.check_components(dupes)
    assert error.code == "COMPONENT_CUSTOM_ID_DUPLICATED" and error.path == (
        "components",
        1,
        "components",
        0,
        "custom_id",
    )


def test_button_rules():
    assert paths(limits.check_components([row(button("b", label="l" * 81))])) == {
        "components.0.components.0.label"
    }
    assert paths(limits.check_components([row({"type": 2, "style": 1, "label": "no id"})])) == {
        "components.0.components.0.custom_id"
    }
    assert paths(limits.check_components([row({"type": 2, "style": 1, "custom_id": "bare"})])) == {
        "components.0.components.0.label"
    }
    assert (
        limits.check_components(
            [row({"type": 2, "style": 5, "label": "docs", "url": "https://example.com"})]
        )
        == []
    )


def test_select_rules():
    assert limits.check_components([row(select(n=25, max_values=25))]) == []
    assert "components.0.components.0.options" in paths(
        limits.check_components([row(select(n=26))])
    )
    long_option = select()
    long_option["options"][0] = {"label": "l" * 101, "value": "v" * 101, "description": "d" * 101}
    assert paths(limits.check_components([row(long_option)])) == {
        "components.0.components.0.options.0.label",
        "components.0.components.0.options.0.value",
        "components.0.components.0.options.0.description",
    }
    assert paths(limits.check_components([row(select(n=3, max_values=4))])) == {
        "components.0.components.0.max_values"
    }
    assert paths(limits.check_components([row(select(placeholder="p" * 151))])) == {
        "components.0.components.0.placeholder"
    }
    twice = select()
    twice["options"][1]["value"] = "v0"
    assert paths(limits.check_components([row(twice)])) == {
        "components.0.components.0.options.1.value"
    }


def test_components_v2_count_limit():
    text = {"type": 10, "content": "t"}
    container = {"type": 17, "components": [text] * 39}
    assert (
        limits.check_message({"flags": limits.FLAG_COMPONENTS_V2, "components": [container]}) == []
    )
    container = {"type": 17, "components": [text] * 40}
    assert paths(
        limits.check_message({"flags": limits.FLAG_COMPONENTS_V2, "components": [container]})
    ) == {"components"}


def test_modal_limits():
    text_input = {"type": 4, "custom_id": "t", "style": 1, "label": "l" * 46}
    data = {"custom_id": "m", "title": "t" * 46, "components": [row(text_input)] * 6}
    found = paths(limits.check_modal(data))
    assert {"data.title", "data.components", "data.components.0.components.0.label"} <= found


def test_command_limits():
    good = {
        "name": "play",
        "description": "Play",
        "options": [{"type": 3, "name": "game", "description": "g", "required": True}],
    }
    assert limits.check_commands([good]) == []
    assert paths(limits.check_commands([{**good, "name": "Play"}])) == {"0.name"}
    assert paths(limits.check_commands([{**good, "description": ""}])) == {"0.description"}
    assert paths(limits.check_commands([good, good])) == {"1.name"}
    order = [
        {"type": 3, "name": "a", "description": "a"},
        {"type": 3, "name": "b", "description": "b", "required": True},
    ]
    assert paths(limits.check_commands([{**good, "options": order}])) == {"0.options.1.required"}
    many = [{"type": 3, "name": f"o{i}", "description": "o"} for i in range(26)]
    assert paths(limits.check_commands([{**good, "options": many}])) == {"0.options"}
    choices = [{"name": str(i), "value": str(i)} for i in range(26)]
    assert paths(
        limits.check_commands([{**good, "options": [{**good["options"][0], "choices": choices}]}])
    ) == {"0.options.0.choices"}


def test_validation_accepts_fresh_valid_bodies_after_a_cached_one():
    # Speed is not asserted here (no timed assertions in tests): the validator's cache of
    # identical valid bodies must not make a changed body skip validation or fail.
    spec = load_spec()
    op = spec.match("POST", "/channels/1/messages")
    body = {
        "content": "c",
        "components": [row(*(button(f"b{r}{i}", "label") for i in range(5))) for r in range(5)],
    }
    assert spec.validate(op, "application/json", body) == []
    for n in range(20):
        body["content"] = f"c{n}"  # defeat the cache of identical valid bodies
        assert spec.validate(op, "application/json", body) == []
    body["content"] = 5  # a changed, schema-invalid body is still refused after the cache
    assert spec.validate(op, "application/json", body) != []


# --- over HTTP -----------------------------------------------------------------------------------


@pytest.fixture
async def http(fake_discord):
    async with aiohttp.ClientSession(
        headers={"Authorization": f"Bot {fake_discord.token}"}
    ) as session:
        yield session


async def test_json_answers_have_the_exact_content_type(fake_discord, http):
    async with http.get(fake_discord.api_base + "/users/@me") as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["id"] == str(fake_discord.bot_user.id)


async def test_missing_authorization_is_401(fake_discord):
    async with (
        aiohttp.ClientSession() as session,
        session.get(fake_discord.api_base + "/users/@me") as resp,
    ):
        assert resp.status == 401
        assert (await resp.json())["code"] == 0


async def test_invalid_body_answers_400_50035_with_an_errors_tree(fake_discord, http):
    url = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    body = {"content": "x" * 2001, "components": [row(button(f"b{i}")) for i in range(6)]}
    async with http.post(url, json=body) as resp:
        assert resp.status == 400
        data = await resp.json()
    assert data["code"] == 50035 and data["message"] == "Invalid Form Body"
    assert data["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert "_errors" in data["errors"]["components"]
    [violation] = fake_discord.take_violations()
    assert violation.kind == "invalid_body" and violation.method == "POST"
    assert fake_discord.channel_messages() == []


async def test_multipart_payload_json_is_validated_and_files_kept(fake_discord, http):
    url = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(
        "payload_json",
        json.dumps({"content": "hand", "attachments": [{"id": 0, "filename": "a.bin"}]}),
    )
    form.add_field(
        "files[0]", b"\x00\x01\x02", filename="a.bin", content_type="application/octet-stream"
    )
    async with http.post(url, data=form) as resp:
        assert resp.status == 200
        payload = await resp.json()
    [msg] = fake_discord.channel_messages()
    assert msg.attachments[0].data == b"\x00\x01\x02"
    async with http.get(payload["attachments"][0]["url"]) as resp:
        assert await resp.read() == b"\x00\x01\x02"


async def _post_file(fake, http, filename: str, content_type: str, description=None):
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    form = aiohttp.FormData(quote_fields=False)
    spec = {"id": 0, "filename": filename}
    if description is not None:
        spec["description"] = description
    form.add_field("payload_json", json.dumps({"content": "x", "attachments": [spec]}))
    form.add_field("files[0]", b"\x89PNG", filename=filename, content_type=content_type)
    async with http.post(url, data=form) as resp:
        return resp.status, await resp.json()


async def test_an_image_without_alt_text_is_a_violation(fake_discord, http):
    """Issue 28 item 4: every image carries its alt text (the attachment description)."""
    status, _ = await _post_file(fake_discord, http, "table.png", "application/octet-stream")
    assert status == 200  # Discord takes it; a screen reader then only says "image"
    [violation] = fake_discord.take_violations("missing_alt_text")
    assert "table.png" in violation.detail
    status, _ = await _post_file(fake_discord, http, "hand.png", "image/png", "  ")
    assert len(fake_discord.take_violations("missing_alt_text")) == 1  # blank is no alt text


async def test_alt_text_is_kept_and_checked_against_its_limit(fake_discord, http):
    status, payload = await _post_file(
        fake_discord, http, "hand.png", "image/png", "Your hand: red 7"
    )
    assert status == 200 and payload["attachments"][0]["description"] == "Your hand: red 7"
    assert fake_discord.channel_messages()[-1].attachments[0].description == "Your hand: red 7"
    status, data = await _post_file(fake_discord, http, "hand.png", "image/png", "x" * 1025)
    assert status == 400 and data["code"] == 50035
    assert fake_discord.take_violations("invalid_body")
    status, _ = await _post_file(fake_discord, http, "replay.json", "application/json")
    assert status == 200  # not an image: no alt text needed
    assert fake_discord.violations == []


async def test_empty_message_is_a_recorded_bad_request(fake_discord, http):
    url = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    async with http.post(url, json={"content": ""}) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 50006
    [violation] = fake_discord.take_violations("bad_request")
    assert "50006" in violation.detail


async def test_unimplemented_route_is_recorded(fake_discord, http):
    async with http.get(f"{fake_discord.api_base}/guilds/{fake_discord.guild.id}/bans") as resp:
        assert resp.status == 404
    [violation] = fake_discord.take_violations("unimplemented")
    assert violation.path.endswith("/bans")


async def test_invalid_command_sync_is_rejected(fake_discord, http):
    url = f"{fake_discord.api_base}/applications/{fake_discord.application_id}/commands"
    async with http.put(url, json=[{"name": "Bad Name", "description": "x", "type": 1}]) as resp:
        assert resp.status == 400
    assert fake_discord.take_violations("invalid_body")
    assert fake_discord.commands[None] == []


async def test_dm_channel_to_a_closed_user_opens_but_send_is_403(fake_discord, http):
    bob = fake_discord.user("bob", dms_open=False)
    async with http.post(
        f"{fake_discord.api_base}/users/@me/channels", json={"recipient_id": str(bob.id)}
    ) as resp:
        channel = await resp.json()
    assert channel["type"] == 1 and channel["recipients"][0]["id"] == str(bob.id)
    async with http.post(
        f"{fake_discord.api_base}/channels/{channel['id']}/messages", json={"content": "hi"}
    ) as resp:
        assert resp.status == 403 and (await resp.json())["code"] == 50007


# --- Components V2 (issue 28 item 1) -------------------------------------------------------------

V2 = limits.FLAG_COMPONENTS_V2


def text(content: str = "t") -> dict:
    return {"type": 10, "content": content}


def gallery(*names: str, description: str | None = "alt") -> dict:
    items = [{"media": {"url": f"attachment://{n}"}} for n in names]
    if description is not None:
        for item in items:
            item["description"] = description
    return {"type": 12, "items": items}


def container(*children: dict) -> dict:
    return {"type": 17, "accent_color": 0xFFAA00, "components": list(children)}


def test_v2_refuses_content_embeds_stickers_and_polls():
    body = {"flags": V2, "components": [container(text())], "content": "hi", "embeds": [{}]}
    assert paths(limits.check_message(body)) == {"content", "embeds"}
    body = {"flags": V2, "components": [container(text())], "sticker_ids": ["1"], "poll": {}}
    assert paths(limits.check_message(body)) == {"sticker_ids", "poll"}
    # cleared legacy fields (what discord.py sends when a view becomes a LayoutView) are fine
    body = {"flags": V2, "components": [container(text())], "content": None, "embeds": []}
    assert limits.check_message(body) == []


def test_v2_counts_every_nested_component():
    button_ = button("b")
    section = {
        "type": 9,
        "components": [text()],
        "accessory": {"type": 11, "media": {"url": "https://x/y.png"}},
    }
    # container 1 + section 1 + its text 1 + its accessory 1 + row 1 + 5 buttons = 10 per block
    block = [section, row(button("a"), button("c"), button("d"), button("e"), button_)]
    tree = [container(*block), container(section), container(section)]
    assert sum(1 for _ in limits.walk_components(tree)) == 1 + 9 + 2 * 4
    rows = [row(*(button(f"r{r}b{b}") for b in range(5))) for r in range(6)]
    ok = [container(*rows, text(), text(), text())]  # 1 + 36 + 3 = 40
    assert limits.check_message({"flags": V2, "components": ok}) == []
    over = [container(*rows, text(), text(), text(), text())]  # 41
    assert paths(limits.check_message({"flags": V2, "components": over})) == {"components"}
    # gallery items are not components: ten images in one gallery cost one
    assert sum(1 for _ in limits.walk_components([gallery(*(f"{i}.png" for i in range(10)))])) == 1


def test_v2_text_displays_share_4000_characters():
    ok = [container(text("a" * 2000), text("b" * 1000)), text("c" * 1000)]
    assert limits.check_message({"flags": V2, "components": ok}) == []
    over = [container(text("a" * 2000), text("b" * 1000)), text("c" * 1001)]
    assert paths(limits.check_message({"flags": V2, "components": over})) == {"components"}
    # a section's text counts too
    section = {"type": 9, "components": [text("d" * 4001)], "accessory": button("s")}
    assert paths(limits.check_message({"flags": V2, "components": [section]})) == {"components"}


def test_a_section_needs_one_to_three_texts_and_an_accessory():
    good = {"type": 9, "components": [text(), text(), text()], "accessory": button("s")}
    assert limits.check_message({"flags": V2, "components": [good]}) == []
    four = {**good, "components": [text()] * 4, "accessory": button("s4")}
    none = {**good, "components": [], "accessory": button("s0")}
    bare = {"type": 9, "components": [text()]}
    not_text = {**good, "components": [row(button("x"))], "accessory": button("sx")}
    body = {"flags": V2, "components": [four, none, bare, not_text]}
    assert paths(limits.check_message(body)) == {
        "components.0.components",
        "components.1.components",
        "components.2.accessory",
        "components.3.components",
    }


def test_a_gallery_holds_one_to_ten_items():
    assert (
        limits.check_message({"flags": V2, "components": [gallery("a.png")]}, uploads=["a.png"])
        == []
    )
    empty = {"type": 12, "items": []}
    eleven = gallery(*(f"{i}.png" for i in range(11)))
    names = [f"{i}.png" for i in range(11)]
    body = {"flags": V2, "components": [empty, eleven]}
    assert paths(limits.check_message(body, uploads=names)) == {
        "components.0.items",
        "components.1.items",
    }


def test_attachment_urls_must_name_an_uploaded_or_kept_file():
    body = {"flags": V2, "components": [container(gallery("table.png"))]}
    assert limits.check_message(body, uploads=["table.png"]) == []
    assert paths(limits.check_message(body, uploads=["hand.png"])) == {
        "components.0.components.0.items.0.media.url"
    }
    thumb = {
        "type": 9,
        "components": [text()],
        "accessory": {"type": 11, "media": {"url": "attachment://t.png"}},
    }
    assert paths(limits.check_message({"flags": V2, "components": [thumb]})) == {
        "components.0.accessory.media.url"
    }
    before = limits.Before(flags=V2, attachments=((7, "table.png"),))
    assert limits.check_message(body, before=before) == []  # no `attachments`: all are kept
    kept = {**body, "attachments": [{"id": "7"}]}
    assert limits.check_message(kept, before=before) == []
    dropped = {**body, "attachments": []}
    assert limits.check_message(dropped, before=before) != []
    # an https image needs no upload
    web_image = {
        "flags": V2,
        "components": [{"type": 12, "items": [{"media": {"url": "https://x/y.png"}}]}],
    }
    assert limits.check_message(web_image) == []


def test_the_v2_flag_stays_once_set_and_an_edit_may_add_it():
    v2_before = limits.Before(flags=V2)
    # an edit without flags keeps V2: content is still refused, rows are not limited to 5
    assert paths(limits.check_message({"content": "x"}, before=v2_before)) == {"content"}
    rows = [row(button(f"b{i}")) for i in range(6)]
    assert limits.check_message({"components": rows}, before=v2_before) == []
    # removing it is refused
    assert paths(limits.check_message({"flags": 0, "components": rows}, before=v2_before)) == {
        "flags"
    }
    # a classic message may become V2 when the edit clears its content and embeds
    classic = limits.Before(flags=0, content="old", embeds=1)
    body = {"flags": V2, "components": [container(text())]}
    assert paths(limits.check_message(body, before=classic)) == {"content", "embeds"}
    cleared = {**body, "content": None, "embeds": []}
    assert limits.check_message(cleared, before=classic) == []


def test_a_thinking_defer_cannot_carry_the_v2_flag():
    assert paths(limits.check_callback({"type": 5, "data": {"flags": V2 | 64}}, before=None)) == {
        "data.flags"
    }
    assert limits.check_callback({"type": 5, "data": {"flags": 64}}, before=None) == []
    update = {"type": 7, "data": {"flags": V2, "components": [container(text())]}}
    assert limits.check_callback(update, before=limits.Before(flags=V2)) == []
    assert paths(
        limits.check_callback({"type": 7, "data": {"content": "x"}}, before=limits.Before(flags=V2))
    ) == {"data.content"}


@pytest.mark.parametrize(
    "components",
    [
        [container(text("## Title\nbody"), gallery("table.png"), row(button("a")))],
        [
            {"type": 9, "components": [text()], "accessory": button("s")},
            {"type": 14, "divider": True, "spacing": 1},
            text(),
        ],
    ],
)
def test_v2_payloads_pass_the_openapi_description(components):
    spec = load_spec()
    op = spec.match("POST", "/channels/1/messages")
    body = {
        "flags": V2,
        "components": components,
        "attachments": [{"id": 0, "filename": "table.png"}],
    }
    assert spec.validate(op, "application/json", body) == []


async def _post_v2(
    fake, http, body: dict, png: str | None = "table.png", description=None, url=None
):
    url = url or f"{fake.api_base}/channels/{fake.channel.id}/messages"
    form = aiohttp.FormData(quote_fields=False)
    if png is not None:
        spec = {"id": 0, "filename": png}
        if description is not None:
            spec["description"] = description
        body = {**body, "attachments": [spec]}
        form.add_field("files[0]", b"\x89PNG", filename=png, content_type="image/png")
    form.add_field("payload_json", json.dumps(body))
    async with http.request("PATCH" if "/messages/" in url else "POST", url, data=form) as resp:
        return resp.status, await resp.json()


async def test_a_gallery_description_is_alt_text(fake_discord, http):
    body = {"flags": V2, "components": [container(gallery("table.png", description="The board"))]}
    status, _ = await _post_v2(fake_discord, http, body)
    assert status == 200 and fake_discord.violations == []
    body = {"flags": V2, "components": [container(gallery("table.png", description=None))]}
    status, _ = await _post_v2(fake_discord, http, body)
    assert status == 200
    assert len(fake_discord.take_violations("missing_alt_text")) == 1
    status, _ = await _post_v2(fake_discord, http, body, description="The board")
    assert status == 200 and fake_discord.violations == []


async def test_v2_flag_over_http_added_by_an_edit_and_never_removed(fake_discord, http):
    base = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    async with http.post(
        base, json={"content": "classic", "components": [row(button("a"))]}
    ) as resp:
        classic = await resp.json()
    url = f"{base}/{classic['id']}"
    v2 = {"flags": V2, "components": [container(text("now V2"), row(button("a")))]}
    async with http.patch(url, json=v2) as resp:  # content left: refused
        assert resp.status == 400
    assert fake_discord.take_violations("invalid_body")
    async with http.patch(url, json={**v2, "content": None, "embeds": []}) as resp:
        assert resp.status == 200 and (await resp.json())["flags"] & V2
    async with http.patch(url, json={"flags": 0, "components": [row(button("a"))]}) as resp:
        assert resp.status == 400
    assert fake_discord.take_violations("invalid_body")
    [msg] = fake_discord.channel_messages()
    assert msg.flags & V2 and msg.content == ""
    async with http.patch(url, json={"components": [container(gallery("hand.png"))]}) as resp:
        assert resp.status == 400  # nothing named hand.png is uploaded nor kept
    assert fake_discord.take_violations("invalid_body")


def _walked_by_generators(components, path=("components",)):
    """``walk_components`` as it was written first (nested generators): the reference."""
    if not isinstance(components, list):
        return
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        here = path + (i,)
        yield here, comp
        yield from _walked_by_generators(comp.get("components"), here + ("components",))
        for single in ("accessory", "component"):
            child = comp.get(single)
            if isinstance(child, dict):
                yield here + (single,), child
                yield from _walked_by_generators(
                    child.get("components"), here + (single, "components")
                )


def test_walk_components_visits_what_the_nested_generators_did_in_their_order():
    import random

    from tests.fakediscord.limits import walk_components

    rng = random.Random(7)

    def tree(depth: int):
        items = []
        for _ in range(rng.randint(0, 4)):
            kind = rng.random()
            if kind < 0.1:
                items.append(rng.choice([None, "text", 3, ["loose"]]))
                continue
            comp = {"type": rng.randint(1, 18)}
            if depth and rng.random() < 0.6:
                comp["components"] = tree(depth - 1)
            elif rng.random() < 0.2:
                comp["components"] = rng.choice([None, {}, "x", []])
            for single in ("accessory", "component"):
                if depth and rng.random() < 0.3:
                    child = {"type": 2}
                    if rng.random() < 0.5:
                        child["components"] = tree(depth - 1)
                    comp[single] = child
            items.append(comp)
        return items

    for _ in range(300):
        components = tree(3)
        walked = [(p, id(c)) for p, c in walk_components(components)]
        assert walked == [(p, id(c)) for p, c in _walked_by_generators(components)]
    assert list(walk_components(None)) == [] and list(walk_components({"type": 1})) == []


def test_components_are_echoed_numbered_in_walk_order_keeping_their_own_ids():
    from tests.fakediscord.server import _number_components

    section = {"type": 9, "components": [{"type": 10}], "accessory": {"type": 2, "id": 50}}
    label = {"type": 18, "component": {"type": 3, "options": []}}
    numbered = _number_components([{"type": 17, "components": [section, "junk"]}, label])
    container, echoed_label = numbered
    assert container["id"] == 1
    echoed_section = container["components"][0]
    assert echoed_section["id"] == 2 and echoed_section["components"][0]["id"] == 3
    assert echoed_section["accessory"]["id"] == 50  # its own id kept; the count still moves on
    assert container["components"][1] == "junk"
    assert echoed_label["id"] == 5 and echoed_label["component"]["id"] == 6
    assert "id" not in section["components"][0]  # the body sent is not changed
