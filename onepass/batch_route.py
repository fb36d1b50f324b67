"""`POST /v1/systemone/batch`: one question set over several states in one call.

    {"model": "...", "states": [<state>, ...], "questions": {...}, "x_...": ...}
    -> {"model": "<real model id>", "results": [<the /v1/systemone response body for states[i]>, ...]}

Each state is answered exactly as `POST /v1/systemone` with the same model, questions and options would
answer it (same validation, same limits, same numbers), and counts against the server's limits as one
request would: every state is checked against the request-shape limits (`--max-state-chars`, ...), takes
one admission slot (429 when the server has no room for all of them), waits for a worker under
`--queue-timeout` and runs under its own `--request-timeout-s`. The states run concurrently on the worker
pool, so the embedded engine shares forward passes between them (cross-request batching). At most
`--max-batch-states` states per call (and never more than the server admits at once). Top-level fields
onepass does not read are ignored and named in `x-onepass-ignored-fields` as for a single request
(onepass/ignored.py); with `--strict-options` an unknown `x_` field is the same 422 as there.

Errors: anything wrong with states[i] fails the whole call, naming the index: a 422 whose `loc` is
`["body", "states", i, ...]`, or an error whose message starts with `states[i]: `. When one state fails
while others run, the others are stopped at their next forward-pass boundary.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from fastapi import FastAPI, Request
from prometheus_client import Histogram

from onepass import ignored, request_body, timing
from onepass.deadline import is_out_of_memory, overloaded
from onepass.errors import APIError, OnepassError, RequestInvalid
from onepass.limits import check_limits
from onepass.responses import json_response
from onepass.wire import parse_request

ROUTE = "/v1/systemone/batch"


def _relocate(detail: list[dict], index: int, shared_too: bool) -> list[dict]:
    """A single request's 422 detail as the batch's: body.state... becomes body.states.<index>...; errors in
    the parts every state shares (questions, model, options) keep their place, and with `shared_too` (an
    error found while running states[index]) say the index in their message."""
    out = []
    for entry in detail:
        entry = dict(entry)
        loc = list(entry.get("loc", []))
        if loc[:2] == ["body", "state"]:
            entry["loc"] = ["body", "states", index, *loc[2:]]
        elif shared_too:
            entry["msg"] = f"states[{index}]: {entry.get('msg', '')}"
        out.append(entry)
    return out


def _about_state(error: Exception, index: int, running: bool) -> Exception:
    """The error of states[index], saying which state it was. Validation errors of the shared parts are the
    same for every state and stay as they are; anything found while running a state names it."""
    if isinstance(error, RequestInvalid):
        return RequestInvalid(_relocate(error.detail, index, running))
    if isinstance(error, APIError) and running:
        return APIError(error.status, error.error_type, f"states[{index}]: {error.message}", error.headers)
    return error


def register(app: FastAPI, *, settings, keys, admission, metrics, engine_state: dict,
             ready_engine: Callable[..., Any]) -> None:
    """Adds the batch route to `app` (called by server.create_app with its own pieces)."""
    states_seen = Histogram("onepass_batch_states", "states per POST /v1/systemone/batch call", registry=metrics.registry,
                            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256))

    def limit() -> int:
        return min(settings.max_batch_states, admission.capacity)

    @app.post(ROUTE)
    async def batch(request: Request):
        try:
            return await answer(request)
        except OnepassError:
            await request_body.drain_if_unread(request, settings)
            raise

    async def answer(request: Request):
        notes = request.scope.setdefault("onepass.log", {})
        notes["key"] = keys.check(request.headers.get("authorization"))
        kind = request_body.refuse_early(request.headers, settings)
        admission.enter()  # the call holds one slot while its body is read, like any request
        entered = 1
        try:
            payload = await request_body.read_payload(request, settings, kind)
            states, singles = split(payload)
            engine = engine_state["engine"]
            for i, single in enumerate(singles):
                try:
                    check_limits(single, settings)
                    if engine is None:
                        parse_request(single)  # a bad request is a 4xx even while the model loads
                except (RequestInvalid, APIError) as error:
                    raise _about_state(error, i, running=False) from None
            if engine is None:
                engine = ready_engine()
            parsed = []
            for i, single in enumerate(singles):
                try:
                    parsed.append(engine.validate(single))
                except (RequestInvalid, APIError) as error:
                    raise _about_state(error, i, running=False) from None
            # The shared top-level fields are the same for every state: so are the names they ignore.
            request.scope[ignored.SCOPE_KEY] = getattr(parsed[0], "ignored", ())
            notes["states"] = len(states)
            notes["questions"] = sum(len(p.questions) for p in parsed)
            states_seen.observe(len(states))
            # Every further state is one more request inside the server: room for all of them, or a 429.
            while entered < len(parsed):
                admission.enter()
                entered += 1
            results = await run_all(engine, parsed, request)
        finally:
            for _ in range(entered):
                admission.leave()
        input_tokens = 0
        for result in results:
            for one in result["answers"].values():
                metrics.questions.labels(str(one.get("type", "other"))).inc()
            usage = result.get("usage", {})
            metrics.input_tokens.inc(usage.get("input_tokens", 0))
            metrics.output_tokens.inc(usage.get("output_tokens", 0))
            input_tokens += usage.get("input_tokens", 0)
        notes["input_tokens"] = input_tokens
        return json_response(200, {"model": engine.info.id, "results": results})

    def split(payload: Any) -> tuple[list, list[dict]]:
        """(states, one /v1/systemone payload per state); 422 for a body that is not a batch."""
        if not isinstance(payload, dict):
            raise RequestInvalid.single(["body"], "the request body must be a JSON object", "model_attributes_type")
        if "state" in payload:
            raise RequestInvalid.single(["body", "state"], "a batch takes 'states' (a list of states); a single 'state' "
                                        "belongs to POST /v1/systemone", "extra_forbidden")
        if "states" not in payload:
            raise RequestInvalid.single(["body", "states"], "Field required: a batch needs 'states', a list of states", "missing")
        states = payload["states"]
        if not isinstance(states, list):
            raise RequestInvalid.single(["body", "states"], "'states' must be a list of states", "list_type")
        if not states:
            raise RequestInvalid.single(["body", "states"], "'states' must hold at least one state", "too_short")
        most = limit()
        if len(states) > most:
            why = (f"(server limit --max-batch-states {settings.max_batch_states})" if most == settings.max_batch_states else
                   f"(the server admits at most {admission.capacity} requests at once: --workers + --max-queue)")
            raise RequestInvalid([{"loc": ["body", "states"], "type": "too_long", "ctx": {"max_length": most},
                                   "msg": f"at most {most} states per batch, got {len(states)}; split the call {why}"}])
        shared = {k: v for k, v in payload.items() if k != "states"}
        return states, [{**shared, "state": state} for state in states]

    async def run_all(engine, parsed: list, request: Request) -> list[dict]:
        """Every state on the worker pool at once; the first failure (lowest index among those done) stops
        the rest and fails the call."""
        tasks = [asyncio.ensure_future(admission.run(timing.timed(engine.run, request.scope), p, request.receive,
                                                             engine.config.request_timeout_s))
                 for p in parsed]
        try:
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        except BaseException:  # cancelled (shutdown): stop every state
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        failed = [(i, t) for i, t in enumerate(tasks) if t in done and not t.cancelled() and t.exception() is not None]
        if not failed:
            return [t.result() for t in tasks]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for _, task in failed:
            task.exception()  # retrieved: only the first is reported
        index, task = failed[0]
        error = task.exception()
        if not isinstance(error, (APIError, RequestInvalid)) and is_out_of_memory(error):
            logging.getLogger("onepass").warning("out of memory request_id=%s state %d: %s",
                                                 request.scope.get("onepass.request_id"), index, error)
            error = overloaded(f"states[{index}] ({len(parsed[index].questions)} questions)", settings.retry_after_s)
        raise _about_state(error, index, running=True) from None
