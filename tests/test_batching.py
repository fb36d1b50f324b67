"""The shared path's throughput layouts (`--batching shared`) give the numbers of a read done alone, up to
float rounding: packed reads (one sequence, block mask), batched reads (left-padded rows) and cross-request
rows (concurrent requests in one forward pass), on a real Llama-architecture checkpoint (SmolLM2) and a
tiny Qwen3. The default invariant path is bit-identical by construction (tests/test_invariance.py)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from onepass import Engine
from onepass.backends.batcher import Job, ReadBatcher
from onepass.wire import parse_request

sys.path.insert(0, str(Path(__file__).parent))
import tinymodel  # noqa: E402

STATES = ["The VPN drops every hour for all staff in the Leeds office since the router swap.",
          "Invoice 4471 was charged twice on the corporate card; finance wants one charge refunded today.",
          "ok"]


def questions(n: int, options: int | None = None) -> dict:
    """n choice questions; by default with 2 to 6 options (uneven lengths), or all with `options`."""
    return {f"q{i}": {"type": "choice", "instructions": f"Which team should handle this (view {i})?",
                      "criteria": {f"team {k}": f"handles area {k}" for k in range(options or 2 + i % 5)}}
            for i in range(n)}


@pytest.fixture(scope="module", params=["smollm2", "tiny-qwen3"])
def engine(request, smol, tmp_path_factory):
    if request.param == "smollm2":
        saved = smol.backend.invariant
        smol.backend.invariant = False  # the shared path, whose layouts these tests are about
        yield smol
        smol.backend.invariant = saved
        return
    yield Engine(str(tinymodel.build(tmp_path_factory.mktemp("tiny-qwen3"))), dtype="float32", calibration=None,
                 batching="shared", log=lambda _m: None)


def reads_for(engine, state: str, n: int, options: int | None = None):
    req = parse_request({"model": "jev-latest", "state": state, "questions": questions(n, options)})
    prefix = engine.renderer.prefix(req.state)
    return prefix, [engine.readouts["slot"].plan(engine.renderer, q).reads[0] for q in req.questions.values()]


def full_forward(engine, prefix, read) -> np.ndarray:
    import torch

    with torch.inference_mode():
        logits = engine.backend.model(input_ids=torch.tensor([prefix + read.suffix])).logits[0, -1]
    return torch.log_softmax(logits.float(), -1)[read.token_ids].double().numpy()


def max_diff(a, b) -> float:
    return max(float(np.abs(x - y).max()) for x, y in zip(a, b))


def test_packed_reads_match_batched_reads_and_a_full_forward(engine):
    backend = engine.backend
    prefix, reads = reads_for(engine, STATES[0], 7)
    saved = backend.read_mode, backend.packed_max_tokens
    try:
        backend.packed_max_tokens = sum(len(r.suffix) for r in reads)
        packs = list(backend.read_batches(reads, len(prefix), "packed"))
        assert packs == [(list(range(7)), True)]  # one forward pass answers all seven
        assert not any(packed for _, packed in backend.read_batches(reads, len(prefix), "batched"))
        backend.read_mode = "packed"
        packed = backend.read_request(prefix, reads)
        backend.read_mode = "batched"
        batched = backend.read_request(prefix, reads)
    finally:
        backend.read_mode, backend.packed_max_tokens = saved
    alone = [full_forward(engine, prefix, r) for r in reads]
    assert max_diff(packed, batched) <= 1e-4
    assert max_diff(packed, alone) <= 1e-4
    # Packing is no invariance trick: different suffixes (both two options) still get different numbers.
    assert float(np.abs(packed[0] - packed[5]).max()) > 1e-3


def test_packing_is_split_at_the_token_bound_and_auto_packs_only_uneven_reads(engine):
    backend = engine.backend
    prefix, even = reads_for(engine, STATES[1], 6, options=4)
    longest = max(len(r.suffix) for r in even)
    saved = backend.packed_max_tokens
    try:
        backend.packed_max_tokens = 2 * longest
        packs = list(backend.read_batches(even, len(prefix), "packed"))
        assert len(packs) > 1 and all(packed for _, packed in packs)
        assert all(sum(len(even[i].suffix) for i in batch) <= 2 * longest for batch, _ in packs)
        assert sorted(i for batch, _ in packs for i in batch) == list(range(len(even)))
    finally:
        backend.packed_max_tokens = saved
    # Suffixes of about the same length: padded rows (no waste, no quadratic attention).
    assert not any(packed for _, packed in backend.read_batches(even, len(prefix), "auto"))
    # One long suffix among short ones: padding would waste most tokens, so auto packs.
    long_question = questions(1)["q0"] | {"instructions": "Which team should handle this? " + "Read every line. " * 40}
    req = parse_request({"model": "jev-latest", "state": STATES[1], "questions": {"long": long_question, **questions(6)}})
    uneven = [engine.readouts["slot"].plan(engine.renderer, q).reads[0] for q in req.questions.values()]
    assert all(packed for _, packed in backend.read_batches(uneven, len(prefix), "auto"))


def test_cross_request_rows_match_each_request_alone(engine):
    backend = engine.backend
    jobs = [Job(*reads_for(engine, state, n), tokens=0) for state, n in zip(STATES, (5, 2, 3))]
    together = backend.read_rows(jobs)
    for job, rows in zip(jobs, together):
        alone = [full_forward(engine, job.prefix, r) for r in job.reads]
        assert max_diff(rows, alone) <= 1e-4


@pytest.mark.parametrize("mode", ["invariant", "batched", "packed"])
def test_raw_passes_are_the_passes_a_request_runs_alone(smol, monkeypatch, mode):
    """onepass bench times `raw_passes` as the model's own share of a request: the same forward passes, on
    the same input shapes, as the request run alone with its state not cached."""
    backend, model = smol.backend, smol.backend.model
    prefix, reads = reads_for(smol, STATES[0], 5)
    monkeypatch.setattr(backend, "invariant", mode == "invariant")
    if mode != "invariant":
        monkeypatch.setattr(backend, "read_mode", mode)
    shapes = []
    real = model.forward
    monkeypatch.setattr(model, "forward", lambda *a, **k: shapes.append(tuple(k["input_ids"].shape)) or real(*a, **k))
    backend.clear_prefix_cache()
    backend.read_request(prefix, reads)
    ran, shapes[:] = list(shapes), []
    run = backend.raw_passes(prefix, reads)
    assert shapes == []  # built, not run
    run()
    assert shapes == ran and len(ran) >= 2  # the prefill, then the read passes
    if mode == "invariant":
        assert ran[1:] == [(1, len(r.suffix)) for r in reads]  # one pass per read, no padding


def test_concurrent_requests_share_forward_passes_and_keep_their_answers(smol, monkeypatch):
    """On the shared path, requests sent at once through the engine are batched together (fewer model
    batches than requests) and each gets the answer it gets alone, up to float rounding."""
    requests = [{"model": "jev-latest", "state": f"{STATES[i % 3]} (ticket {i})", "questions": questions(1 + i % 4)}
                for i in range(8)]
    alone = [smol.decide(r)["answers"] for r in requests]
    backend = smol.backend
    monkeypatch.setattr(backend, "invariant", False)
    saved = backend.batcher.max_wait_s
    backend.batcher.max_wait_s = 0.5  # let the eight threads meet
    backend.clear_prefix_cache()
    batches_before, jobs_before = backend.batcher.batches, backend.batcher.batched_jobs
    results: list = [None] * len(requests)
    barrier = threading.Barrier(len(requests))

    def send(i):
        barrier.wait()
        results[i] = smol.decide(requests[i])["answers"]

    try:
        threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        backend.batcher.max_wait_s = saved
    batches = backend.batcher.batches - batches_before
    assert backend.batcher.batched_jobs - jobs_before == len(requests)
    assert batches < len(requests)
    for mine, solo in zip(results, alone):
        assert mine.keys() == solo.keys()
        for qid in solo:
            assert mine[qid]["choice"] == solo[qid]["choice"]
            for name, p in solo[qid]["probabilities"].items():
                assert abs(mine[qid]["probabilities"][name] - p) <= 1e-4  # float32 rounding of another layout


def test_a_lone_request_does_not_wait_for_companions():
    ran = []
    batcher = ReadBatcher(lambda jobs: ran.append(len(jobs)) or [setattr(j, "result", j.prefix) for j in jobs],
                          max_wait_s=30.0)
    with batcher.expecting():
        assert batcher.submit([1, 2], [], tokens=2) == [1, 2]  # would take 30 s if it waited
    assert ran == [1]


def test_a_failing_batch_reaches_every_caller_and_the_batcher_recovers():
    calls = []

    def run(jobs):
        calls.append(len(jobs))
        if len(calls) == 1:
            raise RuntimeError("model failed")
        for job in jobs:
            job.result = "ok"

    batcher = ReadBatcher(run, max_wait_s=0.0)
    with pytest.raises(RuntimeError, match="model failed"):
        batcher.submit([1], [], tokens=1)
    assert batcher.submit([1], [], tokens=1) == "ok"


def test_jobs_that_fail_together_are_answered_one_by_one(smol, monkeypatch):
    backend = smol.backend
    monkeypatch.setattr(backend, "invariant", False)  # the shared path's fallback
    jobs = [Job(*reads_for(smol, state, 2), tokens=0) for state in STATES[:2]]

    def too_big(_jobs):
        raise RuntimeError("DefaultCPUAllocator: can't allocate memory")

    monkeypatch.setattr(backend, "read_rows", too_big)
    backend.run_jobs(jobs)
    for job in jobs:
        assert job.done and job.error is None
        assert max_diff(job.result, [full_forward(smol, job.prefix, r) for r in job.reads]) <= 1e-4
