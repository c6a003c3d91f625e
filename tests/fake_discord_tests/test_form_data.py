"""The fake's multipart split (form_data.py) against aiohttp's reader: the bot's plain uploads
split to the same parts; any other shape is left to aiohttp's reader, so the fake accepts and
refuses the same bodies as before."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp.base_protocol import BaseProtocol
from multidict import CIMultiDict

from bot.ui.payload import multipart
from tests.fakediscord import form_data

BOUNDARY = "b0undary-123"
TYPE = f"multipart/form-data; boundary={BOUNDARY}"


def body(*parts: tuple[str, bytes], close: bytes = b"\r\n", preamble: bytes = b"") -> bytes:
    """Parts given as (header lines, data), written by hand."""
    out = preamble
    for head, data in parts:
        out += f"--{BOUNDARY}\r\n{head}\r\n\r\n".encode() + data + b"\r\n"
    return out + f"--{BOUNDARY}--".encode() + close


async def by_aiohttp(content_type: str, raw: bytes) -> list[form_data.FormPart]:
    protocol = BaseProtocol(asyncio.get_running_loop())
    headers = CIMultiDict({"Content-Type": content_type})
    return await form_data.read_with_aiohttp(headers, raw, protocol)


async def test_the_bots_uploads_split_as_aiohttp_reads_them():
    raw, content_type = multipart(
        [
            {"name": "payload_json", "value": json.dumps({"content": "x"})},
            {
                "name": "files[0]",
                "value": b"\x89PNG\r\n--",
                "filename": "table.png",
                "content_type": "image/png",
            },
            {"name": "files[1]", "value": b"", "filename": 'a"b\\c.png'},
        ]
    )
    boundary = form_data.plain_boundary(content_type)
    assert boundary is not None
    parts = form_data.split_plain(raw, boundary)
    assert parts is not None and [p.name for p in parts] == ["payload_json", "files[0]", "files[1]"]
    assert parts == await by_aiohttp(content_type, raw)
    assert parts[1].data == b"\x89PNG\r\n--" and parts[2].filename == 'a"b\\c.png'


async def test_aiohttps_own_form_data_splits_as_aiohttp_reads_it():
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "hand"}))
    form.add_field("files[0]", b"\x00\x01", filename="a.bin", content_type="image/png")
    writer = form()
    chunks: list[bytes] = []

    class Sink:
        async def write(self, data: bytes) -> None:
            chunks.append(bytes(data))

    await writer.write(Sink())
    raw, content_type = b"".join(chunks), writer.headers["Content-Type"]
    boundary = form_data.plain_boundary(content_type)
    expected = await by_aiohttp(content_type, raw)
    assert [p.name for p in expected] == ["payload_json", "files[0]"]
    assert boundary is not None and form_data.split_plain(raw, boundary) == expected


PLAIN = {
    "rfc5987 file name": (
        "Content-Disposition: form-data; name=\"files[0]\"; filename*=UTF-8''n%C3%A9.png",
        b"img",
    ),
    "lower-case headers": (
        'content-type: image/png\r\ncontent-disposition: form-data; name="files[0]"; '
        'filename="t.png"',
        b"img",
    ),
    "a name aiohttp strips": ('Content-Disposition: form-data; name="/payload_json"', b"{}"),
    "no content type": ('Content-Disposition: form-data; name="f"; filename="f.txt"', b"abc"),
}


@pytest.mark.parametrize("case", sorted(PLAIN))
async def test_other_plain_parts_split_as_aiohttp_reads_them(case):
    raw = body(PLAIN[case])
    parts = form_data.split_plain(raw, BOUNDARY)
    assert parts is not None and parts == await by_aiohttp(TYPE, raw)


DISPOSITION = 'Content-Disposition: form-data; name="files[0]"; filename="t.png"'
OTHER_SHAPES = {
    "another header": body((DISPOSITION + "\r\nContent-Length: 3", b"img")),
    "a _charset_ part": body(('Content-Disposition: form-data; name="_charset_"', b"utf-8")),
    "a preamble": body((DISPOSITION, b"img"), preamble=b"hello\r\n"),
    "an epilogue": body((DISPOSITION, b"img"), close=b"\r\nbye"),
    "the delimiter inside a part": body((DISPOSITION, f"a\r\n--{BOUNDARY}x".encode())),
    "a padded header": body((DISPOSITION.replace(": ", ":  "), b"img")),
    "no disposition": body(("Content-Type: image/png", b"img")),
    "no closing delimiter": f"--{BOUNDARY}\r\n{DISPOSITION}\r\n\r\nimg\r\n".encode(),
    "a header line longer than aiohttp reads": body(
        ('Content-Disposition: form-data; name="files[0]"; filename="' + "x" * 8200 + '"', b"i")
    ),
    "no blank line": f"--{BOUNDARY}\r\n{DISPOSITION}\r\n--{BOUNDARY}--\r\n".encode(),
}


@pytest.mark.parametrize("case", sorted(OTHER_SHAPES))
def test_any_other_shape_is_left_to_aiohttps_reader(case):
    assert form_data.split_plain(OTHER_SHAPES[case], BOUNDARY) is None


def test_only_a_plainly_written_boundary_is_taken():
    assert form_data.plain_boundary(TYPE) == BOUNDARY
    assert form_data.plain_boundary(f'multipart/form-data; boundary="{BOUNDARY}"') is None
    assert form_data.plain_boundary(f"multipart/form-data; boundary={BOUNDARY}; x=1") is None
    assert form_data.plain_boundary("application/json") is None


async def test_a_body_of_another_shape_is_read_by_aiohttp_through_the_fake(fake_discord):
    """An upload with a Content-Length in its parts (not the bot's shape) is taken as before."""
    payload = json.dumps(
        {"content": "x", "attachments": [{"id": 0, "filename": "t.png", "description": "alt"}]}
    )
    raw = body(
        ('Content-Disposition: form-data; name="payload_json"', payload.encode()),
        (DISPOSITION + "\r\nContent-Type: image/png\r\nContent-Length: 3", b"img"),
    )
    url = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake_discord.token}", "Content-Type": TYPE}
    async with aiohttp.ClientSession() as http, http.post(url, data=raw, headers=headers) as resp:
        assert resp.status == 200
    [msg] = fake_discord.channel_messages()
    [attachment] = msg.attachments
    assert (attachment.filename, attachment.data, attachment.description) == (
        "t.png",
        b"img",
        "alt",
    )
    assert attachment.content_type == "image/png"


async def test_uploads_past_aiohttps_default_body_limit_are_taken_and_past_discords_refused(
    fake_discord,
):
    """The fake reads bodies of up to 64 MiB (aiohttp's default is 1 MiB): a 9 MiB image is
    Discord's to take, an 11 MiB one Discord's to refuse (10 MiB a file)."""
    url = f"{fake_discord.api_base}/channels/{fake_discord.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    statuses = []
    async with aiohttp.ClientSession() as http:
        for mib in (9, 11):
            raw, content_type = multipart(
                [
                    {
                        "name": "payload_json",
                        "value": json.dumps(
                            {"attachments": [{"id": 0, "filename": "t.png", "description": "a"}]}
                        ),
                    },
                    {
                        "name": "files[0]",
                        "value": b"\x00" * (mib << 20),
                        "filename": "t.png",
                        "content_type": "image/png",
                    },
                ]
            )
            async with http.post(
                url, data=raw, headers={**headers, "Content-Type": content_type}
            ) as resp:
                statuses.append(resp.status)
        async with http.get(f"{fake_discord.http_base}/nowhere") as resp:
            statuses.append(resp.status)
    assert statuses == [200, 400, 404]
    [violation] = fake_discord.take_violations("invalid_body")
    assert "files[0]" in violation.detail
    [msg] = fake_discord.channel_messages()
    assert len(msg.attachments[0].data) == 9 << 20
