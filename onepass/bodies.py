"""Raw request bodies -> the JSON request: Content-Encoding (zstd, gzip), size caps, multipart.

Decompression is incremental and capped, so a small compressed bomb costs at most the cap in memory.
"""

from __future__ import annotations

import zlib
from email.parser import BytesParser
from email.policy import HTTP

import zstandard

from onepass.wire import APIError

# Compressed input is fed in small steps: one zstd RLE block can expand ~1000x, so a step of 512 bytes
# produces at most a few MB before the cap is checked again.
_STEP = 512


def _too_large(limit: int) -> APIError:
    return APIError(413, "request_too_large", f"the decompressed body exceeds {limit} bytes; send a smaller request")


def _zstd(body: bytes, limit: int) -> bytes:
    decoder = zstandard.ZstdDecompressor().decompressobj()
    out = bytearray()
    try:
        for start in range(0, len(body), _STEP):
            out += decoder.decompress(body[start : start + _STEP])
            if len(out) > limit:
                raise _too_large(limit)
            if decoder.eof:
                break
    except zstandard.ZstdError as error:
        raise APIError(400, "invalid_encoding", f"the body is not valid zstd: {error}") from None
    if not decoder.eof:
        raise APIError(400, "invalid_encoding", "the zstd body is truncated: the frame does not end")
    if decoder.unused_data:
        raise APIError(400, "invalid_encoding", "the zstd body has trailing bytes after its frame")
    return bytes(out)


def _gzip(body: bytes, limit: int) -> bytes:
    decoder = zlib.decompressobj(wbits=47)  # gzip or zlib header
    out = bytearray()
    try:
        for start in range(0, len(body), _STEP):
            out += decoder.decompress(body[start : start + _STEP], limit + 1 - len(out))
            if len(out) > limit or decoder.unconsumed_tail:
                raise _too_large(limit)
            if decoder.eof:
                break
    except zlib.error as error:
        raise APIError(400, "invalid_encoding", f"the body is not valid gzip: {error}") from None
    if not decoder.eof:
        raise APIError(400, "invalid_encoding", "the gzip body is truncated")
    return bytes(out)


def decode(body: bytes, content_encoding: str | None, limit: int) -> bytes:
    encoding = (content_encoding or "identity").strip().lower()
    if encoding in ("", "identity"):
        if len(body) > limit:
            raise _too_large(limit)
        return body
    if encoding == "zstd":
        return _zstd(body, limit)
    if encoding in ("gzip", "x-gzip"):
        return _gzip(body, limit)
    raise APIError(415, "unsupported_content_encoding", f"Content-Encoding {encoding!r} is not supported; use zstd, gzip or none")


def json_part(body: bytes, content_type: str) -> tuple[bytes, dict[str, bytes]]:
    """Split a multipart/form-data body into its `request` JSON part and its other (asset) parts."""
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode("latin-1") + body)
    if not message.is_multipart():
        raise APIError(400, "invalid_multipart", "the multipart body could not be parsed; check its boundary")
    parts: dict[str, bytes] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if name:
            parts[str(name)] = part.get_payload(decode=True) or b""
    if "request" not in parts:
        raise APIError(400, "invalid_multipart", "a multipart request needs a JSON part named 'request'")
    return parts.pop("request"), parts
