"""The HTTP client every remote backend shares: timeouts, retries with backoff, and one error mapping.

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

import hashlib
import json
import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

import httpx
import numpy as np

from onepass.backends.batcher import checkpoint, current_deadline
from onepass.wire import APIError

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


def _retry_after(response: httpx.Response) -> float | None:
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
    """A non-retryable HTTP answer from the engine (kept apart so a probe can look at it)."""

    def __init__(self, status: int, message: str):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
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
                hinted = _retry_after(response)
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


def served_models(client: EngineClient) -> list[dict]:
    """The engine's /v1/models cards (vLLM and SGLang both serve the OpenAI shape)."""
    try:
        body = client.get("/v1/models")
    except EngineHTTPError as error:
        if error.status in (401, 403):
            raise RemoteConfigError(
                f"the {client.engine} engine at {client.shown_url} refused onepass (HTTP {error.status}: {error.message}); "
                "check --backend-key / $ONEPASS_BACKEND_KEY"
            ) from None
        raise engine_error(client.engine, f"GET /v1/models answered HTTP {error.status}: {error.message}") from None
    cards = body.get("data") if isinstance(body, dict) else None
    if not isinstance(cards, list):
        raise engine_error(client.engine, "GET /v1/models did not return a model list")
    return [c for c in cards if isinstance(c, dict)]


def pick_model(client: EngineClient, model: str) -> dict:
    """The card of `model`; a clear start-up error when the engine serves something else."""
    cards = served_models(client)
    for card in cards:
        if card.get("id") == model:
            return card
    names = [c.get("id") for c in cards]
    raise RemoteConfigError(
        f"the {client.engine} engine at {client.shown_url} does not serve model {model!r}; it serves {names}. "
        "Pass --model with the engine's served model name (vLLM: --served-model-name)."
    )


class RemoteConfigError(RuntimeError):
    """The engine answers, but not in a way onepass can use (wrong model, tokenizer, version)."""


# -- what every remote backend shares ------------------------------------------------------------------

# The log-probability given to a label the engine did not return (a top-k fallback that missed it). vLLM clamps
# -inf to the same value. exp(MISSING_LOGPROB) is exactly 0.0 in float64, so a missing label adds nothing to
# x_label_mass and gets probability 0 after renormalising; if every label of a read is missing the read is
# uniform with label mass 0. Each such array carries the ids in `.missing`; the engine turns those entries into
# NaN before a readout sees them, so they are left out (and flagged), never used as numbers.
MISSING_LOGPROB = -9999.0


class LabelLogprobs(np.ndarray):
    """A read's log-probabilities (float64), plus `missing`: token ids the engine did not return."""

    missing: tuple[int, ...] = ()

    def __array_finalize__(self, obj):
        self.missing = getattr(obj, "missing", ())


def label_logprobs(values, missing=()) -> np.ndarray:
    out = np.asarray(values, dtype=np.float64).view(LabelLogprobs)
    out.missing = tuple(int(i) for i in missing)
    return out


def chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def group_reads(reads: list, max_prompts: int, max_ids: int) -> list[tuple[list[int], list[list[int]]]]:
    """Consecutive reads packed into engine calls: (read indices, label-id chunks to ask for).

    A call carries at most `max_prompts` prompts and asks every prompt for the union of the group's label
    ids, at most `max_ids` at a time; a group grows while its union fits. A single read with more ids than
    that gets its ids split over several calls on the same prompt (the prefix cache serves the repeats).
    """
    groups: list[tuple[list[int], list[list[int]]]] = []
    current: list[int] = []
    union: dict[int, None] = {}
    for i, read in enumerate(reads):
        ids = dict.fromkeys(int(t) for t in read.token_ids)
        grown = len(union) + sum(1 for t in ids if t not in union)
        if current and (len(current) >= max_prompts or grown > max(max_ids, len(union))):
            groups.append((current, chunks(list(union), max_ids)))
            current, union = [], {}
        current.append(i)
        union.update(ids)
    if current:
        groups.append((current, chunks(list(union), max_ids)))
    return groups


def probe_text(tokenizer) -> str:
    """A text with the chat template's markers and the labels: if it tokenises alike on both sides, prompts do."""
    body = "Probe: Does the content match? Answer with Yes or No. Options: A. one B. two. Levels 0 1 2 3 9."
    if getattr(tokenizer, "chat_template", None):
        try:
            text = tokenizer.apply_chat_template(
                [{"role": "system", "content": "You are a decision model."}, {"role": "user", "content": body}],
                tokenize=False, add_generation_prompt=True, enable_thinking=False,
            )
            return text + "Yes"
        except Exception:  # a template that needs other roles: the plain text still checks the vocabulary
            pass
    return body + "\nAnswer: Yes"


def check_tokenizer(client: EngineClient, model: str, tokenizer) -> bool:
    """Compare the local tokenizer with the served one on a probe text. False when the engine cannot say."""
    text = probe_text(tokenizer)
    local = tokenizer.encode(text, add_special_tokens=False)
    remote = None
    for path in ("/tokenize", "/v1/tokenize"):
        try:
            body = client.post(path, {"model": model, "prompt": text, "add_special_tokens": False}, retry=False)
        except (EngineHTTPError, APIError):
            continue
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if isinstance(tokens, list) and all(isinstance(t, int) for t in tokens):
            remote = tokens
            break
    if remote is None:
        log.warning("%s engine: no /tokenize; cannot check that the local tokenizer matches the served model", client.engine)
        return False
    if remote != local:
        at = next((i for i, (a, b) in enumerate(zip(local, remote)) if a != b), min(len(local), len(remote)))
        raise RemoteConfigError(
            f"the local tokenizer does not match the one model {model!r} is served with at {client.shown_url}: "
            f"a probe text tokenises differently from token {at} on (local {local[at:at + 5]}, engine "
            f"{remote[at:at + 5]}). Point --tokenizer at the served model's tokenizer."
        )
    return True


# Sent with every read: a digest of the rendered state prefix (token ids), never the content itself.
STATE_HEADER = "x-onepass-state"


def state_key(prefix: list[int]) -> str:
    return hashlib.sha256(np.asarray(prefix, dtype=np.int64).tobytes()).hexdigest()[:32]


class RemoteBackend:
    """Probe-once plumbing: the engine is checked at start-up, or on first use if it was not up yet.

    Thread-safe: concurrent logprobs calls only share the pooled HTTP client, so an engine that batches
    across requests (vLLM, SGLang) sees them concurrently when the caller does not serialise them.
    """

    name = "remote"
    reentrant = True

    def __init__(self, client: EngineClient, model: str, tokenizer=None, *, on_missing: str = "floor",
                 max_prompts_per_call: int = 64, affinity_header: str | None = STATE_HEADER, probe: bool = True):
        if on_missing not in ("floor", "error"):
            raise ValueError("on_missing must be 'floor' or 'error'")
        self.client = client
        self.model = model
        self.tokenizer = tokenizer
        self.on_missing = on_missing
        self.max_prompts_per_call = max_prompts_per_call
        self.affinity_header = affinity_header
        self._max_context: int | None = None
        self._probed = False
        self._probe_lock = threading.Lock()
        self.tokenizer_checked = False
        self.stats = {"calls": 0, "reads": 0, "missing_labels": 0}
        self._stats_lock = threading.Lock()
        if probe:
            try:
                self._probe_once()
            except APIError as error:
                if error.status != 503:
                    raise
                log.warning("%s engine at %s not reachable yet (%s); probing again on first use",
                            client.engine, client.shown_url, error.message)

    # subclasses fill these in
    def _probe(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def ensure_probed(self) -> None:
        """The probe, on first use when start-up could not reach the engine. A configuration problem found
        this late is a 502 for the request (and logged); at start-up it stops the server from loading."""
        if self._probed:
            return
        try:
            self._probe_once()
        except RemoteConfigError as error:
            log.error("%s", error)
            raise engine_error(self.client.engine, f"onepass cannot use it: {error}") from None

    def _probe_once(self) -> None:
        with self._probe_lock:
            if self._probed:
                return
            card = pick_model(self.client, self.model)
            length = card.get("max_model_len")
            # One position after the prompt is read, so a prompt may take all but one position.
            self._max_context = int(length) - 1 if isinstance(length, int) and length > 1 else self._fallback_context()
            if self.tokenizer is not None:
                self.tokenizer_checked = check_tokenizer(self.client, self.model, self.tokenizer)
            self._probe()
            self._probed = True

    def headers(self, prefix: list[int]) -> dict[str, str] | None:
        """The state-affinity header: equal for every call about one state, so a router hashing on it sends
        all of a state's questions (and later requests about it) to the replica whose prefix cache has it."""
        if not self.affinity_header:
            return None
        return {self.affinity_header: state_key(prefix)}

    def count(self, key: str, n: int = 1) -> None:
        with self._stats_lock:
            self.stats[key] += n

    def _fallback_context(self) -> int:
        limit = getattr(self.tokenizer, "model_max_length", None)
        return int(limit) if isinstance(limit, int) and 0 < limit < 10**7 else 2048

    @property
    def max_context(self) -> int:
        self.ensure_probed()
        return self._max_context  # type: ignore[return-value]

    def _finish(self, token_ids: list[int], found: dict[int, float], top_k: int | None) -> np.ndarray:
        """One read's array from the id -> logprob map the engine returned; flags what is missing."""
        missing = [i for i in dict.fromkeys(token_ids) if i not in found]
        if missing:
            self.count("missing_labels", len(missing))
            where = f"the top {top_k} log-probabilities" if top_k else "the answer"
            if self.on_missing == "error":
                raise engine_error(self.client.engine, f"label token ids {missing} were not in {where}")
            log.warning("%s engine: label token ids %s not in %s; given log-probability %s (flagged)",
                        self.client.engine, missing, where, MISSING_LOGPROB)
        return label_logprobs([found.get(i, MISSING_LOGPROB) for i in token_ids], missing)
