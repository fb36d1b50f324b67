"""The learned head (readout family 'head'): features, fitting, the head file, `onepass tune`, and serving it
through the HTTP server to the official SDK."""

from __future__ import annotations

import json
import math
from itertools import permutations

import numpy as np
import pytest
from typesafe_sdk import Choice, Noul, RetryPolicy, TypeSafeAPIError, TypeSafeClient

from onepass import Engine, cli
from onepass.learn import head_fit
from onepass.config import EngineConfig, ServerConfig
from onepass.errors import ConfigError, RequestInvalid
from onepass.learn.head import Head, HeadType
from onepass.readouts.head import feature_reads
from onepass.server import create_app
from onepass.wire import parse_request
from tests.test_hardening_support import LoopbackServer
from tests.tiny_random import llama_with_smollm_tokenizer

TEAMS = {"billing": "charges, refunds, invoices", "shipping": "parcels, couriers, delivery", "tech": "crashes, errors, apps"}
WORDS = {"billing": ["refund", "invoice", "charged twice", "payment"], "shipping": ["parcel", "courier", "delivery", "tracking"],
         "tech": ["crash", "error code", "the app", "login screen"]}


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    return llama_with_smollm_tokenizer(tmp_path_factory.mktemp("head") / "tiny", seed=7)


@pytest.fixture(scope="module")
def tiny(tiny_dir):
    return Engine(str(tiny_dir), dtype="float32", calibration=None, log=lambda _m: None)


def labelled(n_per_team: int = 6) -> list[dict]:
    """Items whose answer is set by a keyword: yes/no 'is it billing?' and a three-team choice."""
    items = []
    for team, words in WORDS.items():
        for k in range(n_per_team):
            state = f"Ticket {k}: customer writes about the {words[k % len(words)]} again, case {k * 7 + len(team)}."
            items.append({"id": f"n-{team}-{k}", "domain": f"d{k % 3}", "gold": team == "billing",
                          "request": {"model": "jev-latest", "state": state,
                                      "questions": {"q": {"type": "noul", "instructions": "Is this about billing?"}}}})
            items.append({"id": f"c-{team}-{k}", "domain": f"d{k % 3}", "gold": team,
                          "request": {"model": "jev-latest", "state": state,
                                      "questions": {"q": {"type": "choice", "instructions": "Which team?", "criteria": TEAMS}}}})
    return items


def synthetic(n: int, d: int, qtype: str, rng, signal: float = 3.0, domains: int = 4) -> list[head_fit.Example]:
    """Examples whose gold is written in hidden dimension 0 and whose zero-shot log-odds carry no signal."""
    out = []
    for i in range(n):
        k = 1 if qtype == "noul" else 3
        h = rng.normal(size=(k, d))
        gold = int(rng.integers(2 if qtype == "noul" else k))
        if qtype == "noul":
            h[0, 0] = signal if gold == 0 else -signal
        else:
            h[gold, 0] += signal
        out.append(head_fit.Example(f"x{i}", f"dom{i % domains}", qtype, gold, rng.normal(size=k) * 0.1, h))
    return out


def accuracy(head_type: HeadType, examples) -> float:
    return float(np.mean([np.argmax(p) == e.gold for p, e in zip(head_fit.predict(head_type, examples), examples)]))


# -- fitting ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("qtype", ["noul", "choice"])
def test_the_fit_learns_a_direction_the_zero_shot_reading_misses(qtype):
    rng = np.random.default_rng(0)
    train, test = synthetic(200, 16, qtype, rng), synthetic(200, 16, qtype, rng)
    zero = HeadType(1.0, 0.0, np.zeros(16), np.zeros(16), np.ones(16))
    learned = head_fit.fit_type(train, 1.0)
    assert accuracy(learned, test) > 0.9 > accuracy(zero, test) + 0.2
    assert abs(learned.delta[0]) > 5 * np.abs(learned.delta[1:]).max()  # the signal's direction, not noise


def test_an_infinite_penalty_only_recalibrates():
    rng = np.random.default_rng(1)
    examples = synthetic(100, 8, "choice", rng)
    for e in examples:  # the zero-shot reading now carries the answer, over-confidently
        e.z = np.where(np.arange(len(e.z)) == e.gold, 8.0, 0.0) + rng.normal(size=len(e.z)) * 4
    fitted = head_fit.fit_type(examples, math.inf)
    assert np.all(fitted.delta == 0) and fitted.b == 0.0 and 0 < fitted.a < 1  # softened, never turned around
    zero = HeadType(1.0, 0.0, np.zeros(8), np.zeros(8), np.ones(8))
    assert accuracy(fitted, examples) == accuracy(zero, examples)  # a positive temperature keeps every argmax


def test_the_penalty_is_chosen_on_held_out_domains():
    rng = np.random.default_rng(2)
    signal = synthetic(240, 16, "noul", rng)
    lam, losses = head_fit.choose_penalty(signal)
    assert not math.isinf(lam) and losses[f"{lam:g}"] < losses["inf"]
    noise = synthetic(240, 16, "noul", rng, signal=0.0)  # nothing to learn: recalibration (or a strong penalty) wins
    lam_noise, _ = head_fit.choose_penalty(noise)
    assert lam_noise >= 100


# -- features and the head file ------------------------------------------------------------------------------


def test_features_are_the_vectors_the_label_logits_come_from(tiny):
    request = parse_request(labelled(1)[1]["request"])
    reads = feature_reads(tiny.renderer, request.questions["q"])
    prefix = tiny.renderer.prefix(request.state)
    pairs = tiny.backend.features(prefix, reads)
    assert len(pairs) == len(TEAMS) and all(p[1].shape == (64,) for p in pairs)
    plain = tiny.backend.logprobs(prefix, reads)
    for (lp, _h), expected in zip(pairs, plain):
        assert np.allclose(lp, expected, atol=1e-4)
    # The hidden state projected by the model's own output layer gives those log-probabilities back.
    import torch

    weight = tiny.backend.model.get_output_embeddings().weight.detach().double()
    for (lp, h), read in zip(pairs, reads):
        full = torch.log_softmax(weight @ torch.from_numpy(h), dim=-1).numpy()
        assert np.allclose(full[read.token_ids], lp, atol=1e-4)


def test_the_head_file_round_trips_and_refuses_another_model(tmp_path):
    rng = np.random.default_rng(3)
    head = Head("m", 4, {"noul": HeadType(0.7, -0.2, rng.normal(size=4), rng.normal(size=4), rng.random(4) + 0.5)}, {"x": 1})
    head.save(tmp_path / "h.safetensors")
    again = Head.load(tmp_path / "h.safetensors")
    assert again.id == head.id and again.meta == {"x": 1} and set(again.types) == {"noul"}
    assert np.allclose(again.types["noul"].scores(np.array([1.0]), np.ones((1, 4))),
                       head.types["noul"].scores(np.array([1.0]), np.ones((1, 4))), atol=1e-5)
    with pytest.raises(ConfigError, match="fitted on model m"):
        again.check("other-model", 4)
    (tmp_path / "junk.safetensors").write_bytes(b"not a head")
    with pytest.raises(ConfigError, match="not a head file"):
        Head.load(tmp_path / "junk.safetensors")
    with pytest.raises(ConfigError, match="onepass tune"):
        Head.load(tmp_path / "missing.safetensors")


def test_config_refuses_a_head_readout_without_a_head():
    with pytest.raises(ConfigError, match="--head PATH"):
        EngineConfig(readout="head")
    with pytest.raises(ConfigError, match="--backend embedded"):
        EngineConfig(head="h.safetensors", backend="vllm", backend_url="http://127.0.0.1:1", model="m")


def test_a_request_for_the_head_without_one_is_a_422_saying_what_to_do(tiny):
    assert "head" not in tiny.model_list()[0]["x_readouts"]  # not offered where it cannot answer
    with pytest.raises(RequestInvalid) as caught:
        tiny.decide({**labelled(1)[0]["request"], "x_readout": "head"})
    assert caught.value.status == 422 and "--head PATH" in str(caught.value) and "onepass tune" in str(caught.value)


# -- onepass tune, then serving the head to the SDK ---------------------------------------------------------


@pytest.fixture(scope="module")
def tuned(tiny_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("tuned")
    data = root / "labelled.jsonl"
    data.write_text("".join(json.dumps(item) + "\n" for item in labelled()))
    out = root / "head.safetensors"
    argv = ["tune", "--model", str(tiny_dir), "--dtype", "float32", "--data", str(data), "--out", str(out),
            "--features", str(root / "features.npz"), "--penalty", "0.001", "--min-items", "5"]
    assert cli.main(argv) == 0
    return out, argv, root


def test_tune_fits_a_head_that_reads_what_the_random_model_cannot(tiny_dir, tuned):
    out, _argv, root = tuned
    head = Head.load(out)
    assert set(head.types) == {"noul", "choice"} and head.hidden_size == 64 and head.meta["items"] == 36
    engine = Engine(str(tiny_dir), dtype="float32", calibration=None, head=str(out), log=lambda _m: None)
    examples = {e.id: e for e in head_fit.extract(engine, labelled(), root / "features.npz")}
    right = {"head": 0, "isolated": 0}
    for item in labelled():
        for family in right:
            answer = engine.decide({**item["request"], "x_readout": family})["answers"]["q"]
            probs = (np.array([answer["noul"], 1 - answer["noul"]]) if answer["type"] == "noul"
                     else np.array([answer["probabilities"][k] for k in TEAMS]))
            right[family] += int(np.argmax(probs)) == examples[item["id"]].gold
            if family == "head":  # what the server answers is what the fit predicted from the same features
                fitted = head_fit.predict(head.types[answer["type"]], [examples[item["id"]]])[0]
                assert np.allclose(probs, fitted, atol=1e-4)
    # A random model's own reading is near chance; the fitted head reads the keyword from its hidden states.
    assert right["head"] >= right["isolated"] + 10, right


def test_tune_resumes_from_its_features_and_refuses_bad_data(tuned, tmp_path, capsys):
    out, argv, root = tuned
    again = [str(tmp_path / "again.safetensors") if a == str(out) else a for a in argv]
    stamp = (root / "features.npz").stat().st_mtime_ns
    # Resuming reads each stored array once, not once per item: a slice of a re-read array keeps that whole
    # copy alive, which took a 1,200-item features file past 24 GB.
    reads, real_load = [], np.load

    class Counting:
        def __init__(self, *a, **k):
            self.data = real_load(*a, **k)

        def __getitem__(self, name):
            reads.append(name)
            return self.data[name]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(np, "load", Counting)
        assert cli.main(again) == 0 and (root / "features.npz").stat().st_mtime_ns == stamp  # nothing recomputed
    assert reads.count("h") == 1 and reads.count("z") == 1, reads
    assert Head.load(tmp_path / "again.safetensors").id == Head.load(out).id  # same features, same fit
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**labelled(1)[1], "gold": "legal"}) + "\n")
    assert cli.main(["tune", "--data", str(bad), "--out", str(tmp_path / "x.safetensors")]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err


def test_the_sdk_gets_head_answers_from_the_server(tiny_dir, tuned):
    out, _argv, _root = tuned
    engine = Engine(str(tiny_dir), dtype="float32", calibration=None, head=str(out), log=lambda _m: None)
    assert "head" in engine.model_list()[0]["x_readouts"]
    settings = ServerConfig()
    state = "Ticket 99: I was charged twice, please refund one payment."
    with LoopbackServer(create_app(engine, settings), settings) as s, \
            TypeSafeClient(base_url=s.url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=60) as client:
        got = client.system_one(state=state, questions={"n": Noul(instructions="Is this about billing?"),
                                                        "c": Choice(instructions="Which team?", criteria=TEAMS)},
                                extra_body={"x_readout": "head"})
        assert 0.0 <= got.nouls["n"].noul <= 1.0 and abs(sum(got.choices["c"].probabilities.values()) - 1) < 1e-9
        # The same request in-process gives the same numbers (one pipeline).
        local = engine.decide({"model": "jev-latest", "state": state, "x_readout": "head",
                               "questions": {"c": {"type": "choice", "instructions": "Which team?", "criteria": TEAMS}}})
        assert local["answers"]["c"]["x_head"] == Head.load(out).id
        for name, p in local["answers"]["c"]["probabilities"].items():
            assert abs(p - got.choices["c"].probabilities[name]) < 1e-6
        with pytest.raises(TypeSafeAPIError) as caught:  # the head was not fitted for score questions
            client.system_one(state=state, questions={"s": {"type": "score", "instructions": "How urgent?",
                                                            "criteria": ["low", "high"]}}, extra_body={"x_readout": "head"})
        assert caught.value.status == 422 and "score" in str(caught.value) and "choice" in str(caught.value)


def test_head_choices_do_not_depend_on_option_order(tiny_dir, tuned):
    out, _argv, _root = tuned
    engine = Engine(str(tiny_dir), dtype="float32", calibration=None, head=str(out), log=lambda _m: None)
    state = "Ticket 5: the courier left my parcel at the wrong door."
    seen = []
    for order in permutations(TEAMS):
        answer = engine.decide({"model": "jev-latest", "state": state, "x_readout": "head", "questions": {
            "c": {"type": "choice", "instructions": "Which team?", "criteria": {k: TEAMS[k] for k in order}}}})["answers"]["c"]
        seen.append(answer["probabilities"])
    for probs in seen[1:]:
        assert all(abs(probs[k] - seen[0][k]) < 1e-5 for k in TEAMS)
