"""Foundation numbers: load time (cold and cached), latency of a 3-question request with a ~200-token
state, and decisions per second, for one model on this machine. In-process (Engine), no HTTP.

    .venv/bin/python bench/latency.py --model qwen2.5-coder-1.5b-instruct --cold --json bench/out/qwen.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["QUESTIONS", "STATE", "cold_load_seconds", "main"]

STATE = (
    "Subject: Double charge on my annual plan\n\n"
    "Hello, I upgraded from the monthly to the annual plan on November 3rd. My bank statement shows two "
    "charges of $239.88 on the same day, and the invoice page in my account only lists one of them. I "
    "already contacted my bank, who told me the second charge is not pending but settled. I would like "
    "the duplicate refunded to the original card. I also noticed that the seat count on the new plan shows "
    "5 seats instead of the 8 we had on the monthly plan, so three of my colleagues cannot log in since this "
    "morning. We have a client demo on Thursday and need this fixed before then. Order reference: "
    "AC-55812-ZX. Thanks, Maria (finance lead)"
)
QUESTIONS = {
    "billing": {"type": "noul", "instructions": "Is this message about billing?"},
    "team": {"type": "choice", "instructions": "Which team should handle this?",
             "criteria": {"billing": None, "technical support": None, "sales": None, "shipping": None}},
    "urgency": {"type": "score", "instructions": "How urgent is this?",
                "criteria": ["can wait", "this week", "today", "immediately"]},
}


def cold_load_seconds(model: str) -> float:
    """Load from the wheels into an empty cache (assemble + sha256 + dequantise + cache) in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ONEPASS_CACHE_DIR=cache)
        code = f"import time; t=time.perf_counter(); from onepass import models; models.load({model!r}, log=lambda m: None); print(time.perf_counter()-t)"
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--cold", action="store_true", help="also measure a cold load into an empty cache")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()

    import torch

    from onepass import Engine

    result: dict = {"model": args.model, "torch_threads": torch.get_num_threads(), "cpu_count": os.cpu_count()}
    if args.cold:
        result["load_cold_s"] = round(cold_load_seconds(args.model), 2)
    started = time.perf_counter()
    engine = Engine(args.model, log=lambda m: None)
    result["load_cached_s"] = round(time.perf_counter() - started, 2)

    request = {"model": "jev-latest", "state": STATE, "questions": QUESTIONS}
    result["state_tokens"] = len(engine.renderer.prefix(STATE))
    engine.decide(request)  # warm-up
    times = []
    for _ in range(args.repeats):
        engine.backend.clear_prefix_cache()  # every timed request pays its own state prefill
        t = time.perf_counter()
        engine.decide(request)
        times.append(time.perf_counter() - t)
    result["latency_3q_ms_p50"] = round(statistics.median(times) * 1000, 1)
    result["latency_3q_ms_min"] = round(min(times) * 1000, 1)
    result["decisions_per_s_3q"] = round(3 / statistics.median(times), 2)

    # A wider request: 16 questions over the same state share one prefill.
    wide = {"model": "jev-latest", "state": STATE,
            "questions": {f"{k}{i}": q for i in range(16 // len(QUESTIONS) + 1) for k, q in QUESTIONS.items()}}
    wide["questions"] = dict(list(wide["questions"].items())[:16])
    times = []
    for _ in range(max(3, args.repeats // 3)):
        engine.backend.clear_prefix_cache()
        t = time.perf_counter()
        engine.decide(wide)
        times.append(time.perf_counter() - t)
    result["latency_16q_ms_p50"] = round(statistics.median(times) * 1000, 1)
    result["decisions_per_s_16q"] = round(16 / statistics.median(times), 2)

    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
