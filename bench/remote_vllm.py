"""onepass on vLLM's CPU build, measured on the integration test's tiny model (random Qwen3, head_dim 64).

What it measures (in-process Engine calls; the HTTP front adds the same few ms on every backend):
  - vLLM start time;
  - latency of one request by number of questions, on a state seen before (prefix cache hot) and on a new
    state every time (cold), with the embedded backend on the same weights as the baseline;
  - engine calls and prefix-cache hits per request;
  - throughput with 4 client threads: through one Engine (its lock serialises backend calls) and through
    4 Engines (what a lock-free remote path would give);
  - the old-vLLM top-k fallback's latency.
The tiny model makes the model arithmetic negligible: the numbers are onepass's and vLLM's per-request
overhead on this machine, not a model's speed. Bounded: about 2 minutes on 2 cores, plus vLLM's start.

    .venv/bin/python bench/remote_vllm.py --json bench/out/remote_vllm.json
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import httpx  # noqa: E402
import tinymodel  # noqa: E402

SERVED = "tiny-qwen3"
STATE_WORDS = "the customer says the parcel arrived late and the box was broken so they want a refund".split()
QUESTIONS = [
    {"type": "noul", "instructions": "Is the customer angry?"},
    {"type": "choice", "criteria": {"refund": "wants money back", "shipping": "late delivery", "praise": None}},
    {"type": "score", "criteria": ["terrible", "bad", "okay", "good", "great"]},
    {"type": "noul", "criteria": {"true": "the product works", "false": "the product is broken"}},
]


def state(i: int, words: int = 120) -> str:
    """A ~200-token state; i makes it unique (a new prefix for the cache)."""
    body = " ".join(STATE_WORDS[(i * 7 + k) % len(STATE_WORDS)] for k in range(words))
    return f"Ticket {i}: {body}"


def request(i: int, n_questions: int) -> dict:
    return {"model": SERVED, "state": state(i),
            "questions": {f"q{k}": QUESTIONS[k % len(QUESTIONS)] for k in range(n_questions)}}


def timed(fn, *args) -> float:
    started = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - started) * 1000


def summary(ms: list[float]) -> dict:
    ms = sorted(ms)
    return {"n": len(ms), "p50_ms": round(statistics.median(ms), 1),
            "p90_ms": round(ms[min(len(ms) - 1, int(0.9 * len(ms)))], 1), "mean_ms": round(statistics.fmean(ms), 1)}


def prefix_hits(url: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return sum(float(v) for v in re.findall(r"^vllm:prefix_cache_hits_total\{[^}]*\} ([0-9.e+]+)$", text, re.M))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--url", default=None, help="an already running vLLM serving the tiny model as tiny-qwen3")
    parser.add_argument("--model-dir", default=None, help="where the tiny model is (built when missing)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()

    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from onepass import Engine
    from onepass.backends.embedded import EmbeddedBackend
    from onepass.engine_setup import build_remote_engine

    work = Path(tempfile.mkdtemp(prefix="onepass-bench-"))
    model_dir = tinymodel.build(args.model_dir or work / "tiny")
    result: dict = {"model": "tiny random Qwen3 (2 layers, hidden 128, head_dim 64, vocab 640), float32",
                    "torch_threads": torch.get_num_threads(), "repeats": args.repeats}
    server = None
    if args.url:
        url = args.url
    else:
        server = tinymodel.VLLMProcess(model_dir, SERVED, work / "vllm.log").__enter__()
        url = server.url
        result["vllm_start_s"] = round(server.started_in_s, 1)
    try:
        tokenizer = AutoTokenizer.from_pretrained(model_dir)
        model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
        embedded = Engine(None, backend=EmbeddedBackend(model, tokenizer), tokenizer=tokenizer, model_id=SERVED)
        remote = build_remote_engine("vllm", url, SERVED, None, str(model_dir), log=lambda _m: None)
        backend = remote.backend
        for engine in (embedded, remote):  # warm-up: first-call costs out of the way
            engine.decide(request(10_000, 4))

        serial = 0
        rows = []
        for n in (1, 4, 16):
            row = {"questions": n}
            for name, engine in (("embedded", embedded), ("vllm", remote)):
                hot = request(20_000 + n, n)
                engine.decide(hot)
                row[f"{name}_hot"] = summary([timed(engine.decide, hot) for _ in range(args.repeats)])
                cold = []
                for _ in range(args.repeats):
                    serial += 1
                    cold.append(timed(engine.decide, request(serial * 1000 + n, n)))
                row[f"{name}_cold"] = summary(cold)
            calls, hits = backend.stats["calls"], prefix_hits(url)
            serial += 1
            remote.decide(request(serial * 1000 + n, n))
            row["vllm_calls_per_request"] = backend.stats["calls"] - calls
            row["vllm_prefix_cache_hit_tokens"] = prefix_hits(url) - hits
            row["prompt_tokens"] = len(remote.renderer.prefix(request(serial * 1000 + n, n)["state"]))
            rows.append(row)
            print(json.dumps(row), flush=True)
        result["latency"] = rows

        # Throughput with 4 client threads, cold states, 4 questions each.
        def run(engines: list, per_thread: int, base: int) -> float:
            def worker(t: int):
                for k in range(per_thread):
                    engines[t % len(engines)].decide(request(base + t * 100 + k, 4))

            threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return 4 * per_thread / (time.perf_counter() - started)

        per_thread = max(3, args.repeats // 2)
        engines = [remote] + [build_remote_engine("vllm", url, SERVED, None, str(model_dir), log=lambda _m: None) for _ in range(3)]
        result["throughput_4_threads_requests_per_s"] = {
            "one_engine_serialised": round(run([remote], per_thread, 5_000_000), 2),
            "four_engines_concurrent": round(run(engines, per_thread, 6_000_000), 2),
            "embedded_one_engine": round(run([embedded], per_thread, 7_000_000), 2),
        }
        print(json.dumps(result["throughput_4_threads_requests_per_s"]), flush=True)

        topk = build_remote_engine("vllm", url, SERVED, None, str(model_dir), mode="top_k", log=lambda _m: None)
        hot = request(30_000, 4)
        topk.decide(hot)
        result["topk_fallback_hot_4q"] = summary([timed(topk.decide, hot) for _ in range(args.repeats)])
        result["topk_fallback_k"] = topk.backend.top_k
        print(json.dumps({"topk": result["topk_fallback_hot_4q"]}), flush=True)
    finally:
        if server is not None:
            server.stop()
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
