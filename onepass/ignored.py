"""Telling an HTTP caller which top-level request fields were ignored, without touching the wire body.

The names come from the caller, so they are data: each is percent-encoded (UTF-8; ASCII letters, digits
and `_ - . ~` stay as they are, everything else, CR, LF, other control characters, spaces, commas and
non-ASCII included, becomes `%XX`) and cut to `MAX_NAME_CHARS` characters of that encoding (between
characters), with a trailing `*` when cut (a `*` in a name is `%2A`, so the mark is unambiguous). At most
`MAX_NAMES` names are listed, in request order.

    x-onepass-ignored-fields: x_trace_id, metadata
    x-onepass-ignored-count: 2

The count is every ignored name, listed or not: when it is larger than the list, the list was capped.
The access log line carries the same sanitised list and count (`"ignored"`, `"ignored_count"`).
"""

from __future__ import annotations

from typing import Iterable
from urllib.parse import quote

__all__ = ["HEADER", "COUNT_HEADER", "MAX_NAMES", "MAX_NAME_CHARS", "SCOPE_KEY", "sanitise", "headers", "log_fields"]

HEADER = "x-onepass-ignored-fields"
COUNT_HEADER = "x-onepass-ignored-count"
MAX_NAMES = 16
MAX_NAME_CHARS = 64  # of the encoded name: the header stays under 16 * (64 + 1) + 15 * 2 = 1070 bytes
SCOPE_KEY = "onepass.ignored"  # where a route leaves the ignored names for the access-log middleware


def sanitise(name: str) -> str:
    """One caller-supplied name as visible ASCII without separators, at most MAX_NAME_CHARS (+ `*`), cut
    between characters (never inside an escape or a character's UTF-8 bytes)."""
    out, used = [], 0
    for ch in str(name):
        piece = quote(ch, safe="", errors="backslashreplace")
        if used + len(piece) > MAX_NAME_CHARS:
            return "".join(out) + "*"
        out.append(piece)
        used += len(piece)
    return "".join(out)


def listed(names: Iterable[str]) -> list[str]:
    """The first MAX_NAMES names, sanitised."""
    out = []
    for name in names:
        if len(out) == MAX_NAMES:
            break
        out.append(sanitise(name))
    return out


def headers(names: tuple[str, ...] | list[str]) -> dict[str, str]:
    """The response headers for these ignored names (none when there are none)."""
    if not names:
        return {}
    return {HEADER: ", ".join(listed(names)), COUNT_HEADER: str(len(names))}


def log_fields(names: tuple[str, ...] | list[str]) -> dict:
    """The access-log fields for these ignored names (none when there are none)."""
    if not names:
        return {}
    return {"ignored": listed(names), "ignored_count": len(names)}
