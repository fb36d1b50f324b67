"""Production hardening: keys, limits (rejected, never clamped), backpressure, loading, observability.

Most tests run a loopback server around a fake engine with the Engine surface, so they exercise the
server's own behaviour in milliseconds; tests/test_hardening_concurrency.py uses the real model.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import zstandard
from typesafe_sdk import (
    Noul,
    RetryPolicy,
    TypeSafeAuthenticationError,
    TypeSafeClient,
    TypeSafeRateLimitError,
)

from onepass import cli, serve_cmd
from onepass.auth import Keys
from onepass.config import ServerConfig
from onepass.errors import ConfigError
from onepass.server import create_app
from tests.test_hardening_support import (
    FakeEngine,
    LoopbackServer,
    assert_error_shape,
    metric_values,
    noul_request,
    wait_until,
)

KEYS = ["hk-alpha-5f3c9e1d2b", "hk-beta-8a7d6c5b4e"]
AUTH = {"authorization": f"Bearer {KEYS[0]}"}
ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def fake_server(settings: ServerConfig | None = None, engine=None, log_level: str = "warning"):
    engine = engine if engine is not None else FakeEngine()
    settings = settings or ServerConfig()
    app = create_app(engine, settings)
    with LoopbackServer(app, settings, log_level) as running:
        running.app, running.engine = app, engine
        yield running


def post(url: str, body=None, *, content: bytes | None = None, headers: dict | None = None, timeout: float = 30):
    if content is None:
        content = json.dumps(body).encode()
        headers = {"content-type": "application/json", **(headers or {})}
    return httpx.post(f"{url}/v1/systemone", content=content, headers=headers or {}, timeout=timeout)


def sdk(url: str, key: str = KEYS[0], **kw) -> TypeSafeClient:
    return TypeSafeClient(base_url=url, api_key=key, retry=RetryPolicy(max_retries=0), **kw)


# -- keys -----------------------------------------------------------------------------------------------


def test_missing_wrong_and_right_keys():
    with fake_server(ServerConfig(api_keys=KEYS)) as s:
        body = noul_request("the invoice is overdue")
        for headers in ({}, {"authorization": "Bearer"}, {"authorization": "Basic " + KEYS[0]},
                        {"authorization": KEYS[0]}, {"authorization": "Bearer wrong-key"},
                        {"authorization": f"Bearer {KEYS[0]}x"}, {"x-api-key": KEYS[0]}):
            r = post(s.url, body, headers=headers)
            assert_error_shape(r, {401})
            assert r.json()["detail"]["error_type"] == "authentication_error"
            assert KEYS[0] not in r.text and KEYS[1] not in r.text
        assert post(s.url, body, headers={"authorization": f"bearer   {KEYS[1]}"}).status_code == 200
        # The official client: wrong key raises, both configured keys answer.
        with sdk(s.url, "hk-wrong") as c, pytest.raises(TypeSafeAuthenticationError) as caught:
            c.system_one(state="x", questions={"q": Noul(instructions="y?")})
        assert caught.value.status == 401 and caught.value.request_id
        for key in KEYS:
            with sdk(s.url, key) as c:
                r = c.system_one(state="the invoice is overdue", questions={"q": Noul(instructions="Is it about money?")})
                assert r.nouls["q"].noul == FakeEngine.answer_for("the invoice is overdue", "q")
        # Models and metrics are behind the keys too; the probes are not.
        assert httpx.get(f"{s.url}/v1/models").status_code == 401
        assert httpx.get(f"{s.url}/metrics").status_code == 401
        assert httpx.get(f"{s.url}/metrics", headers=AUTH).status_code == 200
        assert httpx.get(f"{s.url}/healthz").status_code == 200
        assert httpx.get(f"{s.url}/readyz").status_code == 200
        assert s.engine.runs == 3  # the rejected requests never reached the engine


def test_auth_off_accepts_any_bearer_header():
    with fake_server(ServerConfig()) as s, sdk(s.url, "anything") as c:
        assert c.system_one(state="s", questions={"q": Noul(instructions="y?")}).nouls["q"].noul > 0
        assert post(s.url, noul_request("s")).status_code == 200


def test_keys_report_which_key_matched_and_settings_reject_unsendable_keys():
    keys = Keys(["k-one", "k-two", "k-two"])
    assert keys.check("Bearer k-one") == 1 and keys.check("Bearer k-two") == 2
    with pytest.raises(Exception):
        keys.check("Bearer k-three")
    assert Keys([]).check(None) is None
    with pytest.raises(ConfigError) as caught:
        ServerConfig(api_keys=["good-key", "bad key with spaces", "caf\u00e9-key", ""])
    message = str(caught.value)
    assert "API key #2" in message and "API key #3" in message and "API key #4" in message
    assert "bad key" not in message and "caf" not in message  # keys are named by position, never shown


def test_no_key_material_in_logs(caplog, capfd):
    secret_wrong = "hk-WRONG-d41d8cd98f00b204"
    with caplog.at_level(logging.DEBUG):
        with fake_server(ServerConfig(api_keys=KEYS), log_level="debug") as s:
            ids = []
            for headers in (AUTH, {"authorization": f"Bearer {KEYS[1]}"}, {"authorization": f"Bearer {secret_wrong}"},
                            {"authorization": KEYS[0]}):
                r = post(s.url, noul_request("log check"), headers=headers)
                ids.append(r.headers["x-typesafe-request-id"])
            # A key in the query string or another header is not a credential and is never logged either.
            r = httpx.post(f"{s.url}/v1/systemone?api_key={KEYS[1]}", json=noul_request("q"), headers={"x-api-key": KEYS[0]})
            ids.append(r.headers["x-typesafe-request-id"])
            r = httpx.get(f"{s.url}/metrics?key={secret_wrong}", headers=AUTH)
            ids.append(r.headers["x-typesafe-request-id"])
            with sdk(s.url, KEYS[0]) as c:
                c.system_one(state="sdk", questions={"q": Noul(instructions="y?")})
    server_records = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore", "typesafe_sdk"))]
    text = "\n".join(r.getMessage() for r in server_records) + capfd.readouterr().err
    access = [json.loads(r.getMessage()) for r in server_records if r.name == "onepass.access"]
    # The capture works: every request left one access line with its request id and outcome...
    assert {a["request_id"] for a in access} >= set(ids)
    by_id = {a["request_id"]: a for a in access}
    assert [by_id[i]["status"] for i in ids] == [200, 200, 401, 401, 401, 200]
    assert by_id[ids[0]]["key"] == 1 and by_id[ids[1]]["key"] == 2
    # ...and no key, nor a recognisable piece of one, is anywhere in it.
    for key in [*KEYS, secret_wrong]:
        for piece in (key, key[-12:], key[3:15]):
            assert piece not in text, piece


# -- settings and the CLI ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"workers": 0}, "--workers"),
        ({"max_queue": -1}, "--max-queue"),
        ({"max_options": 256}, "between 2 and 255"),
        ({"max_levels": 11}, "between 2 and 10"),
        ({"max_levels": 1}, "--max-levels"),
        ({"queue_timeout_s": float("nan")}, "--queue-timeout"),
        ({"queue_timeout_s": 0}, "--queue-timeout"),
        ({"max_body_bytes": 2 << 20, "max_decompressed_bytes": 1 << 20}, "at least max_body_bytes"),
        ({"max_questions": True}, "integer"),
        ({"max_text_chars": "10"}, "integer"),
        ({"retry_after_s": 0}, "--retry-after"),
        ({"max_depth": 1}, "--max-depth"),
    ],
)
def test_settings_reject_bad_values_with_the_flag_to_fix(kwargs, fragment):
    with pytest.raises(ConfigError) as caught:
        ServerConfig(**kwargs)
    assert fragment in str(caught.value)


def test_settings_accept_the_defaults_and_every_limit_at_its_bound():
    ServerConfig()
    ServerConfig(workers=1, max_queue=0, max_options=2, max_levels=2, max_depth=2, queue_timeout_s=0.5)
    ServerConfig(max_options=255, max_levels=10, max_body_bytes=10, max_decompressed_bytes=10)


def run_cli(argv, env=None, monkeypatch=None, capsys=None):
    for name in ("ONEPASS_API_KEYS", "ONEPASS_API_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    code = cli.main(["serve", *argv])
    return code, capsys.readouterr().err


def test_serve_refuses_open_public_listeners_and_bad_settings(monkeypatch, capsys, tmp_path):
    # Each refusal happens before anything listens; the message says what to do.
    code, err = run_cli(["--host", "0.0.0.0"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "--no-auth" in err and "ONEPASS_API_KEYS" in err
    code, err = run_cli(["--host", "::", "--port", "1"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "refusing" in err
    code, err = run_cli(["--host", "0.0.0.0", "--no-auth"], env={"ONEPASS_API_KEYS": "k1"}, monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "conflicts" in err and "k1" not in err
    code, err = run_cli(["--workers", "0"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "--workers" in err and "between 1 and 256" in err
    code, err = run_cli(["--max-options", "300"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "--max-options" in err and "between 2 and 255" in err
    code, err = run_cli(["--port", "70000"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "--port" in err
    code, err = run_cli(["--torch-threads", "0"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "--torch-threads" in err
    code, err = run_cli(["--readout", "nonsense"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "--readout" in err
    code, err = run_cli(["--batch-wait-ms", "-1"], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "--batch-wait-ms" in err and "between 0 and 1000" in err
    code, err = run_cli(["--model", str(tmp_path / "nothing-here")], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "unknown model" in err
    code, err = run_cli(["--api-key-file", str(tmp_path / "missing.keys")], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "does not exist" in err
    empty = tmp_path / "empty.keys"
    empty.write_text("# only a comment\n\n")
    code, err = run_cli(["--api-key-file", str(empty)], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "has no keys" in err
    spaced = tmp_path / "spaced.keys"
    spaced.write_text("good-key\nkey with space\n")
    spaced.chmod(0o600)
    code, err = run_cli(["--api-key-file", str(spaced)], monkeypatch=monkeypatch, capsys=capsys)
    assert code == 2 and "API key #2" in err and "key with space" not in err


def test_key_file_and_environment_keys(monkeypatch, tmp_path, capsys):
    path = tmp_path / "onepass.keys"
    path.write_text("# production keys\nfile-key-1\n\n   file-key-2   \n  # indented comment\n")
    path.chmod(0o600)
    monkeypatch.setenv("ONEPASS_API_KEYS", " env-1 , ,env-2")
    args = cli.argparse.Namespace(api_key_file=str(path))
    assert serve_cmd.keys_from_env(args.api_key_file) == ["env-1", "env-2", "file-key-1", "file-key-2"]
    assert capsys.readouterr().err == ""
    path.chmod(0o644)
    monkeypatch.delenv("ONEPASS_API_KEYS")
    monkeypatch.setenv("ONEPASS_API_KEY_FILE", str(path))
    assert serve_cmd.keys_from_env(None) == ["file-key-1", "file-key-2"]
    err = capsys.readouterr().err
    assert "readable by other users" in err and "file-key" not in err


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True),
                                            ("[::1]", True), ("0.0.0.0", False), ("::", False), ("", False),
                                            ("10.0.0.5", False), ("example.com", False), ("localhost.evil.com", False)])
def test_loopback_detection(host, loopback):
    assert serve_cmd.loopback(host) is loopback


def test_serve_help_defaults_and_docs_match_settings(capsys):
    """The defaults printed by --help and documented in docs/operations.md are the ones ServerConfig uses."""
    from dataclasses import fields

    from onepass.config import flag_of

    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    docs = (ROOT / "docs" / "operations.md").read_text()
    from onepass.config import EngineConfig

    numeric = [(f, ServerConfig()) for f in fields(ServerConfig) if f.metadata.get("cli") and f.metadata.get("group") != "server"
               and isinstance(getattr(ServerConfig(), f.name), (int, float))]
    numeric += [(f, EngineConfig()) for f in fields(EngineConfig) if f.metadata.get("group") == "limits"]
    assert len(numeric) >= 23
    for f, defaults in numeric:
        name, flag = f.name, flag_of(f)
        value = getattr(defaults, name)
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        row = next((line for line in docs.splitlines() if line.startswith("|") and f"`{flag}`" in line), None)
        assert row is not None, f"{flag} is not in the docs/operations.md limits table"
        assert f"`{shown}`" in row, (flag, shown, row)
        described = re.search(re.escape(flag) + r" [A-Z_]+ (.*?)(?= --|$)", help_text)
        assert described and f"(default {shown}" in described.group(1), (flag, shown, described and described.group(1))


# -- limits: rejected with the limit named, never clamped ------------------------------------------------


LIMITED = ServerConfig(max_body_bytes=4096, max_decompressed_bytes=8192, max_questions=3, max_options=5, max_levels=4,
                   max_state_chars=200, max_text_chars=50, max_name_chars=20, max_id_chars=10, max_model_chars=12,
                   max_depth=5)


@pytest.fixture(scope="module")
def limited():
    with fake_server(LIMITED) as s:
        yield s


def choice(n: int, name_len: int = 2, desc: str | None = None) -> dict:
    return {"type": "choice", "instructions": "Which?", "criteria": {f"{i:0{name_len}d}": desc for i in range(n)}}


@pytest.mark.parametrize(
    "change, loc, fragment",
    [
        (lambda b: b["questions"].update({f"q{i}": {"type": "noul", "instructions": "y?"} for i in range(3)}),
         ["body", "questions"], "--max-questions"),
        (lambda b: b.update(state="x" * 201), ["body", "state"], "--max-state-chars"),
        (lambda b: b.update(state={"k": "x" * 200}), ["body", "state"], "--max-state-chars"),
        (lambda b: b.update(model="m" * 13), ["body", "model"], "--max-model-chars"),
        (lambda b: b["questions"].update({"i" * 11: {"type": "noul", "instructions": "y?"}}), ["body", "questions", "i" * 11], "--max-id-chars"),
        (lambda b: b["questions"]["q"].update(instructions="y" * 51), ["body", "questions", "q", "noul", "instructions"], "--max-text-chars"),
        (lambda b: b["questions"]["q"].update(instructions={"a": ["y" * 45]}), ["body", "questions", "q", "noul", "instructions"], "--max-text-chars"),
        (lambda b: b["questions"]["q"].update(criteria={"true": "t" * 51}), ["body", "questions", "q", "noul", "criteria", "true"], "--max-text-chars"),
        (lambda b: b["questions"].update(c=choice(6)), ["body", "questions", "c", "choice", "criteria"], "2 to 5 options"),
        (lambda b: b["questions"].update(c=choice(3, name_len=21)), ["body", "questions", "c", "choice", "criteria", "0" * 21], "--max-name-chars"),
        (lambda b: b["questions"].update(c=choice(3, desc="d" * 51)), ["body", "questions", "c", "choice", "criteria", "00"], "--max-text-chars"),
        (lambda b: b["questions"].update(s={"type": "score", "criteria": ["a", "b", "c", "d", "e"]}), ["body", "questions", "s", "score", "criteria"], "2 to 4 levels"),
        (lambda b: b["questions"].update(s={"type": "score", "criteria": ["a", "b" * 51]}), ["body", "questions", "s", "score", "criteria", 1], "--max-text-chars"),
        (lambda b: b.update(state={"a": {"b": {"c": {"d": {"e": 1}}}}}), ["body", "state", "a", "b", "c", "d"], "--max-depth"),
    ],
)
def test_each_limit_is_a_422_naming_the_field_and_the_flag(limited, change, loc, fragment):
    body = noul_request("ok")
    change(body)
    before = limited.engine.runs
    r = post(limited.url, body)
    detail = assert_error_shape(r, {422})["detail"]
    assert detail[0]["loc"] == loc, detail
    assert fragment in detail[0]["msg"], detail
    assert "input" not in detail[0]  # an oversized value is named, not echoed back
    assert limited.engine.runs == before


def test_values_exactly_at_each_limit_pass_unchanged(limited):
    """Nothing is truncated or rewritten on the way to the engine: at the limit is accepted as sent."""
    state = "\u00e9" * 199 + "!"
    body = {"model": "jev-latest", "state": state, "questions": {
        "i" * 10: {"type": "noul", "instructions": "y" * 50, "criteria": {"true": "t" * 50}},
        "c": choice(5, name_len=20, desc="d" * 50),
        "s": {"type": "score", "criteria": ["a", "b", "c", "d" * 50]},
    }}
    before = limited.engine.runs
    r = post(limited.url, body)
    assert r.status_code == 200, r.text
    assert limited.engine.runs == before + 1 and limited.engine.states[-1] == state
    assert set(r.json()["answers"]) == {"i" * 10, "c", "s"}


def test_bodies_too_large_are_413_before_and_after_decompression(limited):
    before = limited.engine.runs
    big = json.dumps(noul_request("x" * 5000)).encode()
    r = post(limited.url, content=big, headers={"content-type": "application/json"})
    assert_error_shape(r, {413})
    assert "--max-body-bytes" in r.json()["detail"]["message"]

    def chunks():  # no Content-Length: the cap is enforced while reading
        for _ in range(10):
            yield b" " * 1000

    r = httpx.post(f"{limited.url}/v1/systemone", content=chunks(), headers={"content-type": "application/json"})
    assert_error_shape(r, {413})
    inflated = json.dumps(noul_request("y" * 9000)).encode()
    for encoding, data in (("zstd", zstandard.ZstdCompressor().compress(inflated)), ("gzip", gzip.compress(inflated))):
        assert len(data) < 4096
        r = post(limited.url, content=data, headers={"content-type": "application/json", "content-encoding": encoding})
        assert_error_shape(r, {413})
        assert "--max-decompressed-bytes" in r.json()["detail"]["message"]
    assert limited.engine.runs == before


def test_state_longer_than_the_context_is_400_max_tokens_exceeded(server):
    """Against the real model: the state is within the character limit but not within 8192 tokens."""
    from tests.conftest import KEYS as SESSION_KEYS

    state = "The customer wrote a very long message about the delayed parcel. " * 700
    r = httpx.post(f"{server.url}/v1/systemone", json=noul_request(state),
                   headers={"authorization": f"Bearer {SESSION_KEYS[0]}"}, timeout=120)
    assert_error_shape(r, {400})
    assert r.json()["detail"]["error_type"] == "max_tokens_exceeded"
    assert "8192" in r.json()["detail"]["message"]


@pytest.mark.parametrize(
    "headers, content, status, fragment",
    [
        ({"content-type": "text/plain"}, None, 415, "application/json"),
        ({"content-type": "application/x-www-form-urlencoded"}, None, 415, "application/json"),
        ({"content-type": "application/json; charset=utf-16"}, None, 415, "UTF-8"),
        ({"content-type": "application/json", "content-encoding": "br"}, None, 415, "zstd, gzip"),
        ({"content-type": "multipart/form-data"}, None, 400, "boundary"),
        ({"content-type": "application/json", "content-encoding": "zstd"}, b"\x28\xb5\x2f\xfd garbage", 400, "zstd"),
        ({"content-type": "application/json", "content-encoding": "gzip"}, b"\x1f\x8b\x08\x00 not really", 400, "gzip"),
        ({"content-type": "application/json"}, b'{"a": 1, "a": 2}', 422, "duplicate key"),
        ({"content-type": "application/json"}, b'{"model": "jev-latest", "state": "\\ud800"}', 422, "surrogate"),
        ({"content-type": "application/json"}, b'{"model": "jev-latest", "state": [1e999]}', 422, "range"),
        ({"content-type": "application/json"}, b'{"state": ' + b"[" * 1500 + b"]" * 1500 + b"}", 422, "nested"),
    ],
)
def test_malformed_bodies_and_types_are_4xx_saying_what_to_send(limited, headers, content, status, fragment):
    data = content if content is not None else json.dumps(noul_request("x")).encode()
    r = post(limited.url, content=data, headers=headers)
    assert_error_shape(r, {status})
    assert fragment in r.text


def test_zstd_trailing_and_truncated_frames(limited):
    frame = zstandard.ZstdCompressor().compress(json.dumps(noul_request("zz")).encode())
    headers = {"content-type": "application/json", "content-encoding": "zstd"}
    assert post(limited.url, content=frame, headers=headers).status_code == 200
    for data, fragment in ((frame + b"\x00junk", "trailing"), (frame + frame, "trailing"), (frame[:-3], "truncated"), (b"", "truncated")):
        r = post(limited.url, content=data, headers=headers)
        assert_error_shape(r, {400})
        assert fragment in r.text


def test_multipart_request_part_and_unused_parts(limited):
    body = json.dumps(noul_request("multi")).encode()
    files = {"request": (None, body, "application/json")}
    r = httpx.post(f"{limited.url}/v1/systemone", files=files)
    assert r.status_code == 200 and r.json()["answers"]["q"]["noul"] == FakeEngine.answer_for("multi", "q")
    r = httpx.post(f"{limited.url}/v1/systemone", files={**files, "img": ("a.png", b"\x89PNG", "image/png")})
    assert_error_shape(r, {422})
    assert "not used by any asset" in r.text
    r = httpx.post(f"{limited.url}/v1/systemone", files={"other": (None, body, "application/json")})
    assert_error_shape(r, {400})
    assert "named 'request'" in r.text


def test_a_body_that_never_finishes_is_408():
    with fake_server(ServerConfig(body_timeout_s=0.5)) as s, socket.create_connection(("127.0.0.1", s.port)) as sock:
        sock.sendall(b"POST /v1/systemone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"model\":")
        sock.settimeout(10)
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
        head, _, payload = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), head
        assert b"content-type: application/json" in head.lower() and b"x-typesafe-request-id" in head.lower()
        assert json.loads(payload)["detail"]["error_type"] == "request_timeout"


# -- backpressure -------------------------------------------------------------------------------------------


def test_a_full_server_answers_429_with_retry_headers_and_loses_no_accepted_request():
    gate = threading.Event()
    engine = FakeEngine(gate=gate)
    with fake_server(ServerConfig(workers=1, max_queue=2, retry_after_s=2), engine) as s:
        pool = ThreadPoolExecutor(max_workers=3)
        accepted = {f"accepted-{i}": pool.submit(post, s.url, noul_request(f"accepted-{i}")) for i in range(3)}
        engine.entered.acquire(timeout=20)
        wait_until(lambda: s.app.state.admission.admitted == 3, what="three admitted requests")
        # Full: every further request is turned away at once, in the contract's shape, with retry headers.
        with ThreadPoolExecutor(max_workers=8) as burst:
            rejected = list(burst.map(lambda i: post(s.url, noul_request(f"extra-{i}")), range(8)))
        for r in rejected:
            assert_error_shape(r, {429})
            assert r.headers["retry-after"] == "2" and r.headers["retry-after-ms"] == "2000"
            assert r.json()["detail"]["error_type"] == "queue_full"
        with sdk(s.url) as c, pytest.raises(TypeSafeRateLimitError) as caught:
            c.system_one(state="sdk-extra", questions={"q": Noul(instructions="y?")})
        assert caught.value.retry_after_ms == 2000
        assert httpx.get(f"{s.url}/healthz").status_code == 200  # the server stays responsive while full
        gate.set()
        for state, future in accepted.items():
            r = future.result(timeout=30)
            assert r.status_code == 200, r.text
            assert r.json()["answers"]["q"]["noul"] == FakeEngine.answer_for(state, "q")
        pool.shutdown()
        assert engine.runs == 3 and engine.max_running == 1
        assert sorted(engine.states) == sorted(accepted)
        # Afterwards it answers normally, and the metrics tell the story.
        r = post(s.url, noul_request("after"))
        assert r.status_code == 200 and r.json()["answers"]["q"]["noul"] == FakeEngine.answer_for("after", "q")
        m = metric_values(httpx.get(f"{s.url}/metrics").text)
        assert m[("onepass_rejected_total", (("reason", "queue_full"),))] == 9
        assert m[("onepass_requests_total", (("method", "POST"), ("route", "/v1/systemone"), ("status", "429")))] == 9
        assert m[("onepass_requests_total", (("method", "POST"), ("route", "/v1/systemone"), ("status", "200")))] == 4
        assert m[("onepass_queue_depth", ())] == 0 and m[("onepass_requests_admitted", ())] == 0
        assert m[("onepass_workers_busy", ())] == 0


def test_a_request_waiting_past_its_deadline_is_503_and_never_runs():
    gate = threading.Event()
    engine = FakeEngine(gate=gate)
    with fake_server(ServerConfig(workers=1, max_queue=4, queue_timeout_s=0.5), engine) as s:
        with ThreadPoolExecutor(max_workers=1) as pool:
            first = pool.submit(post, s.url, noul_request("first"))
            assert engine.entered.acquire(timeout=20)
            started = time.perf_counter()
            r = post(s.url, noul_request("late"))
            assert time.perf_counter() - started >= 0.5
            assert_error_shape(r, {503})
            assert r.json()["detail"]["error_type"] == "queue_timeout" and r.headers["retry-after"] == "1"
            gate.set()
            assert first.result(timeout=30).status_code == 200
        assert engine.states == ["first"]
        m = metric_values(httpx.get(f"{s.url}/metrics").text)
        assert m[("onepass_rejected_total", (("reason", "queue_timeout"),))] == 1


def test_a_client_that_disconnects_while_queued_is_dropped_without_running():
    gate = threading.Event()
    engine = FakeEngine(gate=gate)
    with fake_server(ServerConfig(workers=1, max_queue=4), engine) as s:
        with ThreadPoolExecutor(max_workers=1) as pool:
            first = pool.submit(post, s.url, noul_request("first"))
            assert engine.entered.acquire(timeout=20)
            with pytest.raises(httpx.ReadTimeout):
                post(s.url, noul_request("impatient"), timeout=0.5)
            metrics = lambda: metric_values(httpx.get(f"{s.url}/metrics").text)  # noqa: E731
            wait_until(lambda: metrics().get(("onepass_rejected_total", (("reason", "client_closed"),))) == 1,
                       what="the disconnected request to be dropped")
            assert metrics()[("onepass_queue_depth", ())] == 0
            gate.set()
            assert first.result(timeout=30).status_code == 200
        assert post(s.url, noul_request("next")).status_code == 200
        assert engine.states == ["first", "next"]


def test_workers_bound_the_concurrent_model_calls():
    engine = FakeEngine(delay=0.05)
    with fake_server(ServerConfig(workers=2, max_queue=30), engine) as s:
        with ThreadPoolExecutor(max_workers=16) as pool:
            results = list(pool.map(lambda i: post(s.url, noul_request(f"w{i}")), range(16)))
        assert all(r.status_code == 200 for r in results)
        assert engine.max_running == 2
        assert [r.json()["answers"]["q"]["noul"] for r in results] == [FakeEngine.answer_for(f"w{i}", "q") for i in range(16)]
        assert len(s.app.state.admission.executor._threads) == 2  # a fixed pool, not a thread per request


def test_past_max_connections_the_answer_is_a_json_429():
    gate = threading.Event()
    engine = FakeEngine(gate=gate)
    with fake_server(ServerConfig(workers=2, max_queue=2, max_connections=3), engine) as s:
        with ThreadPoolExecutor(max_workers=2) as pool:
            held = [pool.submit(post, s.url, noul_request(f"held-{i}")) for i in range(2)]
            assert engine.entered.acquire(timeout=20) and engine.entered.acquire(timeout=20)
            r = httpx.get(f"{s.url}/healthz")
            assert_error_shape(r, {429})
            assert r.json()["detail"]["error_type"] == "too_many_connections"
            gate.set()
            assert all(f.result(timeout=30).status_code == 200 for f in held)
        wait_until(lambda: httpx.get(f"{s.url}/healthz").status_code == 200, what="the connection bound to clear")


# -- loading and failures -------------------------------------------------------------------------------------


def test_while_the_model_loads_probes_answer_and_requests_get_503_but_bad_ones_still_4xx():
    release = threading.Event()
    engine = FakeEngine()

    def slow_factory():
        assert release.wait(timeout=60)
        return engine

    settings = ServerConfig(api_keys=KEYS, loading_retry_after_s=7)
    with LoopbackServer(create_app(slow_factory, settings), settings) as s:
        assert httpx.get(f"{s.url}/healthz").json() == {"status": "ok"}
        r = httpx.get(f"{s.url}/readyz")
        assert_error_shape(r, {503})
        assert r.headers["retry-after"] == "7" and r.headers["retry-after-ms"] == "7000"
        r = post(s.url, noul_request("early"), headers=AUTH)
        assert_error_shape(r, {503})
        assert r.json()["detail"]["error_type"] == "model_not_ready" and "loading" in r.json()["detail"]["message"]
        assert_error_shape(httpx.get(f"{s.url}/v1/models", headers=AUTH), {503})
        # Bad input is a 4xx even now: the SDK would retry a 503 and hide the message.
        assert_error_shape(post(s.url, content=b"{not json", headers={**AUTH, "content-type": "application/json"}), {422})
        assert_error_shape(post(s.url, {"model": "jev-latest", "state": "x"}, headers=AUTH), {422})
        assert_error_shape(post(s.url, noul_request("x")), {401})
        release.set()
        wait_until(lambda: httpx.get(f"{s.url}/readyz").status_code == 200, what="readiness")
        assert httpx.get(f"{s.url}/readyz").json() == {"status": "ready", "model": "fake-1"}
        assert post(s.url, noul_request("late"), headers=AUTH).status_code == 200


def test_a_model_that_fails_to_load_is_reported_not_fatal():
    def broken():
        raise RuntimeError("weights missing")

    with LoopbackServer(create_app(broken, ServerConfig()), ServerConfig()) as s:
        wait_until(lambda: "weights missing" in httpx.get(f"{s.url}/readyz").text, what="the load failure")
        r = post(s.url, noul_request("x"))
        assert_error_shape(r, {503})
        assert "failed to load" in r.json()["detail"]["message"]
        assert httpx.get(f"{s.url}/healthz").status_code == 200


def test_an_engine_bug_is_a_json_500_that_reveals_nothing():
    class Broken(FakeEngine):
        def run(self, request):
            raise RuntimeError("internal path /secret/weights.bin")

    with fake_server(ServerConfig(), Broken()) as s:
        r = post(s.url, noul_request("x"))
        assert r.status_code == 500 and r.headers["content-type"] == "application/json"
        assert r.json()["detail"]["error_type"] == "internal_error" and "secret" not in r.text
        assert r.headers["x-typesafe-request-id"] in r.text
        assert post(s.url, {"model": "jev-latest"}).status_code == 422  # and it keeps serving


# -- observability ------------------------------------------------------------------------------------------------


def test_metrics_count_requests_by_route_and_status_and_questions_and_tokens():
    with fake_server(ServerConfig()) as s:
        for i in range(3):
            body = noul_request(f"m{i}")
            body["questions"]["r"] = {"type": "noul", "instructions": "z?"}
            assert post(s.url, body).status_code == 200
        assert post(s.url, {"model": "jev-latest"}).status_code == 422
        assert httpx.get(f"{s.url}/no/such/route/abc123").status_code == 404
        text = httpx.get(f"{s.url}/metrics").text
        m = metric_values(text)
        route = lambda status: ("onepass_requests_total", (("method", "POST"), ("route", "/v1/systemone"), ("status", status)))  # noqa: E731
        assert m[route("200")] == 3 and m[route("422")] == 1
        assert m[("onepass_requests_total", (("method", "GET"), ("route", "other"), ("status", "404")))] == 1
        assert "abc123" not in text  # unknown paths share one label: bounded cardinality
        assert m[("onepass_questions_total", (("type", "noul"),))] == 6
        assert m[("onepass_input_tokens_total", ())] == 60 and m[("onepass_output_tokens_total", ())] == 6
        assert m[("onepass_request_duration_seconds_count", (("route", "/v1/systemone"),))] == 4
        assert m[("onepass_queue_wait_seconds_count", ())] == 3
        assert m[("onepass_model_ready", ())] == 1 and m[("onepass_workers", ())] == ServerConfig().workers
        assert ("onepass_queue_depth", ()) in m and ("onepass_workers_busy", ()) in m


def test_access_log_lines_carry_the_request_id_and_never_the_body(caplog):
    marker = "BODY-MARKER-7d1e"
    with caplog.at_level(logging.INFO, logger="onepass.access"), fake_server(ServerConfig()) as s:
        ok = post(s.url, noul_request(f"{marker} state"))
        bad = post(s.url, {"model": "jev-latest", "state": marker, "questions": {"q": {"type": marker}}})
        missing = post(s.url, {"model": f"{marker}-model", "state": "x", "questions": {"q": {"type": "noul", "instructions": "y"}}})
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "onepass.access"]
    by_id = {line["request_id"]: line for line in lines}
    a, b, c = (by_id[r.headers["x-typesafe-request-id"]] for r in (ok, bad, missing))
    assert a["status"] == 200 and a["route"] == "/v1/systemone" and a["method"] == "POST" and a["questions"] == 1
    assert a["input_tokens"] == 10 and a["ms"] >= 0 and a["client"] == "127.0.0.1" and a["ts"].endswith("+00:00")
    assert b["status"] == 422 and b["error_type"] == "invalid_request" and b["invalid"] == "union_tag_invalid"
    assert c["status"] == 404 and c["error_type"] == "model_not_found"
    assert marker in bad.text and marker in missing.text  # the client sees its input quoted back...
    assert not any(marker in r.getMessage() for r in caplog.records)  # ...the log never does


def test_every_response_is_json_with_a_request_id():
    with fake_server(ServerConfig()) as s:
        responses = [
            httpx.get(f"{s.url}/healthz"), httpx.get(f"{s.url}/readyz"), httpx.get(f"{s.url}/v1/models"),
            httpx.get(f"{s.url}/nothing"), httpx.get(f"{s.url}/v1/systemone"), httpx.delete(f"{s.url}/v1/models"),
            post(s.url, noul_request("x")), post(s.url, content=b"", headers={"content-type": "application/json"}),
        ]
        metrics = httpx.get(f"{s.url}/metrics")
    ids = [r.headers["x-typesafe-request-id"] for r in [*responses, metrics]]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert all(r.headers["content-type"] == "application/json" for r in responses)
    assert [r.status_code for r in responses] == [200, 200, 200, 404, 405, 405, 200, 422]
    assert metrics.headers["content-type"].startswith("text/plain")  # Prometheus' own exposition format
