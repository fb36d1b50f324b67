"""The HTTP app: routes, keys, body limits, bounded admission, errors in the contract's shapes, metrics.

Model work runs on a fixed pool of worker threads behind a bounded queue; nothing is spawned per request.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import threading
import time
import uuid
from contextlib import asynccontextmanager
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.exceptions import HTTPException as StarletteHTTPException

from onepass import bodies
from onepass.engine import Engine
from onepass.wire import APIError, RequestInvalid, dumps, parse_json

log = logging.getLogger("onepass.access")
REQUEST_ID = "x-typesafe-request-id"


@dataclass
class Settings:
    api_keys: list[str] = field(default_factory=list)
    max_body_bytes: int = 1 << 20  # as sent (compressed or not)
    max_decompressed_bytes: int = 4 << 20
    max_questions: int = 64
    workers: int = 1  # model worker threads; torch already uses every core inside one forward
    max_queue: int = 32  # admitted requests waiting for a worker; beyond this: 429
    queue_timeout_s: float = 60.0  # waiting longer than this for a worker: 503
    retry_after_s: int = 1


def json_response(status: int, body: object, headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(body), status_code=status, media_type="application/json", headers=headers)


class Metrics:
    def __init__(self):
        self.registry = CollectorRegistry()
        self.requests = Counter("onepass_requests", "HTTP requests", ["route", "status"], registry=self.registry)
        self.latency = Histogram(
            "onepass_request_seconds", "HTTP request latency", ["route"], registry=self.registry,
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
        )
        self.queue = Gauge("onepass_queue_depth", "admitted requests waiting for or holding a worker", registry=self.registry)
        self.questions = Counter("onepass_questions", "questions answered", registry=self.registry)
        self.tokens = Counter("onepass_input_tokens", "input tokens processed", registry=self.registry)


class Keys:
    """API keys compared in constant time (hashing first makes every comparison the same length)."""

    def __init__(self, keys: list[str]):
        self._digests = [hashlib.sha256(k.encode()).digest() for k in keys if k]

    @property
    def enabled(self) -> bool:
        return bool(self._digests)

    def check(self, authorization: str | None) -> None:
        if not self.enabled:
            return
        scheme, _, token = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise APIError(401, "authentication_error", "missing API key: send the header 'Authorization: Bearer KEY'")
        digest = hashlib.sha256(token.strip().encode()).digest()
        matched = False
        for known in self._digests:
            matched |= hmac.compare_digest(digest, known)
        if not matched:
            raise APIError(401, "authentication_error", "invalid API key")


class Admission:
    """At most `workers` requests run and `max_queue` wait; anything more is turned away at once."""

    def __init__(self, settings: Settings, metrics: Metrics):
        self.settings = settings
        self.metrics = metrics
        self.executor = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="onepass-worker")
        self._slots = asyncio.Semaphore(settings.workers)
        self._admitted = 0

    async def run(self, fn: Callable, *args):
        s = self.settings
        if self._admitted >= s.workers + s.max_queue:
            raise APIError(
                429, "queue_full", f"the server is busy ({self._admitted} requests admitted); retry after {s.retry_after_s}s",
                {"retry-after": str(s.retry_after_s), "retry-after-ms": str(s.retry_after_s * 1000)},
            )
        self._admitted += 1
        self.metrics.queue.set(self._admitted)
        try:
            try:
                await asyncio.wait_for(self._slots.acquire(), timeout=s.queue_timeout_s)
            except asyncio.TimeoutError:
                raise APIError(
                    503, "queue_timeout", f"the request waited {s.queue_timeout_s:.0f}s for a worker; retry later",
                    {"retry-after": str(s.retry_after_s), "retry-after-ms": str(s.retry_after_s * 1000)},
                ) from None
            try:
                return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
            finally:
                self._slots.release()
        finally:
            self._admitted -= 1
            self.metrics.queue.set(self._admitted)


def create_app(engine_factory: Callable[[], Engine] | Engine, settings: Settings | None = None) -> FastAPI:
    """The app; the engine loads in a background thread so health checks answer while it does."""
    settings = settings or Settings()
    metrics = Metrics()
    keys = Keys(settings.api_keys)
    state: dict = {"engine": engine_factory if isinstance(engine_factory, Engine) else None, "error": None}

    def load():
        try:
            state["engine"] = engine_factory()
        except Exception as error:  # reported by /readyz and 503s; the process stays up to say why
            logging.getLogger("onepass").exception("model failed to load")
            state["error"] = f"{type(error).__name__}: {error}"

    admission = Admission(settings, metrics)

    @asynccontextmanager
    async def lifespan(_app):
        if state["engine"] is None:
            threading.Thread(target=load, name="onepass-load", daemon=True).start()
        yield
        # Shutdown: uvicorn has stopped accepting and drained in-flight requests; finish the pool.
        admission.executor.shutdown(wait=True)

    app = FastAPI(title="onepass", version="0.1.0", docs_url=None, redoc_url=None, lifespan=lifespan)

    def ready_engine() -> Engine:
        engine = state["engine"]
        if engine is None:
            why = f"the model failed to load ({state['error']})" if state["error"] else "the model is still loading"
            raise APIError(503, "model_not_ready", f"{why}; retry later",
                           {"retry-after": "5", "retry-after-ms": "5000"})
        return engine

    @app.middleware("http")
    async def envelope(request: Request, call_next):
        request_id = uuid.uuid4().hex
        request.state.request_id = request_id
        started = time.perf_counter()
        try:
            response = await call_next(request)
        except Exception:  # a bug, never bad input: keep the contract's shape and say nothing internal
            logging.getLogger("onepass").exception("unhandled error request_id=%s", request_id)
            response = json_response(500, {"detail": {"error_type": "internal_error", "message": f"internal error (request {request_id})"}})
        elapsed = time.perf_counter() - started
        response.headers[REQUEST_ID] = request_id
        route = request.url.path if request.url.path in ROUTES else "other"
        metrics.requests.labels(route, str(response.status_code)).inc()
        metrics.latency.labels(route).observe(elapsed)
        # Structured access log: never the body, never the Authorization header.
        log.info(json.dumps({"request_id": request_id, "method": request.method, "path": route,
                             "status": response.status_code, "ms": round(elapsed * 1000, 1)}))
        return response

    @app.exception_handler(APIError)
    async def api_error(_request: Request, error: APIError):
        return json_response(error.status, error.body(), error.headers)

    @app.exception_handler(RequestInvalid)
    async def invalid(_request: Request, error: RequestInvalid):
        return json_response(422, {"detail": error.detail})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException):
        kind = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return json_response(error.status_code, {"detail": {"error_type": kind, "message": str(error.detail)}})

    @app.post("/v1/systemone")
    async def systemone(request: Request):
        keys.check(request.headers.get("authorization"))
        payload = await read_payload(request, settings)
        engine = ready_engine()
        parsed = engine.validate(payload)
        if len(parsed.questions) > settings.max_questions:
            raise RequestInvalid.single(["body", "questions"], f"at most {settings.max_questions} questions per request, got {len(parsed.questions)}", "too_long")
        result = await admission.run(engine.run, parsed)
        metrics.questions.inc(len(result["answers"]))
        metrics.tokens.inc(result["usage"]["input_tokens"])
        return json_response(200, result)

    @app.get("/v1/models")
    async def list_models(request: Request):
        keys.check(request.headers.get("authorization"))
        return json_response(200, {"models": ready_engine().model_list()})

    @app.get("/healthz")
    async def healthz():
        return json_response(200, {"status": "ok"})

    @app.get("/readyz")
    async def readyz():
        ready_engine()
        return json_response(200, {"status": "ready", "model": state["engine"].info.id})

    @app.get("/metrics")
    async def prometheus():
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    ROUTES = {"/v1/systemone", "/v1/models", "/healthz", "/readyz", "/metrics"}
    app.state.settings = settings
    app.state.metrics = metrics
    return app


async def read_payload(request: Request, settings: Settings) -> object:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > settings.max_body_bytes:
        raise APIError(413, "request_too_large", f"the body is {declared} bytes; the limit is {settings.max_body_bytes}")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > settings.max_body_bytes:
            raise APIError(413, "request_too_large", f"the body exceeds {settings.max_body_bytes} bytes")
    body = bodies.decode(bytes(raw), request.headers.get("content-encoding"), settings.max_decompressed_bytes)
    content_type = request.headers.get("content-type", "application/json")
    media = content_type.split(";")[0].strip().lower()
    if media == "multipart/form-data":
        body, _assets = bodies.json_part(body, content_type)
    elif media not in ("application/json", ""):
        raise APIError(415, "unsupported_media_type", f"Content-Type {media!r} is not supported; send application/json")
    return parse_json(body)
