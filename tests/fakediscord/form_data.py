"""A request's ``multipart/form-data`` body split into its parts, as aiohttp's reader splits it.

The bot's uploads (``payload_json`` and its images) come in one plain shape: each part with a
Content-Type and a Content-Disposition header, nothing else. That shape is split here on the
bytes; anything else (another header, a ``_charset_`` part, a preamble, ...) goes through
aiohttp's own reader, so the fake accepts and refuses the same bodies either way. aiohttp's
reader parses the request's and every part's Content-Type with the standard library's e-mail
parser and re-escapes a 128-character set for every Content-Disposition it reads: at load that
was the fake's largest cost per upload (session 27).
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from aiohttp import hdrs
from aiohttp.base_protocol import BaseProtocol
from aiohttp.multipart import (
    MultipartReader,
    content_disposition_filename,
    parse_content_disposition,
)
from aiohttp.streams import StreamReader
from aiohttp.web import BaseRequest

FORM_DATA = "multipart/form-data"
# RFC 2046's boundary characters, unquoted (what aiohttp and discord.py write)
_PLAIN_TYPE = re.compile(r"multipart/form-data; boundary=([0-9A-Za-z'()+_,./:=?-]{1,70})")
_PLAIN_HEADERS = frozenset({"content-type", "content-disposition"})
MAX_FIELD_SIZE = 8190  # aiohttp's default longest header line, its server's and its reader's


@dataclass(frozen=True)
class FormPart:
    name: str | None
    filename: str | None
    content_type: str  # the part's Content-Type header as sent ("" if none)
    data: bytes


def plain_boundary(content_type: str) -> str | None:
    """The boundary of a ``multipart/form-data; boundary=...`` header written plainly, else None."""
    m = _PLAIN_TYPE.fullmatch(content_type)
    return m.group(1) if m else None


def split_plain(raw: bytes, boundary: str) -> list[FormPart] | None:
    """The parts of a body in the plain shape (see the module's doc), or None for any other."""
    dash = b"--" + boundary.encode("ascii")
    if not raw.startswith(dash + b"\r\n"):
        return None
    close = b"\r\n" + dash + b"--"
    end = raw.find(close)
    if end < 0 or raw[end + len(close) :] not in (b"", b"\r\n"):
        return None
    chunks = raw[len(dash) + 2 : end].split(b"\r\n" + dash + b"\r\n")
    if raw.count(b"\r\n" + dash) != len(chunks):
        return None  # the delimiter's bytes inside a part: aiohttp's reader decides
    parts = []
    for chunk in chunks:
        head, blank, data = chunk.partition(b"\r\n\r\n")
        if not blank or not head.isascii():
            return None
        headers: dict[str, str] = {}
        for line in head.split(b"\r\n"):
            if len(line) > MAX_FIELD_SIZE:
                return None  # aiohttp's reader refuses a header line this long
            key, colon, value = line.decode("ascii").partition(": ")
            key = key.lower()
            if not colon or key not in _PLAIN_HEADERS or key in headers:
                return None
            if not value or value != value.strip():
                return None  # no header value padded other than by the one space
            headers[key] = value
        if "content-disposition" not in headers:
            return None
        name, filename = disposition(headers["content-disposition"])
        if name == "_charset_":
            return None  # the form's default charset (RFC 7578 4.6): aiohttp's reader knows it
        parts.append(FormPart(name, filename, headers.get("content-type", ""), data))
    return parts


@functools.lru_cache(maxsize=256)
def disposition(header: str | None) -> tuple[str | None, str | None]:
    """A part's (name, filename) as aiohttp's ``part.name`` / ``part.filename`` read them, once
    per distinct header (the bot's repeat: "payload_json", "files[0]" with "table.png", ...)."""
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name"), content_disposition_filename(
        params, "filename"
    )


async def read_parts(request: BaseRequest) -> list[FormPart]:
    """Every part of a ``multipart/form-data`` request, split plainly or by aiohttp's reader."""
    raw = await request.read()
    boundary = plain_boundary(request.headers.get(hdrs.CONTENT_TYPE, ""))
    parts = split_plain(raw, boundary) if boundary is not None else None
    if parts is not None:
        return parts
    return await read_with_aiohttp(request.headers, raw, request.protocol)


async def read_with_aiohttp(
    headers: Mapping[str, str], raw: bytes, protocol: BaseProtocol
) -> list[FormPart]:
    """The parts as aiohttp's multipart reader reads them (``headers``: the request's)."""
    stream = StreamReader(protocol, 1 << 16, loop=asyncio.get_running_loop())
    stream.feed_data(raw)
    stream.feed_eof()
    # The limits the request's own reader (`request.multipart()`) would have had
    reader = MultipartReader(
        headers,
        stream,
        max_field_size=getattr(protocol, "max_field_size", MAX_FIELD_SIZE),
        max_headers=getattr(protocol, "max_headers", 128),
    )
    parts = []
    while True:
        part = await reader.next()
        if part is None:
            return parts
        name, filename = disposition(part.headers.get(hdrs.CONTENT_DISPOSITION))
        data = await part.read(decode=False)  # type: ignore[union-attr]
        content_type = part.headers.get(hdrs.CONTENT_TYPE, "")
        parts.append(FormPart(name, filename, content_type, bytes(data)))
