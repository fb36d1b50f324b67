"""Every error onepass raises on purpose, under one root: `OnepassError` carries the HTTP status and the
`error_type` it maps to, so the server turns any of them into the contract's shape in one place
(`server.create_app`'s handler) and a caller can catch them all at once. Anything else reaching the server is a bug.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OnepassError", "APIError", "RequestInvalid", "ConfigError", "retry_headers"]


class OnepassError(Exception):
    """Root of onepass's errors: `status` and `error_type` say how the server answers it."""

    status: int = 500
    error_type: str = "internal_error"
    headers: dict[str, str] = {}

    @property
    def message(self) -> str:
        return str(self)

    def body(self) -> dict:
        return {"detail": {"error_type": self.error_type, "message": self.message}}


class APIError(OnepassError):
    """An error with the `{"detail": {"error_type", "message"}}` shape and an HTTP status."""

    def __init__(self, status: int, error_type: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.headers = headers or {}


class RequestInvalid(OnepassError):
    """A 422 with the `{"detail": [{"loc", "msg", "type", ...}]}` shape."""

    status = 422
    error_type = "validation_error"

    def __init__(self, detail: list[dict]):
        super().__init__("; ".join(f"{'.'.join(map(str, d['loc']))}: {d['msg']}" for d in detail))
        self.detail = detail

    def body(self) -> dict:
        return {"detail": self.detail}

    @classmethod
    def single(cls, loc: list, msg: str, type_: str = "value_error", input_: Any = None) -> "RequestInvalid":
        entry: dict[str, Any] = {"loc": loc, "msg": msg, "type": type_}
        if input_ is not None:
            entry["input"] = input_
        return cls([entry])


class ConfigError(OnepassError, ValueError):
    """A setting that cannot work (a flag, an EngineConfig / ServerConfig field); the message says what to fix."""

    error_type = "configuration_error"


def retry_headers(seconds: int) -> dict[str, str]:
    """When to come back, for a 429 or 503: whole seconds and milliseconds (what the SDK reads first)."""
    return {"retry-after": str(seconds), "retry-after-ms": str(seconds * 1000)}
