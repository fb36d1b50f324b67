"""Reading a request body into its JSON: Content-Type, Content-Encoding (zstd, gzip), size and time caps,
multipart parts, and the bounded drain of a refused body so the client sees the answer.

Decompression is incremental and capped, so a small compressed bomb costs at most the cap (plus one
step's output) in memory and stops as soon as the cap is passed. Every malformed body is a 4xx with a
message saying what to send instead; nothing here raises anything but APIError.
"""

from __future__ import annotations

import asyncio
import zlib
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

import zstandard
from starlette.requests import ClientDisconnect, Request

from onepass.config import ServerConfig
from onepass.errors import APIError, RequestInvalid
from onepass.strict_json import parse_json

# Compressed zstd input is fed in small steps: one zstd RLE block (4 bytes) can expand to 128 KiB, so a
# 64-byte step produces at most ~2 MiB before the cap is checked again.
_ZSTD_STEP = 64
_GZIP_STEP = 4096
# zstd frames declare the window the decoder must allocate; a hostile header could ask for 2 GiB+.
# No request needs a window larger than its (capped) content, with a floor for streaming compressors.
_MIN_WINDOW = 1 << 23
_MAX_WINDOW = 1 << 27

JSON_TYPES = ("application/json",)
MULTIPART = "multipart/form-data"
BODY_STATE = "onepass.body"  # in the scope once reading the body began: a later refusal drains nothing


def too_large(limit: int, what: str = "the decompressed body", flag: str = "--max-decompressed-bytes") -> APIError:
    return APIError(413, "request_too_large", f"{what} exceeds {limit} bytes (server limit {flag}); send a smaller request")


def _window(limit: int) -> int:
    size = _MIN_WINDOW
    while size < limit and size < _MAX_WINDOW:
        size <<= 1
    return size


def _zstd(body: bytes, limit: int) -> bytes:
    decoder = zstandard.ZstdDecompressor(max_window_size=_window(limit)).decompressobj()
    out = bytearray()
    try:
        for start in range(0, len(body), _ZSTD_STEP):
            out += decoder.decompress(body[start : start + _ZSTD_STEP])
            if len(out) > limit:
                raise too_large(limit)
            if decoder.eof:
                break
    except zstandard.ZstdError as error:
        raise APIError(400, "invalid_encoding", f"the body is not valid zstd ({error}); compress it as one zstd frame") from None
    if not decoder.eof:
        raise APIError(400, "invalid_encoding", "the zstd body is truncated: the frame does not end; send the whole body")
    if decoder.unused_data or len(body) > start + _ZSTD_STEP:
        raise APIError(400, "invalid_encoding", "the zstd body has trailing bytes after its frame; send exactly one frame")
    return bytes(out)


def _gzip(body: bytes, limit: int) -> bytes:
    decoder = zlib.decompressobj(wbits=47)  # gzip or zlib header
    out = bytearray()
    start = 0
    try:
        for start in range(0, len(body), _GZIP_STEP):
            out += decoder.decompress(body[start : start + _GZIP_STEP], limit + 1 - len(out))
            if len(out) > limit or decoder.unconsumed_tail:
                raise too_large(limit)
            if decoder.eof:
                break
    except zlib.error as error:
        raise APIError(400, "invalid_encoding", f"the body is not valid gzip ({error})") from None
    if not decoder.eof:
        raise APIError(400, "invalid_encoding", "the gzip body is truncated; send the whole body")
    if decoder.unused_data or len(body) > start + _GZIP_STEP:
        raise APIError(400, "invalid_encoding", "the gzip body has trailing bytes after its stream")
    return bytes(out)


def check_encoding(content_encoding: str | None) -> str:
    """The normalised Content-Encoding, or 415 for one we do not decode (checked before reading the body)."""
    encoding = (content_encoding or "identity").strip().lower()
    if encoding in ("", "identity"):
        return "identity"
    if encoding == "zstd":
        return "zstd"
    if encoding in ("gzip", "x-gzip"):
        return "gzip"
    shown = encoding if len(encoding) <= 40 else encoding[:40] + "..."
    raise APIError(415, "unsupported_content_encoding", f"Content-Encoding {shown!r} is not supported; use zstd, gzip or none")


def decode(body: bytes, content_encoding: str | None, limit: int) -> bytes:
    encoding = check_encoding(content_encoding)
    if encoding == "identity":
        if len(body) > limit:
            raise too_large(limit, "the body")
        return body
    if encoding == "zstd":
        return _zstd(body, limit)
    return _gzip(body, limit)


def media_type(content_type: str | None) -> str:
    """'json' or 'multipart' for a Content-Type we accept (absent means JSON); 415 for anything else."""
    if content_type is None or not content_type.strip():
        return "json"
    media, _, params = content_type.partition(";")
    media = media.strip().lower()
    if media == MULTIPART:
        return "multipart"
    if media in JSON_TYPES:
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in ("utf-8", "utf8"):
                raise APIError(415, "unsupported_media_type", "JSON bodies must be UTF-8; send Content-Type: application/json")
        return "json"
    shown = media if len(media) <= 60 else media[:60] + "..."
    raise APIError(415, "unsupported_media_type",
                   f"Content-Type {shown!r} is not supported; send application/json (or multipart/form-data with a 'request' part)")


def json_part(body: bytes, content_type: str) -> tuple[bytes, dict[str, bytes]]:
    """Split a multipart/form-data body into its `request` JSON part and its other (asset) parts."""
    try:
        header = f"Content-Type: {content_type}\r\n\r\n".encode("latin-1")
    except UnicodeEncodeError:
        raise APIError(400, "invalid_multipart", "the multipart Content-Type header is not Latin-1 text") from None
    try:
        message = BytesParser(policy=HTTP).parsebytes(header + body)
        if not message.is_multipart():
            raise APIError(400, "invalid_multipart", "the multipart body could not be parsed; check its boundary")
        parts: dict[str, bytes] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if not name:
                continue
            name = str(name)
            if name in parts:
                raise APIError(400, "invalid_multipart", f"the multipart body has two parts named {name[:60]!r}")
            payload = part.get_payload(decode=True)
            parts[name] = payload if isinstance(payload, bytes) else b""
    except APIError:
        raise
    except Exception as error:  # the stdlib parser is lenient but not total on hostile input
        raise APIError(400, "invalid_multipart", f"the multipart body could not be parsed ({type(error).__name__})") from None
    if "request" not in parts:
        raise APIError(400, "invalid_multipart", "a multipart request needs a JSON part named 'request'")
    return parts.pop("request"), parts


async def drain(receive, max_bytes: int, timeout_s: float) -> bool:
    """Read and discard the rest of a request body, at most `max_bytes` within `timeout_s`, so that a client
    still sending when it is refused sees the answer instead of a reset connection (the server closes a
    connection whose request it has not read). True when the body ended; past either bound the rest is
    left unread and the connection is closed after the answer."""
    if max_bytes <= 0 or timeout_s <= 0:
        return False
    seen = 0
    try:
        async with asyncio.timeout(timeout_s):
            while seen <= max_bytes:
                message = await receive()
                if message["type"] != "http.request":
                    return False
                seen += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return True
    except TimeoutError:
        pass
    return False


def refuse_early(headers, settings) -> str:
    """The cheap refusals, before anything is read or queued: media type, encoding and a declared length
    over the limit. Returns the body's media kind."""
    kind = media_type(headers.get("content-type"))
    check_encoding(headers.get("content-encoding"))
    declared = headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > settings.max_body_bytes:
        raise too_large(settings.max_body_bytes, f"the body ({declared} bytes)", "--max-body-bytes")
    return kind


async def drain_if_unread(request, settings) -> None:
    """A request refused before its body was read: read and discard the rest (within the drain bounds), so
    the client gets the answer instead of a reset connection."""
    if BODY_STATE in request.scope:
        return
    declared = request.headers.get("content-length")
    if not (declared and declared.isdigit() and int(declared) > settings.max_drain_bytes):
        await drain(request.receive, settings.max_drain_bytes, settings.drain_timeout_s)




async def read_payload(request: Request, settings: ServerConfig, kind: str = "json") -> object:
    """The request's JSON: body read under a size cap and a time limit, decompressed under a cap, parsed."""
    raw = bytearray()
    more = True
    request.scope[BODY_STATE] = "reading"
    try:
        async with asyncio.timeout(settings.body_timeout_s):
            while more:
                message = await request.receive()
                if message["type"] == "http.disconnect":
                    raise ClientDisconnect()
                raw += message.get("body", b"")
                more = bool(message.get("more_body", False))
                if len(raw) > settings.max_body_bytes:
                    break
    except TimeoutError:
        raise APIError(408, "request_timeout", f"the body did not arrive within {settings.body_timeout_s:g}s; send it faster") from None
    except ClientDisconnect:
        raise APIError(499, "client_closed_request", "the client disconnected while sending the body") from None
    if len(raw) > settings.max_body_bytes:
        # Read the rest (bounded) before answering: closing on a client still sending resets the
        # connection, and it would see a broken pipe instead of the 413 it can act on.
        if more:
            await drain(request.receive, settings.max_drain_bytes - len(raw), settings.drain_timeout_s)
        raise too_large(settings.max_body_bytes, "the body", "--max-body-bytes")
    body = decode(bytes(raw), request.headers.get("content-encoding"), settings.max_decompressed_bytes)
    if kind == "multipart":
        body, parts = json_part(body, request.headers.get("content-type", ""))
        payload = parse_json(body)
        _check_parts(payload, parts)
        return payload
    return parse_json(body)


def _check_parts(payload: Any, parts: dict[str, bytes]) -> None:
    """Every multipart asset part must be named by an asset, and every named part must be there."""
    assets = payload.get("assets") if isinstance(payload, dict) else None
    named = {}
    if isinstance(assets, dict):
        named = {a["part"]: k for k, a in assets.items() if isinstance(a, dict) and isinstance(a.get("part"), str)}
    for part in parts:
        if part not in named:
            raise RequestInvalid.single(["body"], f"the multipart part {part[:60]!r} is not used by any asset's 'part'; "
                                        "remove it or reference it from assets", "unused_part")
    for part, asset in named.items():
        if part not in parts:
            raise RequestInvalid.single(["body", "assets", asset, "part"], f"there is no multipart part named {part[:60]!r}",
                                        "missing_part")
