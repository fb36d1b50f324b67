"""CPU speed of the embedded engine per configuration, measured so that the ratios survive a shared machine:

    .venv/bin/python bench/cpu_speed.py --configs float32,int8,float32+threads1,float32+eager --matmul \
        --json bench/out/cpu-speed.json

A configuration is a dtype plus optional variants joined by '+':
  float32 | bfloat16 | float16 | int8    the number format served (int8: dynamic quantisation of the Linears)
  +eager                                 eager attention instead of SDPA
  +compile                               torch.compile of the model forward (inductor, CPU)
  +threads1                              one intra-op thread instead of one per core
Latency: every configuration is loaded in one process and the timed requests are interleaved (config A,
B, C, A, B, C, ...), so load from other processes on the machine falls on all of them alike; each timed
request pays its own state prefill (the prefix cache is cleared). Reported: 3-question p50 on the
209-token state of bench/latency.py and decisions/s with 16 questions. Memory and load time: each number
format is loaded again in a fresh process of its own (cached load seconds, resident memory after one
request). The answer probabilities of every configuration are compared with the first one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from latency import QUESTIONS, STATE  # noqa: E402

__all__ = ["Config", "main"]

REQUEST = {"model": "jev-latest", "state": STATE, "questions": QUESTIONS}
WIDE = {"model": "jev-latest", "state": STATE,
        "questions": dict(list({f"{k}{i}": q for i in range(6) for k, q in QUESTIONS.items()}.items())[:16])}


def rss_gb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 2**20
    return float("nan")


def numbers(response: dict) -> list[float]:
    out = []
    for answer in response["answers"].values():
        out += [answer["noul"]] if answer["type"] == "noul" else list(answer["probabilities"].values())
    return out


def matmul_gflops(repeats: int = 5) -> dict:
    """GFLOP/s of the default model's MLP up-projection shape (256 tokens x 1536 x 8960) per number format,
    as a Linear layer: what the processor's units give each dtype before any model code."""
    import torch

    from onepass.hardware import cpu_flags

    torch.manual_seed(0)
    x32 = torch.randn(256, 1536)
    flops = 2 * 256 * 1536 * 8960
    out = {"cpu_flags_bf16_amx": sorted(f for f in cpu_flags() if "bf16" in f or f.startswith("amx")),
           "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(), "threads": torch.get_num_threads()}
    for name in ("float32", "bfloat16", "float16", "int8"):
        layer, x = torch.nn.Linear(1536, 8960, bias=False), x32
        if name == "int8":
            from torch.ao.quantization import (
                per_channel_dynamic_qconfig,
                quantize_dynamic,
            )

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                layer = quantize_dynamic(torch.nn.Sequential(layer), {torch.nn.Linear: per_channel_dynamic_qconfig})
        elif name != "float32":
            layer, x = layer.to(getattr(torch, name)), x32.to(getattr(torch, name))
        with torch.inference_mode():
            layer(x)
            started, runs = time.perf_counter(), 0
            while runs < repeats or time.perf_counter() - started < 1.0:
                layer(x)
                runs += 1
                if time.perf_counter() - started > 20:  # an emulated format can be two orders slower
                    break
            out[f"{name}_gflops"] = round(flops * runs / (time.perf_counter() - started) / 1e9, 1)
    return out


def footprint(model: str, dtype: str) -> dict:
    """In a fresh process (the child): cached load time and resident memory after one request."""
    from onepass import Engine

    started = time.perf_counter()
    engine = Engine(model, dtype=dtype, calibration=None, log=lambda m: None)
    load_s = time.perf_counter() - started
    engine.decide(REQUEST)
    return {"dtype": dtype, "load_s": round(load_s, 2), "rss_gb": round(rss_gb(), 2)}


class Config:
    def __init__(self, name: str, engines: dict):
        import torch

        self.name = name
        self.dtype, *self.variants = name.split("+")
        self.engine = engines[self.dtype]
        self.threads = 1 if "threads1" in self.variants else torch.get_num_threads()
        self.attention = "eager" if "eager" in self.variants else "sdpa"
        self.compiled = None
        if "compile" in self.variants:
            self.compiled = torch.compile(self.engine.backend.model.forward, dynamic=True)

    def run(self, request: dict, default_threads: int) -> float:
        import torch

        model = self.engine.backend.model
        torch.set_num_threads(self.threads)
        model.set_attn_implementation(self.attention)
        original = model.forward
        if self.compiled is not None:
            model.forward = self.compiled
        try:
            self.engine.backend.clear_prefix_cache()  # every timed request pays its own state prefill
            started = time.perf_counter()
            self.last = self.engine.decide(request)
            return time.perf_counter() - started
        finally:
            model.forward = original
            model.set_attn_implementation("sdpa")
            torch.set_num_threads(default_threads)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--configs", default="float32,int8")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-wide", action="store_true", help="skip the 16-question measurement")
    parser.add_argument("--matmul", action="store_true", help="also time one Linear layer per number format")
    parser.add_argument("--json", default=None)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print("RESULT " + json.dumps(footprint(args.model, args.child)))
        return 0

    import torch

    from onepass import Engine

    names = args.configs.split(",")
    dtypes = list(dict.fromkeys(n.split("+")[0] for n in names))
    memory = {}
    for dtype in dtypes:  # one fresh process per number format: its own load time and resident memory
        out = subprocess.run([sys.executable, __file__, "--model", args.model, "--child", dtype], capture_output=True, text=True)
        line = [x for x in out.stdout.splitlines() if x.startswith("RESULT ")]
        memory[dtype] = json.loads(line[-1][7:]) if line else {"error": out.stderr[-500:]}
        print(json.dumps(memory[dtype]), file=sys.stderr)
    default_threads = torch.get_num_threads()
    engines = {d: Engine(args.model, dtype=d, calibration=None, log=lambda m: None) for d in dtypes}
    configs = [Config(n, engines) for n in names]
    for config in configs:  # warm-up (and compilation)
        config.warmup_s = round(config.run(REQUEST, default_threads), 2)
        config.answer = numbers(config.last)
    times = {c.name: [] for c in configs}
    wide = {c.name: [] for c in configs}
    for r in range(args.repeats):
        for config in configs:
            times[config.name].append(config.run(REQUEST, default_threads))
        if not args.no_wide and r < max(3, args.repeats // 2):
            for config in configs:
                wide[config.name].append(config.run(WIDE, default_threads))
        print(f"round {r + 1}/{args.repeats}", file=sys.stderr)
    rows = []
    for config in configs:
        p50 = statistics.median(times[config.name])
        row = {"config": config.name, "threads": config.threads, "attention": config.attention,
               "warmup_s": config.warmup_s, "p50_3q_s": round(p50, 3), "min_3q_s": round(min(times[config.name]), 3),
               "decisions_per_s_16q": round(16 / statistics.median(wide[config.name]), 2) if wide[config.name] else None,
               "max_abs_dp_vs_first": round(max(abs(a - b) for a, b in zip(config.answer, configs[0].answer)), 4),
               **{k: v for k, v in memory.get(config.dtype, {}).items() if k != "dtype"}}
        rows.append(row)
    base = rows[0]
    for row in rows:
        row["speedup_3q"] = round(base["p50_3q_s"] / row["p50_3q_s"], 2)
        if row["decisions_per_s_16q"] and base["decisions_per_s_16q"]:
            row["speedup_16q"] = round(row["decisions_per_s_16q"] / base["decisions_per_s_16q"], 2)
    result = {"model": args.model, "repeats": args.repeats, "cpu_count": os.cpu_count(),
              "load_average_at_end": os.getloadavg(), "rows": rows}
    if args.matmul:
        result["matmul"] = matmul_gflops()
    print("| config | 3q p50 s | x 3q | 16q decisions/s | x 16q | RSS GB | load s | max abs dp vs first |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['config']} | {r['p50_3q_s']} | {r['speedup_3q']} | {r['decisions_per_s_16q']} | {r.get('speedup_16q')} | "
              f"{r.get('rss_gb')} | {r.get('load_s')} | {r['max_abs_dp_vs_first']} |")
    if args.matmul:
        print(json.dumps(result["matmul"]))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
