"""Unknown top-level request fields are ignored, as the wire contract says, and named beside the answer:
`DecisionRequest.ignored` in Python, the `x-onepass-ignored-fields` / `x-onepass-ignored-count` headers and
the access log over HTTP (single and batch routes alike). With `--strict-options` an unknown `x_` field
(a misspelt option) is a 422 naming the known ones instead; other unknown fields stay ignored."""

from __future__ import annotations

import argparse
import json
import logging

import httpx
import pytest
from typesafe_sdk import Choice, Noul, RetryPolicy, TypeSafeAPIError, TypeSafeClient

from onepass import Engine, cli, ignored
from onepass.config import ServerConfig
from onepass.engine_setup import engine_config
from onepass.errors import RequestInvalid
from onepass.server import create_app
from tests.test_hardening_support import LoopbackServer, assert_error_shape
from tests.tiny_random import llama_with_smollm_tokenizer

STATE = "Order 5512: the kettle arrived with a cracked lid and the refund form does not load."
CHOICE = {"type": "choice", "instructions": "What is the problem?",
          "criteria": {"alpha damage": None, "bravo refund": None, "charlie delay": None}}
KNOWN = ("x_readout", "x_abstain_mass", "x_abstain_confidence", "x_calibrated", "x_debias_prior")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return Engine(str(llama_with_smollm_tokenizer(tmp_path_factory.mktemp("tiny") / "tiny", seed=7)), dtype="float32",
                  calibration=None, log=lambda _m: None)


@pytest.fixture(scope="module")
def strict(tiny):
    """The same model with `--strict-options`, its config built from the flag as `onepass serve` builds it."""
    parser = argparse.ArgumentParser()
    cli.model_args(parser)
    config = engine_config(parser.parse_args(["--strict-options", "--calibration", "none"]))
    assert config.strict_options is True
    return Engine(None, config=config, backend=tiny.backend, tokenizer=tiny.tokenizer, model_id="tiny")


def request(questions: dict | None = None, **extra) -> dict:
    return {"model": "jev-latest", "state": STATE, "questions": questions or {"c": CHOICE}, **extra}


def sdk(url: str, seen: list | None = None) -> TypeSafeClient:
    """The official client; `seen` collects the headers of every response it gets."""
    import httpx2

    hooks = {"response": [lambda response: seen.append(response.headers)]} if seen is not None else {}
    return TypeSafeClient(base_url=url, api_key="k", retry=RetryPolicy(max_retries=0),
                          http_client=httpx2.Client(event_hooks=hooks, timeout=120))


# -- in process ------------------------------------------------------------------------------------------------


def test_the_engine_ignores_unknown_fields_and_says_which(tiny):
    plain = tiny.decide(request())
    payload = request(x_trace_id="t-1", metadata={"team": "billing"}, x_readuot="isolated")
    parsed = tiny.validate(payload)
    assert parsed.ignored == ("x_trace_id", "metadata", "x_readuot")
    assert parsed.options.x_readout is None  # a misspelt option is ignored, not guessed
    assert tiny.run(parsed) == plain == tiny.decide(payload)  # the body is exactly the contract's, extras or not
    assert tiny.validate(request(x_readout="isolated", x_calibrated=False)).ignored == ()


def test_strict_options_refuses_unknown_x_fields_naming_the_known_ones(strict):
    with pytest.raises(RequestInvalid) as caught:
        strict.decide(request(x_readuot="isolated", x_abstain_mas=0.5))
    detail = caught.value.detail
    assert [d["loc"] for d in detail] == [["body", "x_readuot"], ["body", "x_abstain_mas"]]
    for d in detail:
        assert d["type"] == "unknown_option" and "--strict-options" in d["msg"]
        assert all(known in d["msg"] for known in KNOWN)
    # Fields without the prefix are other clients' extras, not onepass options: still ignored, and named.
    parsed = strict.validate(request(metadata={"trace": 1}))
    assert parsed.ignored == ("metadata",)
    assert strict.run(parsed)["answers"]["c"]["type"] == "choice"


# -- over HTTP, through the official SDK ------------------------------------------------------------------------


def test_the_sdk_gets_its_answer_and_the_header_names_what_was_ignored(tiny, caplog):
    settings = ServerConfig()
    seen: list = []
    with caplog.at_level(logging.INFO, logger="onepass.access"), \
            LoopbackServer(create_app(tiny, settings), settings) as s, sdk(s.url, seen) as client:
        questions = {"q": Choice(instructions="Which?", criteria={"a": None, "b": None})}
        answer = client.system_one(state=STATE, questions=questions,
                                   extra_body={"x_trace_id": "trace-42", "client_meta": {"app": "crm"}})
        plain = client.system_one(state=STATE, questions=questions)
    assert abs(sum(answer.choices["q"].probabilities.values()) - 1) < 1e-9
    assert answer.choices["q"].probabilities == plain.choices["q"].probabilities
    with_extras, without = seen
    assert with_extras[ignored.HEADER] == "x_trace_id, client_meta" and with_extras[ignored.COUNT_HEADER] == "2"
    assert ignored.HEADER not in without and ignored.COUNT_HEADER not in without
    lines = {line["request_id"]: line for line in (json.loads(r.getMessage()) for r in caplog.records
                                                   if r.name == "onepass.access")}
    logged = lines[with_extras["x-typesafe-request-id"]]
    assert logged["status"] == 200 and logged["ignored"] == ["x_trace_id", "client_meta"] and logged["ignored_count"] == 2
    assert "ignored" not in lines[without["x-typesafe-request-id"]]
    assert "trace-42" not in caplog.text and "crm" not in caplog.text  # names only, never values


def test_the_sdk_sees_the_strict_422_naming_the_option_and_the_known_ones(strict):
    settings = ServerConfig()
    with LoopbackServer(create_app(strict, settings), settings) as s, sdk(s.url) as client:
        with pytest.raises(TypeSafeAPIError) as caught:
            client.system_one(state=STATE, questions={"q": Noul(instructions="Refund?")}, extra_body={"x_readuot": "isolated"})
        assert caught.value.status == 422 and "x_readuot" in str(caught.value)
        assert all(known in str(caught.value) for known in KNOWN)
        ok = client.system_one(state=STATE, questions={"q": Choice(instructions="Which?", criteria={"a": None, "b": None})},
                               extra_body={"x_readout": "isolated", "client_meta": 1})
        assert abs(sum(ok.choices["q"].probabilities.values()) - 1) < 1e-9


def test_the_batch_route_ignores_and_names_the_same_way(tiny, strict):
    """The SDK has no batch call: httpx."""
    questions = {"c": CHOICE}
    settings = ServerConfig()
    with LoopbackServer(create_app(tiny, settings), settings) as s:
        r = httpx.post(f"{s.url}/v1/systemone/batch", timeout=120,
                       json={"model": "jev-latest", "states": [STATE, "Where is my parcel?"], "questions": questions,
                             "x_trace_id": "t", "x_readuot": "isolated"})
        single = httpx.post(f"{s.url}/v1/systemone", json=request(questions), timeout=120).json()
    assert r.status_code == 200, r.text
    assert r.headers[ignored.HEADER] == "x_trace_id, x_readuot" and r.headers[ignored.COUNT_HEADER] == "2"
    assert r.json()["results"][0] == single
    with LoopbackServer(create_app(strict, settings), settings) as s:
        refused = httpx.post(f"{s.url}/v1/systemone/batch", timeout=120,
                             json={"model": "jev-latest", "states": [STATE], "questions": questions, "x_readuot": "slot"})
    body = assert_error_shape(refused, {422})
    assert body["detail"][0]["loc"] == ["body", "x_readuot"] and body["detail"][0]["type"] == "unknown_option"


def test_caller_names_are_sanitised_and_capped_in_the_header_and_the_log(tiny, caplog):
    long_name = "x_" + "n" * 200
    names = ["evil\r\nset-cookie: a=b", "bell\u0007, comma", "caf\u00e9 \U0001F600", long_name,
             *[f"extra_{i}" for i in range(30)]]
    payload = request(**{name: 1 for name in names})
    settings = ServerConfig()
    with caplog.at_level(logging.INFO, logger="onepass.access"), LoopbackServer(create_app(tiny, settings), settings) as s:
        r = httpx.post(f"{s.url}/v1/systemone", json=payload, timeout=120)
    assert r.status_code == 200, r.text
    assert "set-cookie" not in r.headers
    listed = r.headers[ignored.HEADER].split(", ")
    assert len(listed) == ignored.MAX_NAMES and r.headers[ignored.COUNT_HEADER] == str(len(names))
    assert listed[:3] == ["evil%0D%0Aset-cookie%3A%20a%3Db", "bell%07%2C%20comma", "caf%C3%A9%20%F0%9F%98%80"]
    assert listed[3] == long_name[: ignored.MAX_NAME_CHARS] + "*"
    assert listed[4:] == [f"extra_{i}" for i in range(ignored.MAX_NAMES - 4)]
    assert all(0x21 <= ord(ch) <= 0x7E for name in listed for ch in name)
    assert len(r.headers[ignored.HEADER]) <= ignored.MAX_NAMES * (ignored.MAX_NAME_CHARS + 1) + 2 * (ignored.MAX_NAMES - 1)
    (line,) = [json.loads(rec.getMessage()) for rec in caplog.records if rec.name == "onepass.access"]
    assert line["ignored"] == listed and line["ignored_count"] == len(names)
    assert all("\r" not in rec.getMessage() and "\n" not in rec.getMessage() for rec in caplog.records)


def test_a_cut_name_is_cut_between_characters():
    from urllib.parse import unquote_to_bytes

    for prefix in range(55, 66):
        name = "a" * prefix + "\u00e9\U0001F600" * 10
        out = ignored.sanitise(name)
        assert out.endswith("*") and len(out) <= ignored.MAX_NAME_CHARS + 1
        kept = unquote_to_bytes(out[:-1]).decode("utf-8")  # whole escapes, whole characters
        assert name.startswith(kept) and len(out) > ignored.MAX_NAME_CHARS - 12
    assert ignored.sanitise("*") == "%2A" and ignored.sanitise("x_trace_id") == "x_trace_id"
    assert ignored.sanitise("\ud800") == "%5Cud800"  # a lone surrogate (in-process only: HTTP refuses them)
