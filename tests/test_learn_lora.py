"""A LoRA adapter as a `onepass learn` method: trained per question on the served prompt, chosen on
validation against the other methods, kept in the adapter as PEFT's directory, resumed from its cache,
and served by name (in-process over the one base model, on vLLM as its LoRA module) to the official SDK,
with the answers the trained weights give and the base model's answers untouched."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np
import pytest
import torch
from typesafe_sdk import Choice, Noul, RetryPolicy, TypeSafeClient

from onepass import Engine
from onepass.config import ServerConfig
from onepass.errors import ConfigError
from onepass.learn import serving
from onepass.learn.adapter import Adapter
from onepass.learn.lora import load_lora
from onepass.readouts.base import softmax
from onepass.server import create_app
from tests.test_hardening_support import LoopbackServer
from tests.test_learn import QUESTIONS, learn, task  # noqa: F401  (task: the synthetic two-question fixture)
from tests.test_remote_backends import REQUEST, SERVED, assert_same, engine_on, tiny  # noqa: F401  (fixtures)

STATE = "Hi, it's about the app crashing on start (case 99). I want my money back."


@pytest.fixture(scope="module")
def lora_adapter(task, tmp_path_factory):  # noqa: F811
    out = tmp_path_factory.mktemp("lora-adapters") / "tickets"
    assert learn(task, out, "smollm2-135m", "--methods", "zero-shot,lora") == 0
    return out


@pytest.fixture(scope="module")
def served(lora_adapter):
    engine = Engine("smollm2-135m", dtype="float32", adapters=(str(lora_adapter),), log=lambda _m: None)
    settings = ServerConfig()
    with LoopbackServer(create_app(engine, settings), settings) as server:
        yield engine, server


def test_the_adapter_keeps_each_questions_peft_directory_and_its_numbers(lora_adapter):
    manifest = json.loads((lora_adapter / "manifest.json").read_text())
    assert manifest["methods_tried"] == ["zero-shot", "lora"]
    for qid, entry in manifest["questions"].items():
        assert {"zero-shot", "lora"} <= set(entry["test"]) and entry["test"]["lora"]["n"] == entry["counts"]["test"]
        detail = entry["details"]["lora"]
        folder = lora_adapter / detail["dir"]
        assert (folder / "adapter_config.json").is_file() and (folder / "adapter_model.safetensors").is_file()
        config = json.loads((folder / "adapter_config.json").read_text())
        assert config["r"] == 8 and config["layers_to_transform"] == detail["layers"] == [28, 29]
        assert detail["trainable_parameters"] > 0 and detail["best_epoch"] >= 0 and entry["temperature"] >= 1.0
        # chosen on validation: lora only where its validation log loss beats zero-shot's on the same items
        v = entry["validation"]
        assert (entry["chosen"] == "lora") == (v["lora"]["nll"] < v["zero-shot"]["nll"])
    # on this task the trained weights beat SmolLM2's chance-level reading of the team question on validation
    assert manifest["questions"]["team"]["chosen"] == "lora"
    assert "| lora" in (lora_adapter / "report.md").read_text()


def test_a_rerun_reuses_the_finished_training(task, lora_adapter, monkeypatch):  # noqa: F811
    import onepass.learn.lora as lora

    before = json.loads((lora_adapter / "manifest.json").read_text())
    monkeypatch.setattr(lora, "train_lora", lambda *a, **k: pytest.fail("trained again instead of resuming"))
    assert learn(task, lora_adapter, "smollm2-135m", "--methods", "zero-shot,lora") == 0
    after = json.loads((lora_adapter / "manifest.json").read_text())
    assert after["questions"]["team"]["test"] == before["questions"]["team"]["test"]


def test_the_lora_adapter_is_served_by_name_with_the_trained_weights_answers(lora_adapter, served):
    engine, server = served
    entry = json.loads((lora_adapter / "manifest.json").read_text())["questions"]["team"]
    fit = load_lora(engine, lora_adapter / entry["details"]["lora"]["dir"])
    want = softmax(fit.score_states([STATE])[0], entry["temperature"])
    with TypeSafeClient(base_url=server.url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=120) as client:
        base_before = client.system_one(state=STATE, model="smollm2-135m", questions={
            "t": Choice(instructions=QUESTIONS["team"]["instructions"], criteria=QUESTIONS["team"]["criteria"])})
        got = client.system_one(state=STATE, model="tickets", questions={
            "t": Choice(instructions=QUESTIONS["team"]["instructions"], criteria=QUESTIONS["team"]["criteria"]),
            "other": Noul(instructions="Is the customer polite?")})
        base_after = client.system_one(state=STATE, model="smollm2-135m", questions={
            "t": Choice(instructions=QUESTIONS["team"]["instructions"], criteria=QUESTIONS["team"]["criteria"])})
    got_p = [got.choices["t"].probabilities[k] for k in QUESTIONS["team"]["criteria"]]
    assert max(abs(g - w) for g, w in zip(got_p, want)) < 1e-6
    base = [base_before.choices["t"].probabilities[k] for k in QUESTIONS["team"]["criteria"]]
    assert base == [base_after.choices["t"].probabilities[k] for k in QUESTIONS["team"]["criteria"]]
    assert max(abs(g - b) for g, b in zip(got_p, base)) > 1e-3  # the adapter's weights change the answer
    body = httpx.post(f"{server.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=120, json={
        "model": "tickets", "state": STATE, "questions": {"t": QUESTIONS["team"]}}).json()
    assert body["answers"]["t"]["x_adapter"] == {"name": "tickets", "question": "team", "method": "lora"}
    assert 0 < body["answers"]["t"]["x_label_mass"] <= 1


def test_adapter_and_base_answers_do_not_depend_on_what_else_is_in_flight(served):
    engine, server = served
    states = [STATE, "Hi, it's about a parcel stuck in the depot. Please help.", "An invoice with the wrong VAT number."]

    def ask(job):
        model, state = job
        return httpx.post(f"{server.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=300, json={
            "model": model, "state": state, "questions": QUESTIONS}).json()["answers"]

    jobs = [(m, s) for s in states for m in ("tickets", "smollm2-135m")]
    alone = [ask(job) for job in jobs]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(ask, jobs * 2))
    for n, answers in enumerate(together):
        want = alone[n % len(jobs)]
        assert abs(answers["refund"]["noul"] - want["refund"]["noul"]) < 1e-6
        assert max(abs(answers["team"]["probabilities"][k] - want["team"]["probabilities"][k]) for k in QUESTIONS["team"]["criteria"]) < 1e-6


class LoraSide:
    """What the fake vLLM computes for a LoRA module: the PEFT model's own forward (not onepass's read)."""

    def __init__(self, peft):
        self.peft = peft

    def logprobs(self, prompt: list[int]) -> np.ndarray:
        with torch.inference_mode():
            logits = self.peft(input_ids=torch.tensor([prompt])).logits[0, -1].float()
        return torch.log_softmax(logits, -1).double().numpy()


@pytest.fixture(scope="module")
def remote_lora(tiny, tmp_path_factory):  # noqa: F811
    """An adapter whose `angry` question is a LoRA adapter trained on the remote tests' tiny model."""
    from onepass.learn.adapter import AdapterQuestion
    from onepass.learn.labels import question_signature
    from onepass.learn.lora import train_lora
    from onepass.learn.methods import Fitted
    from onepass.wire import parse_request

    local = tiny.embedded()
    question = parse_request(REQUEST).questions["angry"]
    states = [f"Ticket {n}: the customer is {'furious' if n % 2 else 'happy'} about the order." for n in range(12)]
    folder = tmp_path_factory.mktemp("remote-lora")
    # float32 throughout (no bf16 autocast): the fake engine computes the module's answers in float32
    # validated on its own training items: this checks serving, not learning, so the weights must move
    fit = train_lora(local, states, np.arange(12) % 2, question, np.arange(8), np.arange(8), rank=4, top_layers=1,
                     epochs=3, lr=3e-3, autocast=False, out_dir=folder / "lora-0", log=lambda _m: None, progress=False)
    manifest = {"base_model": {"id": SERVED}, "labels": {"items": 12}, "questions": {}}

    def make() -> Adapter:  # each engine loads its own (attach_lora gives its questions that engine's runner)
        learned = AdapterQuestion("angry", REQUEST["questions"]["angry"], "lora",
                                  Fitted("lora", {}, {"dir": "lora-0", "rank": 4}), 1.2, False, False)
        return Adapter("learned", folder, manifest, {question_signature(question.model_dump(mode="json")): learned})

    return make, fit


def test_a_lora_adapter_is_served_on_vllm_as_its_lora_module(tiny, engine_on, remote_lora):  # noqa: F811
    make, fit = remote_lora
    module = serving.lora_module(make(), next(iter(make().questions.values())))
    assert module == "learned-lora-0"
    remote, fake = engine_on("vllm", loras={module: LoraSide(fit.peft)})
    local = tiny.embedded()
    request = {**REQUEST, "model": "learned"}
    remote.adapters["learned"], local.adapters["learned"] = make(), make()
    try:
        serving.attach_lora(remote.adapters, remote)
        serving.attach_lora(local.adapters, local)
        got, want = remote.decide(request), local.decide(request)
    finally:
        del local.adapters["learned"]
    assert_same(want, got, 1e-5)
    assert got["answers"]["angry"]["x_adapter"] == {"name": "learned", "question": "angry", "method": "lora"}
    assert {body["model"] for body in fake.reads("/v1/completions")} == {SERVED, module}
    # the module's weights move the answer: the comparison means something
    assert abs(local.decide(REQUEST)["answers"]["angry"]["noul"] - got["answers"]["angry"]["noul"]) > 1e-3


def test_a_lora_adapter_vllm_does_not_serve_or_sglang_is_refused_with_what_to_do(engine_on, remote_lora):  # noqa: F811
    make, _fit = remote_lora
    vllm, _ = engine_on("vllm")
    with pytest.raises(ConfigError, match=r"--enable-lora --max-lora-rank 8 --lora-modules learned-lora-0=/"):
        serving.attach_lora({"learned": make()}, vllm)
    sglang, _ = engine_on("sglang")
    with pytest.raises(ConfigError, match="not on sglang; serve it with --backend embedded or --backend vllm"):
        serving.attach_lora({"learned": make()}, sglang)
