"""SIGTERM on a real `onepass serve` process: it stops accepting, finishes every admitted request (running
and queued), logs them, and exits cleanly. The model is a slow fake so the timing is deterministic."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.conftest import free_port
from tests.test_hardening_support import FakeEngine, metric_values, noul_request

KEY = "sigterm-key-0c1d2e3f4a5b"
AUTH = {"authorization": f"Bearer {KEY}"}
LAUNCH = """
import sys, time
sys.path.insert(0, {root!r})
import onepass.engine
from tests.test_hardening_support import FakeEngine

class SlowEngine(FakeEngine):
    def __init__(self, *args, **kwargs):
        super().__init__(delay=1.5)

onepass.engine.Engine = SlowEngine  # `onepass serve` builds its engine from onepass.engine.Engine
from onepass import cli
sys.exit(cli.main(sys.argv[1:]))
"""


def launch(tmp_path, shutdown_timeout: str):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = tmp_path / "launch.py"
    script.write_text(LAUNCH.format(root=root))
    port = free_port()
    env = dict(os.environ, ONEPASS_API_KEYS=KEY, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, str(script), "serve", "--model", "smollm2-135m", "--port", str(port),
                             "--workers", "1", "--max-queue", "4", "--shutdown-timeout", shutdown_timeout],
                            env=env, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if time.time() > deadline or proc.poll() is not None:
            proc.kill()
            raise AssertionError(f"server did not become ready: {proc.communicate()[0][-2000:]}")
        time.sleep(0.1)


def admit_three_then_sigterm(proc, url, states):
    """Three requests admitted (one running, two queued), then SIGTERM; returns the futures."""
    pool = ThreadPoolExecutor(max_workers=3)
    futures = [pool.submit(httpx.post, f"{url}/v1/systemone", json=noul_request(s), headers=AUTH, timeout=60) for s in states]
    admitted = lambda: metric_values(httpx.get(f"{url}/metrics", headers=AUTH).text)[("onepass_requests_admitted", ())]  # noqa: E731
    deadline = time.time() + 20
    while admitted() < 3:
        assert time.time() < deadline, "requests were not admitted"
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    pool.shutdown(wait=False)
    return futures


def stop(proc) -> str:
    try:
        return proc.communicate(timeout=60)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_sigterm_finishes_in_flight_and_queued_requests_then_exits(tmp_path):
    proc, url = launch(tmp_path, "60")
    states = [f"in flight {i}" for i in range(3)]
    try:
        futures = admit_three_then_sigterm(proc, url, states)
        # New connections are refused at once, while the admitted requests are still being served.
        deadline = time.time() + 5
        while True:
            try:
                httpx.get(f"{url}/healthz", timeout=1)
            except httpx.ConnectError:
                break
            assert time.time() < deadline, "the server kept accepting after SIGTERM"
            time.sleep(0.05)
        assert not futures[-1].done()
        responses = [f.result(timeout=60) for f in futures]
        for state, r in zip(states, responses):
            assert r.status_code == 200, r.text
            assert r.json()["answers"]["q"]["noul"] == FakeEngine.answer_for(state, "q")
    finally:
        output = stop(proc)
    assert proc.returncode in (0, -signal.SIGTERM), (proc.returncode, output[-2000:])
    assert "Application shutdown complete" in output and "Finished server process" in output
    access = [json.loads(line) for line in output.splitlines() if line.startswith("{") and '"event": "request"' in line]
    served = {a["request_id"]: a for a in access}
    for r in responses:
        line = served[r.headers["x-typesafe-request-id"]]
        assert line["status"] == 200 and line["route"] == "/v1/systemone" and line["key"] == 1
    assert KEY not in output and KEY[-10:] not in output
    assert "in flight" not in output  # request bodies never reach the log


def test_requests_cut_off_by_the_shutdown_timeout_get_a_json_503(tmp_path):
    proc, url = launch(tmp_path, "0.5")
    try:
        futures = admit_three_then_sigterm(proc, url, [f"cut off {i}" for i in range(3)])
        responses = [f.result(timeout=60) for f in futures]
    finally:
        output = stop(proc)
    for r in responses:
        assert r.status_code == 503 and r.headers["content-type"] == "application/json", r.text
        assert r.json()["detail"]["error_type"] == "shutting_down" and r.headers["retry-after"] == "1"
        assert r.headers["x-typesafe-request-id"]
    assert proc.returncode in (0, -signal.SIGTERM), (proc.returncode, output[-2000:])
    assert "Exception in ASGI application" not in output
