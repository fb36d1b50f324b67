"""Shared fixtures: the SmolLM2 engine, an in-process server on 127.0.0.1, and the official SDK client."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import uvicorn

from onepass import Engine
from onepass.config import ServerConfig
from onepass.server import create_app

KEYS = ["test-key-1", "test-key-2"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerThread:
    """uvicorn in a background thread, listening on loopback only."""

    def __init__(self, app, port: int | None = None, config: uvicorn.Config | None = None):
        self.port = config.port if config else (port or free_port())
        self.server = uvicorn.Server(config or uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.thread.start()
        deadline = time.time() + 30
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="session")
def smol() -> Engine:
    # float32: the invariance bounds of float32 (1e-5 / 1e-4) are checked on it; bf16 has its own tests.
    return Engine("smollm2-135m", dtype="float32")


@pytest.fixture(scope="session")
def smol_bf16() -> Engine:
    return Engine("smollm2-135m", dtype="bfloat16")


@pytest.fixture(scope="session")
def smol_auto(smol, smol_bf16) -> Engine:
    """SmolLM2 as `--dtype auto` serves it on this machine."""
    from onepass import hardware

    return smol_bf16 if hardware.choose_dtype("auto", "cpu").value == "bfloat16" else smol


@pytest.fixture(scope="session")
def server(smol):
    with ServerThread(create_app(smol, ServerConfig(api_keys=KEYS))) as running:
        yield running


@pytest.fixture()
def client(server):
    from typesafe_sdk import RetryPolicy, TypeSafeClient

    # Retries off: a test must see the first answer, not a retried one.
    with TypeSafeClient(base_url=server.url, api_key=KEYS[0], retry=RetryPolicy(max_retries=0), timeout=120) as c:
        yield c
