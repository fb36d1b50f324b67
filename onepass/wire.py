"""The System One wire contract: the request models and their validation (422 details in the contract's shape).

Validation rejects, it never rewrites: a value outside a limit is a 422 naming the field and the limit.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from onepass.errors import RequestInvalid

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
