"""Contextual calibration: a question's content-free label prior is divided out of its answers, computed
once per distinct question, and calibrated apart from uncorrected answers."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from onepass import Engine
from onepass.learn.calibration import Profile
from onepass.errors import RequestInvalid
from onepass.learn.priors import CONTENT_FREE

sys.path.insert(0, str(Path(__file__).parent))
from tiny_random import llama_with_smollm_tokenizer  # noqa: E402

TEAMS = {"type": "choice", "instructions": "Which team?", "criteria": {"billing": None, "shipping": None, "legal": None}}


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    return llama_with_smollm_tokenizer(tmp_path_factory.mktemp("tiny") / "tiny", seed=21)


@pytest.fixture(scope="module")
def engine(tiny_dir) -> Engine:
    return Engine(str(tiny_dir), dtype="float32", calibration=None, log=lambda _m: None)


def ask(engine, state, question, **extra) -> dict:
    return engine.decide({"model": "jev-latest", "state": state, "questions": {"q": question}, **extra})["answers"]["q"]


def probs(answer) -> np.ndarray:
    return np.array(list(answer["probabilities"].values()))


@pytest.mark.parametrize("family", ["slot", "isolated", "likelihood"])
def test_the_prior_is_divided_out(engine, family):
    state = "I was charged twice for my order."
    raw = ask(engine, state, TEAMS, x_readout=family)
    corrected = ask(engine, state, TEAMS, x_readout=family, x_debias_prior=True)
    assert corrected["x_debias_prior"] is True and "x_debias_prior" not in raw
    prior = np.mean([probs(ask(engine, text, TEAMS, x_readout=family)) for text in CONTENT_FREE], axis=0)
    expected = probs(raw) / prior
    assert np.allclose(probs(corrected), expected / expected.sum(), atol=1e-6)
    # A content-free state asked again now looks uniform-ish: its own prior is gone.
    flat = np.mean([probs(ask(engine, t, TEAMS, x_readout=family, x_debias_prior=True)) for t in CONTENT_FREE], axis=0)
    assert np.abs(flat - 1 / 3).max() < np.abs(prior - 1 / 3).max() + 1e-9


def test_computed_once_per_distinct_question(engine):
    before = engine.priors.computed
    for state in ["a", "b", "c"]:
        ask(engine, state, TEAMS, x_debias_prior=True)
    other = {**TEAMS, "instructions": "Which department?"}
    ask(engine, "d", other, x_debias_prior=True)
    assert engine.priors.computed - before <= 2  # TEAMS (unless an earlier test cached it) and `other`
    ask(engine, "e", other, x_debias_prior=True)
    assert engine.priors.computed - before <= 2


def test_families_with_follow_ups_are_refused_and_profiles_keep_corrected_answers_apart(tiny_dir, tmp_path, engine):
    with pytest.raises(RequestInvalid, match="x_debias_prior works with the readouts"):
        ask(engine, "x", TEAMS, x_readout="debiased", x_debias_prior=True)
    path = tmp_path / "profile.json"
    Profile(model="tiny", temperatures={"slot": {"choice": 2.0}}).save(path)
    calibrated = Engine(str(tiny_dir), dtype="float32", calibration=str(path), prior_correction=True, log=lambda _m: None)
    answer = ask(calibrated, "x", TEAMS)
    assert answer["x_debias_prior"] is True and answer["x_calibrated"] is False  # "slot" is not "slot+prior"
    with pytest.raises(RequestInvalid, match="slot\\+prior"):
        ask(calibrated, "x", TEAMS, x_calibrated=True)
    assert ask(calibrated, "x", TEAMS, x_debias_prior=False)["x_calibrated"] is True


def test_auto_corrects_where_its_policy_picks_a_one_round_family_and_says_where_it_cannot(tiny_dir, tmp_path, engine):
    path = Profile(model="tiny", temperatures={}, readout_policy={"choice": "likelihood", "choice@6": "shortlist"}).save(tmp_path / "p.json")
    auto = Engine(str(tiny_dir), dtype="float32", calibration=str(path), readout="auto", prior_correction=True,
                  log=lambda _m: None)
    got = ask(auto, "I was charged twice for my order.", TEAMS)
    assert got["x_readout"] == "likelihood" and got["x_debias_prior"] is True
    same = ask(engine, "I was charged twice for my order.", TEAMS, x_readout="likelihood", x_debias_prior=True)
    assert np.allclose(probs(got), probs(same), atol=1e-6)
    many = {**TEAMS, "criteria": {f"team {i}": None for i in range(8)}}
    with pytest.raises(RequestInvalid, match="'shortlist' \\(the auto policy's family for question 'q'\\)"):
        ask(auto, "x", many)
    assert "x_debias_prior" not in ask(auto, "x", many, x_debias_prior=False)
