"""Helpers for the hardening tests (no tests here): a fake engine with the Engine surface, a loopback
server around any app built with onepass's own uvicorn settings, and the contract's error-shape checks."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from types import SimpleNamespace

from onepass.config import EngineConfig, ServerConfig
from onepass.errors import APIError, RequestInvalid
from onepass.listener import uvicorn_config
from onepass.wire import parse_request
from tests.conftest import ServerThread, free_port

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


class FakeEngine:
    """The Engine surface the server relies on, answering noul questions from a hash of the state.

    `gate`: when given, run() blocks until it is set (so tests hold workers busy deterministically).
    `delay`: seconds each run() sleeps. Counts runs, concurrent runs, and the states it answered.
    """

    def __init__(self, gate: threading.Event | None = None, delay: float = 0.0, request_timeout_s: float | None = 60.0):
        self.config = EngineConfig(request_timeout_s=request_timeout_s)
        self.info = SimpleNamespace(id="fake-1", description="fake engine for tests", release_date="2026-01-01")
        self.backend = SimpleNamespace(max_context=4096)
        self.names = {"fake-1", "jev-latest"}
        self.gate = gate
        self.delay = delay
        self.lock = threading.Lock()
        self.runs = 0
        self.running = 0
        self.max_running = 0
        self.states: list = []
        self.entered = threading.Semaphore(0)  # released once per run() that has started

    def model_list(self):
        return [{"name": n, "description": "fake", "release_date": "2026-01-01"} for n in sorted(self.names)]

    def validate(self, payload):
        if not isinstance(payload, dict):
            raise RequestInvalid.single(["body"], "the request body must be a JSON object", "model_attributes_type")
        request = parse_request(payload)
        if request.model not in self.names:
            raise APIError(404, "model_not_found", f"model {request.model!r} is not served here")
        return request

    @staticmethod
    def answer_for(state, qid: str) -> float:
        digest = hashlib.sha256(f"{state!r}|{qid}".encode()).digest()
        return (int.from_bytes(digest[:4], "big") % 9998 + 1) / 10000  # in (0, 1), distinct per request

    def run(self, request):
        with self.lock:
            self.runs += 1
            self.running += 1
            self.max_running = max(self.max_running, self.running)
            self.states.append(request.state)
        self.entered.release()
        try:
            if self.gate is not None:
                assert self.gate.wait(timeout=60), "test gate never opened"
            if self.delay:
                time.sleep(self.delay)
            answers = {qid: {"type": "noul", "noul": self.answer_for(request.state, qid)} for qid in request.questions}
            return {"model": self.info.id, "answers": answers, "usage": {"input_tokens": 10 * len(answers), "output_tokens": len(answers)}}
        finally:
            with self.lock:
                self.running -= 1


class LoopbackServer(ServerThread):
    """uvicorn on 127.0.0.1 in a thread, configured exactly as `onepass serve` configures it."""

    def __init__(self, app, settings: ServerConfig | None = None, log_level: str = "warning"):
        self.app = app
        self.settings = settings or app.state.settings
        super().__init__(app, config=uvicorn_config(app, self.settings, "127.0.0.1", free_port(), log_level=log_level))


def noul_request(state, qid: str = "q", model: str = "jev-latest") -> dict:
    return {"model": model, "state": state, "questions": {qid: {"type": "noul", "instructions": "Is this about billing?"}}}


def assert_error_shape(response, statuses=None) -> dict:
    """A contract-shaped error (a 4xx unless `statuses` says otherwise): JSON content type, request id, and
    one of the two documented bodies; 429 and 503 carry retry-after and retry-after-ms."""
    if statuses is None:
        assert 400 <= response.status_code < 500, (response.status_code, response.text[:500])
    else:
        assert response.status_code in statuses, (response.status_code, response.text[:500])
    assert response.headers["content-type"] == "application/json", response.headers.get("content-type")
    assert len(response.headers.get("x-typesafe-request-id", "")) >= 16
    body = response.json()
    assert set(body) == {"detail"}, body
    detail = body["detail"]
    if response.status_code == 422:
        assert isinstance(detail, list) and detail, body
        for entry in detail:
            assert {"loc", "msg", "type"} <= set(entry) <= {"loc", "msg", "type", "input", "ctx"}, entry
            assert isinstance(entry["loc"], list) and entry["loc"] and entry["loc"][0] == "body", entry
            assert all(isinstance(x, (str, int)) for x in entry["loc"]), entry
            assert isinstance(entry["msg"], str) and entry["msg"], entry
            assert isinstance(entry["type"], str) and entry["type"], entry
    else:
        assert isinstance(detail, dict) and set(detail) == {"error_type", "message"}, body
        assert SNAKE.match(detail["error_type"]), detail
        assert isinstance(detail["message"], str) and detail["message"], detail
    if response.status_code in (429, 503):
        assert int(response.headers["retry-after"]) >= 1
        assert int(response.headers["retry-after-ms"]) >= 1000
    return body


def wait_until(condition, timeout: float = 20.0, what: str = "condition"):
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def metric_values(text: str) -> dict[tuple, float]:
    """Prometheus text -> {(sample name, sorted label items): value}."""
    from prometheus_client.parser import text_string_to_metric_families

    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out
