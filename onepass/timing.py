"""Where a request's time went (the `Server-Timing` header) and the engine counters behind /metrics.

Every HTTP response carries `Server-Timing: queue;dur=..., prefill;dur=..., reads;dur=..., total;dur=...`
(milliseconds):

* `queue`: waiting for a worker (admission); for a batch call, until its first state started.
* `prefill`: prefilling the state (the prompt prefix) on the model; `desc="hit"` when the prefix cache
  already held it (then it costs next to nothing), `desc="miss"` when it was computed. A prefix computed
  inside a pass shared with other requests, or by a remote engine, is not measured apart: it is in `reads`.
* `reads`: the rest of the engine's time for the request (rendering, question reads, waiting for a pass
  shared with other requests). For a batch call: from its first state starting on a worker to its last
  finishing, less the prefills (states run concurrently, so this is wall time, not a sum).

So queue + prefill + reads is the wall time from handing the request to the worker pool until its engine
work ended, never more than `total`.
* `total`: first byte of the request to the first byte of the response.

Requests that never reach the model report zeros for the first three, so a client can always parse them.

The embedded backend keeps its prefix cache and read batcher to itself and reports to an `Observer`
(onepass.backends.observer): `instrument` registers one that counts each prefill as a cache hit or miss
and charges its time to the request it serves (found through the request's `Deadline`, which the batcher
hands to whichever thread runs the request's reads), and records how many requests' reads each batcher
round carried. `EngineStats` holds those totals per backend and `StatsCollector` exposes them on an app's
metrics registry at scrape time. Backends that report nothing (remote engines) count nothing.
"""

from __future__ import annotations

import contextvars
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable

from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily

from onepass.backends.observer import Observed, Observer
from onepass.deadline import current_deadline

__all__ = ["EngineStats", "HEADER", "NO_WORK", "RequestTiming", "StatsCollector", "header_for", "instrument",
           "start", "timed"]

SCOPE_KEY = "onepass.timing"
HEADER = "server-timing"
NO_WORK = "queue;dur=0.0, prefill;dur=0.0, reads;dur=0.0, total;dur=0.0"  # answered before the app (uvicorn's 429)
# Requests per batcher round: one bucket per small size, then coarser.
BATCH_BUCKETS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)


class RequestTiming:
    """One HTTP request's timings (seconds), filled from worker threads, read when the response starts."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.queue_s = 0.0
        self.prefill_s = 0.0
        self.prefix_hits = 0
        self.prefix_misses = 0
        self._began: float | None = None  # the first engine run's start, the last one's end
        self._ended: float | None = None
        self._lock = threading.Lock()

    def add(self, queue_s: float, run: "_Run", began: float, ended: float) -> None:
        with self._lock:
            self.queue_s = queue_s if self._began is None else min(self.queue_s, queue_s)
            self.prefill_s += run.prefill_s
            self.prefix_hits += run.hits
            self.prefix_misses += run.misses
            self._began = began if self._began is None else min(self._began, began)
            self._ended = ended if self._ended is None else max(self._ended, ended)

    @property
    def reads_s(self) -> float:
        if self._began is None or self._ended is None:
            return 0.0
        return max(0.0, self._ended - self._began - self.prefill_s)

    def header(self, now: float | None = None) -> str:
        total = (time.perf_counter() if now is None else now) - self.started
        prefill = f"prefill;dur={self.prefill_s * 1000:.1f}"
        if self.prefix_misses:
            prefill += ';desc="miss"'
        elif self.prefix_hits:
            prefill += ';desc="hit"'
        return f"queue;dur={self.queue_s * 1000:.1f}, {prefill}, reads;dur={self.reads_s * 1000:.1f}, total;dur={total * 1000:.1f}"


def start(scope: dict) -> RequestTiming:
    """The timing record of this request (created on first use; the Envelope middleware creates it first)."""
    record = scope.get(SCOPE_KEY)
    if record is None:
        record = scope[SCOPE_KEY] = RequestTiming()
    return record


def header_for(scope: dict) -> str:
    return start(scope).header()


@dataclass
class _Run:
    """One engine run (one state): what its prefills cost."""

    prefill_s: float = 0.0
    hits: int = 0
    misses: int = 0


# The run each in-flight request's Deadline belongs to: a batcher leader runs other requests' reads under
# their own Deadline, so a prefill is charged to the request it serves, whichever thread runs it.
_RUNS: "weakref.WeakKeyDictionary[Any, _Run]" = weakref.WeakKeyDictionary()
_RUNS_LOCK = threading.Lock()
# A run without a Deadline (not the server's path today): charged through the thread's context instead.
_CURRENT_RUN: contextvars.ContextVar[_Run | None] = contextvars.ContextVar("onepass_timing_run", default=None)


def _run_now() -> _Run | None:
    deadline = current_deadline()
    if deadline is None:
        return _CURRENT_RUN.get()
    with _RUNS_LOCK:
        return _RUNS.get(deadline)


def timed(fn: Callable[[Any], Any], scope: dict) -> Callable[[Any], Any]:
    """fn, wrapped to charge its queue wait and engine time to the request of `scope`. Call it where the
    request is handed to the worker pool: the time until the worker starts it is its queue time."""
    record = start(scope)
    submitted = time.perf_counter()

    def run(arg: Any) -> Any:
        began = time.perf_counter()
        this = _Run()
        deadline = current_deadline()
        if deadline is not None:
            with _RUNS_LOCK:
                _RUNS[deadline] = this
        token = _CURRENT_RUN.set(this)
        try:
            return fn(arg)
        finally:
            _CURRENT_RUN.reset(token)
            if deadline is not None:
                with _RUNS_LOCK:
                    _RUNS.pop(deadline, None)
            record.add(began - submitted, this, began, time.perf_counter())

    return run


# -- engine counters ----------------------------------------------------------------------------------------


class EngineStats:
    """Process-wide totals of one backend: prefix-cache hits and misses, requests per batcher round."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.prefix_hits = 0
        self.prefix_misses = 0
        self.batch_counts = [0] * len(BATCH_BUCKETS)  # rounds with size <= bucket (not cumulative here)
        self.batch_over = 0  # rounds larger than the last bucket
        self.batches = 0
        self.batched_requests = 0

    def prefill(self, hit: bool) -> None:
        with self._lock:
            if hit:
                self.prefix_hits += 1
            else:
                self.prefix_misses += 1

    def batch(self, size: int) -> None:
        with self._lock:
            self.batches += 1
            self.batched_requests += size
            for k, bound in enumerate(BATCH_BUCKETS):
                if size <= bound:
                    self.batch_counts[k] += 1
                    break
            else:
                self.batch_over += 1

    def snapshot(self) -> dict:
        with self._lock:
            return {"prefix_hits": self.prefix_hits, "prefix_misses": self.prefix_misses, "batches": self.batches,
                    "batched_requests": self.batched_requests, "batch_counts": list(self.batch_counts),
                    "batch_over": self.batch_over}


class _Counting(Observer):
    """Told by a backend what it did: totals in `stats`, prefill time charged to the request served."""

    def __init__(self, stats: EngineStats):
        self.stats = stats

    def prefill(self, hit: bool, seconds: float) -> None:
        self.stats.prefill(hit)
        run = _run_now()
        if run is not None:
            run.prefill_s += seconds
            if hit:
                run.hits += 1
            else:
                run.misses += 1

    def round(self, jobs: int) -> None:
        self.stats.batch(jobs)


_INSTRUMENT_LOCK = threading.Lock()  # two first scrapes at once still register one observer


def instrument(engine: Any) -> EngineStats | None:
    """The counters of the engine's backend, registering the observer that keeps them on first use
    (idempotent). None for a backend that reports nothing (remote engines)."""
    backend = getattr(engine, "backend", None)
    if not isinstance(backend, Observed):
        return None
    with _INSTRUMENT_LOCK:
        if not isinstance(backend.observer, _Counting):
            backend.observe(_Counting(EngineStats()))
        return backend.observer.stats


class StatsCollector:
    """Exposes the served engine's EngineStats on an app's registry (zeros until the model is loaded)."""

    def __init__(self, engine_of: Callable[[], Any]):
        self._engine_of = engine_of

    def describe(self):
        return []  # collected at scrape time only; the names are fixed

    def collect(self):
        engine = self._engine_of()
        stats = instrument(engine) if engine is not None else None
        snap = stats.snapshot() if stats is not None else EngineStats().snapshot()
        hits = CounterMetricFamily("onepass_prefix_cache_hits", "state prefills answered from the prefix cache")
        hits.add_metric([], snap["prefix_hits"])
        misses = CounterMetricFamily("onepass_prefix_cache_misses", "state prefills computed (not in the prefix cache)")
        misses.add_metric([], snap["prefix_misses"])
        cumulative, buckets = 0, []
        for bound, count in zip(BATCH_BUCKETS, snap["batch_counts"]):
            cumulative += count
            buckets.append((str(float(bound)), cumulative))
        buckets.append(("+Inf", cumulative + snap["batch_over"]))
        sizes = HistogramMetricFamily("onepass_batch_size", "requests whose reads one model batch carried "
                                      "(cross-request batching; 1 = a request alone)")
        sizes.add_metric([], buckets, sum_value=snap["batched_requests"])
        yield hits
        yield misses
        yield sizes
