"""`--readout auto` / "x_readout": "auto": each question read by the family its model's profile chose for its
type, calibrated with that family's temperatures, reported in x_readout."""

from __future__ import annotations

import pytest

from onepass import Engine
from onepass.calibration import Profile
from tests.tiny_random import llama_with_smollm_tokenizer

STATE = "Order 881: the parcel never arrived and the courier's tracking page shows an error."
QUESTIONS = {
    "n": {"type": "noul", "instructions": "Is this about shipping?"},
    "c": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": None, "shipping": None, "tech": None}},
    "s": {"type": "score", "instructions": "How urgent?", "criteria": ["low", "medium", "high"]},
}


def ask(engine, readout, **extra):
    return engine.decide({"model": "jev-latest", "state": STATE, "questions": QUESTIONS, "x_readout": readout, **extra})["answers"]


def probs(answer):
    return answer.get("probabilities", {"yes": answer.get("noul")})


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    return llama_with_smollm_tokenizer(tmp_path_factory.mktemp("auto") / "tiny", seed=11)


def test_without_a_policy_auto_reads_every_type_with_slot(tiny_dir):
    engine = Engine(str(tiny_dir), dtype="float32", calibration=None, log=lambda _m: None)
    auto, slot = ask(engine, "auto"), ask(engine, "slot")
    for qid in QUESTIONS:
        assert auto[qid]["x_readout"] == "slot" and auto[qid]["x_readout_policy"] == "auto"
        assert probs(auto[qid]) == probs(slot[qid])
    assert engine.model_list()[0]["x_readout_policy"] == {"noul": "slot", "choice": "slot", "score": "slot"}


def test_a_profile_policy_picks_the_family_and_its_calibration_per_type(tiny_dir, tmp_path):
    profile = Profile(model="tiny", temperatures={"isolated": {"choice": 2.0}, "slot": {"noul": 0.5}},
                      readout_policy={"choice": "isolated", "score": "debiased", "noul": "head"})
    profile.save(tmp_path / "p.json")
    engine = Engine(str(tiny_dir), dtype="float32", calibration=str(tmp_path / "p.json"), log=lambda _m: None)
    # No head is loaded, so the policy's head entry is dropped: yes/no falls back to slot.
    assert engine.model_list()[0]["x_readout_policy"] == {"noul": "slot", "choice": "isolated", "score": "debiased"}
    auto = ask(engine, "auto")
    assert [auto[q]["x_readout"] for q in ("n", "c", "s")] == ["slot", "isolated", "debiased"]
    assert probs(auto["c"]) == probs(ask(engine, "isolated")["c"]) and auto["c"]["x_calibrated"] is True
    assert probs(auto["n"]) == probs(ask(engine, "slot")["n"]) and auto["n"]["x_calibrated"] is True
    assert probs(auto["s"]) == probs(ask(engine, "debiased")["s"]) and auto["s"]["x_calibrated"] is False
    raw = ask(engine, "auto", x_calibrated=False)
    assert raw["c"]["x_calibrated"] is False and probs(raw["c"]) != probs(auto["c"])
