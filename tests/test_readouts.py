"""Readout families: order invariance where promised, 255 options and 2-10 levels everywhere, the
foundation's guarantees per family, debiased's auto policy, abstention, and the per-request override."""

from __future__ import annotations

import random

import numpy as np
import pytest

from onepass import Engine
from onepass.backends.base import Backend
from onepass.errors import RequestInvalid
from tests.tiny_random import llama_with_smollm_tokenizer

FAMILIES = ["slot", "isolated", "likelihood", "debiased", "shortlist"]
STATE = "Order #7781: the blender arrived with a cracked jar and the courier left it in the rain."
OPTIONS = {"damaged item": "the product arrived broken", "late delivery": None, "wrong item": None,
           "refund status": "asks where a refund is", "billing error": None, "other": None}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return Engine(str(llama_with_smollm_tokenizer(tmp_path_factory.mktemp("tiny") / "tiny", seed=3)), dtype="float32", log=lambda _m: None)


def choice(criteria, instructions="What is the customer's problem?"):
    return {"type": "choice", "instructions": instructions, "criteria": criteria}


def ask(engine, questions, readout, **extra):
    return engine.decide({"model": "jev-latest", "state": STATE, "questions": questions, "x_readout": readout, **extra})["answers"]


def probs(answer, names):
    return np.array([answer["probabilities"][n] for n in names])


def permutations(names, k=4, seed=0):
    rng = random.Random(seed)
    out = [names[::-1]]
    for _ in range(k - 1):
        order = names[:]
        rng.shuffle(order)
        out.append(order)
    return out


@pytest.mark.parametrize("family", ["isolated", "likelihood"])
def test_isolated_and_likelihood_are_order_invariant(smol, family):
    names = list(OPTIONS)
    questions = {"orig": choice(OPTIONS)}
    for i, order in enumerate(permutations(names)):
        questions[f"p{i}"] = choice({n: OPTIONS[n] for n in order})
    answers = ask(smol, questions, family)
    base = probs(answers["orig"], names)
    for key, answer in answers.items():
        assert answer["x_readout"] == family
        assert np.abs(probs(answer, names) - base).max() <= 1e-4
        assert answer["choice"] == answers["orig"]["choice"]


def test_slot_is_order_sensitive_on_this_model(smol):
    """The baseline the other families fix: reversing the options moves slot's probabilities."""
    names = list(OPTIONS)
    answers = ask(smol, {"a": choice(OPTIONS), "b": choice({n: OPTIONS[n] for n in names[::-1]})}, "slot")
    assert np.abs(probs(answers["a"], names) - probs(answers["b"], names)).max() > 1e-3


def test_debiased_with_every_rotation_cancels_cyclic_order(tiny):
    """Starting from the request's own order, reading every rotation cancels a cyclic shift."""
    names = list(OPTIONS)
    engine = Engine(backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny",
                    debias_max_reads=len(names), debias_entropy=0.0, debias_order="given")
    rotated = names[2:] + names[:2]
    answers = ask(engine, {"a": choice(OPTIONS), "b": choice({n: OPTIONS[n] for n in rotated})}, "debiased")
    assert answers["a"]["x_reads"] == len(names) == answers["b"]["x_reads"]
    assert np.abs(probs(answers["a"], names) - probs(answers["b"], names)).max() <= 1e-4


@pytest.mark.parametrize("threshold", [0.0, 1.0])
def test_debiased_canonical_order_makes_any_permutation_identical(smol, threshold):
    """The default starts from options sorted by name, so the request's order never reaches the model:
    identical answers (and the same number of reads) under reversal and random permutations."""
    names = list(OPTIONS)
    engine = Engine(backend=smol.backend, tokenizer=smol.tokenizer, model_id="smol",
                    debias_entropy=threshold)
    questions = {"orig": choice(OPTIONS)}
    for i, order in enumerate(permutations(names)):
        questions[f"p{i}"] = choice({n: OPTIONS[n] for n in order})
    answers = ask(engine, questions, "debiased")
    base = probs(answers["orig"], names)
    for answer in answers.values():
        assert answer["x_reads"] == answers["orig"]["x_reads"] == (4 if threshold == 0.0 else 1)
        assert np.abs(probs(answer, names) - base).max() <= 1e-4
        assert answer["choice"] == answers["orig"]["choice"]


class CountingBackend(Backend):
    """Wraps a backend and records how many reads and continuation options reach it; it can do what the
    wrapped one can, so it declares the same capabilities and passes batching on."""

    def __init__(self, inner):
        self.inner, self.name, self.max_context = inner, "counting", inner.max_context
        self.capabilities = inner.capabilities
        self.reads = self.options = 0

    def expecting(self):
        return self.inner.expecting()

    def logprobs(self, prefix, reads):
        self.reads += len(reads)
        return self.inner.logprobs(prefix, reads)

    def continuations(self, prefix, items):
        self.options += sum(len(item.options) for item in items)
        return self.inner.continuations(prefix, items)


@pytest.mark.parametrize("family", ["slot", "isolated", "likelihood"])
def test_identical_reads_are_computed_once(tiny, family):
    counting = CountingBackend(tiny.backend)
    engine = Engine(backend=counting, tokenizer=tiny.tokenizer, model_id="tiny", calibration=None)
    names = list(OPTIONS)
    once = ask(engine, {"q": choice(OPTIONS)}, family)["q"]
    single = (counting.reads, counting.options)
    counting.reads = counting.options = 0
    # The same question three times, and (for the order-invariant families) a reordered copy.
    questions = {"a": choice(OPTIONS), "b": choice(OPTIONS), "c": choice(OPTIONS)}
    if family != "slot":
        questions["d"] = choice({n: OPTIONS[n] for n in names[::-1]})
    answers = ask(engine, questions, family)
    assert (counting.reads, counting.options) == single
    assert single != (0, 0)
    for answer in answers.values():
        assert np.abs(probs(answer, names) - probs(once, names)).max() <= 1e-5


def test_debiased_auto_policy_bounds_reads(tiny):
    for threshold, expected in [(1.0, {1}), (0.0, {3})]:
        engine = Engine(backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny",
                        debias_max_reads=3, debias_entropy=threshold)
        answer = ask(engine, {"q": choice(OPTIONS)}, "debiased")["q"]
        assert answer["x_reads"] in expected
        assert 0.0 <= answer["x_agreement"] <= 1.0
        # x_agreement is the share of reads whose argmax is the final choice: a multiple of 1/reads.
        assert abs(answer["x_agreement"] * answer["x_reads"] - round(answer["x_agreement"] * answer["x_reads"])) < 1e-9
    with pytest.raises(ValueError):
        Engine(backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny",
               debias_entropy=1.5)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_handles_255_options_and_2_to_10_levels(tiny, family):
    many = {f"option {i}": None for i in range(255)}
    questions = {"many": choice(many, "Which option?"),
                 **{f"s{n}": {"type": "score", "instructions": "Rate it.", "criteria": [f"level {i}" for i in range(n)]}
                    for n in (2, 10)},
                 "yn": {"type": "noul", "instructions": "Is it damaged?"}}
    answers = ask(tiny, questions, family)
    assert list(answers["many"]["probabilities"]) == list(many)
    assert abs(sum(answers["many"]["probabilities"].values()) - 1) < 1e-9
    for n in (2, 10):
        p = answers[f"s{n}"]["probabilities"]
        assert len(p) == n and abs(sum(p.values()) - 1) < 1e-9
        assert abs(answers[f"s{n}"]["score"] - sum(i * p[str(i)] for i in range(n))) < 1e-12
    for answer in answers.values():
        assert answer["x_readout"] == family and 0 < answer["x_label_mass"] <= 1 + 1e-9


@pytest.mark.parametrize("family", FAMILIES)
def test_ids_order_and_batching_never_change_an_answer(smol, family):
    questions = {"problem": choice(OPTIONS),
                 "severity": {"type": "score", "instructions": "How bad?", "criteria": ["minor", "major", "critical"]},
                 "refund": {"type": "noul", "instructions": "Does the customer ask for money back?"}}
    together = ask(smol, questions, family)
    for qid, question in questions.items():
        alone = ask(smol, {f"renamed-{qid}": question}, family)[f"renamed-{qid}"]
        a, b = together[qid], alone
        key = "noul" if a["type"] == "noul" else "probabilities"
        va = np.array([a[key]] if key == "noul" else list(a[key].values()))
        vb = np.array([b[key]] if key == "noul" else list(b[key].values()))
        assert np.abs(va - vb).max() <= 1e-5
        assert a.get("x_reads") == b.get("x_reads")


def test_server_default_and_request_override(tiny):
    engine = Engine(backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny", readout="isolated")
    payload = {"model": "jev-latest", "state": STATE, "questions": {"q": choice(OPTIONS)}}
    assert engine.decide(payload)["answers"]["q"]["x_readout"] == "isolated"
    assert engine.decide({**payload, "x_readout": "likelihood"})["answers"]["q"]["x_readout"] == "likelihood"
    with pytest.raises(RequestInvalid) as caught:
        engine.decide({**payload, "x_readout": "telepathy"})
    assert caught.value.detail[0]["loc"] == ["body", "x_readout"]


def test_abstention_marks_without_changing_the_answer(tiny):
    payload = {"model": "jev-latest", "state": STATE, "questions": {"q": choice(OPTIONS), "y": {"type": "noul", "instructions": "Damaged?"}}}
    plain = tiny.decide(payload)["answers"]
    assert "x_abstain" not in plain["q"]  # no threshold, no flag
    strict = tiny.decide({**payload, "x_abstain_mass": 1.0})["answers"]
    lenient = tiny.decide({**payload, "x_abstain_mass": 0, "x_abstain_confidence": 0})["answers"]
    for qid in ("q", "y"):
        assert strict[qid]["x_abstain"] is True  # label mass is always below 1 on a random model
        assert lenient[qid]["x_abstain"] is False
        same = {k: v for k, v in strict[qid].items() if k != "x_abstain"}
        assert same == plain[qid]  # the wire answer itself is untouched
    conf = plain["q"]["confidence"]
    assert tiny.decide({**payload, "x_abstain_confidence": min(1.0, conf + 1e-6)})["answers"]["q"]["x_abstain"] is True
    server_side = Engine(backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny", abstain_mass=1.0)
    assert server_side.decide(payload)["answers"]["q"]["x_abstain"] is True


@pytest.mark.parametrize("bad", [{"x_abstain_mass": 1.5}, {"x_abstain_confidence": -0.1}, {"x_abstain_mass": "high"},
                                 {"x_abstain_mass": True}])
def test_bad_abstention_thresholds_are_422(tiny, bad):
    with pytest.raises(RequestInvalid) as caught:
        tiny.decide({"model": "jev-latest", "state": STATE, "questions": {"q": choice(OPTIONS)}, **bad})
    assert caught.value.detail[0]["loc"][:2] == ["body", next(iter(bad))]


def test_likelihood_defaults_to_the_mean_token_log_probability(tiny):
    """The default divides each option's total log-probability by its token count (measured choice,
    docs/readouts.md); `normalise: sum` keeps totals. Same reads, different combination."""
    total = Engine(backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny",
                   likelihood_normalise="sum")
    request = {"model": "jev-latest", "state": STATE, "questions": {"q": choice(OPTIONS)}, "x_readout": "likelihood"}
    assert tiny.decide(request)["answers"]["q"]["x_likelihood_normalise"] == "mean"
    assert total.decide(request)["answers"]["q"]["x_likelihood_normalise"] == "sum"
    parsed = tiny.validate(request)  # with its x_ options, so outcomes() uses the likelihood family
    mean_scores = tiny.outcomes(parsed).by_question["q"].scores
    sum_scores = total.outcomes(parsed).by_question["q"].scores
    lengths = np.array([len(o) for o in tiny.renderer.likelihood(parsed.questions["q"])[1]])
    assert len(set(lengths)) > 1  # options of different lengths, so the two rules really differ
    assert np.allclose(mean_scores * lengths, sum_scores, atol=1e-6)
