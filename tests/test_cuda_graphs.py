"""CUDA-graph read passes, through their eager fallback on the CPU: batches padded to a (rows, width) bucket
give the numbers of the unpadded pass, and a lone small request takes the bucketed path when graphs are on.
Capture and replay themselves need a GPU (bench/gpu.py checks them there)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from onepass import Engine
from onepass.backends.batcher import Job
from onepass.backends.embedded import EmbeddedBackend
from onepass.backends.graphs import MAX_WIDTH, bucket

sys.path.insert(0, str(Path(__file__).parent))
import test_batching as layouts  # noqa: E402


def test_buckets_round_rows_and_width_up_and_refuse_what_does_not_fit():
    assert bucket(1, 260) == (1, 320)
    assert bucket(3, 64) == (4, 64)
    assert bucket(16, 1) == (16, 64)
    assert bucket(17, 10) is None
    assert bucket(1, MAX_WIDTH + 1) is None


@pytest.fixture(scope="module")
def graphed(smol) -> EmbeddedBackend:
    # CUDA graphs replay the shared path's cross-request rows (--batching shared).
    backend = EmbeddedBackend(smol.backend.model, smol.tokenizer, cuda_graphs=True, invariant=False)
    assert backend.graphs and not backend.decoder.use_graphs  # no CUDA here: the eager fallback runs
    return backend


@pytest.mark.parametrize("count", [1, 3])
def test_padded_bucket_pass_equals_the_unpadded_pass(smol, graphed, count):
    jobs = [Job(*layouts.reads_for(smol, state, n), tokens=0) for state, n in zip(layouts.STATES, (4, 2, 3))][:count]
    plain = smol.backend.read_rows(jobs)  # graphs off: exact width, no padding rows
    padded = graphed.read_rows(jobs)
    for a, b in zip(plain, padded):
        assert layouts.max_diff(a, b) <= 1e-4
    for job, rows in zip(jobs, padded):  # and the same as each read alone
        assert layouts.max_diff(rows, [layouts.full_forward(smol, job.prefix, r) for r in job.reads]) <= 1e-4
    assert graphed.decoder.replays == 0


def test_a_lone_small_request_takes_the_bucketed_path(smol, graphed, monkeypatch):
    calls = []
    original = graphed.decoder.logits
    monkeypatch.setattr(graphed.decoder, "logits", lambda *a: calls.append(a[0].shape) or original(*a))
    engine = Engine(backend=graphed, tokenizer=smol.tokenizer, model_id="smollm2-135m", calibration=None)
    request = {"model": "smollm2-135m", "state": layouts.STATES[1], "questions": layouts.questions(2)}
    got = engine.decide(request)["answers"]
    assert calls and calls[0][0] == 1 and calls[0][1] % 64 == 0
    reference = smol.decide(request)["answers"]
    for qid, answer in reference.items():
        assert max(abs(answer["probabilities"][k] - got[qid]["probabilities"][k]) for k in answer["probabilities"]) <= 1e-4
    assert np.isclose(sum(got["q0"]["probabilities"].values()), 1.0)
