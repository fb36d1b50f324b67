"""`--readout auto` (the default) / "x_readout": "auto": each question read by the family its model's profile
chose for its type and option count, calibrated with that family's temperatures, reported in x_readout."""

from __future__ import annotations

import httpx
import pytest
from typesafe_sdk import Choice, RetryPolicy, TypeSafeClient

from onepass import Engine
from onepass.learn.calibration import Profile
from onepass.config import ServerConfig
from onepass.server import create_app
from tests.test_hardening_support import LoopbackServer
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


def many(n: int) -> dict:
    return {"type": "choice", "instructions": "Which intent?", "criteria": {f"intent_{i:03d}": f"topic number {i}" for i in range(n)}}


def test_a_policy_per_option_count_reads_long_choices_with_their_own_family(tiny_dir, tmp_path):
    """choice@N entries: choices with at least N options; the largest N that applies wins."""
    Profile(model="tiny", temperatures={}, readout_policy={"choice@5": "likelihood", "choice@40": "shortlist"}).save(tmp_path / "p.json")
    engine = Engine(str(tiny_dir), dtype="float32", calibration=str(tmp_path / "p.json"), log=lambda _m: None)
    assert engine.model_list()[0]["x_readout_policy"] == {"noul": "slot", "choice": "slot", "score": "slot",
                                                          "choice@5": "likelihood", "choice@40": "shortlist"}
    questions = {"short": many(4), "five": many(5), "long": many(39), "longer": many(60)}
    auto = engine.decide({"model": "jev-latest", "state": STATE, "questions": questions, "x_readout": "auto"})["answers"]
    assert [auto[q]["x_readout"] for q in questions] == ["slot", "likelihood", "likelihood", "shortlist"]
    assert "x_shortlist" in auto["longer"] and "x_shortlist" not in auto["long"]
    for qid, family in [("short", "slot"), ("long", "likelihood"), ("longer", "shortlist")]:
        alone = engine.decide({"model": "jev-latest", "state": STATE, "questions": {qid: questions[qid]}, "x_readout": family})
        assert probs(alone["answers"][qid]) == pytest.approx(probs(auto[qid]), abs=1e-6)


@pytest.mark.parametrize("key", ["choice@1", "choice@256", "choices", "choice@", "score@3"])
def test_a_profile_with_a_bad_policy_key_is_refused_saying_what_keys_are(tmp_path, key):
    path = Profile(model="tiny", temperatures={}, readout_policy={key: "slot"}).save(tmp_path / "p.json")
    with pytest.raises(ValueError, match="choice@N"):
        Profile.load(path)


def test_the_sdk_routes_a_long_catalogue_by_the_servers_default_policy_without_naming_a_family(tiny_dir, tmp_path):
    """auto is the server's default readout: a caller of the official SDK sends a 60-option choice and a
    3-option one, and each is read by the family the model's policy names for its option count."""
    Profile(model="tiny", temperatures={}, readout_policy={"choice@40": "shortlist"}).save(tmp_path / "p.json")
    engine = Engine(str(tiny_dir), dtype="float32", calibration=str(tmp_path / "p.json"), shortlist_k=4, log=lambda _m: None)
    assert engine.default_readout == "auto"
    catalogue = many(60)["criteria"]
    settings = ServerConfig()
    with LoopbackServer(create_app(engine, settings), settings) as s, \
            TypeSafeClient(base_url=s.url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=120) as client:
        got = client.system_one(state=STATE, questions={"route": Choice(instructions="Which intent?", criteria=catalogue),
                                                        "team": Choice(instructions="Which team?", criteria=QUESTIONS["c"]["criteria"])})
        route, team = got.choices["route"], got.choices["team"]
        assert abs(sum(route.probabilities.values()) - 1) < 1e-9 and set(route.probabilities) == set(catalogue)
        # The SDK keeps no x_ fields: the numbers show which family read each question.
        for qid, question, family in [("route", {"type": "choice", "instructions": "Which intent?", "criteria": catalogue}, "shortlist"),
                                      ("team", QUESTIONS["c"], "slot")]:
            alone = engine.decide({"model": "jev-latest", "state": STATE, "questions": {qid: question}, "x_readout": family})
            wanted = alone["answers"][qid]["probabilities"]
            assert max(abs(got.choices[qid].probabilities[n] - wanted[n]) for n in wanted) < 1e-6
        raw = httpx.post(f"{s.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=120,
                         json={"model": "jev-latest", "state": STATE, "questions": {"route": {"type": "choice", "instructions": "Which intent?", "criteria": catalogue}}}).json()
        assert raw["answers"]["route"]["x_readout"] == "shortlist" and len(raw["answers"]["route"]["x_shortlist"]) == 4
        assert raw["answers"]["route"]["x_readout_policy"] == "auto"
        # The same catalogue in another order: the same answer (the shortlist is order invariant).
        names = list(catalogue)[::-1]
        again = client.system_one(state=STATE, questions={"route": Choice(instructions="Which intent?",
                                                                           criteria={n: catalogue[n] for n in names})})
        assert max(abs(again.choices["route"].probabilities[n] - route.probabilities[n]) for n in names) < 1e-6
        assert team.choice in QUESTIONS["c"]["criteria"]
