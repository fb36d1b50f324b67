"""The CLI end to end: decide, models, and serve answering the official SDK."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx
import numpy as np
import pytest

from onepass import Engine, models
from tests.conftest import free_port

CLI = [sys.executable, "-m", "onepass.cli"]
REQUEST = {"model": "smollm2-135m", "state": "Server cpu at 99% for an hour, then the pod was OOM killed.",
           "questions": {"sev": {"type": "score", "instructions": "How severe?", "criteria": ["low", "medium", "high"]},
                         "oom": {"type": "noul", "instructions": "Was a process killed for memory?"}}}


def test_decide_prints_the_same_response_as_the_python_api(tmp_path, smol_auto):
    path = tmp_path / "req.json"
    path.write_text(json.dumps({**REQUEST, "x_trace_id": "t-9"}))  # ignored, and said so on stderr only
    out = subprocess.run([*CLI, "decide", "--model", "smollm2-135m", "--request", str(path)],
                         capture_output=True, text=True, timeout=300, check=True)
    printed = json.loads(out.stdout)
    assert "onepass decide: ignored top-level fields: x_trace_id" in out.stderr and "t-9" not in out.stderr
    direct = smol_auto.decide(REQUEST)  # `decide` serves --dtype auto
    assert printed["model"] == "smollm2-135m"
    assert set(printed["answers"]) == {"sev", "oom"}
    assert abs(printed["answers"]["oom"]["noul"] - direct["answers"]["oom"]["noul"]) < 1e-6
    assert printed["usage"] == direct["usage"]


def test_decide_reports_invalid_requests(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**REQUEST, "questions": {}}))
    out = subprocess.run([*CLI, "decide", "--model", "smollm2-135m", "--request", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1
    assert "at least one question" in out.stderr


def test_models_lists_registry_and_cache_state():
    out = subprocess.run([*CLI, "models"], capture_output=True, text=True, timeout=60, check=True).stdout
    assert "qwen2.5-coder-1.5b-instruct (default)" in out
    assert "smollm2-135m" in out and str(models.cache_dir("smollm2-135m")) in out


def test_gguf_file_and_cache_give_the_same_answers(smol):
    """The fast-loading safetensors cache holds exactly the dequantised GGUF weights."""
    (gguf,) = models.REGISTRY["smollm2-135m"].sources()
    from_gguf = Engine(str(gguf), dtype="float32", log=lambda _m: None).decide({**REQUEST, "model": "jev-latest"})
    cached = smol.decide({**REQUEST, "model": "jev-latest"})
    for qid in REQUEST["questions"]:
        a, b = from_gguf["answers"][qid], cached["answers"][qid]
        key = "noul" if a["type"] == "noul" else "probabilities"
        va = [a[key]] if key == "noul" else list(a[key].values())
        vb = [b[key]] if key == "noul" else list(b[key].values())
        assert np.allclose(va, vb, atol=1e-6)


def test_serve_with_keys_answers_the_sdk_and_stops_on_sigterm():
    from typesafe_sdk import (
        Noul,
        RetryPolicy,
        TypeSafeAuthenticationError,
        TypeSafeClient,
    )

    port = free_port()
    env = dict(os.environ, ONEPASS_API_KEYS="alpha-key,beta-key")
    proc = subprocess.Popen([*CLI, "serve", "--model", "smollm2-135m", "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            try:
                if httpx.get(f"{url}/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.time() < deadline and proc.poll() is None, "server did not become ready"
            time.sleep(0.3)
        with TypeSafeClient(base_url=url, api_key="beta-key", retry=RetryPolicy(max_retries=0), timeout=120) as c:
            r = c.system_one(state="The invoice is overdue.", questions={"q": Noul(instructions="Is this about money?")})
            assert r.model == "smollm2-135m" and 0 < r.nouls["q"].noul < 1
        with TypeSafeClient(base_url=url, api_key="gamma-key", retry=RetryPolicy(max_retries=0), timeout=120) as c:
            with pytest.raises(TypeSafeAuthenticationError):
                c.system_one(state="x", questions={"q": Noul(instructions="y?")})
    finally:
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=60)
    # uvicorn drains, then re-raises the signal it caught: exit by SIGTERM after a clean shutdown.
    assert proc.returncode in (0, -signal.SIGTERM)
    assert "Finished server process" in output
    assert "alpha-key" not in output and "beta-key" not in output and "gamma-key" not in output


def test_serve_banner_says_what_the_default_models_profile_does(tmp_path, monkeypatch):
    """The default model's packaged profile holds a readout policy and no temperatures: the start-up line
    says it serves uncalibrated with that policy (it once printed "calibration <file> ()")."""
    from onepass import serve_cmd
    from onepass.config import EngineConfig
    from onepass.learn import calibration

    monkeypatch.setattr(models, "cache_dir", lambda name: tmp_path / name)  # no user-fitted profile in the way
    packaged = f"{models.DEFAULT_MODEL}.bfloat16.json"
    assert calibration.Profile.load(calibration.PACKAGED / packaged).readout_policy
    assert serve_cmd._calibration_note(EngineConfig(dtype="bfloat16")) == f"uncalibrated; readout policy from {packaged}"
    # Without --readout auto the policy is not used, so it is not claimed.
    assert serve_cmd._calibration_note(EngineConfig(dtype="bfloat16", readout="slot")) == \
        f"uncalibrated ({packaged} has no fitted temperatures)"
    assert serve_cmd._calibration_note(EngineConfig(dtype="float32")) == "uncalibrated (no profile for this model in float32)"
    # A user's own fit (the cache directory comes first) with temperatures is named with its families.
    own = calibration.Profile(model=models.DEFAULT_MODEL, dtype="bfloat16", temperatures={"slot": {"choice": 2.0}, "isolated": {}},
                              readout_policy={"choice@50": "shortlist"})
    own.save(calibration.profile_paths(models.DEFAULT_MODEL, "bfloat16")[0])
    assert serve_cmd._calibration_note(EngineConfig(dtype="bfloat16")) == \
        "calibration calibration.bfloat16.json (slot); readout policy from it"
