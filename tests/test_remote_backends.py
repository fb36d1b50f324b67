"""Remote backends against in-process fake vLLM and SGLang servers (always on, a few seconds).

The fakes reproduce the engines' request and response shapes (checked against vLLM 0.32's and SGLang's
source) and compute their numbers with a tiny random Qwen3 through transformers. The same weights behind
onepass's embedded backend give the reference, so "same numbers" is checked, not assumed.
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from dataclasses import dataclass, field

import httpx
import numpy as np
import pytest
import tinymodel
import torch
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from onepass import Engine
from onepass.backends.base import Backend, Capabilities, Continuation, Read
from onepass.backends.embedded import EmbeddedBackend
from onepass.backends.engine_client import EngineClient, RetryPolicy
from onepass.backends.remote import RemoteConfigError, group_reads
from onepass.config import EngineConfig, ServerConfig
from onepass.engine_setup import build_remote_engine
from onepass.errors import APIError, RequestInvalid
from onepass.readouts import HIDDEN_STATE_FAMILIES, READOUTS
from onepass.readouts.base import softmax
from onepass.server import create_app
from tests.conftest import ServerThread, free_port

SERVED = "tiny-qwen3"
FAST = RetryPolicy(retries=2, backoff_s=0.01, max_backoff_s=0.05, deadline_s=10)

REQUEST = {
    "model": SERVED,
    "state": {"ticket": "The parcel arrived two weeks late and the box was broken.", "customer": "angry"},
    "questions": {
        "angry": {"type": "noul", "instructions": "Is the customer angry?"},
        "topic": {"type": "choice", "criteria": {"refund": "wants money back", "shipping": "late delivery", "praise": None}},
        "stars": {"type": "score", "criteria": ["terrible", "bad", "okay", "good", "great"]},
        "ok": {"type": "noul", "criteria": {"true": "the product works", "false": "the product is broken"}},
    },
}


# -- the model both sides compute with -------------------------------------------------------------------


class Tiny:
    def __init__(self, directory):
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.dir = directory
        self.tokenizer = AutoTokenizer.from_pretrained(directory)
        self.model = AutoModelForCausalLM.from_pretrained(directory, dtype=torch.float32).eval()
        self._cache: dict[tuple, np.ndarray] = {}
        self._answers: dict[str, dict] = {}
        self._lock = threading.Lock()

    def logprobs(self, prompt: list[int]) -> np.ndarray:
        """Full-vocabulary next-token log-probabilities after `prompt` (one plain forward, no cache)."""
        key = tuple(prompt)
        with self._lock:
            if key not in self._cache:
                with torch.inference_mode():
                    logits = self.model(torch.tensor([prompt])).logits[0, -1].float()
                self._cache[key] = torch.log_softmax(logits, -1).double().numpy()
            return self._cache[key]

    def embedded(self) -> Engine:
        if not hasattr(self, "_engine"):
            self._engine = Engine(None, backend=EmbeddedBackend(self.model, self.tokenizer), tokenizer=self.tokenizer,
                                  model_id=SERVED)
        return self._engine

    def reference(self, request: dict) -> dict:
        """The embedded engine's answer (memoised: many tests compare against the same request)."""
        key = json.dumps(request, sort_keys=True)
        if key not in self._answers:
            self._answers[key] = self.embedded().decide(request)
        return self._answers[key]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Tiny:
    return Tiny(tinymodel.build(tmp_path_factory.mktemp("tiny")))


# -- fake engines -----------------------------------------------------------------------------------------


@dataclass
class Fake:
    """Shared state of a fake engine: what it received, and faults to inject into its read endpoints."""

    tiny: Tiny
    kind: str = "vllm"  # vllm | sglang
    version: str = "new"  # vllm: new (logprob_token_ids) | old (top-k only) | ancient (token text keys)
    max_logprobs: int = 20  # vLLM's --max-logprobs default
    score_route: bool = True  # sglang: /v1/score present
    token_logprobs: bool = True  # sglang: /v1/score returns token_logprobs
    mis_delimiter: int | None = None  # sglang: multi-item scoring on (query<d>item<d>, read after the last <d>)
    tokenize_offset: int = 0  # != 0: the engine's tokenizer disagrees with onepass's
    faults: list = field(default_factory=list)  # consumed one per read request: ("status", code, headers) | ("sleep", s) | ("garbage",)
    requests: list = field(default_factory=list)  # (path, body, headers)
    loras: dict = field(default_factory=dict)  # vLLM LoRA modules: served name -> an object with .logprobs(prompt)

    def reads(self, path: str) -> list[dict]:
        return [body for p, body, _ in self.requests if p == path]


def vllm_error(status: int, message: str, kind: str = "BadRequestError") -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "param": None, "code": status}}, status_code=status)


def sglang_error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"object": "error", "message": message, "type": "BadRequestError", "param": None, "code": status},
                        status_code=status)


async def apply_fault(fake: Fake):
    if not fake.faults:
        return None
    fault = fake.faults.pop(0)
    if fault[0] == "status":
        _, status, headers = fault
        return JSONResponse({"error": {"message": f"injected {status}", "type": "X", "code": status}},
                            status_code=status, headers=headers)
    if fault[0] == "sleep":
        await asyncio.sleep(fault[1])
        return None
    if fault[0] == "garbage":
        return JSONResponse({"choices": [], "scores": []})
    raise AssertionError(fault)


def make_app(fake: Fake) -> FastAPI:
    app = FastAPI()
    tok = fake.tiny.tokenizer

    @app.middleware("http")
    async def record(request: Request, call_next):
        body = await request.body()
        fake.requests.append((request.url.path, json.loads(body) if body else None, dict(request.headers)))
        return await call_next(request)

    @app.get("/v1/models")
    async def models():
        return {"object": "list", "data": [{"id": SERVED, "object": "model", "owned_by": fake.kind,
                                            "root": str(fake.tiny.dir), "max_model_len": 512},
                                           *({"id": name, "object": "model", "parent": SERVED} for name in fake.loras)]}

    tokenize_path = "/tokenize" if fake.kind == "vllm" else "/v1/tokenize"

    @app.post(tokenize_path)
    async def tokenize(request: Request):
        body = await request.json()
        ids = tok.encode(body["prompt"], add_special_tokens=body.get("add_special_tokens", True))
        ids = [i + fake.tokenize_offset if n == 3 else i for n, i in enumerate(ids)]
        return {"count": len(ids), "max_model_len": 512, "tokens": ids}

    if fake.kind == "vllm":

        @app.post("/v1/completions")
        async def completions(request: Request):
            body = await request.json()
            if body.get("model") != SERVED and body.get("model") not in fake.loras:
                return vllm_error(404, f"The model `{body.get('model')}` does not exist.", "NotFoundError")
            if (body.get("max_tokens") or 16) < 1:
                return vllm_error(400, f"max_tokens must be at least 1, got {body['max_tokens']}.")
            prompts = body["prompt"]
            if prompts and isinstance(prompts[0], int):
                prompts = [prompts]
            ids = body.get("logprob_token_ids") if fake.version == "new" else None
            k = body.get("logprobs")
            if ids is not None:
                if len(ids) > 128:
                    return vllm_error(400, f"Requested logprob_token_ids of length {len(ids)}, which is greater than max allowed: 128")
                if not k:
                    return vllm_error(400, "Requires logprobs to be set with logprob_token_ids")
            elif k and k > fake.max_logprobs:
                return vllm_error(400, f"Requested sample logprobs of {k}, which is greater than max allowed: {fake.max_logprobs} (parameter=logprobs, value={k})")
            if (fault := await apply_fault(fake)) is not None:
                return fault
            choices = []
            for index, prompt in enumerate(prompts):
                lp = fake.loras.get(body["model"], fake.tiny).logprobs(prompt)
                sampled = int(np.argmax(lp))
                wanted = ids if ids is not None else [int(i) for i in np.argsort(-lp)[:k]]
                top = {sampled: lp[sampled], **{int(i): lp[int(i)] for i in wanted}}

                def key(i):
                    return f"token_id:{i}" if body.get("return_tokens_as_token_ids") and fake.version != "ancient" else tok.decode([i])

                choices.append({"index": index, "text": tok.decode([sampled]), "finish_reason": "length", "stop_reason": None,
                                "logprobs": {"text_offset": [0], "token_logprobs": [float(lp[sampled])], "tokens": [key(sampled)],
                                             "top_logprobs": [{key(i): max(float(v), -9999.0) for i, v in top.items()}]}})
            n = sum(len(p) for p in prompts)
            return {"id": "cmpl-fake", "object": "text_completion", "created": 0, "model": SERVED, "choices": choices,
                    "usage": {"prompt_tokens": n, "completion_tokens": len(prompts), "total_tokens": n + len(prompts)}}

    else:
        if fake.score_route:

            @app.post("/v1/score")
            async def score(request: Request):
                body = await request.json()
                query, items, labels = body["query"], body["items"], body["label_token_ids"]
                if not isinstance(query, list) or not all(isinstance(i, list) for i in items):
                    return sglang_error(400, "Invalid combination of query/items types for score_request.")
                if (fault := await apply_fault(fake)) is not None:
                    return fault
                scores, logs = [], []
                for item in items:
                    d = [] if fake.mis_delimiter is None else [fake.mis_delimiter]
                    lp = fake.tiny.logprobs(query + d + item + d)
                    row = [float(lp[i]) for i in labels]
                    logs.append(row)
                    if body.get("apply_softmax"):
                        scores.append(softmax(np.array(row)).tolist())
                    else:
                        scores.append([math.exp(x) for x in row])
                out = {"scores": scores, "model": SERVED, "object": "scoring",
                       "usage": {"prompt_tokens": sum(len(query) + len(i) for i in items), "total_tokens": 0}}
                if fake.token_logprobs and body.get("return_token_logprobs"):
                    out["token_logprobs"] = logs
                return out

        @app.post("/generate")
        async def generate(request: Request):
            body = await request.json()
            if body.get("sampling_params", {}).get("max_new_tokens") != 0 or not body.get("return_logprob"):
                return sglang_error(400, "the fake only serves label reads")
            if (fault := await apply_fault(fake)) is not None:
                return fault
            single = body["input_ids"] and isinstance(body["input_ids"][0], int)
            prompts = [body["input_ids"]] if single else body["input_ids"]
            results = []
            for prompt in prompts:
                lp = fake.tiny.logprobs(prompt)
                entries = [[float(lp[i]), int(i), None] for i in body["token_ids_logprob"]]
                results.append({"text": "", "meta_info": {"id": "x", "prompt_tokens": len(prompt), "completion_tokens": 0,
                                                          "output_token_ids_logprobs": [entries], "finish_reason": {"type": "length"}}})
            return results[0] if single else results

    return app


# uvicorn on 127.0.0.1 in a thread, stopped on exit (the suite's shared helper).
Served = ServerThread


@pytest.fixture()
def engine_on(tiny):
    """engine_on(kind, **fake options) -> (remote Engine, Fake); servers stop at the end of the test."""
    stack = []

    def start(kind: str, key: str | None = None, engine_options: dict | None = None, **options):
        fake = Fake(tiny, kind=kind, **options)
        served = Served(make_app(fake)).__enter__()
        stack.append(served)
        opts = {"retry": FAST, "timeout_s": 5.0, **(engine_options or {})}
        engine = build_remote_engine(kind, served.url, SERVED, key, str(tiny.dir), log=lambda _m: None, **opts)
        return engine, fake

    yield start
    for served in stack:
        served.__exit__()


def probabilities(response: dict) -> dict[str, float]:
    """Every number a response carries, flattened: per-label probabilities, noul, label mass."""
    out = {}
    for qid, answer in response["answers"].items():
        for label, p in answer.get("probabilities", {}).items():
            out[f"{qid}.{label}"] = p
        if "noul" in answer:
            out[f"{qid}.noul"] = answer["noul"]
        out[f"{qid}.mass"] = answer["x_label_mass"]
    return out


def assert_same(a: dict, b: dict, tol: float) -> float:
    pa, pb = probabilities(a), probabilities(b)
    assert pa.keys() == pb.keys()
    diff = max(abs(pa[k] - pb[k]) for k in pa)
    assert diff < tol, (diff, pa, pb)
    return diff


# -- same numbers ------------------------------------------------------------------------------------------


def test_fixture_model_is_far_from_uniform(tiny):
    """The comparisons below only mean something if the answers are not all near uniform."""
    response = tiny.reference(REQUEST)
    spread = [max(a["probabilities"].values()) for a in response["answers"].values() if "probabilities" in a]
    assert max(spread) > 0.6
    assert any(abs(a["noul"] - 0.5) > 0.1 for a in response["answers"].values() if "noul" in a)


@pytest.mark.parametrize("kind,options", [
    ("vllm", {}),
    ("sglang", {}),  # /v1/score with token_logprobs
    ("sglang", {"token_logprobs": False}),  # older /v1/score: log of the scores
    ("sglang", {"score_route": False}),  # no /v1/score: /generate with max_new_tokens 0
])
def test_remote_matches_embedded(tiny, engine_on, kind, options):
    engine, fake = engine_on(kind, **options)
    reference = tiny.reference(REQUEST)
    remote = engine.decide(REQUEST)
    assert_same(reference, remote, 1e-5)
    assert remote["usage"] == reference["usage"] and remote["model"] == SERVED
    assert engine.backend.tokenizer_checked  # the probe compared tokenizers through the engine's /tokenize


def test_vllm_batches_a_request_into_one_call(tiny, engine_on):
    engine, fake = engine_on("vllm")
    fake.requests.clear()
    engine.decide(REQUEST)
    calls = fake.reads("/v1/completions")
    assert len(calls) == 1
    call = calls[0]
    prefix = engine.renderer.prefix(REQUEST["state"])
    assert len(call["prompt"]) == len(REQUEST["questions"])
    assert all(p[: len(prefix)] == prefix for p in call["prompt"])
    assert call["max_tokens"] == 1 and call["temperature"] == 0 and call["logprobs"] == 1
    assert call["return_tokens_as_token_ids"] is True
    labels = set(engine.renderer.yes_no) | set(engine.renderer.levels[:5]) | set(engine.renderer.choice_ids[:3])
    assert set(call["logprob_token_ids"]) == labels and len(call["logprob_token_ids"]) == len(labels)


def test_sglang_score_request_shape_keeps_mass_outside_labels(tiny, engine_on):
    engine, fake = engine_on("sglang")
    fake.requests.clear()
    response = engine.decide(REQUEST)
    (call,) = fake.reads("/v1/score")
    prefix = engine.renderer.prefix(REQUEST["state"])
    assert call["query"] == prefix and len(call["items"]) == len(REQUEST["questions"])
    assert call["apply_softmax"] is False and call["return_token_logprobs"] is True
    # x_label_mass is the labels' full-vocabulary mass, from the engine's unnormalised numbers.
    question = engine.renderer.question(engine.validate(REQUEST).questions["angry"])
    lp = tiny.logprobs(prefix + question.suffix)
    assert response["answers"]["angry"]["x_label_mass"] == pytest.approx(np.exp(lp[question.label_ids]).sum(), rel=1e-6)
    assert response["answers"]["angry"]["x_label_mass"] < 0.5


def test_sglang_multi_item_scoring_server_is_detected_and_avoided(tiny, engine_on):
    """With --enable-mis, /v1/score reads query<d>item<d>: other numbers. The probe sees it and uses /generate."""
    engine, fake = engine_on("sglang", mis_delimiter=7)
    assert engine.backend.route == "generate"
    assert_same(tiny.reference(REQUEST), engine.decide(REQUEST), 1e-5)


def test_sglang_generate_request_shape(tiny, engine_on):
    engine, fake = engine_on("sglang", score_route=False)
    assert engine.backend.route == "generate"
    fake.requests.clear()
    engine.decide(REQUEST)
    (call,) = fake.reads("/generate")
    assert call["sampling_params"] == {"max_new_tokens": 0} and call["return_logprob"] is True
    assert call["logprob_start_len"] == -1 and len(call["input_ids"]) == len(REQUEST["questions"])


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_arbitrary_reads_match_embedded(tiny, engine_on, kind):
    """Backend.logprobs itself: empty suffix, repeated and unordered ids, different id sets per read."""
    engine, fake = engine_on(kind)
    prefix = tiny.tokenizer.encode("<|im_start|>user\nThe box was broken", add_special_tokens=False)
    reads = [
        Read([], [5, 9, 5]),
        Read(tiny.tokenizer.encode(" Yes", add_special_tokens=False), [300, 2, 17]),
        Read([40, 41, 42, 43, 44, 45], list(range(30, 50))),
        Read([7], [len(tiny.tokenizer) - 1]),
    ]
    got = engine.backend.logprobs(prefix, reads)
    for g, read in zip(got, reads):  # against one plain forward of prefix + suffix
        assert g.shape == (len(read.token_ids),) and g.dtype == np.float64 and not np.isnan(g).any()
        np.testing.assert_allclose(g, tiny.logprobs(prefix + read.suffix)[read.token_ids], atol=1e-6)
    # and against the embedded backend (which cannot take an empty suffix: see the report on embedded.py)
    want = EmbeddedBackend(tiny.model, tiny.tokenizer).logprobs(prefix, reads[1:])
    for g, w in zip(got[1:], want):
        np.testing.assert_allclose(g, w, atol=1e-5)


def test_vllm_splits_label_sets_over_128_ids(tiny, engine_on):
    engine, fake = engine_on("vllm")
    fake.requests.clear()
    prefix = tiny.tokenizer.encode("Rate it", add_special_tokens=False)
    reads = [Read([11], list(range(3, 203))), Read([12, 13], [250, 3])]
    got = engine.backend.logprobs(prefix, reads)
    calls = fake.reads("/v1/completions")
    # 200 ids for the first read: two calls on its prompt; the second read does not fit the union: a third.
    assert [len(c["prompt"]) for c in calls] == [1, 1, 1]
    assert [len(c["logprob_token_ids"]) for c in calls] == [128, 72, 2]
    for read, g in zip(reads, got):
        np.testing.assert_allclose(g, tiny.logprobs(prefix + read.suffix)[read.token_ids], atol=1e-6)


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
@pytest.mark.parametrize("readout", sorted(set(READOUTS) - HIDDEN_STATE_FAMILIES))
def test_every_readout_family_works_remotely(tiny, engine_on, kind, readout):
    """All readouts reach logits through Backend.logprobs (continuations too, one read per token), so every
    registered family gives the embedded numbers on both remote backends."""
    engine, fake = engine_on(kind)
    fake.requests.clear()
    request = {**REQUEST, "x_readout": readout}
    remote = engine.decide(request)
    reference = tiny.reference(request)
    assert_same(reference, remote, 1e-5)
    # auto reports the family that read each answer: slot, as no profile names another here
    assert {a["x_readout"] for a in remote["answers"].values()} == ({"slot"} if readout == "auto" else {readout})
    path = "/v1/completions" if kind == "vllm" else "/v1/score"
    calls = fake.reads(path)
    prefix = engine.renderer.prefix(REQUEST["state"])
    assert calls and all(
        (p[: len(prefix)] == prefix for p in c["prompt"]) if kind == "vllm" else c["query"] == prefix for c in calls
    )


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_a_remote_engine_refuses_the_head_family_with_a_422(engine_on, kind):
    """The head reads hidden states, which a remote engine does not hand out: a 422 saying so, and the
    backend declares it (no probing)."""
    engine, _fake = engine_on(kind)
    assert not engine.backend.capabilities.hidden_states
    with pytest.raises(RequestInvalid) as caught:
        engine.decide({**REQUEST, "x_readout": "head"})
    assert caught.value.status == 422 and "--head" in str(caught.value)


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_remote_backends_follow_the_backend_contract(tiny, engine_on, kind):
    """Declared capabilities, a plain max_context read from the served card when built (no I/O on access),
    float64 arrays, and continuations through the contract's default (one read per token)."""
    engine, fake = engine_on(kind)
    backend = engine.backend
    assert Backend in type(backend).__mro__  # subclassed explicitly (a Protocol: no isinstance)
    assert backend.capabilities == Capabilities(reentrant=True, may_miss_labels=True)
    assert "max_context" in vars(backend) and backend.max_context == 511  # max_model_len 512, one kept for the read
    fake.requests.clear()
    assert backend.max_context == 511 and not fake.requests
    prefix = tiny.tokenizer.encode("<|im_start|>user\nThe box was broken", add_special_tokens=False)
    (options,) = backend.continuations(prefix, [Continuation([11, 12], [[40, 41], [50]])])
    for option, lp in zip([[40, 41], [50]], options):
        assert lp.dtype == np.float64
        want = [tiny.logprobs(prefix + [11, 12] + option[:j])[t] for j, t in enumerate(option)]
        np.testing.assert_allclose(lp, want, atol=1e-6)


def test_group_reads_packs_calls_within_engine_limits():
    reads = [Read([i], [1000 + i]) for i in range(200)]  # continuation-style: one distinct id per read
    groups = group_reads(reads, max_prompts=64, max_ids=128)
    assert [len(g) for g, _ in groups] == [64, 64, 64, 8]
    assert sorted(i for g, _ in groups for i in g) == list(range(200))
    wide = group_reads([Read([1], list(range(300))), Read([2], [5])], max_prompts=64, max_ids=128)
    assert [(g, [len(c) for c in ids]) for g, ids in wide] == [([0, 1], [128, 128, 44])]
    split = group_reads([Read([1], list(range(100))), Read([2], list(range(100, 150)))], max_prompts=64, max_ids=128)
    assert [g for g, _ in split] == [[0], [1]]


# -- old vLLM: top-k fallback and missing labels ------------------------------------------------------------


def test_old_vllm_falls_back_to_topk_and_reads_exact_numbers_when_labels_come_back(tiny, engine_on):
    vocab = len(tiny.tokenizer)
    engine, fake = engine_on("vllm", version="old", max_logprobs=vocab)
    backend = engine.backend
    assert backend.mode == "top_k" and backend.top_k == vocab
    # The probe asked for logprob_token_ids first, then for 1000 (refused), then for what the server allows.
    completions = fake.reads("/v1/completions")
    assert "logprob_token_ids" in completions[0]
    assert [c["logprobs"] for c in completions[1:]] == [1000, vocab]
    reference = tiny.reference(REQUEST)
    assert_same(reference, engine.decide(REQUEST), 1e-5)


def test_old_vllm_flags_labels_outside_topk_and_does_not_count_their_mass(tiny, engine_on):
    engine, fake = engine_on("vllm", version="old", max_logprobs=20)
    backend = engine.backend
    assert backend.top_k == 20
    prefix = tiny.tokenizer.encode("<|im_start|>user\nIs it late?", add_special_tokens=False)
    lp = tiny.logprobs(prefix)
    order = [int(i) for i in np.argsort(-lp)]
    inside, outside = order[:3], order[-2:]
    (got,) = backend.logprobs(prefix, [Read([], inside + outside)])
    assert got.dtype == np.float64 and list(np.isnan(got)) == [False] * 3 + [True] * 2  # NaN: exactly `outside`
    np.testing.assert_allclose(got[:3], lp[inside], atol=1e-6)
    assert np.nansum(np.exp(got)) == pytest.approx(np.exp(lp[inside]).sum(), rel=1e-9)  # missing mass is not counted
    assert backend.stats["missing_labels"] == 2

    # Through the engine: every label's mass comes only from labels that came back.
    response = engine.decide(REQUEST)
    for qid, question in engine.validate(REQUEST).questions.items():
        rendered = engine.renderer.question(question)
        full = tiny.logprobs(engine.renderer.prefix(REQUEST["state"]) + rendered.suffix)
        top = set(int(i) for i in np.argsort(-full)[:20])
        present = [i for i in rendered.label_ids if i in top]
        assert response["answers"][qid]["x_label_mass"] == pytest.approx(float(np.exp(full[present]).sum()), abs=1e-9)


def test_old_vllm_strict_mode_refuses_missing_labels(tiny, engine_on):
    engine, fake = engine_on("vllm", version="old", max_logprobs=20, engine_options={"on_missing": "error"})
    prefix = tiny.tokenizer.encode("<|im_start|>user\nIs it late?", add_special_tokens=False)
    lowest = int(np.argmin(tiny.logprobs(prefix)))
    with pytest.raises(APIError) as caught:
        engine.backend.logprobs(prefix, [Read([], [lowest])])
    assert caught.value.status == 502 and caught.value.error_type == "engine_error" and str(lowest) in caught.value.message


def test_vllm_token_text_keys_are_refused_at_startup(tiny, engine_on):
    with pytest.raises(RemoteConfigError, match="token text"):
        engine_on("vllm", version="ancient")


# -- start-up checks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_wrong_model_name_fails_at_startup_naming_the_served_one(tiny, kind):
    fake = Fake(tiny, kind=kind)
    with Served(make_app(fake)) as served:
        with pytest.raises(RemoteConfigError, match=SERVED):
            build_remote_engine(kind, served.url, "other-model", None, str(tiny.dir), retry=FAST, log=lambda _m: None)


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_tokenizer_mismatch_fails_at_startup(tiny, engine_on, kind):
    with pytest.raises(RemoteConfigError, match="tokenizer does not match"):
        engine_on(kind, tokenize_offset=1)


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_an_engine_config_builds_the_remote_engine(tiny, kind):
    """The server's path: one EngineConfig names the engine, its client settings and the Engine's own."""
    with Served(make_app(Fake(tiny, kind=kind))) as served:
        config = EngineConfig(backend=kind, backend_url=served.url, model=SERVED, tokenizer=str(tiny.dir),
                              backend_timeout_s=7.0, backend_retries=2, backend_dp_size=3, readout="isolated")
        engine = build_remote_engine(config, log=lambda _m: None)
        backend = engine.backend
        assert backend.name == kind and backend.probed and backend.max_context == 511
        assert backend.client.retry.retries == 2 and backend.client._client.timeout.read == 7.0
        assert getattr(backend, "data_parallel_size", None) == (3 if kind == "vllm" else None)
        assert engine.default_readout == "isolated" and engine.info.id == SERVED
        request = {**REQUEST, "x_readout": "isolated"}
        assert_same(tiny.reference(request), engine.decide(REQUEST), 1e-5)


def test_tokenizer_path_required_when_model_is_not_local(tiny):
    with pytest.raises(RemoteConfigError, match="--tokenizer"):
        build_remote_engine("vllm", "http://127.0.0.1:9", "org/some-hub-model", log=lambda _m: None)


def test_backend_key_is_sent_and_never_echoed(tiny, engine_on):
    engine, fake = engine_on("vllm", key="engine-secret-key")
    assert fake.requests and all(h.get("authorization") == "Bearer engine-secret-key" for _, _, h in fake.requests)
    fake.faults[:] = [("status", 500, {})] * 3
    with pytest.raises(APIError) as caught:
        engine.decide(REQUEST)
    assert "engine-secret-key" not in caught.value.message


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_reads_carry_a_state_affinity_header(tiny, engine_on, kind):
    """Routers can hash on x-onepass-state: equal for one state, different for another, no content in it."""
    engine, fake = engine_on(kind)
    path = "/v1/completions" if kind == "vllm" else "/v1/score"

    def keys(request):
        fake.requests.clear()
        engine.decide(request)
        return {h.get("x-onepass-state") for p, _, h in fake.requests if p == path}

    first = keys(REQUEST)
    again = keys({**REQUEST, "questions": {"other": {"type": "noul", "instructions": "Is it spam?"}}})
    other = keys({**REQUEST, "state": "A different ticket."})
    assert len(first) == 1 and None not in first and first == again
    assert other.isdisjoint(first) and len(other) == 1
    assert "parcel" not in next(iter(first))


def test_vllm_data_parallel_rank_is_pinned_by_state(tiny, engine_on):
    engine, fake = engine_on("vllm", engine_options={"data_parallel_size": 4})

    def ranks(request):
        fake.requests.clear()
        engine.decide(request)
        return {h.get("x-data-parallel-rank") for p, _, h in fake.requests if p == "/v1/completions"}

    seen = [ranks({**REQUEST, "state": f"Ticket {i}: the box was broken."}) for i in range(12)]
    assert all(len(r) == 1 for r in seen)  # every call about one state goes to one rank
    assert ranks({**REQUEST, "state": "Ticket 3: the box was broken."}) == seen[3]
    assert {int(next(iter(r))) for r in seen} <= set(range(4)) and len(set(map(frozenset, seen))) > 1


def test_engine_refusing_the_key_fails_at_startup_naming_the_flag(tiny):
    app = FastAPI()

    @app.get("/v1/models")
    async def models():
        return JSONResponse({"error": {"message": "Unauthorized", "type": "Unauthorized", "code": 401}}, status_code=401)

    with Served(app) as served:
        with pytest.raises(RemoteConfigError, match="--backend-key"):
            build_remote_engine("vllm", served.url, SERVED, "wrong", str(tiny.dir), retry=FAST, log=lambda _m: None)


# -- engine errors --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_retries_5xx_and_429_then_succeeds(tiny, engine_on, kind):
    engine, fake = engine_on(kind)
    fake.faults[:] = [("status", 503, {"retry-after": "0"}), ("status", 429, {"retry-after-ms": "10"})]
    before = engine.backend.client.stats["retries"]
    assert_same(tiny.reference(REQUEST), engine.decide(REQUEST), 1e-5)
    assert engine.backend.client.stats["retries"] - before == 2 and not fake.faults


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_persistent_500_is_a_502_after_all_retries(tiny, engine_on, kind):
    engine, fake = engine_on(kind)
    fake.requests.clear()
    fake.faults[:] = [("status", 500, {})] * 10
    with pytest.raises(APIError) as caught:
        engine.decide(REQUEST)
    assert caught.value.status == 502 and caught.value.error_type == "engine_error"
    assert "HTTP 500" in caught.value.message and "3 attempts" in caught.value.message
    assert len(fake.faults) == 7  # 1 try + 2 retries


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_persistent_429_is_a_503_with_retry_after(tiny, engine_on, kind):
    engine, fake = engine_on(kind)
    fake.faults[:] = [("status", 429, {"retry-after": "0"})] * 10
    with pytest.raises(APIError) as caught:
        engine.decide(REQUEST)
    error = caught.value
    assert error.status == 503 and error.error_type == "engine_unavailable"
    assert error.headers["retry-after"] == "2" and error.headers["retry-after-ms"] == "2000"


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_timeout_is_a_503_after_retries(tiny, engine_on, kind):
    engine, fake = engine_on(kind, engine_options={"timeout_s": 0.3, "retry": RetryPolicy(retries=1, backoff_s=0.01)})
    fake.faults[:] = [("sleep", 1.5), ("sleep", 1.5)]
    started = time.monotonic()
    with pytest.raises(APIError) as caught:
        engine.decide(REQUEST)
    assert time.monotonic() - started < 1.5  # gave up on its own timeouts, did not wait for the engine
    assert caught.value.status == 503 and "no answer in time" in caught.value.message and "2 attempts" in caught.value.message


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_malformed_answer_is_a_502(tiny, engine_on, kind):
    engine, fake = engine_on(kind)
    fake.faults[:] = [("garbage",)]
    with pytest.raises(APIError) as caught:
        engine.decide(REQUEST)
    assert caught.value.status == 502 and caught.value.error_type == "engine_error"


def test_engine_4xx_on_a_read_is_a_502_with_the_engines_message(tiny, engine_on):
    engine, fake = engine_on("vllm")
    fake.faults[:] = [("status", 400, {})]
    with pytest.raises(APIError) as caught:
        engine.decide(REQUEST)
    assert caught.value.status == 502 and "HTTP 400" in caught.value.message and "injected 400" in caught.value.message


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_engine_down_at_start_then_up(tiny, kind):
    """onepass may start before its engine: requests get 503 until the engine answers, then the probe runs."""
    port = free_port()
    engine = build_remote_engine(kind, f"http://127.0.0.1:{port}", SERVED, None, str(tiny.dir), retry=FAST,
                                 connect_timeout_s=0.5, log=lambda _m: None)
    assert not engine.backend.probed
    assert engine.backend.max_context == 512  # until the engine says: the tokenizer's model_max_length
    with pytest.raises(APIError) as caught:
        engine.decide(REQUEST)
    assert caught.value.status == 503 and caught.value.error_type == "engine_unavailable"
    assert caught.value.headers["retry-after"]
    with Served(make_app(Fake(tiny, kind=kind)), port=port):
        assert_same(tiny.reference(REQUEST), engine.decide(REQUEST), 1e-5)
    assert engine.backend.probed
    assert engine.backend.max_context == 511  # the served max_model_len, read by the first-use probe


def test_onepass_server_answers_502_and_503_in_the_contract_shape(tiny, engine_on):
    engine, fake = engine_on("vllm")
    with Served(create_app(engine, ServerConfig())) as onepass:
        with httpx.Client(base_url=onepass.url, timeout=30) as client:
            ok = client.post("/v1/systemone", json=REQUEST)
            assert ok.status_code == 200
            assert_same(tiny.reference(REQUEST), ok.json(), 1e-5)

            fake.faults[:] = [("status", 500, {})] * 3
            bad = client.post("/v1/systemone", json=REQUEST)
            assert bad.status_code == 502 and bad.json()["detail"]["error_type"] == "engine_error"

            fake.faults[:] = [("status", 503, {"retry-after": "0"})] * 3
            down = client.post("/v1/systemone", json=REQUEST)
            assert down.status_code == 503 and down.json()["detail"]["error_type"] == "engine_unavailable"
            assert down.headers["retry-after"] == "2" and down.headers["retry-after-ms"] == "2000"


def test_retry_policy_honours_engine_hint_within_cap():
    policy = RetryPolicy(backoff_s=0.1, max_backoff_s=1.0)
    assert policy.wait(0, 0.5) == 0.5
    assert policy.wait(0, 30.0) == 1.0  # capped
    assert 0.05 <= policy.wait(0, None) <= 0.1
    assert policy.wait(5, None) <= 1.0


def test_client_deadline_stops_retrying():
    calls = []

    def handler(request):
        calls.append(1)
        return httpx.Response(503, json={"message": "busy"})

    slept = []
    client = EngineClient("http://engine", transport=httpx.MockTransport(handler), sleep=slept.append,
                          clock=lambda: sum(slept),  # time passes only while the client waits
                          retry=RetryPolicy(retries=10, backoff_s=1.0, max_backoff_s=1.0, deadline_s=2.5))
    with pytest.raises(APIError) as caught:
        client.call("/v1/score", {})
    assert caught.value.status == 503 and "busy" in caught.value.message
    # It stopped on the deadline, long before its 10 retries, and never planned a wait past the deadline.
    assert len(calls) == len(slept) + 1 and 2 <= len(slept) <= 4 and sum(slept) < 2.5


@pytest.mark.parametrize("kind", ["vllm", "sglang"])
def test_an_adapter_that_reads_no_hidden_state_is_served_remotely_with_the_embedded_numbers(tiny, engine_on, kind):
    """Learned methods over log-probabilities and MiniLM embeddings (a zero-shot + logistic combination) and
    retrieved examples (prompt tokens) work on a remote engine unchanged: same answers as in-process."""
    from onepass.learn.adapter import Adapter, AdapterQuestion
    from onepass.learn.features import embed_texts
    from onepass.learn.labels import question_signature
    from onepass.learn.methods import Fitted
    from onepass.wire import parse_request

    rng = np.random.default_rng(0)
    texts = ["The parcel never arrived.", "I want my money back for this.", "Lovely product, thanks!"]
    linear = Fitted("linear", {"coef": rng.normal(size=(2, 384)), "intercept": np.array([0.1, -0.1]),
                               "classes": np.array([0, 1]), "mean": np.zeros(384), "std": np.ones(384)}, {"feature": "e"})
    forms = {"angry": Fitted("combo", {"weights": np.array([0.7, 0.5])}, {"component": "logreg-minilm"}, [linear]),
             "topic": Fitted("examples", {"minilm": embed_texts(texts), "golds": np.array([1, 0, 2])},
                             {"feature": "e", "k": 2, "order": "nearest-last", "by": "minilm", "cap_tokens": 96,
                              "texts": texts, "ids": ["a", "b", "c"]})}
    parsed = parse_request(REQUEST).questions
    learned = {question_signature(parsed[q].model_dump(mode="json")): AdapterQuestion(
        q, REQUEST["questions"][q], f.kind, f, 1.3, False, True) for q, f in forms.items()}
    adapter = Adapter("learned", None, {"base_model": {"id": SERVED}, "labels": {"items": 3}, "questions": {}}, learned)
    remote, _fake = engine_on(kind)
    local = tiny.embedded()
    request = {**REQUEST, "model": "learned"}
    for engine in (remote, local):
        engine.adapters["learned"] = adapter
    try:
        got, want = remote.decide(request), local.decide(request)
    finally:
        del local.adapters["learned"]
    assert_same(want, got, 1e-5)
    assert got["answers"]["topic"]["x_adapter"] == {"name": "learned", "question": "topic", "method": "examples"}
    assert got["answers"]["angry"]["x_adapter"]["method"] == "combo"
    assert got["answers"]["stars"]["x_adapter"] == {"name": "learned", "question": None, "method": "zero-shot"}
    # and the learned answers are not the zero-shot ones
    plain = local.decide(REQUEST)
    assert abs(plain["answers"]["angry"]["noul"] - got["answers"]["angry"]["noul"]) > 1e-3
