"""A started request is bounded: a deadline checked between forward passes, cancellation when its client
leaves, out-of-memory as a 503, follow-up reads inside max_input_tokens, and a batcher that answers each
caller as soon as its own result exists and never hides a bug behind a one-by-one retry."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from typesafe_sdk import Noul, RetryPolicy, TypeSafeAPIError, TypeSafeClient

from onepass import Engine
from onepass.backends.batcher import Job, ReadBatcher
from onepass.config import ServerConfig
from onepass.deadline import Deadline, DeadlineExceeded, checkpoint, is_out_of_memory
from onepass.errors import APIError
from onepass.server import create_app
from tests.test_hardening_support import (
    FakeEngine,
    LoopbackServer,
    assert_error_shape,
    metric_values,
    noul_request,
    wait_until,
)
from tests.tiny_random import llama_with_smollm_tokenizer

CLI = [sys.executable, "-m", "onepass.cli"]


class PassesEngine(FakeEngine):
    """A fake engine whose run() is `passes` forward passes of `pass_s` seconds, checking its deadline
    between them as the real backends do. Records how many passes each request ran and how it ended."""

    def __init__(self, passes: int = 100, pass_s: float = 0.05, request_timeout_s: float = 60.0):
        super().__init__(request_timeout_s=request_timeout_s)
        self.passes, self.pass_s = passes, pass_s
        self.ran: dict = {}
        self.ended: dict = {}

    def run(self, request):
        self.ran[request.state] = 0
        try:
            for _ in range(self.passes):
                checkpoint()
                time.sleep(self.pass_s)
                self.ran[request.state] += 1
        except APIError as error:
            self.ended[request.state] = (error.error_type, time.monotonic())
            raise
        self.ended[request.state] = ("ok", time.monotonic())
        return FakeEngine.run(self, request)


def served(engine, settings: ServerConfig):
    app = create_app(engine, settings)
    return LoopbackServer(app, settings)


def sdk(url: str, **kw) -> TypeSafeClient:
    return TypeSafeClient(base_url=url, api_key="k", retry=RetryPolicy(max_retries=0), **kw)


# -- the deadline ------------------------------------------------------------------------------------------


def test_a_request_past_its_deadline_is_503_at_once_and_the_worker_stops_between_passes():
    engine = PassesEngine(passes=200, pass_s=0.05, request_timeout_s=0.5)  # 10 s of work, 0.5 s allowed
    with served(engine, ServerConfig(workers=1, retry_after_s=2)) as s:
        started = time.monotonic()
        with sdk(s.url, timeout=30) as client, pytest.raises(TypeSafeAPIError) as caught:
            client.system_one(state="slow", questions={"q": Noul(instructions="y?")})
        answered = time.monotonic()
        assert caught.value.status == 503 and caught.value.request_id
        assert 0.5 <= answered - started < 2.0
        detail = caught.value.body["detail"]
        assert detail["error_type"] == "deadline_exceeded"
        assert "deadline of 0.5s" in detail["message"] and "--request-timeout-s" in detail["message"]
        assert caught.value.headers["retry-after"] == "2" and caught.value.headers["retry-after-ms"] == "2000"
        assert_error_shape(httpx.post(f"{s.url}/v1/systemone", json=noul_request("raw"), timeout=30), {503})
        # The worker stopped at its next check, not after the 200 passes.
        wait_until(lambda: "slow" in engine.ended, timeout=5, what="the worker to stop")
        assert engine.ended["slow"][0] == "deadline_exceeded"
        assert engine.ended["slow"][1] - started < 1.5 and engine.ran["slow"] < 30
        # ... so the one worker is free: the next request runs at once.
        engine.passes = 1
        with sdk(s.url, timeout=30) as client:
            assert client.system_one(state="next", questions={"q": Noul(instructions="y?")}).nouls["q"].noul > 0
        m = metric_values(httpx.get(f"{s.url}/metrics").text)
        assert m[("onepass_rejected_total", (("reason", "deadline_exceeded"),))] == 2
        assert m[("onepass_workers_busy", ())] == 0


def test_a_client_that_disconnects_while_running_cancels_its_request():
    engine = PassesEngine(passes=200, pass_s=0.05)
    with served(engine, ServerConfig(workers=1)) as s:
        started = time.monotonic()
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{s.url}/v1/systemone", json=noul_request("impatient"), timeout=0.5)
        wait_until(lambda: "impatient" in engine.ended, timeout=5, what="the request to be cancelled")
        assert engine.ended["impatient"][0] == "client_closed_request"
        assert engine.ended["impatient"][1] - started < 2.0 and engine.ran["impatient"] < 40
        m = lambda: metric_values(httpx.get(f"{s.url}/metrics").text)  # noqa: E731
        wait_until(lambda: m()[("onepass_workers_busy", ())] == 0, timeout=5, what="the worker to be released")
        assert m()[("onepass_rejected_total", (("reason", "client_closed"),))] == 1
        engine.passes = 1
        assert httpx.post(f"{s.url}/v1/systemone", json=noul_request("next"), timeout=30).status_code == 200


def test_settings_and_flags_for_the_deadline():
    from onepass import cli
    from onepass.config import EngineConfig
    from onepass.errors import ConfigError

    assert EngineConfig().request_timeout_s == 60
    for bad in (0, -1, float("nan"), "60"):
        with pytest.raises(ConfigError, match="--request-timeout-s"):
            EngineConfig(request_timeout_s=bad)
    for bad in (0, -5, float("inf")):
        with pytest.raises(ValueError, match="request_timeout_s"):
            Engine(None, backend=object(), tokenizer=object(), model_id="x", request_timeout_s=bad)
    parser = cli.argparse.ArgumentParser()
    cli.model_args(parser)
    assert parser.parse_args(["--request-timeout-s", "5"]).request_timeout_s == 5.0


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return Engine(str(llama_with_smollm_tokenizer(tmp_path_factory.mktemp("tiny") / "tiny", seed=4)), dtype="float32",
                  calibration=None, log=lambda _m: None)


def many_nouls(n: int) -> dict:
    return {"model": "jev-latest", "state": "The build failed on main after the dependency bump.",
            "questions": {f"q{i}": {"type": "noul", "instructions": f"Is this about topic number {i}?"} for i in range(n)}}


def test_the_embedded_backend_checks_the_deadline_between_its_passes(tiny, monkeypatch):
    """In-process (`from onepass import Engine`): one slowed pass per question; the budget stops the
    request between passes with the same 503, and the engine then answers the next request normally."""
    backend = tiny.backend
    # The first forward of a fresh model pays lazy initialisation (0.1-0.25 s on a busy CPU): not under test.
    tiny.decide(many_nouls(1))
    passes = []
    real = backend._read

    def slow_read(*args, **kwargs):
        passes.append(time.monotonic())
        time.sleep(0.1)
        return real(*args, **kwargs)

    monkeypatch.setattr(backend, "_read", slow_read)
    monkeypatch.setattr(backend, "read_mode", "batched")
    monkeypatch.setattr(backend, "max_batch", 1)  # one pass per question
    # These questions share most of their text, so they would run as one token trie (a handful of passes,
    # checked the same way): this test is about the plain read passes.
    monkeypatch.setattr("onepass.backends.passes.reads_as_trie", lambda reads: None)
    engine = Engine(None, backend=backend, tokenizer=tiny.tokenizer, model_id="tiny", calibration=None, request_timeout_s=0.35)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded) as caught:
        engine.decide(many_nouls(20))
    assert caught.value.status == 503 and caught.value.error_type == "deadline_exceeded"
    assert "0.35s" in caught.value.message and caught.value.headers["retry-after"] == "1"
    assert 3 <= len(passes) <= 6 and time.monotonic() - started < 1.0  # not the 20 passes
    passes.clear()
    assert len(engine.decide(many_nouls(2))["answers"]) == 2 and len(passes) == 2


def test_an_explicit_deadline_wins_and_none_turns_it_off(tiny):
    engine = Engine(None, backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny", calibration=None, request_timeout_s=None)
    assert engine.decide(many_nouls(1))["answers"]["q0"]["type"] == "noul"
    with Deadline(0.0, setting="--request-timeout-s").active(), pytest.raises(DeadlineExceeded, match="--request-timeout-s"):
        engine.decide(many_nouls(1))
    cancelled = Deadline(30)
    cancelled.cancel("client_closed")
    with cancelled.active(), pytest.raises(APIError) as caught:
        engine.decide(many_nouls(1))
    assert caught.value.status == 499


def test_decide_cli_enforces_the_deadline_and_the_servers_limits(tmp_path):
    request = tmp_path / "req.json"
    request.write_text(json.dumps(many_nouls(2) | {"model": "smollm2-135m"}))
    out = subprocess.run([*CLI, "decide", "--model", "smollm2-135m", "--request", str(request), "--request-timeout-s", "0.001"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and out.stdout == ""
    assert '"error_type": "deadline_exceeded"' in out.stderr and "--request-timeout-s" in out.stderr
    # Strict JSON and the request-shape limits, refused before any model loads.
    request.write_text('{"model": "jev-latest", "state": "a", "state": "b", "questions": {}}')
    out = subprocess.run([*CLI, "decide", "--request", str(request)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "duplicate key" in out.stderr
    request.write_text(json.dumps(many_nouls(3)))
    out = subprocess.run([*CLI, "decide", "--request", str(request), "--max-questions", "2"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "--max-questions" in out.stderr
    out = subprocess.run([*CLI, "decide", "--state", "x", "--question", '{"type": "noul", "instructions": NaN}'],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "NaN" in out.stderr
    out = subprocess.run([*CLI, "decide", "--request", str(request), "--request-timeout-s", "0"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--request-timeout-s" in out.stderr


# -- out of memory -----------------------------------------------------------------------------------------


def test_out_of_memory_is_a_503_overloaded_never_a_500(tiny, monkeypatch):
    class OutOfMemory(FakeEngine):
        def run(self, request):
            raise MemoryError()

    with served(OutOfMemory(), ServerConfig()) as s:
        r = httpx.post(f"{s.url}/v1/systemone", json=noul_request("big"), timeout=30)
        assert_error_shape(r, {503})
        assert r.json()["detail"]["error_type"] == "overloaded" and "memory" in r.json()["detail"]["message"]
    # In process: a CPU allocator failure (a plain RuntimeError) and a CUDA one both become the same 503.
    for error in (RuntimeError("[enforce fail at alloc_cpu.cpp:117] DefaultCPUAllocator: can't allocate memory"),
                  type("OutOfMemoryError", (RuntimeError,), {})("CUDA out of memory. Tried to allocate 2.00 GiB")):
        def boom(*_a, error=error, **_k):
            raise error

        monkeypatch.setattr(tiny.backend, "read_request", boom)
        with pytest.raises(APIError) as caught:
            tiny.decide(many_nouls(1))
        assert caught.value.status == 503 and caught.value.error_type == "overloaded" and "retry-after" in caught.value.headers
    # Anything else stays what it is: a bug.
    def bug(*_a, **_k):
        raise RuntimeError("index out of range")

    monkeypatch.setattr(tiny.backend, "read_request", bug)
    with pytest.raises(RuntimeError, match="index out of range"):
        tiny.decide(many_nouls(1))
    assert is_out_of_memory(MemoryError()) and not is_out_of_memory(ValueError("out of memory"))


# -- max_input_tokens covers follow-up reads --------------------------------------------------------------


def test_debiased_follow_up_reads_count_toward_max_input_tokens(tiny):
    request = {"model": "jev-latest", "state": "Disk /var is 100% full on the build host.", "x_readout": "debiased",
               "questions": {"c": {"type": "choice", "instructions": "Which area?",
                                   "criteria": {"disk": None, "cpu": None, "network": None, "memory": None}}}}

    def engine(limit: int) -> Engine:
        return Engine(None, backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny", calibration=None,
                      max_input_tokens=limit, debias_max_reads=4, debias_entropy=0.0)

    answer = engine(65536).decide(request)
    assert answer["answers"]["c"]["x_reads"] == 4
    total = answer["usage"]["input_tokens"]  # the first read and the three follow-up reads
    assert engine(total).decide(request)["usage"]["input_tokens"] == total
    with pytest.raises(APIError) as caught:
        engine(total - 1).decide(request)
    assert caught.value.status == 400 and caught.value.error_type == "max_tokens_exceeded"
    assert "follow-up" in caught.value.message and str(total) in caught.value.message


# -- the batcher: fairness and honest failure ------------------------------------------------------------------


def fake_runner(log: list, big_s: float = 0.5):
    """Like the embedded runner: small jobs share one pass, big ones (prefix [9]) run one by one."""

    def run(jobs):
        small = [j for j in jobs if j.prefix != [9]]
        if small:
            log.append(("shared", len(small)))
            for job in small:
                job.finish(job.prefix)
        for job in jobs:
            if not job.done:
                log.append(("alone", 1))
                time.sleep(big_s)
                job.finish(job.prefix)

    return run


def test_a_small_job_is_answered_when_its_own_result_exists():
    """A mixed batch (forced: solo_tokens is huge): the small callers return after the shared pass, not after
    the 0.5 s one-by-one jobs that came with them."""
    log: list = []
    batcher = ReadBatcher(fake_runner(log), max_wait_s=2.0, max_jobs=8, max_tokens=10**6, solo_tokens=10**6)
    done: dict = {}
    ready = threading.Barrier(3)

    def send(prefix, tokens, name, delay=0.0):
        with batcher.expecting():
            ready.wait()
            time.sleep(delay)
            started = time.monotonic()
            batcher.submit(prefix, [], tokens)
            done[name] = time.monotonic() - started

    threads = [threading.Thread(target=send, args=([9], 5000, "big")),  # first in: it leads
               threading.Thread(target=send, args=([1], 10, "small-1", 0.05)),
               threading.Thread(target=send, args=([2], 10, "small-2", 0.05))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert log == [("shared", 2), ("alone", 1)]
    assert done["big"] >= 0.5
    assert done["small-1"] < 0.4 and done["small-2"] < 0.4


def test_a_job_too_big_to_share_runs_in_a_batch_of_its_own():
    log: list = []
    batcher = ReadBatcher(fake_runner(log, big_s=0.3), max_wait_s=0.3, max_jobs=4, max_tokens=4000)  # solo above 1000
    results: dict = {}
    ready = threading.Barrier(3)

    def send(prefix, tokens, name):
        with batcher.expecting():
            ready.wait()
            started = time.monotonic()
            results[name] = (batcher.submit(prefix, [], tokens), time.monotonic() - started)

    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = [pool.submit(send, [9], 3000, "big"), pool.submit(send, [1], 10, "a"), pool.submit(send, [2], 10, "b")]
        for f in futures:
            f.result(timeout=10)
    assert sorted(log) == [("alone", 1), ("shared", 2)]
    assert results["a"][0] == [1] and results["b"][0] == [2] and results["big"][0] == [9]
    assert batcher.batches == 2


def test_a_queued_job_past_its_deadline_is_withdrawn_and_never_runs():
    gate = threading.Event()
    seen: list = []

    def run(jobs):
        seen.extend(j.prefix for j in jobs)
        if jobs[0].prefix == [1]:
            assert gate.wait(10)
        for job in jobs:
            job.finish(job.prefix)

    batcher = ReadBatcher(run, max_wait_s=0.0)
    holder = threading.Thread(target=batcher.submit, args=([1], [], 1))
    holder.start()
    wait_until(lambda: seen == [[1]], timeout=5, what="the first batch to start")
    started = time.monotonic()
    with Deadline(0.2).active(), pytest.raises(DeadlineExceeded):
        batcher.submit([2], [], 1)
    assert 0.2 <= time.monotonic() - started < 1.0  # withdrawn while the other batch still runs
    gate.set()
    holder.join(timeout=10)
    assert seen == [[1]] and batcher.submit([3], [], 1) == [3]


def test_only_out_of_memory_falls_back_one_by_one_other_errors_fail_logged(tiny, monkeypatch, caplog):
    from tests.test_batching import reads_for

    backend = tiny.backend
    monkeypatch.setattr(backend, "invariant", False)  # the shared path's pass and its fallback
    jobs = [Job(*reads_for(tiny, state, 2), tokens=0) for state in ("first state", "second state")]
    alone = []
    real = backend.read_request
    monkeypatch.setattr(backend, "read_request", lambda *a: alone.append(1) or real(*a))

    def bug(_jobs):
        raise RuntimeError("shape mismatch in the block mask")

    monkeypatch.setattr(backend, "read_rows", bug)
    with caplog.at_level(logging.ERROR, logger="onepass.backends"):
        backend.run_jobs(jobs)
    assert all(j.done and isinstance(j.error, RuntimeError) and "shape mismatch" in str(j.error) for j in jobs)
    assert alone == []  # not retried one by one: a bug is not a size problem
    assert any("shared by 2 requests failed" in r.getMessage() for r in caplog.records)

    def oom(_jobs):
        raise MemoryError()

    jobs = [Job(*reads_for(tiny, state, 2), tokens=0) for state in ("first state", "second state")]
    monkeypatch.setattr(backend, "read_rows", oom)
    backend.run_jobs(jobs)
    assert all(j.done and j.error is None for j in jobs) and alone == [1, 1]
