"""The x_ extras say what happened: x_calibrated only when a fitted temperature was applied, an explicit
x_calibrated: true that cannot be honoured is a 422, labels a remote engine did not return are left out and
flagged (never a -9999 stand-in). Unknown x_ fields (ignored and named, or a 422 with --strict-options):
tests/test_ignored_fields.py."""

from __future__ import annotations

import numpy as np
import pytest

from onepass import Engine
from onepass.backends.base import Backend, Capabilities
from onepass.learn.calibration import Profile
from onepass.errors import RequestInvalid
from onepass.readouts.base import softmax
from tests.tiny_random import llama_with_smollm_tokenizer

STATE = "Order 5512: the kettle arrived with a cracked lid and the refund form does not load."
CHOICE = {"type": "choice", "instructions": "What is the problem?",
          "criteria": {"alpha damage": None, "bravo refund": None, "charlie delay": None, "delta other": None}}
NAMES = list(CHOICE["criteria"])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return Engine(str(llama_with_smollm_tokenizer(tmp_path_factory.mktemp("tiny") / "tiny", seed=7)), dtype="float32",
                  calibration=None, log=lambda _m: None)


def request(questions: dict, **options) -> dict:
    return {"model": "jev-latest", "state": STATE, "questions": questions, **options}


def probs(answer) -> np.ndarray:
    return np.array(list(answer["probabilities"].values()))


# -- x_calibrated --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def calibrated(tiny, tmp_path_factory):
    """A profile fitted for slot choice questions only."""
    path = Profile(model="tiny", temperatures={"slot": {"choice": 3.0}}).save(tmp_path_factory.mktemp("p") / "p.json")
    return Engine(None, backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny", calibration=str(path))


def test_x_calibrated_is_true_only_where_a_fitted_temperature_was_applied(tiny, calibrated):
    questions = {"c": CHOICE, "y": {"type": "noul", "instructions": "Is it about a refund?"}}
    raw = tiny.decide(request(questions))["answers"]
    got = calibrated.decide(request(questions))["answers"]
    assert got["c"]["x_calibrated"] is True
    assert np.allclose(probs(got["c"]), softmax(np.log(probs(raw["c"])), 3.0), atol=1e-9)
    # No temperature for yes/no in this profile: served raw, and saying so (it used to claim true at T=1).
    assert got["y"]["x_calibrated"] is False and got["y"]["noul"] == raw["y"]["noul"]
    # Another readout family is not in the profile at all.
    iso = calibrated.decide(request({"c": CHOICE}, x_readout="isolated"))["answers"]["c"]
    assert iso["x_calibrated"] is False
    off = calibrated.decide(request(questions, x_calibrated=False))["answers"]
    assert off["c"]["x_calibrated"] is False and np.allclose(probs(off["c"]), probs(raw["c"]), atol=1e-12)


def test_an_explicit_x_calibrated_true_that_cannot_be_honoured_is_a_422(tiny, calibrated):
    with pytest.raises(RequestInvalid) as caught:
        calibrated.decide(request({"c": CHOICE}, x_calibrated=True, x_readout="isolated"))
    (entry,) = caught.value.detail
    assert entry["loc"] == ["body", "x_calibrated"] and "['slot']" in entry["msg"] and "isolated" in entry["msg"]
    with pytest.raises(RequestInvalid) as caught:
        calibrated.decide(request({"c": CHOICE, "y": {"type": "noul", "instructions": "Refund?"}}, x_calibrated=True))
    (entry,) = caught.value.detail
    assert entry["loc"] == ["body", "questions", "y", "type"] and "noul" in entry["msg"] and "['choice']" in entry["msg"]
    with pytest.raises(RequestInvalid, match="no calibration profile"):
        tiny.decide(request({"c": CHOICE}, x_calibrated=True))
    answer = calibrated.decide(request({"c": CHOICE}, x_calibrated=True))["answers"]["c"]
    assert answer["x_calibrated"] is True


# -- labels a remote engine did not return ---------------------------------------------------------------------


class DroppingBackend(Backend):
    """A remote engine's top-k fallback, simulated: `drop(call, index, read)` names the label ids of a read
    that do not come back (they are NaN in the returned array, as the vLLM backend gives them back)."""

    name = "fake-remote"
    capabilities = Capabilities(reentrant=True, may_miss_labels=True)

    def __init__(self, inner, drop):
        self.inner, self.drop = inner, drop
        self.max_context = inner.max_context
        self.calls: list = []

    def logprobs(self, prefix, reads):
        call = len(self.calls)
        self.calls.append(list(reads))
        out = []
        for i, (read, lp) in enumerate(zip(reads, self.inner.logprobs(prefix, reads))):
            gone = set(self.drop(call, i, read)) & set(read.token_ids)
            out.append(np.array([np.nan if t in gone else v for t, v in zip(read.token_ids, lp)], dtype=np.float64))
        return out


def dropping(tiny, drop, **kw) -> Engine:
    return Engine(None, backend=DroppingBackend(tiny.backend, drop), tokenizer=tiny.tokenizer, model_id="tiny",
                  calibration=None, **kw)


def test_slot_leaves_a_missing_label_out_and_flags_it(tiny):
    label_b = tiny.renderer.question(tiny.validate(request({"c": CHOICE})).questions["c"]).label_ids[1]
    ref = tiny.decide(request({"c": CHOICE}))["answers"]["c"]
    got = dropping(tiny, lambda _c, _i, _r: {label_b}).decide(request({"c": CHOICE}))["answers"]["c"]
    assert got["x_excluded"] == ["bravo refund"] and got["x_missing_labels"] == [label_b]
    assert got["probabilities"]["bravo refund"] == 0.0
    rest = [n for n in NAMES if n != "bravo refund"]
    expected = np.array([ref["probabilities"][n] for n in rest])
    assert np.allclose([got["probabilities"][n] for n in rest], expected / expected.sum(), atol=1e-9)
    assert got["x_label_mass"] < ref["x_label_mass"]


def test_isolated_leaves_out_an_option_without_yes_or_no_instead_of_9999_log_odds(tiny):
    yes, no = tiny.renderer.yes_no
    ref = tiny.decide(request({"c": CHOICE}, x_readout="isolated"))["answers"]["c"]
    # The read of option 1 ("bravo refund") lacks No: a -9999 stand-in would give it log-odds ~ +9999, p = 1.
    engine = dropping(tiny, lambda _c, i, _r: {no} if i == 1 else set())
    got = engine.decide(request({"c": CHOICE}, x_readout="isolated"))["answers"]["c"]
    assert got["probabilities"]["bravo refund"] == 0.0 and got["choice"] != "bravo refund"
    assert got["x_excluded"] == ["bravo refund"] and got["x_missing_labels"] == [no]
    rest = [n for n in NAMES if n != "bravo refund"]
    expected = np.array([ref["probabilities"][n] for n in rest])
    assert np.allclose([got["probabilities"][n] for n in rest], expected / expected.sum(), atol=1e-9)
    assert all(np.isfinite(v) for v in got["probabilities"].values()) and 0 < got["x_label_mass"] <= 1
    # A score level without Yes: the same.
    score = {"type": "score", "instructions": "How bad?", "criteria": ["fine", "minor", "bad", "awful"]}
    got = dropping(tiny, lambda _c, i, _r: {yes} if i == 2 else set()).decide(
        request({"s": score}, x_readout="isolated"))["answers"]["s"]
    assert got["probabilities"]["2"] == 0.0 and got["x_excluded"] == ["2"]


def test_debiased_averages_an_option_over_the_reads_that_returned_its_label(tiny):
    options = {"debias_max_reads": 4, "debias_entropy": 0.0}  # EngineConfig fields
    clean = Engine(None, backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny", calibration=None, **options)
    body = request({"c": CHOICE}, x_readout="debiased")
    raw = np.stack(clean.outcomes(clean.validate(body)).by_question["c"].raw)  # (4 reads, 4 options), question order
    # The first follow-up read (row 1) does not return the label it gave option 1.
    engine = dropping(tiny, lambda call, i, read: {read.token_ids[1]} if (call, i) == (1, 0) else set(), **options)
    got = engine.decide(body)["answers"]["c"]
    assert got["x_reads"] == 4 and got["x_missing_labels"] and "x_excluded" not in got
    scores = raw.mean(axis=0)
    scores[1] = raw[[0, 2, 3], 1].mean()  # a -9999 stand-in would have put it near -2500 (p = 0)
    assert np.allclose(probs(got), softmax(scores), atol=1e-9)
    assert got["probabilities"]["bravo refund"] > 1e-3


def test_likelihood_leaves_out_an_option_with_a_missing_token(tiny):
    question = tiny.validate(request({"c": CHOICE})).questions["c"]
    context, tokens = tiny.renderer.likelihood(question)  # options sorted by name: NAMES order
    first_b = tokens[1][0]
    assert all(t[0] != first_b for k, t in enumerate(tokens) if k != 1)
    engine = dropping(tiny, lambda _c, _i, read: {first_b} if read.suffix == context else set())
    got = engine.decide(request({"c": CHOICE}, x_readout="likelihood"))["answers"]["c"]
    assert got["probabilities"]["bravo refund"] == 0.0 and got["x_excluded"] == ["bravo refund"]
    assert got["x_missing_labels"] == [first_b]


def test_a_question_with_no_label_returned_says_it_has_no_evidence(tiny, tmp_path):
    path = Profile(model="tiny", temperatures={"slot": {"choice": 3.0}}).save(tmp_path / "p.json")
    engine = Engine(None, backend=DroppingBackend(tiny.backend, lambda _c, _i, read: set(read.token_ids)),
                    tokenizer=tiny.tokenizer, model_id="tiny", calibration=str(path))
    got = engine.decide(request({"c": CHOICE}, x_abstain_mass=0.01))["answers"]["c"]
    assert got["x_label_mass"] == 0.0 and got["x_excluded"] == NAMES and len(got["x_missing_labels"]) == 4
    assert np.allclose(probs(got), 0.25) and got["confidence"] == 0.0
    assert got["x_calibrated"] is False and got["x_abstain"] is True
