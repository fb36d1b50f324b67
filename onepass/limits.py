"""The request-shape limits (ServerConfig's shape fields) checked on the raw payload before validation:
every value past a limit is a 422 naming the field, the limit and the flag; nothing is clamped."""

from __future__ import annotations

import json
from typing import Any, Protocol

from onepass.errors import RequestInvalid
from onepass.wire import MAX_LEVELS, MAX_OPTIONS, QUESTION_TYPES

__all__ = ["RequestLimits", "check_limits", "text_length"]


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
