"""One memory budget in bytes for the embedded engine: the request that once needed tens of GB (128
two-token likelihood options on a 5,000-token state: one KV-cache copy and full-vocabulary logits per
option row) is served while the process's resident memory grows by less than the budget; a request whose
smallest pass cannot fit is refused with a 413 before anything is allocated; cached prefixes are evicted
by bytes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from onepass import Engine
from onepass.backends.embedded import EmbeddedBackend
from onepass.backends.memory import MemoryBudget, Shape
from onepass.backends.prefix_cache import PrefixCache
from onepass.errors import APIError

OPTIONS = {f"option {chr(97 + i // 26)}{chr(97 + i % 26)}": None for i in range(128)}


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM, the peak resident set


def kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def long_state(engine, tokens: int) -> str:
    words = "The quarterly report lists revenue, costs, staff changes and open risks for each region. "
    text = words * (tokens // 14 + 1)
    while len(engine.renderer.prefix(text)) > tokens:
        text = text[: int(len(text) * 0.95)]
    return text


@pytest.fixture(scope="module")
def budgeted(smol) -> Engine:
    backend = EmbeddedBackend(smol.backend.model, smol.tokenizer, memory_budget=1 << 30)
    # A 5,000-token prefill on a small shared CPU can take minutes: the deadline is not under test here.
    return Engine(backend=backend, tokenizer=smol.tokenizer, model_id="smollm2-135m", calibration=None,
                  request_timeout_s=1800)


def test_the_37gb_request_is_served_within_the_budget(budgeted):
    state = long_state(budgeted, 5000)
    request = {"model": "smollm2-135m", "state": state, "x_readout": "likelihood",
               "questions": {"q": {"type": "choice", "instructions": "Which option?", "criteria": OPTIONS}}}
    prefix_tokens = len(budgeted.renderer.prefix(state))
    assert 4500 <= prefix_tokens <= 5000
    # Warm up: the first forward pages in the memory-mapped weights, which are not the budget's business.
    budgeted.decide({"model": "smollm2-135m", "state": "warm-up", "questions": {"q": {"type": "noul", "instructions": "?"}}})
    reset_peak()
    before = kib("VmRSS")
    answer = budgeted.decide(request)["answers"]["q"]
    growth = kib("VmHWM") - before
    assert len(answer["probabilities"]) == 128 and abs(sum(answer["probabilities"].values()) - 1) < 1e-9
    # One copy per option row would have held 128 x 5,000 tokens of KV cache (about 29 GB for SmolLM2).
    assert growth < budgeted.backend.memory.budget, f"peak RSS grew by {growth / 2**20:.0f} MiB"


def test_a_request_that_cannot_fit_is_refused_before_allocating(smol):
    small = EmbeddedBackend(smol.backend.model, smol.tokenizer, memory_budget=40 << 20)
    engine = Engine(backend=small, tokenizer=smol.tokenizer, model_id="smollm2-135m", calibration=None)
    state = long_state(engine, 3000)
    smol.decide({"model": "jev-latest", "state": "warm-up", "questions": {"q": {"type": "noul", "instructions": "?"}}})
    reset_peak()
    before = kib("VmRSS")
    for readout in ("slot", "likelihood"):
        with pytest.raises(APIError) as refused:
            engine.decide({"model": "smollm2-135m", "state": state, "x_readout": readout,
                           "questions": {"q": {"type": "choice", "criteria": OPTIONS}}})
        assert refused.value.status == 413 and refused.value.error_type == "memory_budget_exceeded"
        assert "memory budget is 40.0 MiB" in refused.value.message and "Shorten the state" in refused.value.message
    assert kib("VmHWM") - before < 20 << 20  # nothing was prefilled
    assert not small.prefix_cache
    # A short request still fits the same budget.
    ok = engine.decide({"model": "smollm2-135m", "state": "short", "questions": {"q": {"type": "noul", "instructions": "?"}}})
    assert 0 <= ok["answers"]["q"]["noul"] <= 1


def test_cached_prefixes_are_bounded_by_bytes(smol):
    backend = EmbeddedBackend(smol.backend.model, smol.tokenizer, memory_budget=24 << 20, prefix_cache_entries=100)
    engine = Engine(backend=backend, tokenizer=smol.tokenizer, model_id="smollm2-135m", calibration=None)
    for i in range(6):
        engine.decide({"model": "smollm2-135m", "state": long_state(engine, 100) + f" ({i})",
                       "questions": {"q": {"type": "noul", "instructions": "?"}}})
        assert backend.prefix_cache.bytes <= backend.memory.budget // 2
        assert backend.prefix_cache.bytes == sum(backend.memory.cache_bytes(len(k)) for k in backend.prefix_cache)
    assert 1 <= len(backend.prefix_cache) < 6  # bytes, not the entry count, evicted the older states


def test_the_prefix_cache_keeps_the_most_recent_within_its_count_and_half_the_budget():
    memory = MemoryBudget(Shape(kv_per_token=100, hidden=1, intermediate=1, heads=1, vocab=1, itemsize=4), budget=2000)
    cache = PrefixCache(memory, max_entries=3)
    a, b, c = [1] * 4, [2] * 4, [3] * 4  # 400 bytes of KV cache each
    cache.put(a, "a")
    cache.put(b, "b")
    assert cache.get(a) == "a" and cache.get([9]) is None  # a is now the most recently used
    cache.put(c, "c")  # 1,200 bytes is over half the budget: the least recently used (b) goes
    assert list(cache) == [tuple(a), tuple(c)] and b not in cache and cache.bytes == 800
    cache.make_room(1500)  # a 1,500-byte pass leaves room for one entry beside it
    assert list(cache) == [tuple(c)] and cache.bytes == 400
    for token in range(4):  # one-token entries: the count bounds them
        cache.put([token], token)
    assert len(cache) == 3 and [0] not in cache and [3] in cache
    cache.clear()
    assert len(cache) == 0 and cache.bytes == 0
    off = PrefixCache(memory, max_entries=0)
    off.put(a, "a")
    assert a not in off and off.bytes == 0


def test_the_budget_is_a_flag_of_every_command_that_loads_a_model():
    import json
    import subprocess
    import sys

    cli = [sys.executable, "-m", "onepass.cli", "decide", "--model", "smollm2-135m", "--dtype", "float32",
           "--state", "A long enough ticket about a double charge. " * 40, "--question", "Is it about billing?"]
    refused = subprocess.run([*cli, "--memory-budget", "4M"], capture_output=True, text=True, timeout=600)
    assert refused.returncode == 1
    assert json.loads(refused.stderr[refused.stderr.index("{"):])["detail"]["error_type"] == "memory_budget_exceeded"
    bad = subprocess.run([*cli, "--memory-budget", "lots"], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "--memory-budget: 'lots' is not a size" in bad.stderr


def test_freed_memory_is_trimmed_as_requests_leave_at_most_every_interval():
    """The soak's resident-memory creep: glibc keeps freed blocks resident unless trimmed; the embedded
    backend trims as requests leave the engine, rate-limited, without making anyone wait for it."""
    from onepass.backends.batcher import ReadBatcher
    from onepass.backends.memory import MemoryTrim

    calls = []
    trim = MemoryTrim(every_s=60.0)
    trim._trim = lambda pad: calls.append(pad) or 1
    left = []
    batcher = ReadBatcher(lambda jobs: None, on_leave=lambda: (left.append(1), trim()))
    for _ in range(3):
        with batcher.expecting():
            pass
    assert len(left) == 3 and calls == [0]  # three requests left, one trim inside the interval
    trim.every_s = 0.0
    trim()
    assert calls == [0, 0]
    real = MemoryTrim(every_s=0.0)
    started = time.perf_counter()
    real()  # the real malloc_trim on this process: quick
    assert real._trim is None or time.perf_counter() - started < 1.0
