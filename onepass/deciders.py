"""Getting answers: the one way `run`, `label` and `mcp` ask for them. A Decider answers (state, questions)
from an in-process Engine (`LocalDecider`, the shared model flags) or from any System One server
(`RemoteDecider`, `--url`, plain HTTP with httpx); `decide_with_retries` retries what may succeed later;
`make_decider` picks one from the parsed flags.

Owns asking and retrying only: drawing answers is onepass/terminal.py, the commands are their own modules.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable

from onepass.errors import OnepassError
from onepass.terminal import fail

__all__ = ["DecideError", "LocalDecider", "RemoteDecider", "decide_with_retries", "add_source_args", "make_decider"]


class DecideError(OnepassError):
    """A request that got no answer: `status` (HTTP-like, None for a connection failure), a message, and
    whether trying again may help (429, 408, 5xx, connection errors)."""

    def __init__(self, message: str, status: int | None = None, error_type: str = "error", retryable: bool = False,
                 retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.retryable = retryable
        self.retry_after = retry_after

    def as_json(self) -> dict:
        return {"status": self.status, "type": self.error_type, "message": str(self)}


def _retryable(status: int | None) -> bool:
    return status is None or status in (408, 429) or status >= 500


class LocalDecider:
    """An in-process Engine."""

    def __init__(self, engine, extras: dict | None = None):
        self.engine = engine
        self.extras = extras or {}
        # With one adapter loaded (--adapter DIR) its name is asked for, so run / label / mcp answer with it.
        self.model = next(iter(engine.adapters)) if len(engine.adapters) == 1 else "jev-latest"
        self.name = engine.info.id if self.model == "jev-latest" else f"{self.model} (on {engine.info.id})"

    def decide(self, state: Any, questions: dict) -> dict:
        from onepass.errors import APIError, RequestInvalid

        payload = {"model": self.model, "state": state, "questions": questions, **self.extras}
        try:
            return self.engine.decide(payload)
        except RequestInvalid as error:
            raise DecideError(str(error), 422, "request_invalid") from None
        except APIError as error:
            raise DecideError(error.message, error.status, error.error_type, _retryable(error.status)) from None

    def models(self) -> list[dict]:
        return self.engine.model_list()

    def describe(self) -> dict:
        engine = self.engine
        profile = engine.profile
        return {"model": self.name, "where": "in-process",
                "dtype": engine.dtype.value if engine.dtype else None,
                "device": engine.device.value if engine.device else None,
                "readout": engine.default_readout,
                "calibration": profile.summary() if profile else "none"}

    def close(self) -> None:
        pass


class RemoteDecider:
    """Any System One server (onepass, the hosted API, vLLM / SGLang front ends) over HTTP."""

    def __init__(self, url: str, api_key: str | None = None, model: str | None = None, timeout: float = 120.0,
                 extras: dict | None = None):
        import httpx

        self.url = url.rstrip("/")
        self.model = model or "jev-latest"
        self.extras = extras or {}
        self.name = self.url
        headers = {"authorization": f"Bearer {api_key or 'none'}", "user-agent": "onepass-cli"}
        self.client = httpx.Client(base_url=self.url, timeout=timeout, headers=headers)

    def decide(self, state: Any, questions: dict) -> dict:
        import httpx

        payload = {"model": self.model, "state": state, "questions": questions, **self.extras}
        try:
            response = self.client.post("/v1/systemone", json=payload)
        except httpx.HTTPError as error:
            raise DecideError(f"{type(error).__name__} talking to {self.url}: {error}", None, "connection_error", True) from None
        if response.status_code == 200:
            body = response.json()
            self.name = body.get("model") or self.name
            return body
        message, kind = _error_text(response)
        retry_after = None
        try:
            retry_after = float(response.headers.get("retry-after"))
        except (TypeError, ValueError):
            pass
        raise DecideError(f"HTTP {response.status_code}: {message}", response.status_code, kind,
                          _retryable(response.status_code), retry_after)

    def models(self) -> list[dict]:
        import httpx

        try:
            response = self.client.get("/v1/models")
        except httpx.HTTPError as error:
            raise DecideError(f"{type(error).__name__} talking to {self.url}: {error}", None, "connection_error", True) from None
        if response.status_code != 200:
            message, kind = _error_text(response)
            raise DecideError(f"HTTP {response.status_code}: {message}", response.status_code, kind)
        return response.json().get("models", [])

    def describe(self) -> dict:
        return {"model": self.model, "where": self.url}

    def close(self) -> None:
        self.client.close()


def _error_text(response) -> tuple[str, str]:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        return response.text[:500], "http_error"
    if isinstance(detail, dict):
        return str(detail.get("message", detail)), str(detail.get("error_type", "http_error"))
    if isinstance(detail, list):
        return "; ".join(f"{'.'.join(map(str, d.get('loc', [])))}: {d.get('msg')}" for d in detail if isinstance(d, dict)), "request_invalid"
    return str(detail)[:500], "http_error"


def decide_with_retries(decider, state: Any, questions: dict, retries: int = 2, backoff: float = 0.5,
                        sleep: Callable[[float], None] = time.sleep) -> tuple[dict, int]:
    """(response, attempts): retries 408 / 429 / 5xx / connection errors with exponential backoff (or the
    server's retry-after); raises the last DecideError, with `.attempts` set."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return decider.decide(state, questions), attempt
        except DecideError as error:
            error.attempts = attempt
            if not error.retryable or attempt > retries:
                raise
            wait = error.retry_after if error.retry_after is not None else backoff * 2 ** (attempt - 1)
            sleep(min(max(wait, 0.0), 30.0))


def add_source_args(p: argparse.ArgumentParser) -> None:
    """--url / --api-key / --timeout, next to the shared model flags (which pick an in-process model)."""
    p.add_argument("--url", default=os.environ.get("ONEPASS_URL"),
                   help="ask any System One server at this base URL instead of loading a model here (also ONEPASS_URL)")
    p.add_argument("--api-key", default=None, help="key for --url (default: ONEPASS_API_KEY or TYPESAFE_API_KEY)")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="seconds one answer may take, waiting for a busy model included (default 600; a server's own "
                        "deadline still applies)")


def make_decider(args, log: Callable[[str], None] | None = None, command: str = "run"):
    """A Decider from the parsed flags: --url for a server, else an in-process model (the model flags)."""
    log = log or (lambda message: print(message, file=sys.stderr, flush=True))
    readout = getattr(args, "readout", None)
    if args.url:
        key = args.api_key or os.environ.get("ONEPASS_API_KEY") or os.environ.get("TYPESAFE_API_KEY")
        extras = {"x_readout": readout} if readout not in (None, "slot") else {}
        return RemoteDecider(args.url, key, args.model, args.timeout, extras)
    from onepass import engine_setup

    if not 0 < args.timeout <= 86_400:
        raise SystemExit(fail(command, f"--timeout must be between 0 and 86400 seconds, got {args.timeout}"))
    # The engine's own 60 s budget protects a server; here a request may also wait for the ones labelled
    # alongside it (--concurrency), so it gets --timeout instead.
    problem = engine_setup.check_flags(args, request_timeout_s=args.timeout)
    if problem:
        raise SystemExit(fail(command, problem))
    return LocalDecider(engine_setup.build_engine(args.engine_config, log=log))
