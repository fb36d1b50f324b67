"""Bounded HTTP load test: throughput and p50/p95/p99 latency of POST /v1/systemone at several concurrencies.

Loopback only, a fixed number of requests per level and a time cap, and it stops by itself. By default it
starts its own `onepass serve` (keys on, on 127.0.0.1) with the test model in a subprocess, so the load
generator and the server do not share a Python interpreter, and stops it with SIGTERM at the end.

    .venv/bin/python bench/load.py                                  # smollm2-135m, concurrency 1, 8, 32
    .venv/bin/python bench/load.py --requests 96 --json bench/out/load.json
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --key KEY   # an already running server

Each request is a 3-question decision (noul, 4-option choice, 4-level score) about a ~60-word ticket;
every request in a run has a different state, so nothing is answered from a cache.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from onepass.serve_cmd import loopback  # noqa: E402

TOPICS = ["a double charge", "a parcel that never arrived", "a login loop", "a wrong invoice address",
          "a cracked screen", "a cancelled flight", "a missing refund", "an account locked after a reset"]


def payload(i: int) -> dict:
    state = (f"Ticket {i}: Hello, I am writing about {TOPICS[i % len(TOPICS)]} (reference AC-{10000 + i}). "
             "I contacted support twice this week and nobody answered. The problem started on Monday and it "
             "blocks my whole team; we have a client demo on Thursday and need this fixed before then. "
             f"Please call me back today. Regards, customer #{i * 37 % 1000}")
    return {"model": "jev-latest", "state": state, "questions": {
        "billing": {"type": "noul", "instructions": "Is this message about billing?"},
        "team": {"type": "choice", "instructions": "Which team should handle this?",
                 "criteria": {"billing": None, "technical support": None, "sales": None, "shipping": None}},
        "urgency": {"type": "score", "instructions": "How urgent is this?",
                    "criteria": ["can wait", "this week", "today", "immediately"]},
    }}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


def run_level(url: str, key: str, concurrency: int, requests: int, duration: float, start_index: int) -> dict:
    """`requests` requests from `concurrency` threads (each with its own keep-alive connection), stopping
    early when `duration` seconds have passed."""
    lock = threading.Lock()
    state = {"next": 0}
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors: list[str] = []
    deadline = time.perf_counter() + duration

    def worker():
        # The client waits longer than the server's queue deadline: a slow answer is measured, not abandoned.
        with httpx.Client(base_url=url, headers={"authorization": f"Bearer {key}"}, timeout=3 * duration + 60) as client:
            while True:
                with lock:
                    if state["next"] >= requests or time.perf_counter() > deadline:
                        return
                    i = state["next"]
                    state["next"] += 1
                body = payload(start_index + i)
                started = time.perf_counter()
                try:
                    r = client.post("/v1/systemone", json=body)
                except httpx.HTTPError as error:
                    with lock:
                        errors.append(type(error).__name__)
                    continue
                elapsed = time.perf_counter() - started
                with lock:
                    statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                    if r.status_code == 200:
                        latencies.append(elapsed)

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, name=f"load-{n}") for n in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    ok = len(latencies)
    return {
        "concurrency": concurrency,
        "sent": state["next"],
        "ok": ok,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "transport_errors": len(errors),
        "wall_s": round(wall, 2),
        "throughput_rps": round(ok / wall, 3) if wall else 0.0,
        "decisions_per_s": round(3 * ok / wall, 3) if wall else 0.0,
        "p50_ms": round(1000 * percentile(latencies, 50), 1) if ok else None,
        "p95_ms": round(1000 * percentile(latencies, 95), 1) if ok else None,
        "p99_ms": round(1000 * percentile(latencies, 99), 1) if ok else None,
        "mean_ms": round(1000 * statistics.fmean(latencies), 1) if ok else None,
        "stopped_by_time": state["next"] < requests,
    }


def start_server(args, key: str, extra: list[str] = ()) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, ONEPASS_API_KEYS=key)
    env.pop("ONEPASS_API_KEY_FILE", None)
    command = [sys.executable, "-m", "onepass.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--model", args.model, "--workers", str(args.workers), "--max-queue", str(max(args.concurrency) * 2),
               "--queue-timeout", str(args.duration * 2),
               *(["--torch-threads", str(args.torch_threads)] if args.torch_threads else []),
               *(["--batch-wait-ms", str(args.batch_wait_ms)] if args.batch_wait_ms is not None else []), *extra]
    log = open(args.server_log, "w") if args.server_log else subprocess.DEVNULL
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 300
    while True:
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise SystemExit("the server did not become ready (see --server-log)")
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--concurrency", default="1,8,32", help="comma-separated client concurrencies")
    parser.add_argument("--requests", type=int, default=64, help="requests per concurrency level (default 64)")
    parser.add_argument("--duration", type=float, default=120.0, help="time cap per level, seconds (default 120)")
    parser.add_argument("--warmup", type=int, default=2, help="sequential requests before measuring")
    parser.add_argument("--workers", type=int, default=4, help="server --workers when the server is started here")
    parser.add_argument("--batch-wait-ms", type=float, help="server --batch-wait-ms when the server is started here")
    parser.add_argument("--torch-threads", type=int, help="server --torch-threads when the server is started here")
    parser.add_argument("--url", help="an already running onepass on a loopback address")
    parser.add_argument("--key", default=os.environ.get("ONEPASS_BENCH_KEY"), help="its API key (with --url)")
    parser.add_argument("--server-log", help="write the started server's output here")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    args.concurrency = [int(c) for c in args.concurrency.split(",")]
    if not all(1 <= c <= 256 for c in args.concurrency) or not 1 <= args.requests <= 100_000 or not 0 < args.duration <= 3600:
        parser.error("concurrency 1..256, requests 1..100000, duration 0..3600 s")

    proc = None
    if args.url:
        host = urlsplit(args.url).hostname or ""
        if not loopback(host):
            parser.error(f"{args.url} is not a loopback address; this load test only runs against this machine")
        url, key = args.url.rstrip("/"), args.key or "none"
    else:
        key = secrets.token_urlsafe(24)
        proc, url = start_server(args, key)
    try:
        with httpx.Client(base_url=url, headers={"authorization": f"Bearer {key}"}, timeout=300) as client:
            for i in range(args.warmup):
                client.post("/v1/systemone", json=payload(-1 - i)).raise_for_status()
            model = client.get("/readyz").json().get("model")
        load_before = os.getloadavg()[0]
        results, index = [], 0
        for concurrency in args.concurrency:
            result = run_level(url, key, concurrency, args.requests, args.duration, index)
            index += result["sent"]
            results.append(result)
            print(f"concurrency {concurrency:>3}: {result['ok']:>4} ok of {result['sent']:>4} in {result['wall_s']:>7.2f}s "
                  f"{result['throughput_rps']:>7.2f} req/s  p50 {result['p50_ms']} ms  p95 {result['p95_ms']} ms  "
                  f"p99 {result['p99_ms']} ms  statuses {result['statuses']}  transport errors {result['transport_errors']}", flush=True)
        report = {"model": model, "url_loopback": True, "requests_per_level": args.requests, "duration_cap_s": args.duration,
                  "server_workers": args.workers if proc else None, "server_batch_wait_ms": args.batch_wait_ms if proc else None, "server_torch_threads": args.torch_threads if proc else None,
                  "omp_num_threads": os.environ.get("OMP_NUM_THREADS"), "cpu_count": os.cpu_count(),
                  "loadavg_1m_before": round(load_before, 2), "loadavg_1m_after": round(os.getloadavg()[0], 2),
                  "levels": results}
        if args.json:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
