"""`onepass bench`: decisions per second and latency for a synthetic workload, the engine's overhead over
the raw forward passes it runs, and the speedup over the same model generating its answer as JSON.

- engine: `Engine.decide` on requests of Q choice questions (K options) about a state of N tokens, sent by C
  client threads; each request is timed end to end (in-process, no HTTP).
- raw forward: the same model called directly on the same tensors (the backend's `raw_passes`: state
  prefill, then each read pass the engine runs, packed sequence or padded batch on a copy of the cache, or
  the one cross-request rows pass a lone request takes with CUDA graphs), with none of onepass's
  rendering, validation, scheduling or answer building;
  overhead_pct = (engine time - raw time) / raw time, single request at a time.
- generation baseline: the same prompt per question (state + question), greedy decoding of a JSON answer
  such as {"answer": "B"} with the model's own generate(), one question at a time as a generating server
  would; speedup_vs_generation = generation seconds per decision / engine seconds per decision.
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from pathlib import Path

import torch

__all__ = ["bench", "generation_seconds_per_decision", "percentile", "raw_forward_seconds", "run_engine", "workload",
           "write"]

SENTENCE = ("The nightly export job on host db-7 failed after the storage volume filled up, and the on-call "
            "engineer restarted it twice before the disk was cleaned. ")


def workload(engine, state_tokens: int, questions: int, options: int) -> dict:
    sentence_tokens = len(engine.renderer.encode(SENTENCE))
    state = SENTENCE * max(1, round(state_tokens / sentence_tokens))
    criteria = {f"cause {chr(65 + i % 26)}{i // 26 or ''}": f"a possible root cause number {i}" for i in range(options)}
    qs = {f"q{i}": {"type": "choice", "instructions": f"Which cause best explains the failure (view {i})?",
                    "criteria": criteria} for i in range(questions)}
    return {"model": "jev-latest", "state": state, "questions": qs, "x_readout": "slot"}


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def run_engine(engine, request: dict, concurrency: int, requests: int, tick=None) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()
    todo = list(range(requests))

    def client():
        while True:
            with lock:
                if not todo:
                    return
                todo.pop()
            t = time.perf_counter()
            engine.decide(request)
            with lock:
                latencies.append(time.perf_counter() - t)
                if tick:
                    tick()

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - started
    decisions = requests * len(request["questions"])
    return {"decisions_per_s": decisions / wall, "p50_ms": percentile(latencies, 50) * 1000,
            "p95_ms": percentile(latencies, 95) * 1000, "wall_s": wall}


def raw_forward_seconds(engine, request: dict, repeats: int) -> float:
    """The model alone on exactly the passes the engine runs for this request arriving alone (the backend
    hands them over: state prefill, then each read pass in its read mode's layout), median of `repeats`."""
    validated = engine.validate(request)
    prefix = engine.renderer.prefix(validated.state)
    reads = [engine.readouts["slot"].plan(engine.renderer, q).reads[0] for q in validated.questions.values()]
    run = engine.backend.raw_passes(prefix, reads)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


@torch.inference_mode()
def generation_seconds_per_decision(engine, request: dict, questions: int, max_new_tokens: int, tick=None) -> float:
    """Greedy generation of a JSON answer per question, the way a generating server answers."""
    validated = engine.validate(request)
    prefix = engine.renderer.prefix(validated.state)
    model, tokenizer = engine.backend.model, engine.tokenizer
    times = []
    for question in list(validated.questions.values())[:questions]:
        rendered = engine.renderer.question(question)
        lead = engine.renderer.encode('{"answer": "')  # the JSON the model must write
        ids = torch.tensor([prefix + rendered.suffix + lead], device=engine.backend.device)
        t = time.perf_counter()
        model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=max_new_tokens, do_sample=False,
                       pad_token_id=tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id)
        times.append(time.perf_counter() - t)
        if tick:
            tick()
    return statistics.median(times)


def bench(engine, state_tokens: int, questions: int, options: int, concurrency: int, requests: int,
          repeats: int = 3, generation_tokens: int = 8, generation_questions: int = 3) -> dict:
    from tqdm import tqdm

    # Progress on stderr, one step per timed call: warm-up, the requests, the single runs, raw, generation.
    progress = tqdm(total=1 + requests + repeats + 1 + min(generation_questions, questions), desc="bench: warm-up", unit="step",
                    file=sys.stderr, mininterval=0.5, leave=False)
    request = workload(engine, state_tokens, questions, options)
    engine.decide(request)  # warm-up
    progress.update(1)
    engine.backend.clear_prefix_cache()
    progress.set_description(f"bench: {requests} requests x {concurrency} clients")
    measured = run_engine(engine, request, concurrency, requests, tick=lambda: progress.update(1))
    progress.set_description("bench: single requests")
    # The prefix cache would let repeated identical requests skip the prefill; clear it around each timed
    # single request so overhead is measured against the full work.
    single = []
    for _ in range(repeats):
        engine.backend.clear_prefix_cache()
        t = time.perf_counter()
        engine.decide(request)
        single.append(time.perf_counter() - t)
        progress.update(1)
    engine_s = statistics.median(single)
    progress.set_description("bench: raw forward")
    raw_s = raw_forward_seconds(engine, request, repeats)
    progress.update(1)
    progress.set_description("bench: generation baseline")
    gen_s = generation_seconds_per_decision(engine, request, generation_questions, generation_tokens,
                                            tick=lambda: progress.update(1))
    progress.close()
    per_decision = engine_s / questions
    return {
        "model": engine.info.id,
        "dtype": engine.dtype.value if engine.dtype else None,
        "device": engine.device.value if engine.device else None,
        "workload": {"state_tokens": len(engine.renderer.prefix(request["state"])), "questions": questions,
                     "options": options, "concurrency": concurrency, "requests": requests},
        "decisions_per_s": round(measured["decisions_per_s"], 3),
        "p50_ms": round(measured["p50_ms"], 1),
        "p95_ms": round(measured["p95_ms"], 1),
        "engine_request_ms": round(engine_s * 1000, 1),
        "raw_forward_ms": round(raw_s * 1000, 1),
        "overhead_pct": round(100 * (engine_s - raw_s) / raw_s, 2),
        "generation_ms_per_decision": round(gen_s * 1000, 1),
        "generation_tokens": generation_tokens,
        "speedup_vs_generation": round(gen_s / per_decision, 2),
        "torch_threads": torch.get_num_threads(),
    }


def write(result: dict, path: str | None) -> None:
    print(json.dumps(result, indent=2))
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(result, indent=2) + "\n")
