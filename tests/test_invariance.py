"""Answers must not depend on question ids, question order, other questions, or batching: bit for bit on
the default invariant path (every read a pass of its own), and a request whatever else is in flight or
cached, on whatever memory budget, in a fresh process (issue 25)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from onepass.backends.base import Read

STATE = {"ticket": "My package arrived broken and the support line hung up on me twice.", "customer_since": 2019}
QUESTIONS = {
    "refund": {"type": "noul", "instructions": "Does the customer want a refund?"},
    "angry": {"type": "noul", "criteria": {"true": "The customer is angry", "false": "The customer is calm"}},
    "team": {"type": "choice", "instructions": "Which team should handle it?",
             "criteria": {"shipping": "Damaged or lost parcels", "support": None, "billing": None, "legal": None, "sales": None}},
    "severity": {"type": "score", "instructions": "How severe?", "criteria": ["minor", "moderate", "major", "critical"]},
    "lang": {"type": "choice", "criteria": {"English": None, "German": None}},
}
TOL = 0.0  # the default --batching invariant: every read a pass of its own (the shared path: 1e-5)


def numbers(answer: dict) -> np.ndarray:
    if answer["type"] == "noul":
        return np.array([answer["noul"], answer["x_label_mass"]])
    return np.array(list(answer["probabilities"].values()) + [answer["confidence"], answer["x_label_mass"]])


def decide(engine, questions):
    return engine.decide({"model": "jev-latest", "state": STATE, "questions": questions})["answers"]


def alone(engine):
    return {qid: decide(engine, {qid: q})[qid] for qid, q in QUESTIONS.items()}


def assert_same(a: dict, b: dict):
    assert a["type"] == b["type"]
    assert np.abs(numbers(a) - numbers(b)).max() <= TOL
    if a["type"] == "choice":
        assert a["choice"] == b["choice"]


def test_batched_request_equals_each_question_alone(smol):
    single = alone(smol)
    together = decide(smol, QUESTIONS)
    for qid in QUESTIONS:
        assert_same(together[qid], single[qid])


def test_renaming_ids_changes_nothing(smol):
    base = decide(smol, QUESTIONS)
    renamed = decide(smol, {f"zz-{qid[::-1]}-{i}": q for i, (qid, q) in enumerate(QUESTIONS.items())})
    for i, qid in enumerate(QUESTIONS):
        assert_same(renamed[f"zz-{qid[::-1]}-{i}"], base[qid])


def test_reordering_and_subsets_change_nothing(smol):
    base = decide(smol, QUESTIONS)
    rng = random.Random(7)
    for _ in range(3):
        ids = list(QUESTIONS)
        rng.shuffle(ids)
        subset = ids[: rng.randint(1, len(ids))]
        got = decide(smol, {qid: QUESTIONS[qid] for qid in subset})
        assert list(got) == subset  # answers come back keyed and ordered as asked
        for qid in subset:
            assert_same(got[qid], base[qid])


def test_backend_batches_match_single_reads_and_a_full_forward(smol):
    """The shared-prefix, left-padded batch read equals a plain forward over prefix + suffix."""
    import torch

    backend, renderer = smol.backend, smol.renderer
    prefix = renderer.prefix(STATE)
    reads = [Read(renderer.encode(f"Question {'long ' * k}?" + "\nAnswer:"), renderer.yes_no + renderer.levels[:3]) for k in range(6)]
    batched = backend.logprobs(prefix, reads)
    for read, got in zip(reads, batched):
        with torch.inference_mode():
            logits = backend.model(input_ids=torch.tensor([prefix + read.suffix])).logits[0, -1].float()
        full = torch.log_softmax(logits, -1)[read.token_ids].double().numpy()
        assert np.abs(got - full).max() < 1e-4  # log-probabilities, not probabilities
        assert np.abs(np.exp(got) - np.exp(full)).max() < 1e-5  # one pass over both: another computation


def test_small_batch_limit_gives_the_same_answers(smol):
    base = decide(smol, QUESTIONS)
    old = smol.backend.max_batch
    smol.backend.max_batch = 2  # forces several batches per request
    try:
        split = decide(smol, QUESTIONS)
    finally:
        smol.backend.max_batch = old
    for qid in QUESTIONS:
        assert_same(split[qid], base[qid])


def test_repeating_a_request_is_deterministic(smol):
    a, b = decide(smol, QUESTIONS), decide(smol, QUESTIONS)
    for qid in QUESTIONS:
        assert np.abs(numbers(a[qid]) - numbers(b[qid])).max() <= 1e-9


# -- batch invariance (issue 25): bit-identical answers in the default dtype --------------------------------

LONG = " Every earlier call, email and chat is listed here with its date, its agent and what was promised."


def scenario(n: int, long: bool = False) -> list[dict]:
    return [{"model": "jev-latest", "x_calibrated": False, "questions": QUESTIONS,
             "state": {**STATE, "ticket": f"Ticket {i}: {STATE['ticket']}{'!' * i}" + (LONG * 30 if long else "")}}
            for i in range(n)]


def slot_work(engine, body: dict):
    from onepass.wire import parse_request

    req = parse_request(body)
    return engine.renderer.prefix(req.state), [engine.readouts["slot"].plan(engine.renderer, q).reads[0]
                                               for q in req.questions.values()]


def bits(values) -> list[list[str]]:
    """Label log-probabilities as exact hex floats (equal strings: equal bits)."""
    return [[float(x).hex() for x in np.asarray(v).ravel()] for v in values]


def test_a_request_is_bit_identical_cold_cached_and_at_any_place_among_others(smol_auto):
    """The same request alone on a cold cache, again with its state cached, and through the batch runner
    beside 1, 2 or 5 other requests in either order: the same bits, whole answers included."""
    from onepass.backends.batcher import Job

    engine, backend = smol_auto, smol_auto.backend
    assert backend.invariant  # the default
    bodies = scenario(6)
    cold, warm = [], []
    for body in bodies:
        backend.clear_prefix_cache()
        cold.append(engine.decide(body)["answers"])
        warm.append(engine.decide(body)["answers"])  # its state is cached now
    assert warm == cold
    work = [slot_work(engine, b) for b in bodies]
    backend.clear_prefix_cache()
    alone = [bits(backend.read_request(*w)) for w in work]
    for k in (2, 3, 6):
        for order in (list(range(6)), list(range(6))[::-1]):
            for s in range(0, 6, k):
                group = order[s : s + k]
                jobs = [Job(*work[i], tokens=backend._job_tokens(*work[i])) for i in group]
                backend.run_jobs(jobs)
                for i, job in zip(group, jobs):
                    assert job.error is None and bits(job.result) == alone[i], (k, i)


def test_the_memory_budget_changes_no_answer(smol_auto):
    """A long state on a server whose budget is just big enough for one read beside it (the shared path
    would prefill it in fewer, longer chunks on the default budget, and split its reads) reads the same
    bits as on the default budget."""
    from onepass.backends import passes
    from onepass.backends.embedded import EmbeddedBackend

    default = smol_auto.backend
    work = [slot_work(smol_auto, b) for b in scenario(2, long=True)]
    prefix = work[0][0]
    assert 600 <= len(prefix) <= 1000
    m = default.memory
    need = max(m.cache_bytes(len(p)) + m.pass_bytes(1, len(r.suffix), len(p) + len(r.suffix), 1) for p, rs in work for r in rs)
    whole = max(m.pass_bytes(1, len(p), len(p), 1) for p, _ in work)
    assert need < whole
    small = EmbeddedBackend(default.model, smol_auto.tokenizer, memory_budget=(need + whole) // 2)
    assert passes.prefill_step(small.memory, len(prefix)) < passes.prefill_step(default.memory, len(prefix)) == len(prefix)
    for w in work:
        default.clear_prefix_cache()
        assert bits(small.read_request(*w)) == bits(default.read_request(*w))


def test_a_fresh_process_gives_the_same_bits(smol_auto):
    """'After a restart': another process, the same model, dtype and thread count, reads the same bits."""
    import json
    import subprocess
    import sys

    import torch

    work = [slot_work(smol_auto, b) for b in scenario(3)]
    smol_auto.backend.clear_prefix_cache()
    here = [bits(smol_auto.backend.read_request(*w)) for w in work]
    code = f"""
import json, sys, torch
sys.path.insert(0, {str(Path(__file__).parent.parent)!r})
torch.set_num_threads({torch.get_num_threads()})
from onepass import Engine
from tests.test_invariance import bits, scenario, slot_work
engine = Engine("smollm2-135m", dtype={smol_auto.dtype.value!r}, calibration=None, log=lambda m: None)
print(json.dumps([bits(engine.backend.read_request(*slot_work(engine, b))) for b in scenario(3)]))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == here
