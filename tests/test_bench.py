"""`onepass bench` on a tiny random model: the report has every key, and its numbers are consistent."""

from __future__ import annotations

import json
import subprocess
import sys

from onepass import Engine
from onepass.bench import bench, raw_forward_seconds, workload
from tests.tiny_random import llama_with_smollm_tokenizer


def test_bench_report(tmp_path):
    engine = Engine(str(llama_with_smollm_tokenizer(tmp_path / "tiny")), log=lambda _m: None)
    result = bench(engine, state_tokens=120, questions=4, options=5, concurrency=2, requests=4, repeats=2,
                   generation_tokens=4, generation_questions=2)
    for key in ("decisions_per_s", "p50_ms", "p95_ms", "overhead_pct", "speedup_vs_generation"):
        assert isinstance(result[key], float), key
    assert result["decisions_per_s"] > 0 and result["p95_ms"] >= result["p50_ms"] > 0
    assert result["raw_forward_ms"] > 0 and result["engine_request_ms"] > 0
    # overhead_pct comes from unrounded seconds; the reported ms are rounded to 0.1 ms, which on a tiny
    # model's ~10 ms requests moves the recomputed percentage by up to 100 * 0.1 / raw_ms.
    recomputed = 100 * (result["engine_request_ms"] - result["raw_forward_ms"]) / result["raw_forward_ms"]
    assert abs(result["overhead_pct"] - recomputed) < 0.05 + 100 * 0.1 / result["raw_forward_ms"] * (1 + result["engine_request_ms"] / result["raw_forward_ms"])
    assert result["workload"]["questions"] == 4 and 100 <= result["workload"]["state_tokens"] <= 200
    request = workload(engine, 120, 4, 5)
    assert len(request["questions"]) == 4 and all(len(q["criteria"]) == 5 for q in request["questions"].values())
    assert raw_forward_seconds(engine, request, 1) > 0


def test_bench_cli_writes_json(tmp_path):
    directory = llama_with_smollm_tokenizer(tmp_path / "tiny")
    out = tmp_path / "b.json"
    subprocess.run([sys.executable, "-m", "onepass.cli", "bench", "--model", str(directory), "--state-tokens", "64",
                    "--questions", "2", "--options", "3", "--concurrency", "1", "--requests", "2", "--json", str(out)],
                   check=True, capture_output=True, text=True, timeout=600)
    result = json.loads(out.read_text())
    assert result["model"] == "tiny" and result["speedup_vs_generation"] > 0
