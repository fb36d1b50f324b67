"""Server-Timing on every response, and the engine counters on /metrics (prefix cache, batch sizes)."""

from __future__ import annotations

import re
import threading
import uuid

import httpx
import pytest
from conftest import KEYS, ServerThread

from onepass.config import ServerConfig
from onepass.server import create_app

AUTH = {"authorization": f"Bearer {KEYS[0]}"}
QUESTION = {"urgent": {"type": "noul", "instructions": "Is it urgent?"}}
ENTRY = re.compile(r'^(?P<name>[a-z]+);dur=(?P<dur>\d+(?:\.\d+)?)(?:;desc="(?P<desc>[a-z]+)")?$')


def timing(response: httpx.Response) -> dict[str, tuple[float, str | None]]:
    """Server-Timing as {name: (milliseconds, desc)}; the format is checked on the way."""
    out = {}
    for part in response.headers["server-timing"].split(", "):
        m = ENTRY.match(part)
        assert m, part
        out[m["name"]] = (float(m["dur"]), m["desc"])
    assert list(out) == ["queue", "prefill", "reads", "total"]
    return out


def metric(url: str, name: str, headers=AUTH) -> float:
    text = httpx.get(url + "/metrics", headers=headers, timeout=30).text
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} is not on /metrics")


def decide(url: str, state: str, headers=AUTH) -> httpx.Response:
    return httpx.post(url + "/v1/systemone", json={"model": "jev-latest", "state": state, "questions": QUESTION},
                      headers=headers, timeout=120)


def test_every_response_has_server_timing_beside_its_request_id(server):
    url = server.url
    responses = [
        httpx.get(url + "/healthz"), httpx.get(url + "/readyz"), httpx.get(url + "/v1/models", headers=AUTH),
        httpx.get(url + "/metrics", headers=AUTH), httpx.get(url + "/"), httpx.get(url + "/nowhere"),
        httpx.get(url + "/v1/models"),  # 401
        httpx.post(url + "/v1/systemone", json={"model": "jev-latest"}, headers=AUTH),  # 422
        httpx.put(url + "/v1/systemone", headers=AUTH),  # 405
        httpx.post(url + "/v1/systemone/batch", json={"states": []}, headers=AUTH),  # 422
    ]
    assert sorted({r.status_code for r in responses}) == [200, 401, 404, 405, 422]
    for r in responses:
        assert len(r.headers["x-typesafe-request-id"]) == 32
        t = timing(r)
        # No model work: zeros, but always the same three names (and the total).
        assert t["queue"][0] == t["prefill"][0] == t["reads"][0] == 0.0
        assert t["total"][0] >= 0.0


def test_a_decision_reports_its_prefill_miss_then_hit(server):
    state = f"Ticket {uuid.uuid4().hex}: the printer is on fire."
    hits, misses = metric(server.url, "onepass_prefix_cache_hits_total"), metric(server.url, "onepass_prefix_cache_misses_total")
    first = decide(server.url, state)
    assert first.status_code == 200
    t = timing(first)
    assert t["prefill"][1] == "miss" and t["prefill"][0] > 0
    assert t["reads"][0] > 0
    assert t["queue"][0] + t["prefill"][0] + t["reads"][0] <= t["total"][0] + 1.0  # parts of the whole (ms rounding)
    second = decide(server.url, state)
    t2 = timing(second)
    assert t2["prefill"][1] == "hit"
    assert t2["prefill"][0] < t["prefill"][0]
    assert second.json()["answers"] == first.json()["answers"]
    assert metric(server.url, "onepass_prefix_cache_misses_total") == misses + 1
    assert metric(server.url, "onepass_prefix_cache_hits_total") == hits + 1


def test_queue_time_is_the_wait_for_a_worker(smol):
    # One worker: of two requests sent together, one waits for the other's whole run.
    with ServerThread(create_app(smol, ServerConfig(workers=1))) as running:
        results: list[httpx.Response] = []

        def send(i: int) -> None:
            results.append(decide(running.url, f"Request {i} {uuid.uuid4().hex}: refund please.", headers={}))

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert [r.status_code for r in results] == [200, 200]
        waits = sorted(timing(r)["queue"][0] for r in results)
        runs = [timing(r)["prefill"][0] + timing(r)["reads"][0] for r in results]
        assert waits[0] < 50  # the first starts at once
        assert waits[1] >= 0.5 * min(runs)  # the second waited about one whole run


def test_batch_calls_report_timing(server):
    states = [f"Order {uuid.uuid4().hex} arrived broken.", f"Order {uuid.uuid4().hex} never arrived."]
    r = httpx.post(server.url + "/v1/systemone/batch", json={"model": "jev-latest", "states": states, "questions": QUESTION},
                   headers=AUTH, timeout=120)
    assert r.status_code == 200
    t = timing(r)
    assert t["reads"][0] > 0
    assert t["queue"][0] + t["prefill"][0] + t["reads"][0] <= t["total"][0] + 1.0


def test_metrics_count_batch_sizes(server):
    url = server.url
    count, total = metric(url, "onepass_batch_size_count"), metric(url, "onepass_batch_size_sum")
    for i in range(2):  # one after the other: each request's reads are a batch of one
        assert decide(url, f"Sequential {i} {uuid.uuid4().hex}").status_code == 200
    assert metric(url, "onepass_batch_size_count") == count + 2
    assert metric(url, "onepass_batch_size_sum") == total + 2
    # Four states in one call run together: their reads are four jobs, in at most four batches.
    count, total = metric(url, "onepass_batch_size_count"), metric(url, "onepass_batch_size_sum")
    states = [f"State {k} {uuid.uuid4().hex}" for k in range(4)]
    r = httpx.post(url + "/v1/systemone/batch", json={"model": "jev-latest", "states": states, "questions": QUESTION},
                   headers=AUTH, timeout=120)
    assert r.status_code == 200
    assert metric(url, "onepass_batch_size_sum") == total + 4
    assert count + 1 <= metric(url, "onepass_batch_size_count") <= count + 4
    text = httpx.get(url + "/metrics", headers=AUTH, timeout=30).text
    assert 'onepass_batch_size_bucket{le="+Inf"}' in text
    assert "# TYPE onepass_prefix_cache_hits_total counter" in text


def test_metrics_are_zero_while_the_model_loads():
    gate = threading.Event()

    def slow_factory():
        gate.wait(30)
        raise RuntimeError("never loads in this test")

    with ServerThread(create_app(slow_factory, ServerConfig())) as running:
        try:
            assert metric(running.url, "onepass_prefix_cache_hits_total", headers={}) == 0
            assert metric(running.url, "onepass_batch_size_count", headers={}) == 0
            assert timing(httpx.get(running.url + "/readyz"))["total"][0] >= 0
        finally:
            gate.set()


@pytest.mark.parametrize("path", ["/v1/systemone", "/v1/systemone/batch"])
def test_the_timing_carries_no_request_content(server, path):
    secret = f"secret-{uuid.uuid4().hex}"
    body = {"model": "jev-latest", "questions": QUESTION, **({"state": secret} if path.endswith("systemone") else {"states": [secret]})}
    r = httpx.post(server.url + path, json=body, headers=AUTH, timeout=120)
    assert r.status_code == 200
    assert secret not in r.headers["server-timing"]


def test_uvicorns_own_429_carries_it_too():
    """Past --max-connections uvicorn answers before the app (onepass replaces that answer): same header."""
    import asyncio

    from onepass.listener import _connection_limit_app

    sent = []

    async def send(message):
        sent.append(message)

    asyncio.run(_connection_limit_app(1)({"type": "http"}, None, send))
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    assert sent[0]["status"] == 429
    assert headers["server-timing"] == "queue;dur=0.0, prefill;dur=0.0, reads;dur=0.0, total;dur=0.0"
    assert len(headers["x-typesafe-request-id"]) == 32
