"""shortlist: a first pass over all options (a slot read, or likelihood) keeps the top k, a rerank family
reads them; options outside keep their first-pass probability, the shortlist shares the first pass's mass
on it; order invariant."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from onepass import Engine

sys.path.insert(0, str(Path(__file__).parent))
from tiny_random import llama_with_smollm_tokenizer  # noqa: E402

OPTIONS = {f"intent {name}": f"the customer asks about {name}" for name in
           ["refund", "delivery", "password", "invoice", "upgrade", "cancel", "address", "card", "login", "promo",
            "warranty", "return", "stock", "gift", "loyalty", "tax", "receipt", "sizing", "damage", "other"]}


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Engine:
    path = llama_with_smollm_tokenizer(tmp_path_factory.mktemp("tiny") / "tiny", seed=11)
    return Engine(str(path), dtype="float32", calibration=None, shortlist_k=4, shortlist_first="slot",
                  log=lambda _m: None)


def ask(engine, criteria, readout="shortlist"):
    return engine.decide({"model": "jev-latest", "state": "My parcel came damaged, I want my money back.",
                          "x_readout": readout, "questions": {"q": {"type": "choice", "instructions": "Which intent?",
                                                                     "criteria": criteria}}})["answers"]["q"]


def test_outside_keep_their_first_pass_and_the_shortlist_shares_its_mass(engine):
    answer = ask(engine, OPTIONS)
    shortlist = answer["x_shortlist"]
    assert len(shortlist) == 4 and answer["x_shortlist_k"] == 4
    assert set(shortlist) <= set(OPTIONS) and shortlist == [n for n in OPTIONS if n in shortlist]
    probs = answer["probabilities"]
    assert abs(sum(probs.values()) - 1) < 1e-9
    # The first pass is the slot read with the options sorted by name.
    ordered = {name: OPTIONS[name] for name in sorted(OPTIONS)}
    first = ask(engine, ordered, "slot")["probabilities"]
    assert min(first[n] for n in shortlist) >= max(first[n] for n in OPTIONS if n not in shortlist)
    for name in OPTIONS:
        if name not in shortlist:
            assert probs[name] == pytest.approx(first[name], abs=1e-6)
    mass = sum(first[n] for n in shortlist)
    assert sum(probs[n] for n in shortlist) == pytest.approx(mass, abs=1e-6)
    # Within the shortlist: the likelihood distribution over the shortlist alone.
    rerank = ask(engine, {n: OPTIONS[n] for n in shortlist}, "likelihood")["probabilities"]
    for name in shortlist:
        assert probs[name] == pytest.approx(mass * rerank[name], abs=1e-6)


def test_any_order_of_the_options_gives_the_same_answer(engine):
    base = ask(engine, OPTIONS)
    names = list(OPTIONS)
    rng = random.Random(3)
    for _ in range(3):
        rng.shuffle(names)
        got = ask(engine, {n: OPTIONS[n] for n in names})
        assert sorted(got["x_shortlist"]) == sorted(base["x_shortlist"])
        assert max(abs(got["probabilities"][n] - base["probabilities"][n]) for n in names) <= 1e-6


def test_few_options_are_read_by_likelihood_alone(engine):
    few = dict(list(OPTIONS.items())[:4])
    got, plain = ask(engine, few), ask(engine, few, "likelihood")
    assert got["x_shortlist"] == list(few)
    assert np.allclose(list(got["probabilities"].values()), list(plain["probabilities"].values()), atol=1e-9)
    noul = engine.decide({"model": "jev-latest", "state": "x", "x_readout": "shortlist",
                          "questions": {"q": {"type": "noul", "instructions": "?"}}})["answers"]["q"]
    assert "x_shortlist" not in noul and 0 <= noul["noul"] <= 1


@pytest.fixture(scope="module")
def likelihood_first(engine) -> Engine:
    """The default first pass (likelihood) with an isolated rerank (--shortlist-first/--shortlist-rerank)."""
    return Engine(config=engine.config.replace(shortlist_first="likelihood", shortlist_rerank="isolated"),
                  backend=engine.backend, tokenizer=engine.tokenizer, model_id=engine.info.id)


def test_a_likelihood_first_pass_and_an_isolated_rerank_keep_the_mass_rule(likelihood_first):
    answer = ask(likelihood_first, OPTIONS)
    shortlist, probs = answer["x_shortlist"], answer["probabilities"]
    assert len(shortlist) == 4 and abs(sum(probs.values()) - 1) < 1e-9
    first = ask(likelihood_first, OPTIONS, "likelihood")["probabilities"]
    assert min(first[n] for n in shortlist) >= max(first[n] for n in OPTIONS if n not in shortlist)
    for name in set(OPTIONS) - set(shortlist):
        assert probs[name] == pytest.approx(first[name], abs=1e-6)
    mass = sum(first[n] for n in shortlist)
    rerank = ask(likelihood_first, {n: OPTIONS[n] for n in shortlist}, "isolated")["probabilities"]
    for name in shortlist:
        assert probs[name] == pytest.approx(mass * rerank[name], abs=1e-6)
    # Order invariance holds for these stages too.
    names = list(OPTIONS)
    random.Random(5).shuffle(names)
    again = ask(likelihood_first, {n: OPTIONS[n] for n in names})
    assert sorted(again["x_shortlist"]) == sorted(shortlist)
    assert max(abs(again["probabilities"][n] - probs[n]) for n in names) <= 1e-6
    # The usage counts both stages: one position per option scored by likelihood, one read per reranked option.
    full = likelihood_first.decide({"model": "jev-latest", "state": "My parcel came damaged, I want my money back.",
                                    "x_readout": "shortlist", "questions": {"q": {"type": "choice", "instructions": "Which intent?",
                                                                               "criteria": OPTIONS}}})
    assert full["usage"]["output_tokens"] == len(OPTIONS) + 4


def test_unknown_stages_are_refused_at_start(engine):
    from onepass.errors import ConfigError

    with pytest.raises(ConfigError, match="shortlist"):
        engine.config.replace(shortlist_first="isolated")
