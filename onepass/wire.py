"""The System One wire contract: request models, their validation, and the two error shapes.

Validation rejects, it never rewrites: a value outside a limit is a 422 naming the field and the limit.
"""

from __future__ import annotations

import json
import math
import re
from typing import Annotated, Any, Literal, Protocol, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

# The contract's hard maxima; a server may configure lower limits (check_limits), never higher ones.
MAX_OPTIONS = 255
MAX_LEVELS = 10
QUESTION_TYPES = ("noul", "choice", "score", "box")

# JSON values a description or instruction may be (the hosted schema's `str | object | array`).
Content = Union[str, dict[str, Any], list[Any]]


class _Question(BaseModel):
    # Unknown fields inside a question are ignored, as the hosted API does.
    model_config = ConfigDict(extra="ignore", strict=True)


class NoulCriteria(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    true: Content | None = None
    false: Content | None = None


class NoulQuestion(_Question):
    type: Literal["noul"]
    instructions: Content | None = None
    criteria: NoulCriteria | None = None

    @model_validator(mode="after")
    def _needs_something_to_ask(self):
        described = self.criteria is not None and (self.criteria.true is not None or self.criteria.false is not None)
        if self.instructions is None and not described:
            raise ValueError("a noul question needs instructions, or criteria that describe the true or false outcome")
        return self


class ChoiceQuestion(_Question):
    type: Literal["choice"]
    instructions: Content | None = None
    criteria: dict[str, Content | None]

    @field_validator("criteria")
    @classmethod
    def _option_count(cls, criteria: dict[str, Content | None]):
        if not 2 <= len(criteria) <= MAX_OPTIONS:
            raise ValueError(f"a choice question needs 2 to {MAX_OPTIONS} options in criteria, got {len(criteria)}")
        return criteria


class ScoreQuestion(_Question):
    type: Literal["score"]
    instructions: Content | None = None
    criteria: list[Content]

    @field_validator("criteria", mode="before")
    @classmethod
    def _array_form(cls, criteria: Any):
        if isinstance(criteria, dict):
            raise ValueError(
                "score criteria must be an array of level descriptions (level 0 first); "
                'the map form {"0": ..., "1": ...} is not accepted'
            )
        return criteria

    @field_validator("criteria")
    @classmethod
    def _level_count(cls, criteria: list[Content]):
        if not 2 <= len(criteria) <= MAX_LEVELS:
            raise ValueError(f"a score question needs 2 to {MAX_LEVELS} levels in criteria, got {len(criteria)}")
        return criteria


class BoxQuestion(_Question):
    type: Literal["box"]
    instructions: Content | None = None


Question = Annotated[Union[NoulQuestion, ChoiceQuestion, ScoreQuestion, BoxQuestion], Field(discriminator="type")]


class SystemOneRequest(BaseModel):
    # Unknown top-level fields are ignored (clients send extras); onepass's own options start with x_.
    model_config = ConfigDict(extra="ignore", strict=True)
    model: str
    state: Content
    questions: dict[str, Question]
    assets: dict[str, Any] | None = None

    @field_validator("questions")
    @classmethod
    def _question_ids(cls, questions: dict[str, Any]):
        if not questions:
            raise ValueError("at least one question is required")
        if "" in questions:
            raise ValueError("question ids must be non-empty strings")
        return questions


# -- errors ---------------------------------------------------------------------------------------------


class APIError(Exception):
    """An error with the `{"detail": {"error_type", "message"}}` shape and an HTTP status."""

    def __init__(self, status: int, error_type: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.message = message
        self.headers = headers or {}

    def body(self) -> dict:
        return {"detail": {"error_type": self.error_type, "message": self.message}}


class RequestInvalid(Exception):
    """A 422 with the `{"detail": [{"loc", "msg", "type", ...}]}` shape."""

    def __init__(self, detail: list[dict]):
        super().__init__("; ".join(f"{'.'.join(map(str, d['loc']))}: {d['msg']}" for d in detail))
        self.detail = detail

    @classmethod
    def single(cls, loc: list, msg: str, type_: str = "value_error", input_: Any = None) -> "RequestInvalid":
        entry: dict[str, Any] = {"loc": loc, "msg": msg, "type": type_}
        if input_ is not None:
            entry["input"] = input_
        return cls([entry])


# Echoed inputs in 422 details stay small: a 4 MB state of the wrong type is named, not sent back.
MAX_ECHOED_INPUT_CHARS = 1000


def _jsonable(value: Any) -> Any:
    """Error inputs and contexts must survive json.dumps without NaN or exotic objects."""
    try:
        json.dumps(value, allow_nan=False)
        return value
    except (TypeError, ValueError):
        return repr(value)


def validation_detail(error: ValidationError) -> list[dict]:
    detail = []
    for item in error.errors(include_url=False):
        entry = {"loc": ["body", *item["loc"]], "msg": item["msg"], "type": item["type"]}
        if "input" in item:
            echoed = _jsonable(item["input"])
            if len(json.dumps(echoed, ensure_ascii=False)) <= MAX_ECHOED_INPUT_CHARS:
                entry["input"] = echoed
        if item.get("ctx"):
            entry["ctx"] = {k: _jsonable(v if isinstance(v, (str, int, float, bool)) else str(v)) for k, v in item["ctx"].items()}
        detail.append(entry)
    return detail


def parse_request(payload: Any) -> SystemOneRequest:
    if not isinstance(payload, dict):
        raise RequestInvalid.single(["body"], "the request body must be a JSON object", "model_attributes_type")
    try:
        return SystemOneRequest.model_validate(payload)
    except ValidationError as error:
        raise RequestInvalid(validation_detail(error)) from None


# -- raw JSON ------------------------------------------------------------------------------------------


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


# -- limits ---------------------------------------------------------------------------------------------


class RequestLimits(Protocol):
    """The request-shape limits (the server's Settings carries them; see docs/operations.md)."""

    max_questions: int
    max_options: int
    max_levels: int
    max_state_chars: int
    max_text_chars: int
    max_name_chars: int
    max_id_chars: int
    max_model_chars: int
    max_depth: int


# Reported limit violations per request; more are summarised in the last entry.
MAX_LIMIT_ERRORS = 20


def text_length(value: Any) -> int:
    """Characters a value takes as prompt text: a string's length, or the length of its compact JSON."""
    if isinstance(value, str):
        return len(value)
    if value is None:
        return 0
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _depth_error(payload: Any, max_depth: int) -> dict | None:
    """The first container nested deeper than max_depth (the top-level object is depth 1), without recursion."""
    stack: list[tuple[Any, int, tuple]] = [(payload, 1, ())]
    while stack:
        node, depth, path = stack.pop()
        if depth > max_depth:
            return {"loc": ["body", *path], "type": "too_deep", "ctx": {"max_depth": max_depth},
                    "msg": f"the JSON is nested more than {max_depth} levels deep; flatten it (server limit --max-depth)"}
        children = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1, (*path, key)))
    return None


def check_limits(payload: Any, limits: RequestLimits) -> None:
    """Reject (422, never truncate) a raw JSON request that exceeds a configured size limit.

    Runs before schema validation so an oversized request costs little; fields of the wrong type are left
    to the schema, which reports them.
    """
    if isinstance(payload, (dict, list)):
        deep = _depth_error(payload, limits.max_depth)
        if deep:
            raise RequestInvalid([deep])
    if not isinstance(payload, dict):
        return
    errors: list[dict] = []

    def text(loc: list, value: Any, limit: int, what: str, flag: str) -> None:
        n = text_length(value)
        if n > limit:
            errors.append({"loc": loc, "type": "string_too_long", "ctx": {"max_length": limit},
                           "msg": f"{what} is {n} characters; at most {limit} are accepted (server limit {flag})"})

    def count(loc: list, n: int, limit: int, msg: str) -> None:
        if n > limit:
            errors.append({"loc": loc, "type": "too_long", "ctx": {"max_length": limit}, "msg": msg})

    model = payload.get("model")
    if isinstance(model, str):
        text(["body", "model"], model, limits.max_model_chars, "the model name", "--max-model-chars")
    if "state" in payload:
        text(["body", "state"], payload["state"], limits.max_state_chars, "the state (as text or compact JSON)", "--max-state-chars")
    questions = payload.get("questions")
    if isinstance(questions, dict):
        count(["body", "questions"], len(questions), limits.max_questions,
              f"at most {limits.max_questions} questions per request, got {len(questions)}; split the request "
              "(server limit --max-questions)")
        for qid, question in questions.items():
            if len(errors) > MAX_LIMIT_ERRORS:
                break
            text(["body", "questions", qid], qid, limits.max_id_chars, "the question id", "--max-id-chars")
            if not isinstance(question, dict):
                continue
            kind = question.get("type")
            loc = ["body", "questions", qid, *([kind] if isinstance(kind, str) and kind in QUESTION_TYPES else [])]
            if "instructions" in question:
                text([*loc, "instructions"], question["instructions"], limits.max_text_chars, "the instructions", "--max-text-chars")
            criteria = question.get("criteria")
            if kind == "choice" and isinstance(criteria, dict):
                count([*loc, "criteria"], len(criteria), limits.max_options,
                      f"a choice question needs 2 to {limits.max_options} options in criteria, got {len(criteria)}"
                      + ("" if limits.max_options == MAX_OPTIONS else " (server limit --max-options)"))
                for name, description in criteria.items():
                    text([*loc, "criteria", name], name, limits.max_name_chars, "the option name", "--max-name-chars")
                    text([*loc, "criteria", name], description, limits.max_text_chars, "the option description", "--max-text-chars")
                    if len(errors) > MAX_LIMIT_ERRORS:
                        break
            elif kind == "score" and isinstance(criteria, list):
                count([*loc, "criteria"], len(criteria), limits.max_levels,
                      f"a score question needs 2 to {limits.max_levels} levels in criteria, got {len(criteria)}"
                      + ("" if limits.max_levels == MAX_LEVELS else " (server limit --max-levels)"))
                for i, description in enumerate(criteria[: limits.max_levels]):
                    text([*loc, "criteria", i], description, limits.max_text_chars, "the level description", "--max-text-chars")
            elif kind == "noul" and isinstance(criteria, dict):
                for side in ("true", "false"):
                    if side in criteria:
                        text([*loc, "criteria", side], criteria[side], limits.max_text_chars, "the criterion", "--max-text-chars")
    if errors:
        if len(errors) > MAX_LIMIT_ERRORS:
            errors = errors[:MAX_LIMIT_ERRORS] + [{"loc": ["body"], "type": "too_long", "msg": "more limits exceeded; fix the ones above first"}]
        raise RequestInvalid(errors)


def dumps(obj: Any) -> bytes:
    """Serialise a response; NaN or Infinity here is a bug, never something to send.

    Text that is not valid Unicode (a lone surrogate echoed in an error) falls back to ASCII escapes,
    which are valid JSON and valid UTF-8, instead of failing.
    """
    try:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def finite(x: float) -> float:
    if not math.isfinite(x):
        raise ValueError("non-finite value in a response")
    return x
