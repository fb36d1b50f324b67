"""The outermost middleware: a request id on every response, Server-Timing, the ignored-fields headers,
request metrics, one structured access-log line per request, and the contract's error shape even for a
crash or a shutdown cancel."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from datetime import datetime, timezone
from typing import Any

from starlette.datastructures import MutableHeaders

from onepass import batch_route, ignored, playground, timing
from onepass.errors import retry_headers
from onepass.metrics import Metrics
from onepass.responses import json_response

__all__ = ["AccessLog", "REQUEST_ID", "ROUTES"]

log = logging.getLogger("onepass.access")
REQUEST_ID = "x-typesafe-request-id"
ROUTES = ("/v1/systemone", "/v1/models", "/healthz", "/readyz", "/metrics", "/openapi.json", batch_route.ROUTE, *playground.ROUTES)
METHODS = ("GET", "POST", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE")


class AccessLog:
    """Pure ASGI middleware: request id on every response, metrics, one structured access-log line.

    The log line carries the request id, route, status, timing and outcome codes, and the sanitised names
    of top-level request fields that were ignored (onepass/ignored.py, also sent as response headers). It
    never carries the body, headers (so never a key), query strings or error messages (which can quote the
    body).
    """

    def __init__(self, app, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = uuid.uuid4().hex
        notes: dict[str, Any] = {}
        scope["onepass.request_id"] = request_id
        scope["onepass.log"] = notes
        route = scope["path"] if scope["path"] in ROUTES else "other"
        method = scope["method"] if scope["method"] in METHODS else "OTHER"
        started = time.perf_counter()
        timing.start(scope)  # the Server-Timing record this request's work is charged to
        status = 0

        async def send_with_id(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)[REQUEST_ID] = request_id
                MutableHeaders(scope=message)[timing.HEADER] = timing.header_for(scope)
                # Set by a route once the request passed validation: the top-level names it ignored.
                for name, value in ignored.headers(scope.get(ignored.SCOPE_KEY, ())).items():
                    MutableHeaders(scope=message)[name] = value
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except asyncio.CancelledError:
            # uvicorn cancels requests still running when --shutdown-timeout runs out. Answer in the
            # contract's shape (a retryable 503) instead of uvicorn's text/plain 500; the task ends here.
            if status == 0:
                notes["error_type"] = "shutting_down"
                response = json_response(503, {"detail": {"error_type": "shutting_down",
                                                          "message": "the server is shutting down; retry, another instance may answer"}},
                                         retry_headers(1))
                try:
                    await response(scope, receive, send_with_id)
                except Exception:
                    pass
            status = status or 503
        except Exception:  # a bug, never bad input: keep the contract's shape and say nothing internal
            logging.getLogger("onepass").exception("unhandled error request_id=%s", request_id)
            if status == 0:
                notes["error_type"] = "internal_error"
                response = json_response(500, {"detail": {"error_type": "internal_error",
                                                          "message": f"internal error (request {request_id})"}})
                await response(scope, receive, send_with_id)
            status = status or 500
        finally:
            elapsed = time.perf_counter() - started
            self.metrics.requests.labels(route, method, str(status)).inc()
            self.metrics.latency.labels(route).observe(elapsed)
            client = scope.get("client")
            entry = {
                "ts": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
                "event": "request",
                "request_id": request_id,
                "method": method,
                "route": route,
                "status": status,
                "ms": round(elapsed * 1000, 1),
                "client": client[0] if client else None,
                **notes,
                **ignored.log_fields(scope.get(ignored.SCOPE_KEY, ())),
            }
            log.info(json.dumps(entry, ensure_ascii=True))
