"""The HTTP app: routes, keys, body limits, bounded admission, errors in the contract's shapes, metrics, logs.

Model work runs on a fixed pool of worker threads behind a bounded queue; nothing is spawned per request.
Every limit is a Settings field (and a `onepass serve` flag) and every one of them rejects, never clamps.
docs/operations.md is the operator's view of this file.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import json
import logging
import math
import threading
import time
import uuid
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from onepass import batch_route, bodies, playground, timing
from onepass.backends.batcher import Deadline, DeadlineExceeded, is_out_of_memory, overloaded
from onepass.wire import MAX_LEVELS, MAX_OPTIONS, APIError, RequestInvalid, check_limits, dumps, parse_json, parse_request

log = logging.getLogger("onepass.access")
REQUEST_ID = "x-typesafe-request-id"
ROUTES = ("/v1/systemone", "/v1/models", "/healthz", "/readyz", "/metrics", "/openapi.json", batch_route.ROUTE, *playground.ROUTES)
METHODS = ("GET", "POST", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE")


class SettingsError(ValueError):
    """One or more settings are out of range; the message lists every problem and the flag to fix."""


# (minimum, maximum, flag) for every numeric setting; None means unbounded on that side.
_RANGES: dict[str, tuple[float | None, float | None, str]] = {
    "max_body_bytes": (1, None, "--max-body-bytes"),
    "max_decompressed_bytes": (1, None, "--max-decompressed-bytes"),
    "body_timeout_s": (0.001, 3600, "--body-timeout"),
    "max_questions": (1, None, "--max-questions"),
    "max_options": (2, MAX_OPTIONS, "--max-options"),
    "max_levels": (2, MAX_LEVELS, "--max-levels"),
    "max_state_chars": (1, None, "--max-state-chars"),
    "max_text_chars": (1, None, "--max-text-chars"),
    "max_name_chars": (1, None, "--max-name-chars"),
    "max_id_chars": (1, None, "--max-id-chars"),
    "max_model_chars": (1, None, "--max-model-chars"),
    "max_depth": (2, 512, "--max-depth"),
    "workers": (1, 256, "--workers"),
    "max_queue": (0, 100_000, "--max-queue"),
    "max_batch_states": (1, 100_000, "--max-batch-states"),
    "queue_timeout_s": (0.001, 86_400, "--queue-timeout"),
    "retry_after_s": (1, 3600, "--retry-after"),
    "loading_retry_after_s": (1, 3600, "--loading-retry-after"),
    "max_connections": (1, 1_000_000, "--max-connections"),
    "shutdown_timeout_s": (0, 86_400, "--shutdown-timeout"),
    "request_timeout_s": (0.001, 86_400, "--request-timeout-s"),
    "max_drain_bytes": (0, None, "--max-drain-bytes"),
    "drain_timeout_s": (0, 3600, "--drain-timeout"),
}
_FLOATS = {"body_timeout_s", "queue_timeout_s", "shutdown_timeout_s", "request_timeout_s", "drain_timeout_s"}


@dataclass
class Settings:
    """Every limit the server enforces. Defaults are documented in docs/operations.md."""

    api_keys: list[str] = field(default_factory=list)
    # Bodies: bytes as sent (compressed or not), bytes after decompression, seconds to receive a body.
    max_body_bytes: int = 1 << 20
    max_decompressed_bytes: int = 4 << 20
    body_timeout_s: float = 30.0
    # A refused body (413, 401, 429, ...) is read and discarded up to this many bytes and seconds before
    # the answer, so a client still sending sees the answer instead of a reset connection.
    max_drain_bytes: int = 8 << 20
    drain_timeout_s: float = 5.0
    # Request shape (422 when exceeded). Options and levels may be lowered, never raised past the contract.
    max_questions: int = 64
    max_options: int = MAX_OPTIONS
    max_levels: int = MAX_LEVELS
    max_state_chars: int = 262_144  # the state as text (objects and arrays: their compact JSON)
    max_text_chars: int = 16_384  # each instructions / description / criterion
    max_name_chars: int = 1_024  # each choice option name
    max_id_chars: int = 256  # each question id
    max_model_chars: int = 256
    max_depth: int = 32  # JSON nesting, the top-level object is level 1
    # Backpressure: `workers` requests run, `max_queue` more wait (or are being read); beyond that 429.
    # Requests handed to the engine at once; the embedded engine batches their reads into shared forward
    # passes (one model call at a time), so workers bound how many requests one batch can gather.
    workers: int = 4
    max_queue: int = 32
    max_batch_states: int = 16  # states per POST /v1/systemone/batch call (each one counts as a request)
    queue_timeout_s: float = 60.0  # a validated request waiting longer than this for a worker: 503
    # A running request's budget, checked between forward passes (and on client disconnect): 503 past it.
    request_timeout_s: float = 60.0
    retry_after_s: int = 1  # retry-after on 429 and queue-timeout 503
    loading_retry_after_s: int = 5  # retry-after while the model loads
    # Passed to uvicorn by `onepass serve` (see uvicorn_config).
    max_connections: int = 1024  # concurrent connections + requests before the server answers 429 itself
    shutdown_timeout_s: float = 30.0  # SIGTERM: how long in-flight requests may take to finish

    def __post_init__(self):
        problems = []
        for name, (low, high, flag) in _RANGES.items():
            value = getattr(self, name)
            kinds = (int, float) if name in _FLOATS else (int,)
            if isinstance(value, bool) or not isinstance(value, kinds) or (isinstance(value, float) and not math.isfinite(value)):
                problems.append(f"{name} ({flag}) must be {'a number' if name in _FLOATS else 'an integer'}, got {value!r}")
            elif (low is not None and value < low) or (high is not None and value > high):
                bounds = f">= {low}" if high is None else f"between {low} and {high}"
                problems.append(f"{name} ({flag}) must be {bounds}, got {value!r}")
        if not problems and self.max_decompressed_bytes < self.max_body_bytes:
            problems.append(
                f"max_decompressed_bytes (--max-decompressed-bytes, {self.max_decompressed_bytes}) must be at least "
                f"max_body_bytes (--max-body-bytes, {self.max_body_bytes}): an uncompressed body is its own decompressed size"
            )
        if not isinstance(self.api_keys, (list, tuple)):
            problems.append("api_keys must be a list of strings")
        else:
            for i, key in enumerate(self.api_keys, 1):
                # Never echo a key: name it by position only.
                if not isinstance(key, str) or not key:
                    problems.append(f"API key #{i} is empty or not a string")
                elif not all(0x21 <= ord(c) <= 0x7E for c in key):
                    problems.append(f"API key #{i} contains whitespace, control or non-ASCII characters; "
                                    "keys travel in an HTTP header and must be visible ASCII")
        if problems:
            raise SettingsError("invalid settings: " + "; ".join(problems))

    def describe(self) -> dict[str, Any]:
        """The settings as loggable values (keys counted, never shown)."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "api_keys"}
        out["api_keys"] = len(self.api_keys)
        return out


def json_response(status: int, body: object, headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(body), status_code=status, media_type="application/json", headers=headers)


def retry_headers(seconds: int) -> dict[str, str]:
    return {"retry-after": str(seconds), "retry-after-ms": str(seconds * 1000)}


class Metrics:
    """Prometheus metrics on a private registry (several apps in one process do not collide)."""

    def __init__(self, settings: Settings):
        r = self.registry = CollectorRegistry()
        self.requests = Counter("onepass_requests", "HTTP requests by route, method and status", ["route", "method", "status"], registry=r)
        self.latency = Histogram(
            "onepass_request_duration_seconds", "HTTP request latency, from first byte to response", ["route"], registry=r,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
        )
        self.admitted = Gauge("onepass_requests_admitted", "decision requests inside the server (reading, waiting or running)", registry=r)
        self.queue = Gauge("onepass_queue_depth", "validated decision requests waiting for a worker", registry=r)
        self.busy = Gauge("onepass_workers_busy", "worker threads running the model", registry=r)
        self.queue_wait = Histogram(
            "onepass_queue_wait_seconds", "time a validated request waited for a worker", registry=r,
            buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
        )
        self.rejected = Counter("onepass_rejected", "requests turned away by backpressure, by reason", ["reason"], registry=r)
        self.questions = Counter("onepass_questions", "questions answered, by type", ["type"], registry=r)
        self.input_tokens = Counter("onepass_input_tokens", "input tokens processed", registry=r)
        self.output_tokens = Counter("onepass_output_tokens", "output positions read", registry=r)
        self.ready = Gauge("onepass_model_ready", "1 once the model is loaded", registry=r)
        Gauge("onepass_workers", "configured worker threads (--workers)", registry=r).set(settings.workers)
        Gauge("onepass_max_queue", "configured queue bound (--max-queue)", registry=r).set(settings.max_queue)


class Keys:
    """API keys compared in constant time (hashing first makes every comparison the same length)."""

    def __init__(self, keys: list[str]):
        self._digests = [hashlib.sha256(k.encode()).digest() for k in keys if k]

    @property
    def enabled(self) -> bool:
        return bool(self._digests)

    def check(self, authorization: str | None) -> int | None:
        """The 1-based position of the matching key (for logs), None with auth off; 401 otherwise."""
        if not self.enabled:
            return None
        scheme, _, token = (authorization or "").strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise APIError(401, "authentication_error", "missing API key: send the header 'Authorization: Bearer KEY'")
        digest = hashlib.sha256(token.encode("utf-8")).digest()
        found = 0
        for position, known in enumerate(self._digests, 1):
            # Every key is compared, whatever matches; the first match is kept without branching on the secret.
            found += position * int(hmac.compare_digest(digest, known)) * int(found == 0)
        if not found:
            raise APIError(401, "authentication_error", "invalid API key: check the key sent in 'Authorization: Bearer KEY'")
        return found


async def _until_disconnect(receive) -> None:
    """Returns when the client goes away (the body has been read, so receive only reports that)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


class Admission:
    """Bounded admission in front of a fixed pool of `workers` threads.

    At most `workers + max_queue` decision requests are inside the server (being read, waiting, or
    running); one more is turned away at once with 429. A validated request waits at most
    `queue_timeout_s` for a worker (then 503) and is dropped if its client disconnects while it waits.
    A worker slot is released when the model call really ends, not when its awaiting coroutine does, so
    the pool is never oversubscribed.
    """

    def __init__(self, settings: Settings, metrics: Metrics):
        self.settings = settings
        self.metrics = metrics
        self.capacity = settings.workers + settings.max_queue
        self.executor = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="onepass-worker")
        self.admitted = 0
        self.free = settings.workers
        self.waiting: deque[asyncio.Future] = deque()

    # -- admission ---------------------------------------------------------------------------------------
    def enter(self) -> None:
        s = self.settings
        if self.admitted >= self.capacity:
            self.metrics.rejected.labels("queue_full").inc()
            raise APIError(
                429, "queue_full",
                f"the server is at capacity ({s.workers} running, {s.max_queue} queued); retry after {s.retry_after_s}s",
                retry_headers(s.retry_after_s),
            )
        self.admitted += 1
        self.metrics.admitted.set(self.admitted)

    def leave(self) -> None:
        self.admitted -= 1
        self.metrics.admitted.set(self.admitted)

    # -- workers -----------------------------------------------------------------------------------------
    def _grant(self) -> None:
        while self.free > 0 and self.waiting:
            ticket = self.waiting.popleft()
            if not ticket.done():
                self.free -= 1
                ticket.set_result(None)
        self.metrics.queue.set(len(self.waiting))

    def _release(self) -> None:
        self.free += 1
        self._grant()

    def _forget(self, ticket: asyncio.Future) -> None:
        if ticket.done() and not ticket.cancelled():
            self._release()  # granted but not used
        else:
            ticket.cancel()
            try:
                self.waiting.remove(ticket)
            except ValueError:
                pass
        self.metrics.queue.set(len(self.waiting))

    async def _acquire(self, receive) -> float:
        """Wait for a worker slot; returns the seconds waited. 503 past the deadline, 499 if the client left."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return 0.0
        s = self.settings
        loop = asyncio.get_running_loop()
        ticket = loop.create_future()
        self.waiting.append(ticket)
        self.metrics.queue.set(len(self.waiting))
        started = loop.time()
        # One watcher per waiting request: bounded by max_queue like the waiting itself.
        watcher = asyncio.ensure_future(_until_disconnect(receive)) if receive is not None else None
        try:
            await asyncio.wait([x for x in (ticket, watcher) if x is not None], timeout=s.queue_timeout_s,
                               return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            self._forget(ticket)
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        gone = watcher is not None and watcher.done() and not watcher.cancelled()
        if gone:
            watcher.exception()  # retrieve; any end of the receive channel means nobody is waiting for the answer
        if ticket.done() and not ticket.cancelled() and not gone:
            return loop.time() - started
        self._forget(ticket)
        if gone:
            self.metrics.rejected.labels("client_closed").inc()
            raise APIError(499, "client_closed_request", "the client disconnected while the request waited for a worker")
        self.metrics.rejected.labels("queue_timeout").inc()
        raise APIError(
            503, "queue_timeout",
            f"the request waited {s.queue_timeout_s:g}s for a worker without starting; retry after {s.retry_after_s}s",
            retry_headers(s.retry_after_s),
        )

    def _finished(self, future: asyncio.Future) -> None:
        if not future.cancelled():
            future.exception()  # retrieved here so an abandoned failure is not reported as never retrieved
        self.metrics.busy.dec()
        self._release()

    async def run(self, fn: Callable, arg: Any, receive=None) -> Any:
        """fn(arg) on a worker, under a Deadline of --request-timeout-s that the engine checks between
        forward passes. Past it the client gets its 503 at once, and a client that disconnects cancels the
        request; either way the worker stops at its next check, and its slot is freed when it has."""
        waited = await self._acquire(receive)
        self.metrics.queue_wait.observe(waited)
        self.metrics.busy.inc()
        s = self.settings
        deadline = Deadline(s.request_timeout_s, retry_after_s=s.retry_after_s)
        try:
            future = asyncio.get_running_loop().run_in_executor(self.executor, _under, deadline, fn, arg)
        except BaseException:
            self.metrics.busy.dec()
            self._release()
            raise
        future.add_done_callback(self._finished)
        # One watcher per running request: bounded by workers, like the running itself.
        watcher = asyncio.ensure_future(_until_disconnect(receive)) if receive is not None else None
        try:
            await asyncio.wait([x for x in (future, watcher) if x is not None], timeout=deadline.remaining(),
                               return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # cancelled (shutdown past its timeout): the worker stops at its next check
            deadline.cancel("shutdown")
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        if future.done():
            try:
                return future.result()
            except DeadlineExceeded:
                self.metrics.rejected.labels("deadline_exceeded").inc()
                raise
        if watcher is not None and watcher.done() and not watcher.cancelled():
            watcher.exception()  # retrieve; any end of the receive channel means nobody waits for the answer
            deadline.cancel("client_closed")
            self.metrics.rejected.labels("client_closed").inc()
            raise APIError(499, "client_closed_request", "the client disconnected while the request ran; it was stopped")
        deadline.cancel("deadline")
        self.metrics.rejected.labels("deadline_exceeded").inc()
        raise deadline.timeout_error()


def _under(deadline: Deadline, fn: Callable, arg: Any) -> Any:
    """Runs on a worker thread: the engine and its backend see the request's deadline from here on."""
    with deadline.active():
        return fn(arg)


class Envelope:
    """Pure ASGI middleware: request id on every response, metrics, one structured access-log line.

    The log line carries the request id, route, status, timing and outcome codes. It never carries the
    body, headers (so never a key), query strings or error messages (which can quote the body).
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
            }
            log.info(json.dumps(entry, ensure_ascii=True))


def _is_engine(obj: Any) -> bool:
    return all(hasattr(obj, name) for name in ("validate", "run", "model_list", "info"))


def create_app(engine_factory: Callable[[], Any] | Any, settings: Settings | None = None) -> FastAPI:
    """The app around an engine (or a factory that loads one in a background thread, so health checks
    answer while it does). Anything with the Engine surface (validate, run, model_list, info) works."""
    settings = settings or Settings()
    metrics = Metrics(settings)
    keys = Keys(settings.api_keys)
    preloaded = engine_factory if _is_engine(engine_factory) else None
    state: dict = {"engine": preloaded, "error": None}
    metrics.ready.set(1 if preloaded is not None else 0)
    admission = Admission(settings, metrics)

    def load():
        try:
            state["engine"] = engine_factory()
            timing.instrument(state["engine"])
            metrics.ready.set(1)
        except Exception as error:  # reported by /readyz and 503s; the process stays up to say why
            logging.getLogger("onepass").exception("model failed to load")
            state["error"] = f"{type(error).__name__}: {error}"

    @asynccontextmanager
    async def lifespan(_app):
        if state["engine"] is None:
            threading.Thread(target=load, name="onepass-load", daemon=True).start()
        yield
        # Shutdown: uvicorn has stopped accepting and waited for in-flight requests; finish the pool
        # (off the event loop, so answers to requests cancelled past the shutdown timeout still flush).
        await asyncio.get_running_loop().run_in_executor(None, functools.partial(admission.executor.shutdown, wait=True))

    # Exact paths: a trailing slash is a JSON 404, not a redirect without the contract's shape.
    app = FastAPI(title="onepass", version="0.1.0", docs_url=None, redoc_url=None, lifespan=lifespan, redirect_slashes=False)
    app.add_middleware(Envelope, metrics=metrics)
    if preloaded is not None:
        timing.instrument(preloaded)
    metrics.registry.register(timing.StatsCollector(lambda: state["engine"]))

    def ready_engine(count: bool = True):
        engine = state["engine"]
        if engine is None:
            why = f"the model failed to load ({state['error']})" if state["error"] else "the model is still loading"
            if count:
                metrics.rejected.labels("model_not_ready").inc()
            raise APIError(503, "model_not_ready", f"{why}; retry later", retry_headers(settings.loading_retry_after_s))
        return engine

    def notes(request: Request) -> dict:
        return request.scope.setdefault("onepass.log", {})

    @app.exception_handler(APIError)
    async def api_error(request: Request, error: APIError):
        notes(request)["error_type"] = error.error_type
        return json_response(error.status, error.body(), error.headers)

    @app.exception_handler(RequestInvalid)
    async def invalid(request: Request, error: RequestInvalid):
        notes(request)["error_type"] = "invalid_request"
        notes(request)["invalid"] = str(error.detail[0].get("type", ""))[:40] if error.detail else ""
        return json_response(422, {"detail": error.detail})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException):
        kind = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        notes(request)["error_type"] = kind
        return json_response(error.status_code, {"detail": {"error_type": kind, "message": str(error.detail)}})

    @app.post("/v1/systemone")
    async def systemone(request: Request):
        try:
            return await decision(request)
        except (APIError, RequestInvalid):
            await bodies.drain_if_unread(request, settings, BODY_STATE)
            raise

    async def decision(request: Request):
        log_notes = notes(request)
        log_notes["key"] = keys.check(request.headers.get("authorization"))
        # Cheap refusals first: nothing is read or queued for a request that cannot succeed.
        kind = bodies.refuse_early(request.headers, settings)
        admission.enter()
        try:
            payload = await read_payload(request, settings, kind)
            check_limits(payload, settings)
            engine = state["engine"]
            if engine is None:
                parse_request(payload)  # a bad request is a 4xx even while the model loads
                engine = ready_engine()
            parsed = engine.validate(payload)
            log_notes["questions"] = len(parsed.questions)
            try:
                result = await admission.run(timing.timed(engine.run, request.scope), parsed, request.receive)
            except APIError:
                raise
            except Exception as error:
                if not is_out_of_memory(error):
                    raise
                logging.getLogger("onepass").warning("out of memory request_id=%s: %s", request.scope.get("onepass.request_id"), error)
                raise overloaded(f"this request ({len(parsed.questions)} questions)", settings.retry_after_s) from None
        finally:
            admission.leave()
        for answer in result["answers"].values():
            metrics.questions.labels(str(answer.get("type", "other"))).inc()
        usage = result.get("usage", {})
        metrics.input_tokens.inc(usage.get("input_tokens", 0))
        metrics.output_tokens.inc(usage.get("output_tokens", 0))
        log_notes["input_tokens"] = usage.get("input_tokens", 0)
        return json_response(200, result)

    @app.get("/v1/models")
    async def list_models(request: Request):
        notes(request)["key"] = keys.check(request.headers.get("authorization"))
        return json_response(200, {"models": ready_engine().model_list()})

    @app.get("/healthz")
    async def healthz():
        return json_response(200, {"status": "ok"})

    @app.get("/readyz")
    async def readyz():
        engine = ready_engine(count=False)
        return json_response(200, {"status": "ready", "model": engine.info.id})

    @app.get("/metrics")
    async def prometheus(request: Request):
        # Behind the keys when keys are on (Prometheus sends them with `authorization: credentials`).
        notes(request)["key"] = keys.check(request.headers.get("authorization"))
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    app.state.settings = settings
    app.state.metrics = metrics
    app.state.admission = admission
    batch_route.register(app, settings=settings, keys=keys, admission=admission, metrics=metrics, engine_state=state,
                         ready_engine=ready_engine, read_payload=read_payload, json_response=json_response, body_state=BODY_STATE)
    playground.register(app, keys=keys, ready_engine=ready_engine, json_response=json_response)
    app.state.engine_state = state
    return app


BODY_STATE = "onepass.body"  # in the scope once reading the body began: a later refusal drains nothing


async def read_payload(request: Request, settings: Settings, kind: str = "json") -> object:
    """The request's JSON: body read under a size cap and a time limit, decompressed under a cap, parsed."""
    raw = bytearray()
    more = True
    request.scope[BODY_STATE] = "reading"
    try:
        async with asyncio.timeout(settings.body_timeout_s):
            while more:
                message = await request.receive()
                if message["type"] == "http.disconnect":
                    raise ClientDisconnect()
                raw += message.get("body", b"")
                more = bool(message.get("more_body", False))
                if len(raw) > settings.max_body_bytes:
                    break
    except TimeoutError:
        raise APIError(408, "request_timeout", f"the body did not arrive within {settings.body_timeout_s:g}s; send it faster") from None
    except ClientDisconnect:
        raise APIError(499, "client_closed_request", "the client disconnected while sending the body") from None
    if len(raw) > settings.max_body_bytes:
        # Read the rest (bounded) before answering: closing on a client still sending resets the
        # connection, and it would see a broken pipe instead of the 413 it can act on.
        if more:
            await bodies.drain(request.receive, settings.max_drain_bytes - len(raw), settings.drain_timeout_s)
        raise bodies.too_large(settings.max_body_bytes, "the body", "--max-body-bytes")
    body = bodies.decode(bytes(raw), request.headers.get("content-encoding"), settings.max_decompressed_bytes)
    if kind == "multipart":
        body, parts = bodies.json_part(body, request.headers.get("content-type", ""))
        payload = parse_json(body)
        _check_parts(payload, parts)
        return payload
    return parse_json(body)


def _check_parts(payload: Any, parts: dict[str, bytes]) -> None:
    """Every multipart asset part must be named by an asset, and every named part must be there."""
    assets = payload.get("assets") if isinstance(payload, dict) else None
    named = {}
    if isinstance(assets, dict):
        named = {a["part"]: k for k, a in assets.items() if isinstance(a, dict) and isinstance(a.get("part"), str)}
    for part in parts:
        if part not in named:
            raise RequestInvalid.single(["body"], f"the multipart part {part[:60]!r} is not used by any asset's 'part'; "
                                        "remove it or reference it from assets", "unused_part")
    for part, asset in named.items():
        if part not in parts:
            raise RequestInvalid.single(["body", "assets", asset, "part"], f"there is no multipart part named {part[:60]!r}",
                                        "missing_part")


# -- uvicorn -----------------------------------------------------------------------------------------------


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


def uvicorn_config(app, settings: Settings, host: str, port: int, **kwargs):
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
