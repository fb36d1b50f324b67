"""The System One contract, end to end through the official typesafe-sdk against a live onepass server."""

from __future__ import annotations

import functools
import json
import math

import httpx
import pytest
import zstandard
from typesafe_sdk import (
    Choice,
    Noul,
    RetryPolicy,
    Score,
    TypeSafeAuthenticationError,
    TypeSafeClient,
    TypeSafeNotFoundError,
    TypeSafeUnprocessableEntityError,
)

from tests.conftest import KEYS

# Generous timeouts: CI runs on 2 shared cores, and a slow answer is not what these tests check.
post = functools.partial(httpx.post, timeout=120)
get = functools.partial(httpx.get, timeout=120)

STATE = "Hi, I was charged twice for order #4411 and I am quite annoyed. Please refund one charge today."


def uniform_mad(n: int) -> float:
    return sum(abs(i - (n - 1) / 2) for i in range(n)) / n


def ask(client, questions=None, state=STATE, **kw):
    return client.system_one(state=state, questions=questions, **kw)


def test_every_answer_type_parses_and_is_consistent(client):
    options = {"billing": "charges, refunds, invoices", "shipping": None, "account": None, "other": None}
    r = ask(client, {
        "is_billing": Noul(instructions="Is this message about billing?"),
        "topic": Choice(instructions="What is the topic?", criteria=options),
        "urgency": Score(instructions="How urgent is it?", criteria=["can wait", "this week", "today", "now"]),
    })
    assert r.model == "smollm2-135m"
    assert set(r.answers) == {"is_billing", "topic", "urgency"}
    assert r.usage.input_tokens > 40 and isinstance(r.usage.input_tokens, int)
    assert r.usage.output_tokens == 3

    noul = r.nouls["is_billing"].noul
    assert 0.0 < noul < 1.0

    choice = r.choices["topic"]
    assert list(choice.probabilities) == list(options)  # exactly the option names, in request order
    assert math.isclose(sum(choice.probabilities.values()), 1.0, abs_tol=1e-9)
    best = max(choice.probabilities, key=choice.probabilities.get)
    assert choice.choice == best
    n, pmax = len(options), choice.probabilities[best]
    assert math.isclose(choice.confidence, (pmax - 1 / n) / (1 - 1 / n), abs_tol=1e-12)

    score = r.scores["urgency"]
    p = [score.probabilities[i] for i in range(4)]
    assert set(score.probabilities) == {0, 1, 2, 3} == set(score.legend)
    assert score.legend[2] == "today"
    assert math.isclose(sum(p), 1.0, abs_tol=1e-9)
    assert math.isclose(score.score, sum(i * pi for i, pi in enumerate(p)), abs_tol=1e-12)
    m = p.index(max(p))
    expected = max(0.0, 1 - sum(pi * abs(i - m) for i, pi in enumerate(p)) / uniform_mad(4))
    assert math.isclose(score.confidence, expected, abs_tol=1e-12)


def test_raw_response_fields(server):
    body = {"model": "jev-latest", "state": {"subject": "refund", "body": STATE}, "unknown_top_level": 1,
            "questions": {"q": {"type": "noul", "criteria": {"true": "The sender wants money back"}}}}
    r = post(f"{server.url}/v1/systemone", json=body, headers={"authorization": f"Bearer {KEYS[1]}"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert len(r.headers["x-typesafe-request-id"]) >= 16
    answer = r.json()["answers"]["q"]
    # extras are x_-prefixed; the default readout is auto, which says so
    assert set(answer) == {"type", "noul", "x_label_mass", "x_readout", "x_readout_policy", "x_calibrated"}
    assert 0.0 < answer["x_label_mass"] <= 1.0
    assert "NaN" not in r.text and "Infinity" not in r.text


def test_models_route_lists_model_and_alias(client):
    names = {m.name: m for m in client.models.list().models}
    assert {"smollm2-135m", "jev-latest"} <= set(names)
    assert len(names["smollm2-135m"].release_date) == 10 and names["smollm2-135m"].release_date[4] == "-"


def test_255_options_and_10_levels(client):
    options = {f"o{i}": None for i in range(255)}
    r = ask(client, timeout=300, questions={
        "many": Choice(instructions="Which option?", criteria=options),
        "levels": Score(instructions="Rate it.", criteria=[f"level {i}" for i in range(10)]),
    })
    many = r.choices["many"]
    assert list(many.probabilities) == list(options)
    assert math.isclose(sum(many.probabilities.values()), 1.0, abs_tol=1e-9)
    assert set(r.scores["levels"].probabilities) == set(range(10))


def test_unicode_option_names_round_trip_byte_for_byte(server):
    names = ["naïve café", "日本語", "emoji 🚀", "  spaced  ", "quote \" and \\ backslash", "Ωmega\u200b"]
    body = {"model": "jev-latest", "state": STATE, "questions": {"u": {"type": "choice", "criteria": {n: None for n in names}}}}
    r = post(f"{server.url}/v1/systemone", json=body, headers={"authorization": f"Bearer {KEYS[0]}"})
    assert r.status_code == 200
    got = json.loads(r.content.decode("utf-8"))["answers"]["u"]
    assert list(got["probabilities"]) == names
    assert got["choice"] in names


@pytest.mark.parametrize(
    "question, fragment",
    [
        ({"type": "score", "criteria": [f"l{i}" for i in range(11)]}, "2 to 10 levels"),
        ({"type": "score", "criteria": {"0": "low", "1": "high"}}, "map form"),
        ({"type": "choice", "criteria": {"only": None}}, "2 to 255 options"),
        ({"type": "choice", "criteria": {f"o{i}": None for i in range(256)}}, "2 to 255 options"),
        ({"type": "noul"}, "needs instructions"),
        ({"type": "telepathy"}, "tag"),
    ],
)
def test_bad_questions_are_422_with_detail(server, question, fragment):
    # Sent raw: the SDK refuses some of these itself, and the server must refuse them from any client.
    body = {"model": "jev-latest", "state": STATE, "questions": {"q": question}}
    r = post(f"{server.url}/v1/systemone", json=body, headers={"authorization": f"Bearer {KEYS[0]}"})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, list) and detail
    assert {"loc", "msg", "type"} <= set(detail[0])
    assert detail[0]["loc"][:3] == ["body", "questions", "q"]
    assert fragment in json.dumps(detail)


def test_sdk_surfaces_422_for_11_levels_and_map_form(client):
    for criteria in ([f"l{i}" for i in range(11)], {"0": "low", "1": "high"}):
        with pytest.raises(TypeSafeUnprocessableEntityError) as caught:
            ask(client, {"q": {"type": "score", "instructions": "Rate.", "criteria": criteria}})
        assert caught.value.status == 422
        assert caught.value.body["detail"][0]["loc"][:4] == ["body", "questions", "q", "score"]


@pytest.mark.parametrize(
    "raw, fragment",
    [
        (b'{"model": "jev-latest", "state": "x", "questions": {}}', "at least one question"),
        (b'{"model": "jev-latest", "state": "x", "questions": {"q": {"type": "noul", "instructions": "a"}', "JSON decode error"),
        (b'{"model": "jev-latest", "questions": {"q": {"type": "noul", "instructions": "a"}}}', "Field required"),
        (b'{"model": "jev-latest", "state": NaN, "questions": {"q": {"type": "noul", "instructions": "a"}}}', "NaN"),
        (b"[1, 2]", "JSON object"),
        (b"\xff\xfe", "UTF-8"),
    ],
)
def test_malformed_bodies_are_422_with_detail(server, raw, fragment):
    r = post(f"{server.url}/v1/systemone", content=raw,
                   headers={"authorization": f"Bearer {KEYS[0]}", "content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == "application/json"
    detail = r.json()["detail"]
    assert isinstance(detail, list) and fragment in json.dumps(detail)


def test_box_on_text_model_is_422_saying_no_vision(client):
    with pytest.raises(TypeSafeUnprocessableEntityError) as caught:
        ask(client, {"where": {"type": "box", "instructions": "Find the cat."}})
    assert "no vision" in str(caught.value)


def test_unknown_model_is_404_naming_the_served_ones(client):
    with pytest.raises(TypeSafeNotFoundError) as caught:
        ask(client, {"q": Noul(instructions="x?")}, model="gpt-9")
    assert "smollm2-135m" in str(caught.value)


def test_zstd_compressed_request_is_answered(server):
    # The SDK compresses bodies of 1024 bytes or more when its zstd extra is installed.
    from typesafe_sdk._core.compression import COMPRESSORS

    assert "zstd" in COMPRESSORS
    seen = []
    recording = recording_client(seen)
    with TypeSafeClient(base_url=server.url, api_key=KEYS[0], retry=RetryPolicy(max_retries=0), http_client=recording) as c:
        r = c.system_one(state=STATE * 20, questions={"q": Noul(instructions="Is this about billing?")})
    assert seen == ["zstd"]
    assert 0 < r.nouls["q"].noul < 1
    # Same answer as the uncompressed request: compression changes nothing.
    with TypeSafeClient(base_url=server.url, api_key=KEYS[0], retry=RetryPolicy(max_retries=0), compression=False, timeout=120) as c:
        plain = c.system_one(state=STATE * 20, questions={"q": Noul(instructions="Is this about billing?")})
    assert abs(plain.nouls["q"].noul - r.nouls["q"].noul) < 1e-9


def recording_client(seen: list):
    import httpx2

    def hook(request):
        seen.append(request.headers.get("content-encoding"))

    return httpx2.Client(event_hooks={"request": [hook]}, timeout=120)


def test_raw_zstd_and_gzip_bodies(server):
    import gzip

    body = json.dumps({"model": "jev-latest", "state": STATE * 30,
                       "questions": {"q": {"type": "noul", "instructions": "Is this about billing?"}}}).encode()
    auth = {"authorization": f"Bearer {KEYS[0]}", "content-type": "application/json"}
    answers = []
    for encoding, data in [("zstd", zstandard.ZstdCompressor().compress(body)), ("gzip", gzip.compress(body)), (None, body)]:
        headers = dict(auth, **({"content-encoding": encoding} if encoding else {}))
        r = post(f"{server.url}/v1/systemone", content=data, headers=headers)
        assert r.status_code == 200, r.text
        answers.append(r.json()["answers"]["q"]["noul"])
    assert max(answers) - min(answers) < 1e-9


def test_zstd_bomb_truncated_and_garbage_bodies_are_4xx(server):
    auth = {"authorization": f"Bearer {KEYS[0]}", "content-type": "application/json", "content-encoding": "zstd"}
    bomb = zstandard.ZstdCompressor(level=19).compress(b'{"state": "' + b"a" * (64 << 20) + b'"}')
    assert len(bomb) < 1 << 20
    good = zstandard.ZstdCompressor().compress(b'{"model": "jev-latest"}' * 100)
    cases = [(bomb, 413, "request_too_large"), (good[:-4], 400, "truncated"), (b"not zstd at all", 400, "not valid zstd")]
    for data, status, fragment in cases:
        r = post(f"{server.url}/v1/systemone", content=data, headers=auth)
        assert r.status_code == status, r.text
        assert fragment in r.text
        assert set(r.json()["detail"]) == {"error_type", "message"}


def test_missing_and_wrong_keys_are_401_authentication_error(server):
    from typesafe_sdk import TypeSafeClient as Client

    body = {"model": "jev-latest", "state": "x", "questions": {"q": {"type": "noul", "instructions": "y?"}}}
    r = post(f"{server.url}/v1/systemone", json=body)
    assert r.status_code == 401
    assert r.json()["detail"]["error_type"] == "authentication_error"
    with Client(base_url=server.url, api_key="wrong-key", retry=RetryPolicy(max_retries=0), timeout=120) as c:
        with pytest.raises(TypeSafeAuthenticationError) as caught:
            c.system_one(state="x", questions={"q": Noul(instructions="y?")})
    assert caught.value.status == 401
    assert caught.value.body["detail"]["error_type"] == "authentication_error"
    assert caught.value.request_id
    with Client(base_url=server.url, api_key=KEYS[1], retry=RetryPolicy(max_retries=0), timeout=120) as c:
        assert c.system_one(state="x", questions={"q": Noul(instructions="y?")}).nouls["q"].noul > 0


def test_unknown_route_and_method_keep_the_error_shape(server):
    r = get(f"{server.url}/v1/nothing")
    assert r.status_code == 404 and r.json()["detail"]["error_type"] == "not_found"
    r = get(f"{server.url}/v1/systemone")
    assert r.status_code == 405 and r.json()["detail"]["error_type"] == "method_not_allowed"
    assert r.headers["x-typesafe-request-id"]
