"""Strict JSON for request bodies and responses: duplicate keys, NaN / Infinity, huge integers and lone
UTF-16 surrogates are refused with a 422 that says where; responses never carry NaN."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from onepass.errors import RequestInvalid

__all__ = ["parse_json", "reject_lone_surrogates", "dumps"]


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


class _NonFiniteNumber(ValueError):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 parses to inf; a request never carries infinities
        raise _NonFiniteNumber(text)
    return value


# Integers beyond a float's range (~1.8e308) are refused: every number a request carries is used as a
# float or a small count, and converting a larger one fails far from the request.
_MAX_INT_DIGITS = 308


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        raise _NonFiniteNumber(text)
    return int(text)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


# A JSON escape of a UTF-16 surrogate; only then can a decoded string hold a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_json(raw: bytes) -> Any:
    """Decode a JSON body strictly, never guessing.

    Invalid UTF-8, bad JSON, NaN/Infinity literals, numbers beyond float range, duplicate keys (which a
    parser would otherwise silently resolve to the last one) and lone UTF-16 surrogates (not Unicode,
    so they cannot be tokenised or sent back) are 422s. Nesting depth is checked by `check_limits`.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestInvalid.single(["body"], f"the body is not valid UTF-8 ({error.reason} at byte {error.start})", "json_invalid") from None
    if not text.strip():
        raise RequestInvalid.single(["body"], "the body is empty; send a JSON System One request", "json_invalid")

    def no_constants(name: str):
        raise ValueError(f"{name} is not valid JSON")

    try:
        value = json.loads(text, parse_constant=no_constants, parse_float=_finite_float, parse_int=_bounded_int,
                           object_pairs_hook=_unique_pairs)
    except RecursionError:
        raise RequestInvalid.single(["body"], "the JSON is nested too deeply", "json_invalid") from None
    except _DuplicateKey as error:
        raise RequestInvalid.single(
            ["body"], f"duplicate key {_short(error.key)!r} in a JSON object; every key in an object must be unique",
            "duplicate_key",
        ) from None
    except _NonFiniteNumber as error:
        raise RequestInvalid.single(
            ["body"], f"the number {_short(error.text)} is outside the range of a 64-bit float (about 1.8e308)", "json_invalid"
        ) from None
    except ValueError as error:
        raise RequestInvalid.single(["body"], f"JSON decode error: {error}", "json_invalid") from None
    if _SURROGATE_ESCAPE.search(text):
        reject_lone_surrogates(value)
    return value


def _has_lone_surrogate(s: str) -> bool:
    if s.isascii():
        return False
    try:
        s.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def reject_lone_surrogates(value: Any) -> None:
    """422 for a string (or key) holding a lone UTF-16 surrogate anywhere in a JSON value. parse_json calls
    it; in-process callers that build payloads themselves (Engine.validate) can too."""
    stack: list[tuple[Any, tuple]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            bad = _has_lone_surrogate(node)
        elif isinstance(node, dict):
            bad = False
            for key, child in node.items():
                if _has_lone_surrogate(key):
                    bad = True
                    break
                stack.append((child, (*path, key)))
        elif isinstance(node, list):
            bad = False
            stack.extend((child, (*path, i)) for i, child in enumerate(node))
        else:
            bad = False
        if bad:
            raise RequestInvalid.single(
                ["body", *path], "the string contains a lone UTF-16 surrogate escape (\\ud800-\\udfff), which is not "
                "Unicode text; send valid UTF-8 (escape characters outside the BMP as a surrogate pair)", "string_unicode",
            )




def dumps(obj: Any) -> bytes:
    """Serialise a response; NaN or Infinity here is a bug, never something to send.

    Text that is not valid Unicode (a lone surrogate echoed in an error) falls back to ASCII escapes,
    which are valid JSON and valid UTF-8, instead of failing.
    """
    try:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")
