"""The System One wire contract: request models, their validation, and the two error shapes.

Validation rejects, it never rewrites: a value outside a limit is a 422 naming the field and the limit.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

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
        if not 2 <= len(criteria) <= 255:
            raise ValueError(f"a choice question needs 2 to 255 options in criteria, got {len(criteria)}")
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
        if not 2 <= len(criteria) <= 10:
            raise ValueError(f"a score question needs 2 to 10 levels in criteria, got {len(criteria)}")
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
            entry["input"] = _jsonable(item["input"])
        if item.get("ctx"):
            entry["ctx"] = {k: _jsonable(v if isinstance(v, (str, int, float, bool)) else str(v)) for k, v in item["ctx"].items()}
        detail.append(entry)
    return detail


def parse_request(payload: Any) -> SystemOneRequest:
    try:
        return SystemOneRequest.model_validate(payload)
    except ValidationError as error:
        raise RequestInvalid(validation_detail(error)) from None


def parse_json(raw: bytes) -> Any:
    """Decode a JSON body; invalid UTF-8, bad JSON, NaN/Infinity literals and deep nesting are 422s."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestInvalid.single(["body"], f"the body is not valid UTF-8 ({error.reason} at byte {error.start})", "json_invalid") from None
    if not text.strip():
        raise RequestInvalid.single(["body"], "the body is empty; send a JSON System One request", "json_invalid")

    def no_constants(name: str):
        raise ValueError(f"{name} is not valid JSON")

    try:
        return json.loads(text, parse_constant=no_constants)
    except RecursionError:
        raise RequestInvalid.single(["body"], "the JSON is nested too deeply", "json_invalid") from None
    except ValueError as error:
        raise RequestInvalid.single(["body"], f"JSON decode error: {error}", "json_invalid") from None


def dumps(obj: Any) -> bytes:
    """Serialise a response; NaN or Infinity here is a bug, never something to send."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def finite(x: float) -> float:
    if not math.isfinite(x):
        raise ValueError("non-finite value in a response")
    return x
