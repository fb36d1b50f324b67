"""The server's Prometheus metrics, on a private registry so several apps in one process do not collide."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from onepass.config import ServerConfig

__all__ = ["Metrics"]


class Metrics:
    """Prometheus metrics on a private registry (several apps in one process do not collide)."""

    def __init__(self, settings: ServerConfig):
        r = self.registry = CollectorRegistry()
        self.requests = Counter("onepass_requests", "HTTP requests by route, method and status", ["route", "method", "status"], registry=r)
        self.latency = Histogram(
            "onepass_request_duration_seconds", "HTTP request latency, from first byte to response", ["route"], registry=r,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
        )
        self.admitted = Gauge("onepass_requests_admitted", "decision requests inside the server (reading, waiting or running)", registry=r)
        self.queue = Gauge("onepass_queue_depth", "validated decision requests waiting for a worker", registry=r)
        self.busy = Gauge("onepass_workers_busy", "worker threads running the model", registry=r)
        self.queue_wait = Histogram(
            "onepass_queue_wait_seconds", "time a validated request waited for a worker", registry=r,
            buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
        )
        self.rejected = Counter("onepass_rejected", "requests turned away by backpressure, by reason", ["reason"], registry=r)
        self.questions = Counter("onepass_questions", "questions answered, by type", ["type"], registry=r)
        self.input_tokens = Counter("onepass_input_tokens", "input tokens processed", registry=r)
        self.output_tokens = Counter("onepass_output_tokens", "output positions read", registry=r)
        self.ready = Gauge("onepass_model_ready", "1 once the model is loaded", registry=r)
        Gauge("onepass_workers", "configured worker threads (--workers)", registry=r).set(settings.workers)
        Gauge("onepass_max_queue", "configured queue bound (--max-queue)", registry=r).set(settings.max_queue)
