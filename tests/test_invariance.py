"""Answers must not depend on question ids, question order, other questions, or batching (1e-5)."""

from __future__ import annotations

import random

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
TOL = 1e-5


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
        assert np.abs(np.exp(got) - np.exp(full)).max() < TOL


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
