"""Batch invariance: does a request's answer depend on anything but the request? Measures, for one model
and dtype, how far each source of difference moves answer probabilities (|Δp|) and label log-probabilities
(|Δ log p|) against the same request answered alone on a cold prefix cache, on the embedded engine's
shared path (`--batching shared`: reads and concurrent requests share forward passes) and on its invariant
path (`--batching invariant`, the default: every read a pass of its own, states prefilled alone in fixed
chunks), then what the invariant path costs in latency and throughput. docs/throughput.md records the runs.

    .venv/bin/python bench/invariance.py --model smollm2-135m --dtype float32 --json bench/out/invariance-smollm2-float32.json
    .venv/bin/python bench/invariance.py --model qwen2.5-coder-1.5b-instruct --requests 8 --json bench/out/invariance-qwen-float32.json
    .venv/bin/python bench/invariance.py --tables bench/out/invariance-*.json     # the docs/throughput.md tables

Sources (each compared with the request alone, cold; probabilities are the slot readout's, uncalibrated):
- cross-request: the requests handed to the engine's batch runner together, k at a time, in both orders
  (rows of one forward pass on the shared path, so row count, padding and position change);
- concurrent: the issue's scenario end to end, N requests alone then the same N (ids renamed, states
  cached) sent at once from N threads through `Engine.decide`, every number of every answer compared;
- warm cache: the same request again, its state's KV cache now cached;
- one pass: the state and the question in one forward pass, no cache (what a cross-request row computes);
- packed vs padded: a request's reads packed in one block-masked sequence against left-padded rows;
- split reads: each read in a pass of its own (`max_batch` 1, or a budget that splits) against one pass;
- long state, chunked: a ~700-token state prefilled in 256-token chunks against one pass;
- small budget: long-state requests on a server whose memory budget splits its passes;
- threads: 1 against 2 intra-op threads; restart: a fresh process (same threads).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import torch

from onepass import Engine
from onepass.backends.batcher import Job
from onepass.wire import parse_request

__all__ = ["body", "main", "set_batching"]

TEAMS = {"billing": "charges and refunds", "shipping": "parcels and delivery", "technical": None}
TOPICS = ["a refund for a double charge", "a parcel that never arrived", "a login page that crashes",
          "an invoice with the wrong address", "a broken phone screen", "a late pizza delivery",
          "a password reset email that never came", "a subscription that renewed by surprise"]
LONG = " The customer adds a long account of every call, email and chat so far, with dates and names."


def body(i: int, tag: str = "", long: bool = False) -> dict:
    """Request i of tests/test_hardening_concurrency.py (its own state, a noul and a choice), as a System
    One body; `tag` renames its question ids, `long` makes its state about 700 tokens."""
    state = (f"Message #{i * 7919 % 1000}: the customer writes about {TOPICS[i % len(TOPICS)]}" + "!" * (i % 5)
             + f" (day {i})" + (LONG * 36 if long else ""))
    return {"model": "jev-latest", "state": state, "x_calibrated": False,
            "questions": {f"urgent-{i}{tag}": {"type": "noul", "instructions": "Does the customer need an answer today?"},
                          f"team-{i}{tag}": {"type": "choice", "instructions": "Which team should handle this?",
                                             "criteria": TEAMS}}}


def set_batching(engine, mode: str) -> None:
    engine.backend.invariant = mode == "invariant"


def work(engine, bodies: list[dict]) -> list[tuple[list[int], list]]:
    """(state tokens, slot reads) per request."""
    out = []
    for b in bodies:
        req = parse_request(b)
        out.append((engine.renderer.prefix(req.state), [engine.readouts["slot"].plan(engine.renderer, q).reads[0]
                                                       for q in req.questions.values()]))
    return out


def probs(lp: np.ndarray) -> np.ndarray:
    e = np.exp(lp - lp.max())
    return e / e.sum()


def delta(a: list[list[np.ndarray]], b: list[list[np.ndarray]]) -> dict:
    """Largest |Δp| (renormalised label probabilities) and |Δ log p| over every read of every request."""
    dp = max(float(np.abs(probs(x) - probs(y)).max()) for ra, rb in zip(a, b) for x, y in zip(ra, rb))
    dl = max(float(np.abs(x - y).max()) for ra, rb in zip(a, b) for x, y in zip(ra, rb))
    return {"dp": dp, "dlogp": dl}


def alone(backend, jobs, cold: bool = True) -> list[list[np.ndarray]]:
    out = []
    for prefix, reads in jobs:
        if cold:
            backend.clear_prefix_cache()
        out.append(backend.read_request(prefix, reads))
    return out


def runner(backend, jobs, k: int, reverse: bool = False) -> list[list[np.ndarray]]:
    """The jobs through the batch runner k at a time (the path concurrent requests take), states cold."""
    order = list(range(len(jobs)))[::-1] if reverse else list(range(len(jobs)))
    results: dict[int, list] = {}
    for s in range(0, len(order), k):
        group = order[s : s + k]
        backend.clear_prefix_cache()
        batch = [Job(jobs[i][0], jobs[i][1], backend._job_tokens(*jobs[i])) for i in group]
        backend.run_jobs(batch)
        for i, job in zip(group, batch):
            if job.error is not None:
                raise job.error
            results[i] = job.result
    return [results[i] for i in range(len(jobs))]


def one_pass(backend, jobs) -> list[list[np.ndarray]]:
    out = []
    with torch.inference_mode():
        for prefix, reads in jobs:
            row = []
            for read in reads:
                logits = backend.model(input_ids=torch.tensor([prefix + read.suffix])).logits[0, -1].float()
                row.append(torch.log_softmax(logits, -1)[read.token_ids].double().numpy())
            out.append(row)
    return out


def with_settings(backend, jobs, **settings) -> list[list[np.ndarray]]:
    saved = {k: getattr(backend, k) for k in settings}
    try:
        for k, v in settings.items():
            setattr(backend, k, v)
        return alone(backend, jobs)
    finally:
        for k, v in saved.items():
            setattr(backend, k, v)


def chunked(backend, jobs, step: int) -> list[list[np.ndarray]]:
    """Each state prefilled in chunks of `step` tokens, then each read alone on that cache."""
    out = []
    with torch.inference_mode():
        for prefix, reads in jobs:
            chunks = [torch.tensor([prefix[s : s + step]]) for s in range(0, len(prefix), step)]
            kv, _ = backend._prefill_kv(chunks)
            out.append([backend._read(kv, len(prefix), [read])[0] for read in reads])
    return out


def tight_budget(memory, jobs) -> int:
    """A budget big enough for one read beside its state, too small to prefill the longest state in one
    pass (then the shared path prefills it in chunks and gives each read a pass of its own)."""
    need = max(memory.cache_bytes(len(p)) + memory.pass_bytes(1, len(r.suffix), len(p) + len(r.suffix), 1)
               for p, reads in jobs for r in reads)
    whole = max(memory.pass_bytes(1, len(p), len(p), 1) for p, _ in jobs)
    if need >= whole:
        raise ValueError("the states are too short for a budget that chunks their prefill but fits their reads")
    return (need + whole) // 2


def small_budget(backend, jobs) -> tuple[list[list[np.ndarray]], int]:
    """The requests on a tight budget (`tight_budget`): prefills in chunks, reads split."""
    m = backend.memory
    saved = m.budget
    m.budget = tight_budget(m, jobs)
    try:
        return alone(backend, jobs), m.budget
    finally:
        m.budget = saved


def concurrent(engine, n: int) -> dict:
    """The issue's scenario: n requests alone, then the same n with renamed ids sent at once."""
    engine.backend.clear_prefix_cache()
    solo = [engine.decide(body(i)) for i in range(n)]
    batches = engine.backend.batcher.batches
    with ThreadPoolExecutor(max_workers=n) as pool:
        together = list(pool.map(lambda i: engine.decide(body(i, tag="-again")), range(n)))
    worst = 0.0
    for i, (a, b) in enumerate(zip(solo, together)):
        for qid, answer in a["answers"].items():
            other = b["answers"][qid + "-again"]
            values = [(answer.get("noul"), other.get("noul")), (answer.get("confidence"), other.get("confidence")),
                      (answer["x_label_mass"], other["x_label_mass"])]
            values += [(p, other["probabilities"][k]) for k, p in answer.get("probabilities", {}).items()]
            worst = max([worst] + [abs(x - y) for x, y in values if x is not None])
    return {"dp": worst, "passes": engine.backend.batcher.batches - batches, "requests": n}


def digest(values: list[list[np.ndarray]]) -> str:
    return hashlib.sha256(b"".join(np.asarray(v, dtype=np.float64).tobytes() for row in values for v in row)).hexdigest()


def restart(args, mode: str, threads: int) -> list[list[list[float]]]:
    code = [sys.executable, __file__, "--model", args.model, "--dtype", args.dtype, "--requests", str(args.requests),
            "--answers-only", mode, "--threads", str(threads)]
    out = subprocess.run(code, capture_output=True, text=True, check=True, timeout=3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def save(result: dict, args) -> None:
    """Written after every measurement, so a run stopped early keeps what it measured."""
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")


def sources(engine, args, mode: str, result: dict) -> dict:
    backend = engine.backend
    set_batching(engine, mode)
    n = args.requests
    jobs = work(engine, [body(i) for i in range(n)])
    long_jobs = work(engine, [body(i, long=True) for i in range(min(n, args.long_requests))])
    ref = alone(backend, jobs)
    long_ref = alone(backend, long_jobs)
    rows = result["modes"].setdefault(mode, {"digest": digest(ref), "rows": {}})["rows"]

    def note(name, got, base=ref):
        rows[name] = delta(base, got)
        save(result, args)
        print(f"  [{mode}] {name}: |dp| {rows[name]['dp']:.3g}  |dlogp| {rows[name]['dlogp']:.3g}", file=sys.stderr, flush=True)

    for k in (2, 4, 8, 16):
        if k <= n:
            note(f"cross-request, {k} per runner call", runner(backend, jobs, k))
    note("cross-request, reversed order (position in the pass)", runner(backend, jobs, min(8, n), reverse=True))
    note("warm prefix cache (same request again)", alone(backend, jobs, cold=False))
    note("one pass over state + question, no cache", one_pass(backend, jobs))
    note("packed vs padded reads", with_settings(backend, jobs, read_mode="packed", packed_max_tokens=4096),
         with_settings(backend, jobs, read_mode="batched"))
    note("each read in its own pass (max_batch 1)", with_settings(backend, jobs, max_batch=1))
    note("long state: 256-token chunks vs one pass", chunked(backend, long_jobs, 256), chunked(backend, long_jobs, 10**6))
    got, budget = small_budget(backend, long_jobs)
    note(f"long state: small memory budget ({budget / 2**20:.0f} MiB)", got, long_ref)
    threads = torch.get_num_threads()
    other = 1 if threads != 1 else 2
    torch.set_num_threads(other)
    try:
        note(f"{other} vs {threads} torch threads", alone(backend, jobs))
    finally:
        torch.set_num_threads(threads)
    rows["concurrent"] = concurrent(engine, n)
    print(f"  [{mode}] concurrent: {rows['concurrent']}", file=sys.stderr, flush=True)
    save(result, args)
    return ref


def alternatives(engine, jobs) -> dict:
    """What a cheaper mechanism than a pass per read would have to rely on, measured in this dtype."""
    from onepass.backends import layouts

    backend, model, dtype = engine.backend, engine.backend.model, engine.backend.dtype
    out = {}
    gen = torch.Generator().manual_seed(0)
    with torch.inference_mode():
        # 1. A Linear layer of the model (its MLP's up projection): rows computed among M rows. Classes of M
        #    whose shared rows agree bit for bit; one class would mean "pad to any M, rows never change".
        weight = model.get_decoder().layers[0].mlp.up_proj.weight
        x = torch.randn(512, weight.shape[1], generator=gen).to(dtype)
        sizes = (1, 2, 3, 4, 5, 7, 8, 16, 17, 32, 64, 128, 256, 512)
        rows = {m: torch.nn.functional.linear(x[:m], weight) for m in sizes}
        classes: list[list[int]] = []
        for m in sizes:
            home = next((c for c in classes if all(torch.equal(rows[o][: min(o, m)], rows[m][: min(o, m)]) for o in c)), None)
            home.append(m) if home is not None else classes.append([m])
        out["matmul_row_classes"] = classes
        # 2. Attention: 24 queries over 200 keys, against the same keys behind masked left padding.
        heads, dim = model.config.num_attention_heads, model.config.hidden_size // model.config.num_attention_heads
        q, k, v = (torch.randn(1, heads, n, dim, generator=gen).to(dtype) for n in (24, 200, 200))
        plain = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        worst = 0.0
        for pad in (1, 8, 64):
            zeros = torch.zeros(1, heads, pad, dim, dtype=dtype)
            mask = torch.ones(1, 1, 24, pad + 200, dtype=torch.bool)
            mask[..., :pad] = False
            padded = torch.nn.functional.scaled_dot_product_attention(q, torch.cat([zeros, k], 2), torch.cat([zeros, v], 2),
                                                                      attn_mask=mask)
            worst = max(worst, float((padded.float() - plain.float()).abs().max()))
        out["attention_masked_padding_max_diff"] = worst
        # 3. Fixed row buckets: request 0 in a (16 rows, fixed width) cross-request pass, alone, beside 7 others,
        #    and in the 6th row: its label log-probabilities across those placements (each kept position
        #    projected on its own, so the vocabulary projection's row count is fixed too).
        width = -(-max(backend._job_tokens(*j) for j in jobs[:8]) // 64) * 64
        jobbed = [Job(p, r, backend._job_tokens(p, r)) for p, r in jobs[:8]]
        head = model.get_output_embeddings()

        def in_bucket(group, at):
            ids, mask, positions, keep = (t.to(backend.device) for t in
                                          layouts.cross_rows(group, backend.pad_id, dtype, (16, width)))
            hidden = backend.decoder._eager(ids, mask, positions)[keep]
            logits = torch.cat([head(hidden[i : i + 1]) for i in range(hidden.shape[0])])
            flat = layouts.label_logprobs(logits, [r.token_ids for j in group for r in j.reads])
            start = sum(len(j.reads) for j in group[:at])
            return [flat[start : start + len(group[at].reads)]]

        later = jobbed[1:6] + jobbed[:1] + jobbed[6:]  # request 0 after up to five others
        placements = [in_bucket(jobbed[:1], 0), in_bucket(jobbed, 0), in_bucket(later, len(jobbed[1:6]))]
        out["fixed_bucket"] = max((delta(placements[0], other) for other in placements[1:]), key=lambda d: d["dp"])
    # 4. The hidden state at the answer position: a read alone against the same read in a padded pair
    #    (shared path). If it already differs, a float32 vocabulary projection cannot undo it.
    saved = backend.invariant
    backend.invariant = False
    try:
        prefix, reads = jobs[0]
        pair = backend.features(prefix, reads[:2])
        single = [backend.features(prefix, [r])[0] for r in reads[:2]]
    finally:
        backend.invariant = saved
    out["hidden_state_relative_diff"] = max(float(np.abs(a[1] - b[1]).max() / np.abs(b[1]).max()) for a, b in zip(pair, single))
    out["hidden_state_logp_diff"] = max(float(np.abs(a[0] - b[0]).max()) for a, b in zip(pair, single))
    print(f"  alternatives: {json.dumps(out)}", file=sys.stderr, flush=True)
    return out


def cost(engine, args) -> dict:
    """Latency (3 questions, each request paying its own prefill), decisions/s (16 questions) and
    concurrent requests/s (C clients, each request its own state), the two paths interleaved per round."""
    from onepass.bench import workload

    sys.path.insert(0, str(Path(__file__).parent))
    from latency import QUESTIONS, STATE

    three = {"model": "jev-latest", "state": STATE, "questions": QUESTIONS, "x_calibrated": False}
    sixteen = workload(engine, 200, 16, 4) | {"x_calibrated": False}
    times = {m: {"three": [], "sixteen": [], "concurrent": []} for m in ("shared", "invariant")}
    c = args.concurrency
    for r in range(args.rounds + 1):  # round 0 warms up
        for mode in ("shared", "invariant") if r % 2 else ("invariant", "shared"):
            set_batching(engine, mode)
            for name, request in (("three", three), ("sixteen", sixteen)):
                engine.backend.clear_prefix_cache()
                t = time.perf_counter()
                engine.decide(request)
                times[mode][name].append(time.perf_counter() - t)
            engine.backend.clear_prefix_cache()
            t = time.perf_counter()
            with ThreadPoolExecutor(max_workers=c) as pool:
                list(pool.map(lambda i: engine.decide(body(1000 * r + i)), range(c)))
            times[mode]["concurrent"].append(time.perf_counter() - t)
        print(f"  cost round {r}: " + json.dumps({m: {k: round(v[-1], 2) for k, v in t.items()} for m, t in times.items()}),
              file=sys.stderr, flush=True)
    out = {}
    for mode, t in times.items():
        out[mode] = {"three_p50_s": statistics.median(t["three"][1:]),
                     "sixteen_decisions_per_s": 16 / statistics.median(t["sixteen"][1:]),
                     "concurrent_requests_per_s": c / statistics.median(t["concurrent"][1:])}
    s, i = out["shared"], out["invariant"]
    out["invariant_vs_shared"] = {"latency": i["three_p50_s"] / s["three_p50_s"],
                                  "decisions_per_s": i["sixteen_decisions_per_s"] / s["sixteen_decisions_per_s"],
                                  "concurrent_requests_per_s": i["concurrent_requests_per_s"] / s["concurrent_requests_per_s"]}
    return out


def tables(paths: list[str]) -> str:
    """The docs/throughput.md tables from runs of this script: every source per model and path, then the cost."""
    runs = [json.loads(Path(p).read_text()) for p in paths]
    head = " | ".join(f"{r['model']} {r['dtype']}: shared / invariant" for r in runs)
    lines = [f"| source | {head} |", "|---|" + "---|" * len(runs)]
    def label(name: str) -> str:  # the budget in MiB differs by model
        return "long state: a memory budget that splits passes" if name.startswith("long state: small memory budget") else name

    def rows(run: dict, mode: str) -> dict:
        return {label(k): v for k, v in run["modes"].get(mode, {}).get("rows", {}).items()}

    names = list(dict.fromkeys(label(k) for r in runs for k in r["modes"]["shared"]["rows"]))

    def cell(row: dict | None) -> str:
        if not row:
            return "–"
        return f"{row['dp']:.2g}" + (f" ({row['dlogp']:.2g})" if row.get("dlogp") is not None else "")

    for name in names:
        cells = [f"{cell(rows(r, 'shared').get(name))} / {cell(rows(r, 'invariant').get(name))}" for r in runs]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "| cost (invariant vs shared) | " + " | ".join(f"{r['model']} {r['dtype']}, {r['torch_threads']} thread(s)" for r in runs) + " |",
              "|---|" + "---|" * len(runs)]
    for key, label, unit in (("three_p50_s", "3 questions, own prefill: p50 latency", "s"),
                             ("sixteen_decisions_per_s", "16 questions: decisions/s", ""),
                             ("concurrent_requests_per_s", "4 concurrent clients: requests/s", "")):
        ratio = {"three_p50_s": "latency", "sixteen_decisions_per_s": "decisions_per_s",
                 "concurrent_requests_per_s": "concurrent_requests_per_s"}[key]
        lines.append(f"| {label} | " + " | ".join(
            f"{r['cost']['shared'][key]:.3g}{unit} → {r['cost']['invariant'][key]:.3g}{unit} ({r['cost']['invariant_vs_shared'][ratio]:.2f}x)"
            if r.get("cost") else "–" for r in runs) + " |")
    return "\n".join(lines)


def main() -> int:
    if sys.argv[1:2] == ["--tables"]:  # .venv/bin/python bench/invariance.py --tables A.json B.json
        print(tables(sys.argv[2:]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--requests", type=int, default=16, help="requests of the scenario per source")
    parser.add_argument("--long-requests", type=int, default=4, help="of them with a ~700-token state")
    parser.add_argument("--threads", type=int, default=None, help="torch intra-op threads (default torch's)")
    parser.add_argument("--modes", default="shared,invariant", help="paths whose sources to measure ('' : none)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds of the cost part (0: skip it)")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--no-alternatives", action="store_true")
    parser.add_argument("--answers-only", default=None, help=argparse.SUPPRESS)  # the restart check's child
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    log = (lambda m: None) if args.answers_only else (lambda m: print(m, file=sys.stderr))
    engine = Engine(args.model, dtype=args.dtype, calibration=None, log=log)
    if args.answers_only:
        set_batching(engine, args.answers_only)
        ref = alone(engine.backend, work(engine, [body(i) for i in range(args.requests)]))
        print(json.dumps([[v.tolist() for v in row] for row in ref]))
        return 0
    result = {"model": engine.info.id, "dtype": str(engine.backend.dtype).removeprefix("torch."),
              "torch_threads": torch.get_num_threads(), "cpu": torch.backends.cpu.get_cpu_capability(),
              "requests": args.requests, "modes": {}}
    refs = {}
    for mode in filter(None, args.modes.split(",")):
        print(f"{mode}:", file=sys.stderr, flush=True)
        refs[mode] = sources(engine, args, mode, result)
    if not args.no_alternatives:
        result["alternatives"] = alternatives(engine, work(engine, [body(i) for i in range(min(8, args.requests))]))
        save(result, args)
    if args.rounds:
        result["cost"] = cost(engine, args)
        save(result, args)
    if not args.no_restart:  # after this process lets go of its model: one copy of a large model at a time
        threads = torch.get_num_threads()
        del engine
        gc.collect()
        for mode, ref in refs.items():
            fresh = [[np.array(v) for v in row] for row in restart(args, mode, threads)]
            result["modes"][mode]["rows"]["restart (a fresh process)"] = delta(ref, fresh)
            print(f"  [{mode}] restart: {delta(ref, fresh)}", file=sys.stderr, flush=True)
    save(result, args)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
