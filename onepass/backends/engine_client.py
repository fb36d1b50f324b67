"""The HTTP client every remote backend shares: timeouts, retries with backoff, and one error mapping.

It owns the transport only (what to retry, how long to wait, what the caller of onepass sees); what is
asked of an engine and how its answers are read live in `remote.py`, `vllm.py` and `sglang.py`.

Label reads are pure functions of their input, so every request is safe to retry. What is retried:
connection failures, timeouts, 5xx and 429 answers (a `Retry-After` from the engine is honoured, capped).
What the caller of onepass sees once retries are spent:

  engine unreachable, timing out, 429, 503 or 504 -> 503 `engine_unavailable`, with retry-after headers
  any other engine failure (5xx, a 4xx to a request onepass built, an answer of the wrong shape)
                                                  -> 502 `engine_error`

Messages to onepass's callers name the engine and the status, never the engine's URL or key; logs and
start-up errors (read by the operator) carry the URL without credentials.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

import httpx

from onepass.deadline import checkpoint, current_deadline
from onepass.errors import APIError

__all__ = [
    "RETRY_STATUSES",
    "UNAVAILABLE_STATUSES",
    "EngineClient",
    "EngineHTTPError",
    "RetryPolicy",
    "display_url",
    "engine_error",
    "engine_unavailable",
    "retry_after",
]

log = logging.getLogger("onepass.backends")

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
UNAVAILABLE_STATUSES = frozenset({429, 503, 504})


@dataclass
class RetryPolicy:
    retries: int = 3  # attempts after the first
    backoff_s: float = 0.25  # first wait; doubles each retry, with jitter
    max_backoff_s: float = 4.0
    deadline_s: float = 120.0  # no retry starts later than this after the first attempt
    retry_after_s: int = 2  # what onepass tells its own caller to wait when the engine is unavailable

    def wait(self, attempt: int, hinted: float | None) -> float:
        base = min(self.max_backoff_s, self.backoff_s * (2**attempt))
        if hinted is not None:  # the engine said how long; honour it within our cap
            return min(self.max_backoff_s, max(hinted, base))
        return base * (0.5 + random.random() / 2)


def display_url(url: str) -> str:
    """The URL without credentials or query, for logs and operator-facing errors."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def engine_error(engine: str, message: str) -> APIError:
    return APIError(502, "engine_error", f"the {engine} engine behind this server failed: {message}")


def engine_unavailable(engine: str, message: str, retry_after_s: int) -> APIError:
    return APIError(
        503,
        "engine_unavailable",
        f"the {engine} engine behind this server is unavailable ({message}); retry later",
        {"retry-after": str(retry_after_s), "retry-after-ms": str(retry_after_s * 1000)},
    )


def _error_message(response: httpx.Response) -> str:
    """The engine's own error text: vLLM and SGLang use {"error": {"message"}} or {"message"}."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:300].strip() or response.reason_phrase
    if isinstance(body, dict):
        inner = body.get("error")
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:500]
        for key in ("message", "detail", "error"):
            if body.get(key):
                return str(body[key])[:500]
    return json.dumps(body)[:300]


def retry_after(response: httpx.Response) -> float | None:
    """Seconds the engine asked us to wait (`retry-after-ms`, else `retry-after` in seconds), if it said."""
    raw = response.headers.get("retry-after-ms")
    if raw:
        try:
            return float(raw) / 1000
        except ValueError:
            pass
    raw = response.headers.get("retry-after")
    if raw:
        try:
            return float(raw)
        except ValueError:
            return None
    return None


class EngineHTTPError(Exception):
    """A non-retryable HTTP answer from the engine, kept apart so a probe can look at it. Internal to the
    remote backends: they turn it into a 502 `engine_error` (an APIError) before it reaches a caller."""

    def __init__(self, status: int, message: str):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status  # the engine's status, not onepass's
        self.message = message


class EngineClient:
    """One pooled httpx client for one engine base URL (thread-safe; shared by all requests)."""

    def __init__(
        self,
        base_url: str,
        key: str | None = None,
        *,
        engine: str = "inference",
        timeout_s: float = 60.0,
        connect_timeout_s: float = 5.0,
        retry: RetryPolicy | None = None,
        max_connections: int = 16,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.base_url = base_url.rstrip("/")
        self.shown_url = display_url(self.base_url)
        self.engine = engine
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._clock = clock
        headers = {"user-agent": "onepass"}
        if key:
            headers["authorization"] = f"Bearer {key}"
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
            limits=httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections),
            transport=transport,
            follow_redirects=False,
        )
        self._lock = threading.Lock()
        self.stats = {"requests": 0, "retries": 0, "failures": 0}

    def close(self) -> None:
        self._client.close()

    def _count(self, key: str) -> None:
        with self._lock:
            self.stats[key] += 1

    def request(self, method: str, path: str, body: Any = None, *, retry: bool = True,
                headers: dict[str, str] | None = None) -> Any:
        """The decoded JSON answer; raises APIError (502/503) or EngineHTTPError (a 4xx other than 429)."""
        policy = self.retry
        started = self._clock()
        attempt = 0
        while True:
            self._count("requests")
            hinted = None
            try:
                response = self._client.request(method, path, json=body, headers=headers)
            except httpx.TimeoutException as error:
                problem, unavailable = f"no answer in time ({type(error).__name__})", True
            except httpx.TransportError as error:  # refused, reset, DNS, protocol errors
                problem, unavailable = f"cannot connect ({type(error).__name__}: {error})", True
            else:
                if response.status_code < 400:
                    try:
                        return response.json()
                    except ValueError:
                        self._count("failures")
                        raise engine_error(self.engine, f"{method} {path} answered HTTP {response.status_code} with a body that is not JSON") from None
                message = _error_message(response)
                if response.status_code not in RETRY_STATUSES:
                    self._count("failures")
                    raise EngineHTTPError(response.status_code, message)
                problem = f"{method} {path} answered HTTP {response.status_code}: {message}"
                unavailable = response.status_code in UNAVAILABLE_STATUSES
                hinted = retry_after(response)
            elapsed = self._clock() - started
            if retry and attempt < policy.retries:
                wait = policy.wait(attempt, hinted)
                if elapsed + wait < policy.deadline_s:
                    attempt += 1
                    self._count("retries")
                    log.warning("%s engine at %s: %s; retry %d/%d in %.2fs", self.engine, self.shown_url, problem,
                                attempt, policy.retries, wait)
                    # Never sleep past the request's own deadline; stop there if it has passed.
                    deadline = current_deadline()
                    left = deadline.remaining() if deadline is not None else None
                    self._sleep(wait if left is None else min(wait, left))
                    checkpoint()
                    continue
            self._count("failures")
            tries = f"after {attempt + 1} attempt{'s' if attempt else ''}"
            log.error("%s engine at %s: %s, %s; giving up", self.engine, self.shown_url, problem, tries)
            if unavailable:
                raise engine_unavailable(self.engine, f"{problem}, {tries}", policy.retry_after_s)
            raise engine_error(self.engine, f"{problem}, {tries}")

    def get(self, path: str, **kw) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any, **kw) -> Any:
        return self.request("POST", path, body, **kw)

    def call(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        """POST for a read: a 4xx from the engine is an engine error (onepass built the request)."""
        try:
            return self.post(path, body, headers=headers)
        except EngineHTTPError as error:
            raise engine_error(self.engine, f"POST {path} answered HTTP {error.status}: {error.message}") from None
