"""A refused body is read to its end (within bounds) before the answer, so a client still sending sees the
documented 413 / 401 / 429 instead of a reset connection, also under concurrent load.

The reset needs the body to be still in flight when the server closes: small socket buffers on both sides
(as on a loaded machine or a real network; loopback's autotuned buffers would swallow 2 MiB) and a client
that asks the server to close after the answer (`Connection: close`, as urllib sends). Without the drain
every one of the 40 oversized requests below ends in ConnectionResetError instead of its 413.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import pytest
from typesafe_sdk import Noul, RetryPolicy, TypeSafeClient

from onepass.config import ServerConfig
from onepass.errors import ConfigError
from onepass.server import create_app
from tests.test_hardening_support import (
    FakeEngine,
    LoopbackServer,
    assert_error_shape,
    noul_request,
    wait_until,
)

LIMIT = 1 << 20
BIG = b'{"model": "jev-latest", "state": "' + b"x" * (2 << 20) + b'"}'  # 2 MiB of valid JSON, over the 1 MiB limit


BUFFER = 64 * 1024


class SmallBufferServer(LoopbackServer):
    """The loopback server on a listening socket whose accepted connections get a small receive buffer."""

    def __init__(self, app, settings: ServerConfig):
        super().__init__(app, settings)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, BUFFER)
        sock.bind(("127.0.0.1", self.port))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)


@contextmanager
def server(settings: ServerConfig, engine=None):
    engine = engine or FakeEngine(delay=0.01)
    app = create_app(engine, settings)
    with SmallBufferServer(app, settings) as running:
        running.engine = engine
        yield running


class Reply:
    """Just enough of a response for assert_error_shape."""

    def __init__(self, response: http.client.HTTPResponse):
        self.status_code = response.status
        self.headers = httpx.Headers(response.getheaders())
        self.text = response.read().decode()

    def json(self):
        return json.loads(self.text)


def post_big(url: str, content=BIG, headers=None, connection: str = "close"):
    """One oversized POST on its own connection (small send buffer) with the standard library's client, which
    (unlike httpx) gives up with BrokenPipeError / ConnectionResetError when the server closes while it is
    still sending. Returns (status, error_type), or the exception's name."""
    port = int(url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.connect()
        conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, BUFFER)
        conn.request("POST", "/v1/systemone", body=content, encode_chunked=not isinstance(content, bytes),
                     headers={"content-type": "application/json", "connection": connection, **(headers or {})})
        r = Reply(conn.getresponse())
    except OSError as error:
        return type(error).__name__
    finally:
        conn.close()
    assert_error_shape(r)
    return r.status_code, r.json()["detail"]["error_type"]


def ordinary_load(url: str, stop: threading.Event, answered: list, errors: list, clients: int = 3):
    """`clients` SDK clients sending ordinary requests until `stop` is set (failures land in `errors`)."""

    def loop(i):
        try:
            with TypeSafeClient(base_url=url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=30) as c:
                n = 0
                while not stop.is_set():
                    r = c.system_one(state=f"ordinary {i}-{n}", questions={"q": Noul(instructions="Is it ordinary?")})
                    answered.append(r.nouls["q"].noul)
                    n += 1
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(repr(error))

    return [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(clients)]


@pytest.mark.parametrize("connection", ["close", "keep-alive"])
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_forty_oversized_bodies_under_load_all_get_the_413(chunked, connection):
    with server(ServerConfig(max_body_bytes=LIMIT)) as s:
        stop, answered, errors = threading.Event(), [], []
        load = ordinary_load(s.url, stop, answered, errors)
        for t in load:
            t.start()
        try:
            wait_until(lambda: len(answered) >= 3 or errors, timeout=60, what="the ordinary clients to be answered")
            # chunked: no Content-Length, so the limit is found while reading, then the rest is drained.
            content = (lambda: (BIG[i : i + 65536] for i in range(0, len(BIG), 65536))) if chunked else (lambda: BIG)
            with ThreadPoolExecutor(max_workers=8) as pool:
                results = list(pool.map(lambda _i: post_big(s.url, content(), connection=connection), range(40)))
            during = len(answered)
            wait_until(lambda: len(answered) > during or errors, timeout=60, what="the ordinary clients to go on")
        finally:
            stop.set()
            for t in load:
                t.join(timeout=30)
        assert results == [(413, "request_too_large")] * 40, [r for r in results if r != (413, "request_too_large")]
        assert errors == []  # the ordinary clients were served throughout
        assert httpx.post(f"{s.url}/v1/systemone", json=noul_request("after"), timeout=30).status_code == 200


def test_bodies_refused_before_reading_are_drained_too():
    # 401 (keys on), 415 (wrong type) and 429 (full) are all decided before the body is read.
    gate = threading.Event()
    engine = FakeEngine(gate=gate)
    with server(ServerConfig(api_keys=["drain-key"], max_body_bytes=LIMIT, workers=1, max_queue=0), engine) as s:
        assert post_big(s.url) == (401, "authentication_error")
        assert post_big(s.url, headers={"authorization": "Bearer drain-key", "content-type": "text/plain"}) == \
            (415, "unsupported_media_type")
        with ThreadPoolExecutor(max_workers=1) as pool:
            held = pool.submit(httpx.post, f"{s.url}/v1/systemone", json=noul_request("held"), timeout=30,
                               headers={"authorization": "Bearer drain-key"})
            assert engine.entered.acquire(timeout=20)
            small_big = b'{"model": "jev-latest", "state": "' + b"y" * 600_000 + b'"}'  # under the body limit
            assert post_big(s.url, small_big, {"authorization": "Bearer drain-key"}) == (429, "queue_full")
            gate.set()
            assert held.result(timeout=30).status_code == 200


def test_the_drain_is_bounded_in_bytes_and_time():
    settings = ServerConfig(max_body_bytes=1024, max_decompressed_bytes=1024, max_drain_bytes=64 * 1024, drain_timeout_s=0.5)
    with server(settings) as s:
        # Within the bound: the client sees its 413.
        assert post_big(s.url, b"z" * 32 * 1024) == (413, "request_too_large")
        # Far past the bound (declared): answered at once without reading; the connection is closed.
        started = time.monotonic()
        result = post_big(s.url, b"z" * (4 << 20))
        assert result == (413, "request_too_large") or isinstance(result, str)
        assert time.monotonic() - started < 10
        # A client that declares a body and then stalls costs at most the drain timeout.
        with socket.create_connection(("127.0.0.1", s.port)) as raw:
            raw.sendall(b"POST /v1/systemone HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                        b"content-length: 40000\r\n\r\n" + b"z" * 2000)
            raw.settimeout(10)
            started = time.monotonic()
            reply = raw.recv(65536)
            assert reply.startswith(b"HTTP/1.1 413") and 0.4 <= time.monotonic() - started < 5
        # And the server is still fine.
        assert httpx.post(f"{s.url}/v1/systemone", json=noul_request("after"), timeout=30).status_code == 200


def test_drain_settings_are_checked_and_documented():
    assert ServerConfig().max_drain_bytes == 8 * ServerConfig().max_body_bytes and ServerConfig().drain_timeout_s == 5
    ServerConfig(max_drain_bytes=0, drain_timeout_s=0)  # 0: never drain
    for kwargs, flag in (({"max_drain_bytes": -1}, "--max-drain-bytes"), ({"drain_timeout_s": -1}, "--drain-timeout"),
                         ({"drain_timeout_s": float("nan")}, "--drain-timeout")):
        with pytest.raises(ConfigError, match=flag):
            ServerConfig(**kwargs)
