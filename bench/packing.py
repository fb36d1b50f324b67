"""When do packed reads help? Times one request's reads (state prefill excluded: cached) under the
batched (left-padded rows) and packed (one block-masked sequence per chunk) modes, for several question
counts and packing bounds, and checks both give the same numbers.

    .venv/bin/python bench/packing.py --model smollm2-135m --out bench/out/packing-smollm2.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import torch

from onepass import Engine
from onepass.bench import workload
from onepass.wire import parse_request

__all__ = ["main", "time_modes"]


def set_mode(backend, mode: str) -> None:
    name, _, bound = mode.partition("_")
    backend.read_mode = name
    backend.packed_max_tokens = int(bound) if bound else backend.packed_max_tokens


def time_modes(backend, prefix, reads, modes: list[str], repeats: int) -> dict[str, tuple[float, list]]:
    """Median milliseconds and results per mode; modes alternate within each repeat, so a machine whose
    load drifts slows them all alike."""
    backend.prefill(prefix)  # cached: only the reads are timed
    times = {m: [] for m in modes}
    outs = {}
    for _ in range(repeats + 1):  # the first round warms up
        for mode in modes:
            set_mode(backend, mode)
            t = time.perf_counter()
            outs[mode] = backend.read_request(prefix, reads)
            times[mode].append(time.perf_counter() - t)
    return {m: (statistics.median(times[m][1:]) * 1000, outs[m]) for m in modes}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--state-tokens", type=int, default=256)
    parser.add_argument("--questions", default="2,4,16,64")
    parser.add_argument("--options", type=int, default=4)
    parser.add_argument("--bounds", default="256,1024,4096")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--mixed", action="store_true", help="one long question in four, the rest short")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    engine = Engine(args.model, calibration=None, log=lambda m: print(m, file=sys.stderr))
    backend = engine.backend
    rows = []
    for q in [int(x) for x in args.questions.split(",")]:
        body = workload(engine, args.state_tokens, q, args.options)
        if args.mixed:  # suffixes of very different lengths: padded rows waste most of their tokens
            for i, question in enumerate(body["questions"].values()):
                if i % 4:
                    question["criteria"] = dict(list(question["criteria"].items())[:2])
                else:
                    question["instructions"] += " Consider every detail of the log." * 12
        req = parse_request(body)
        prefix = engine.renderer.prefix(req.state)
        reads = [engine.readouts["slot"].plan(engine.renderer, x).reads[0] for x in req.questions.values()]
        modes = ["batched"] + [f"packed_{b}" for b in args.bounds.split(",")]
        timed = time_modes(backend, prefix, reads, modes, args.repeats)
        base = timed["batched"][1]
        padded = sum(len(batch) * max(len(reads[i].suffix) for i in batch) for batch, _ in backend.read_batches(reads, len(prefix), "batched"))
        row = {"questions": q, "suffix_tokens": sum(len(r.suffix) for r in reads), "padded_tokens": padded}
        for mode, (ms, out) in timed.items():
            row[f"{mode}_ms"] = round(ms, 1)
            if mode != "batched":
                row[f"{mode}_max_diff"] = float(f"{max(float(np.abs(a - b).max()) for a, b in zip(out, base)):.2g}")
        print(json.dumps(row), file=sys.stderr, flush=True)
        rows.append(row)
    result = {"model": engine.info.id, "state_tokens": len(prefix), "options": args.options, "mixed": args.mixed,
              "torch_threads": torch.get_num_threads(), "rows": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
