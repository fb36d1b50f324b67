"""The HTTP app: routes over an engine, each error answered in the contract's shape in one place.

The pieces it wires together each own one job: auth.py (keys), admission.py (workers and queue),
request_body.py (reading bodies), access_log.py (request ids, metrics, logs), metrics.py, listener.py
(uvicorn). Every limit is a ServerConfig field and a `onepass serve` flag; docs/operations.md.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from contextlib import asynccontextmanager
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException as StarletteHTTPException

from onepass import batch_route, ignored, playground, request_body, timing
from onepass.access_log import AccessLog
from onepass.admission import Admission
from onepass.auth import Keys
from onepass.config import ServerConfig
from onepass.deadline import is_out_of_memory, overloaded
from onepass.errors import APIError, OnepassError, RequestInvalid, retry_headers
from onepass.limits import check_limits
from onepass.metrics import Metrics
from onepass.responses import json_response
from onepass.wire import parse_request

__all__ = ["create_app"]


def _is_engine(obj: Any) -> bool:
    return all(hasattr(obj, name) for name in ("validate", "run", "model_list", "info"))


def create_app(engine_factory: Callable[[], Any] | Any, settings: ServerConfig | None = None) -> FastAPI:
    """The app around an engine (or a factory that loads one in a background thread, so health checks
    answer while it does). Anything with the Engine surface (validate, run, model_list, info) works."""
    settings = settings or ServerConfig()
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
    app.add_middleware(AccessLog, metrics=metrics)
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

    @app.exception_handler(OnepassError)
    async def onepass_error(request: Request, error: OnepassError):
        # Every deliberate error, one mapping: its status, its body in the contract's shape, its headers.
        if isinstance(error, RequestInvalid):
            notes(request)["error_type"] = "invalid_request"
            notes(request)["invalid"] = str(error.detail[0].get("type", ""))[:40] if error.detail else ""
        else:
            notes(request)["error_type"] = error.error_type
        return json_response(error.status, error.body(), error.headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException):
        kind = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        notes(request)["error_type"] = kind
        return json_response(error.status_code, {"detail": {"error_type": kind, "message": str(error.detail)}})

    @app.post("/v1/systemone")
    async def systemone(request: Request):
        try:
            return await decision(request)
        except OnepassError:
            await request_body.drain_if_unread(request, settings)
            raise

    async def decision(request: Request):
        log_notes = notes(request)
        log_notes["key"] = keys.check(request.headers.get("authorization"))
        # Cheap refusals first: nothing is read or queued for a request that cannot succeed.
        kind = request_body.refuse_early(request.headers, settings)
        admission.enter()
        try:
            payload = await request_body.read_payload(request, settings, kind)
            check_limits(payload, settings)
            engine = state["engine"]
            if engine is None:
                parse_request(payload)  # a bad request is a 4xx even while the model loads
                engine = ready_engine()
            parsed = engine.validate(payload)
            # Top-level fields the engine ignored: named in response headers and the log (access_log.py).
            request.scope[ignored.SCOPE_KEY] = getattr(parsed, "ignored", ())
            log_notes["questions"] = len(parsed.questions)
            try:
                result = await admission.run(timing.timed(engine.run, request.scope), parsed, request.receive,
                                             engine.config.request_timeout_s)
            except OnepassError:
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
                         ready_engine=ready_engine)
    playground.register(app, keys=keys, ready_engine=ready_engine, json_response=json_response)
    app.state.engine_state = state
    return app
