"""JSON responses in the contract's shape, and the retry-after headers that go with 429 / 503."""

from __future__ import annotations

from fastapi.responses import Response

from onepass.strict_json import dumps

__all__ = ["json_response", "retry_headers"]


def json_response(status: int, body: object, headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(body), status_code=status, media_type="application/json", headers=headers)


def retry_headers(seconds: int) -> dict[str, str]:
    return {"retry-after": str(seconds), "retry-after-ms": str(seconds * 1000)}
