"""CPU speed of the embedded engine per configuration, each in its own fresh process (so load time and
resident memory belong to that configuration alone), measured one after another in one run:

    .venv/bin/python bench/cpu_speed.py --configs float32,bfloat16 --json bench/out/cpu-speed.json

A configuration is a dtype plus optional variants joined by '+':
  float32 | bfloat16 | float16           the dtype the weights are served in
  +eager                                 eager attention instead of SDPA
  +compile                               torch.compile of the model forward (inductor, CPU)
  +int8                                  dynamic int8 quantisation of every Linear (torch.ao, weights int8)
  +threads1                              one intra-op thread instead of one per core
Reported per configuration: cached load seconds, RSS after load and at the end, 3-question p50 on the
209-token state of bench/latency.py (every timed request pays its own state prefill), decisions/s with 16
questions, and the probabilities of the 3-question answer, so the script can print each configuration's
largest probability change against the first configuration.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from latency import QUESTIONS, STATE  # noqa: E402


def rss_gb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024 / 1024
    return float("nan")


def numbers(response: dict) -> list[float]:
    out = []
    for answer in response["answers"].values():
        out += [answer["noul"]] if answer["type"] == "noul" else list(answer["probabilities"].values())
    return out


def measure(model: str, config: str, repeats: int) -> dict:
    """Runs inside the child process."""
    import torch

    from onepass import Engine

    dtype, *variants = config.split("+")
    if "threads1" in variants:
        torch.set_num_threads(1)
    started = time.perf_counter()
    engine = Engine(model, dtype=dtype, calibration=None, log=lambda m: None)
    model_obj = engine.backend.model
    if "eager" in variants:
        model_obj.set_attn_implementation("eager")
    if "int8" in variants:
        from torch.ao.quantization import quantize_dynamic

        if dtype != "float32":
            raise SystemExit("int8 dynamic quantisation runs on float32 weights: use float32+int8")
        engine.backend.model = quantize_dynamic(model_obj, {torch.nn.Linear}, dtype=torch.qint8)
    if "compile" in variants:
        engine.backend.model.forward = torch.compile(engine.backend.model.forward, dynamic=True)
    load_s = time.perf_counter() - started
    rss_load = rss_gb()
    request = {"model": "jev-latest", "state": STATE, "questions": QUESTIONS}
    t = time.perf_counter()
    first = engine.decide(request)  # warm-up (and compilation, when compiled)
    warmup_s = time.perf_counter() - t
    times = []
    for _ in range(repeats):
        engine.backend._prefixes.clear()  # every timed request pays its own state prefill
        t = time.perf_counter()
        engine.decide(request)
        times.append(time.perf_counter() - t)
    wide = {"model": "jev-latest", "state": STATE,
            "questions": dict(list({f"{k}{i}": q for i in range(6) for k, q in QUESTIONS.items()}.items())[:16])}
    engine.decide(wide)
    wide_times = []
    for _ in range(max(3, repeats // 3)):
        engine.backend._prefixes.clear()
        t = time.perf_counter()
        engine.decide(wide)
        wide_times.append(time.perf_counter() - t)
    return {"config": config, "dtype": engine.dtype.value, "threads": torch.get_num_threads(),
            "state_tokens": len(engine.renderer.prefix(STATE)), "load_s": round(load_s, 2),
            "warmup_s": round(warmup_s, 2), "rss_after_load_gb": round(rss_load, 2), "rss_end_gb": round(rss_gb(), 2),
            "p50_3q_s": round(statistics.median(times), 3), "min_3q_s": round(min(times), 3),
            "decisions_per_s_16q": round(16 / statistics.median(wide_times), 2), "probabilities": numbers(first)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--configs", default="float32,bfloat16")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", default=None)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print("RESULT " + json.dumps(measure(args.model, args.child, args.repeats)))
        return 0
    rows = []
    for config in args.configs.split(","):
        out = subprocess.run([sys.executable, __file__, "--model", args.model, "--repeats", str(args.repeats),
                              "--child", config], capture_output=True, text=True)
        lines = [line for line in out.stdout.splitlines() if line.startswith("RESULT ")]
        if out.returncode or not lines:
            rows.append({"config": config, "error": (out.stderr or out.stdout)[-800:]})
            print(f"{config}: failed\n{rows[-1]['error']}", file=sys.stderr)
            continue
        rows.append(json.loads(lines[-1][7:]))
        print(json.dumps({k: v for k, v in rows[-1].items() if k != "probabilities"}), file=sys.stderr)
    base = next((r for r in rows if "error" not in r), None)
    for row in rows:
        if "error" not in row and base:
            row["max_abs_dp_vs_first"] = round(max(abs(a - b) for a, b in zip(row["probabilities"], base["probabilities"])), 4)
            row["speedup_3q_vs_first"] = round(base["p50_3q_s"] / row["p50_3q_s"], 2)
            row["speedup_16q_vs_first"] = round(row["decisions_per_s_16q"] / base["decisions_per_s_16q"], 2)
            row["rss_vs_first"] = round(row["rss_end_gb"] / base["rss_end_gb"], 2)
    result = {"model": args.model, "cpu_count": os.cpu_count(), "load_average": os.getloadavg(), "rows": rows}
    print("| config | load s | RSS GB | 3q p50 s | 16q decisions/s | x 3q | x 16q | max abs dp |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            print(f"| {r['config']} | failed | | | | | | |")
        else:
            print(f"| {r['config']} | {r['load_s']} | {r['rss_end_gb']} | {r['p50_3q_s']} | {r['decisions_per_s_16q']} | "
                  f"{r['speedup_3q_vs_first']} | {r['speedup_16q_vs_first']} | {r['max_abs_dp_vs_first']} |")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
