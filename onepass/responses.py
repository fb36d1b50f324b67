"""JSON responses in the contract's shape (the retry-after headers that go with 429 / 503 are errors.py's)."""

from __future__ import annotations

from fastapi.responses import Response

from onepass.strict_json import dumps

__all__ = ["json_response"]


def json_response(status: int, body: object, headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(body), status_code=status, media_type="application/json", headers=headers)
