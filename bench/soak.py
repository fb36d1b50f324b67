"""Soak test: a long, mixed, bounded load on a real server, to show that nothing leaks and nothing is lost.

    .venv/bin/python bench/soak.py --requests 2000 --minutes 10 --json bench/out/soak.json

Starts `onepass serve` on 127.0.0.1 with SmolLM2 (keys on) in a subprocess and sends, from 16 client threads,
a fixed mix until both the request count and the minimum duration are reached (and never past --max-minutes):
  valid       one to three questions of every type, every readout family (slot, isolated, likelihood, debiased)
  invalid     malformed JSON, wrong types, unknown x_ options                      -> 400 / 422
  oversized   a 2 MB body (limit 1 MiB)                                            -> 413
  cancelled   a valid heavy request whose client hangs up after 50-300 ms          -> the server stops it (499)
  deadline    a heavy request sent with a server deadline it cannot meet           -> 503 deadline_exceeded
The deadline requests go to a second server started with `--request-timeout-s 1`, so the first server's
deadline stays generous. Reported: requests by kind and status, statuses a kind must never get
(unexpected), requests that got no HTTP answer (transport errors outside the cancelled kind: must be 0),
5xx other than the deadline's 503 (must be 0), and the server's resident memory at start, after warm-up
and at the end (growth after warm-up must stay under 5%). Warm-up is the first quarter of the requests by default:
the prefix cache and the allocator's arenas fill during it by design (both are bounded), so growth is judged
after them. The RSS is also sampled every --sample-s seconds into a timeline, so a slow leak shows as a slope.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import TOPICS, start_server  # noqa: E402

READOUTS = ["slot", "isolated", "likelihood", "debiased"]
EXPECTED = {"valid": {200, 429}, "invalid": {400, 422}, "oversized": {413}, "cancelled": {200},
            "deadline": {503}}
MIX = [("valid", 70), ("invalid", 10), ("oversized", 5), ("cancelled", 8), ("deadline", 7)]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def question(rng: random.Random, i: int) -> dict:
    kind = rng.choice(["noul", "choice", "score"])
    if kind == "noul":
        return {"type": "noul", "instructions": rng.choice(["Is this about billing?", "Is the customer angry?"])}
    if kind == "choice":
        teams = ["billing", "shipping", "technical support", "sales", "accounts", "legal"][: rng.randint(2, 6)]
        return {"type": "choice", "instructions": "Which team should handle this?", "criteria": {t: None for t in teams}}
    return {"type": "score", "instructions": "How urgent is this?", "criteria": ["can wait", "this week", "today", "now"]}


def valid(rng: random.Random, i: int, heavy: bool = False) -> dict:
    state = f"Ticket {i}: about {TOPICS[i % len(TOPICS)]}. " + ("It has been going on for a while. " * (20 if heavy else rng.randint(1, 4)))
    count = 6 if heavy else rng.randint(1, 3)
    return {"model": "jev-latest", "state": state, "x_readout": "likelihood" if heavy else rng.choice(READOUTS),
            "questions": {f"q{k}": question(rng, i) for k in range(count)}}


def invalid(rng: random.Random, i: int) -> bytes:
    return rng.choice([b"{not json", json.dumps({"model": "jev-latest", "state": "x", "questions": []}).encode(),
                       json.dumps({"model": "jev-latest", "state": "x", "x_reaodut": "slot",
                                   "questions": {"q": {"type": "noul"}}}).encode(),
                       json.dumps({"model": "jev-latest", "state": 5, "questions": {"q": {"type": "maybe"}}}).encode()])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--minutes", type=float, default=10.0, help="run at least this long")
    parser.add_argument("--max-minutes", type=float, default=30.0, help="and never longer than this")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--warmup", type=int, default=None, help="requests before the warm RSS reading (default: a quarter)")
    parser.add_argument("--sample-s", type=float, default=10.0, help="seconds between RSS timeline samples")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    if not (1 <= args.clients <= 64 and 1 <= args.requests <= 50_000 and 0 < args.minutes <= args.max_minutes <= 120):
        parser.error("clients 1..64, requests 1..50000, 0 < minutes <= max-minutes <= 120")
    warmup = args.warmup if args.warmup is not None else args.requests // 4

    key = secrets.token_hex(16)
    server_args = argparse.Namespace(model="smollm2-135m", workers=4, concurrency=[args.clients * 2],
                                     duration=60.0, torch_threads=None, batch_wait_ms=None, server_log=None)
    main_proc, url = start_server(server_args, key)
    strict_args = argparse.Namespace(**{**vars(server_args), "workers": 1, "concurrency": [4]})
    strict_proc, strict_url = start_server(strict_args, key, extra=["--request-timeout-s", "1"])
    rss = {"start_mib": rss_mib(main_proc.pid)}
    lock = threading.Lock()
    counts: Counter = Counter()
    unexpected: Counter = Counter()
    lost: list[str] = []
    state = {"sent": 0}
    started = time.monotonic()
    kinds = [k for k, w in MIX for _ in range(w)]

    def worker(n: int) -> None:
        rng = random.Random(n)
        headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}
        with httpx.Client(headers=headers, timeout=300) as client:
            while True:
                elapsed = (time.monotonic() - started) / 60
                with lock:
                    i = state["sent"]
                    if elapsed > args.max_minutes or (i >= args.requests and elapsed >= args.minutes):
                        return
                    state["sent"] += 1
                    if i == warmup:
                        rss["warm_mib"] = rss_mib(main_proc.pid)
                kind = rng.choice(kinds)
                target, body, timeout = url, None, 300.0
                if kind == "valid":
                    body = json.dumps(valid(rng, i)).encode()
                elif kind == "invalid":
                    body = invalid(rng, i)
                elif kind == "oversized":
                    body = b'{"model": "jev-latest", "state": "' + b"x" * (2 << 20) + b'", "questions": {}}'
                elif kind == "cancelled":
                    body, timeout = json.dumps(valid(rng, i, heavy=True)).encode(), rng.uniform(0.05, 0.3)
                else:
                    target, body = strict_url, json.dumps(valid(rng, i, heavy=True)).encode()
                try:
                    r = client.post(f"{target}/v1/systemone", content=body, timeout=timeout)
                    status = r.status_code
                except httpx.TimeoutException:
                    status = "client hung up" if kind == "cancelled" else "timeout"
                except httpx.HTTPError as error:
                    status = type(error).__name__
                with lock:
                    counts[(kind, status)] += 1
                    if isinstance(status, str) and status != "client hung up":
                        lost.append(f"{kind}: {status}")
                    elif isinstance(status, int) and status not in EXPECTED[kind]:
                        unexpected[(kind, status)] += 1

    timeline: list[tuple[float, int, float]] = []  # (minutes, requests sent, RSS MiB)
    done = threading.Event()

    def sampler() -> None:
        while not done.wait(args.sample_s):
            timeline.append((round((time.monotonic() - started) / 60, 2), state["sent"], round(rss_mib(main_proc.pid), 1)))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(args.clients)]
    watcher = threading.Thread(target=sampler, daemon=True)
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    wall = time.monotonic() - started
    time.sleep(2)  # cancelled requests finish their current pass
    rss["end_mib"] = rss_mib(main_proc.pid)
    health = httpx.get(f"{url}/readyz", timeout=10).status_code
    for proc in (main_proc, strict_proc):
        proc.terminate()
        proc.wait(timeout=120)
    fivexx = sum(v for (kind, status), v in counts.items()
                 if isinstance(status, int) and status >= 500 and not (kind == "deadline" and status == 503))
    growth = (rss["end_mib"] - rss["warm_mib"]) / rss["warm_mib"] if rss.get("warm_mib") else float("nan")
    result = {"requests": state["sent"], "minutes": round(wall / 60, 2), "clients": args.clients,
              "by_kind_and_status": {f"{k} {s}": v for (k, s), v in sorted(counts.items(), key=str)},
              "unexpected": {f"{k} {s}": v for (k, s), v in unexpected.items()}, "no_answer": len(lost),
              "no_answer_examples": lost[:5], "unexpected_5xx": fivexx, "ready_at_end": health == 200,
              "warmup_requests": warmup, "rss_mib": {k: round(v, 1) for k, v in rss.items()},
              "rss_growth_after_warmup": round(growth, 4), "rss_timeline": timeline}
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    ok = not unexpected and not lost and fivexx == 0 and growth < 0.05 and health == 200
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
