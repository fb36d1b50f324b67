"""How `onepass serve` runs uvicorn: the connection bound (answered as a JSON 429 in the contract's shape,
not uvicorn's text/plain 503) and the graceful-shutdown timeout."""

from __future__ import annotations

import uuid

from onepass import timing
from onepass.access_log import REQUEST_ID
from onepass.config import ServerConfig
from onepass.errors import retry_headers
from onepass.strict_json import dumps

__all__ = ["uvicorn_config"]


def _connection_limit_app(retry_after_s: int):
    """What uvicorn answers past --max-connections, in the contract's shape instead of its text/plain 503."""
    body = dumps({"detail": {"error_type": "too_many_connections",
                             "message": f"the server has too many open connections; retry after {retry_after_s}s"}})

    async def app(scope, receive, send):
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close"), (REQUEST_ID.encode(), uuid.uuid4().hex.encode()),
                   (timing.HEADER.encode(), timing.NO_WORK.encode()),
                   *((k.encode(), v.encode()) for k, v in retry_headers(retry_after_s).items())]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    return app


def uvicorn_config(app, settings: ServerConfig, host: str, port: int, **kwargs):
    """A uvicorn.Config that applies the connection bound and the graceful-shutdown timeout."""
    import importlib

    import uvicorn

    # uvicorn answers requests past limit_concurrency itself (text/plain 503); make that answer a JSON 429.
    replacement = _connection_limit_app(settings.retry_after_s)
    for name in ("h11_impl", "httptools_impl", "zttp_impl", "zttp_h2_impl"):
        try:
            module = importlib.import_module(f"uvicorn.protocols.http.{name}")
        except Exception:  # optional protocol implementations
            continue
        if hasattr(module, "service_unavailable"):
            module.service_unavailable = replacement
    kwargs.setdefault("access_log", False)  # onepass writes its own access log (Envelope)
    return uvicorn.Config(app, host=host, port=port, limit_concurrency=settings.max_connections,
                          timeout_graceful_shutdown=settings.shutdown_timeout_s, **kwargs)
