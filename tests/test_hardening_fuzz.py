"""Property-based fuzzing of POST /v1/systemone with well over 1,000 bad requests (hypothesis).

Wrong types, missing fields, huge and empty values, deep nesting, invalid UTF-8, lone surrogates, wrong
content types and encodings, truncated / trailing / oversized zstd bodies, zstd and gzip bombs, broken
multipart, random bytes, random keys, paths and methods. Against the real server (the session fixture:
SmolLM2, keys on, default limits): never a 5xx, always a documented JSON error shape, and requests built
to be invalid are never answered 200. Requests are invalid by construction, so they never reach the model.
"""

from __future__ import annotations

import gzip
import json
import string

import httpx
import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onepass import playground
from tests.conftest import KEYS
from tests.test_hardening_support import assert_error_shape

SENT = {"count": 0}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
AUTH = {"authorization": f"Bearer {KEYS[0]}"}
JSON = {**AUTH, "content-type": "application/json"}
VALID = {"model": "jev-latest", "state": "Refund my duplicate charge.",
         "questions": {"q": {"type": "noul", "instructions": "Is this about billing?"}}}


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=120) as client:
        yield client


def send(http, content: bytes, headers: dict, statuses=None, path: str = "/v1/systemone", method: str = "POST"):
    SENT["count"] += 1
    r = http.request(method, path, content=content, headers=headers)
    assert r.status_code < 500, (r.status_code, r.text[:300], content[:200], headers)
    assert_error_shape(r, statuses)
    return r


def send_json(http, payload, statuses=None):
    return send(http, json.dumps(payload).encode(), JSON, statuses)


# -- JSON building blocks ---------------------------------------------------------------------------------------

scalars = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3), max_leaves=8)
not_content = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)  # not str/object/array
not_object = scalars | st.lists(json_values, max_size=3)


def question_of(kind: str):
    if kind == "noul":
        return st.just({"type": "noul", "instructions": "Is it urgent?"})
    if kind == "choice":
        return st.integers(2, 6).map(lambda n: {"type": "choice", "criteria": {f"o{i}": None for i in range(n)}})
    return st.integers(2, 6).map(lambda n: {"type": "score", "criteria": [f"l{i}" for i in range(n)]})


valid_question = st.sampled_from(["noul", "choice", "score"]).flatmap(question_of)


@st.composite
def broken_question(draw):
    """A question that is invalid for one of many reasons."""
    kind = draw(st.sampled_from(["type", "noul", "choice", "score", "box", "instructions", "shape"]))
    if kind == "type":
        return {"type": draw(st.text(max_size=10).filter(lambda t: t not in ("noul", "choice", "score", "box")) | not_content),
                "instructions": "x?"}
    if kind == "noul":
        return draw(st.sampled_from([
            {"type": "noul"}, {"type": "noul", "criteria": None}, {"type": "noul", "criteria": {}},
            {"type": "noul", "criteria": {"true": None, "false": None}},
        ]) | st.builds(lambda c: {"type": "noul", "instructions": "x?", "criteria": c}, not_object.filter(lambda c: c is not None))
           | st.builds(lambda k: {"type": "noul", "instructions": "x?", "criteria": {k: "y"}},
                       st.text(min_size=1, max_size=6).filter(lambda k: k not in ("true", "false"))))
    if kind == "choice":
        return draw(st.sampled_from([
            {"type": "choice", "criteria": {"only": None}}, {"type": "choice", "criteria": {}},
            {"type": "choice"}, {"type": "choice", "criteria": {f"o{i}": None for i in range(256)}},
        ]) | st.builds(lambda c: {"type": "choice", "criteria": c}, scalars | st.lists(st.text(max_size=4), max_size=4))
           | st.builds(lambda v: {"type": "choice", "criteria": {"a": v, "b": None}}, not_content.filter(lambda v: v is not None)))
    if kind == "score":
        return draw(st.sampled_from([
            {"type": "score", "criteria": {"0": "low", "1": "high"}}, {"type": "score", "criteria": ["one"]},
            {"type": "score", "criteria": []}, {"type": "score"},
            {"type": "score", "criteria": [f"l{i}" for i in range(11)]}, {"type": "score", "criteria": ["a", None]},
        ]) | st.builds(lambda v: {"type": "score", "criteria": ["a", v]}, not_content))
    if kind == "box":
        return {"type": "box", "instructions": draw(st.text(max_size=10))}
    if kind == "instructions":
        return {"type": draw(st.sampled_from(["noul", "choice", "score"])), "instructions": draw(not_content.filter(lambda v: v is not None)),
                "criteria": {"a": None, "b": None}}
    return draw(not_object)


@st.composite
def invalid_payload(draw):
    """A request object with exactly the kind of mistake clients make: wrong types, missing or empty fields."""
    body = json.loads(json.dumps(VALID))
    body["questions"] = draw(st.dictionaries(st.text(min_size=1, max_size=8), valid_question, min_size=1, max_size=3))
    mistake = draw(st.sampled_from(["missing", "model", "state", "questions", "question", "assets", "options", "ids"]))
    if mistake == "missing":
        for field in draw(st.lists(st.sampled_from(["model", "state", "questions"]), min_size=1, unique=True)):
            del body[field]
    elif mistake == "model":
        body["model"] = draw(not_object | st.dictionaries(st.text(max_size=3), scalars, max_size=2)
                             | st.text(max_size=20).filter(lambda m: m not in ("jev-latest", "smollm2-135m")))
    elif mistake == "state":
        body["state"] = draw(not_content)
    elif mistake == "questions":
        body["questions"] = draw(st.just({}) | not_object | st.dictionaries(st.text(min_size=1, max_size=5), not_object, min_size=1, max_size=3))
    elif mistake == "question":
        body["questions"][draw(st.text(min_size=1, max_size=8))] = draw(broken_question())
    elif mistake == "assets":
        body["assets"] = draw(not_object.filter(lambda a: a is not None) | st.dictionaries(st.text(min_size=1, max_size=5), json_values, min_size=1, max_size=2))
    elif mistake == "options":
        body[draw(st.sampled_from(["x_readout", "x_abstain_mass", "x_abstain_confidence", "x_calibrated"]))] = draw(
            st.text(max_size=8).filter(lambda t: t not in ("slot", "isolated", "likelihood", "debiased"))
            | st.floats(min_value=1.0001, max_value=1e300) | st.floats(max_value=-1e-9, min_value=-1e300)
            | st.integers(2, 10**300) | st.integers(10**309, 10**400) | st.integers(max_value=-1) | st.lists(scalars, max_size=2)
            | st.dictionaries(st.text(max_size=3), scalars, min_size=1, max_size=2)
        )
    else:
        body["questions"][""] = {"type": "noul", "instructions": "x?"}
    return body


# -- the fuzz tests --------------------------------------------------------------------------------------------------


@FUZZ
@given(invalid_payload())
def test_fuzz_wrong_types_missing_and_empty_fields(http, payload):
    r = send_json(http, payload, {404, 422})
    if r.status_code == 404:
        assert r.json()["detail"]["error_type"] == "model_not_found"


@FUZZ
@given(json_values)
def test_fuzz_arbitrary_json_documents(http, document):
    # No random JSON document is a valid request: a valid one needs model, state and a typed question.
    send_json(http, document, {404, 422})


@st.composite
def oversized(draw):
    body = json.loads(json.dumps(VALID))
    where = draw(st.sampled_from(["state", "object_state", "instructions", "option", "description", "id", "model", "questions",
                                  "options", "levels", "big_int", "big_float"]))
    n = draw(st.integers(1, 4000))
    if where == "state":
        body["state"] = "s" * (262_144 + n)
    elif where == "object_state":
        body["state"] = {"rows": ["r" * 1000] * (262 + n // 100)}
    elif where == "instructions":
        body["questions"]["q"]["instructions"] = "i" * (16_384 + n)
    elif where == "option":
        body["questions"]["q"] = {"type": "choice", "criteria": {"o" * (1024 + n): None, "b": None}}
    elif where == "description":
        body["questions"]["q"] = {"type": "choice", "criteria": {"a": "d" * (16_384 + n), "b": None}}
    elif where == "id":
        body["questions"] = {"q" * (256 + n): {"type": "noul", "instructions": "x?"}}
    elif where == "model":
        body["model"] = "m" * (256 + n)
    elif where == "questions":
        body["questions"] = {f"q{i}": {"type": "noul", "instructions": "x?"} for i in range(65 + n % 500)}
    elif where == "options":
        body["questions"]["q"] = {"type": "choice", "criteria": {f"o{i}": None for i in range(256 + n % 300)}}
    elif where == "levels":
        body["questions"]["q"] = {"type": "score", "criteria": [f"l{i}" for i in range(11 + n % 50)]}
    elif where == "big_int":
        return json.dumps(body).replace('"Refund', "1" + "0" * (309 + n % 3000) + ', "x": "Refund').encode()
    else:
        return json.dumps(body).replace('"Refund', f"{n}e{400 + n}" + ', "x": "Refund').encode()
    return json.dumps(body).encode()


@FUZZ
@given(oversized())
def test_fuzz_huge_values_are_rejected_not_truncated(http, raw):
    r = send(http, raw, JSON, {413, 422})
    if r.status_code == 422:
        assert r.json()["detail"][0]["type"] in ("string_too_long", "too_long", "json_invalid"), r.text[:300]


@FUZZ
@given(st.integers(33, 3000), st.sampled_from(["list", "dict", "mixed"]), st.sampled_from(["state", "instructions", "criteria", "extra"]))
def test_fuzz_deep_nesting(http, depth, shape, where):
    nested: object = "leaf"
    for i in range(depth):
        nested = [nested] if shape == "list" or (shape == "mixed" and i % 2) else {"k": nested}
    text = json.dumps(VALID)
    if where == "state":
        text = text.replace('"Refund my duplicate charge."', "__N__")
    elif where == "instructions":
        text = text.replace('"Is this about billing?"', "__N__")
    elif where == "criteria":
        text = text.replace('"instructions": "Is this about billing?"', '"criteria": {"true": __N__}')
    else:
        text = text[:-1] + ', "x_extra": __N__}'
    try:
        fragment = json.dumps(nested)
    except RecursionError:  # deeper than the encoder goes: build the text directly
        fragment = ("[" if shape == "list" else '{"k": ') * depth + '"leaf"' + ("]" if shape == "list" else "}") * depth
    r = send(http, text.replace("__N__", fragment).encode(), JSON, {422})
    assert "nested" in r.text


BAD_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xa0\xa1", b"\xe2\x28\xa1", b"\xf0\x28\x8c\x28", b"\xc0\xaf",
            b"\xed\xa0\x80", b"\xf8\xa1\xa1\xa1\xa1", b"\x80", b"\xe2\x82"]


@FUZZ
@given(st.sampled_from(BAD_UTF8), st.integers(0, 10_000), st.booleans())
def test_fuzz_invalid_utf8_and_lone_surrogates(http, bad, position, escape):
    raw = json.dumps(VALID).encode()
    cut = position % (len(raw) + 1)
    if escape:  # a JSON escape that decodes to a lone surrogate, in a string value
        raw = raw.replace(b"Refund", b"Re\\ud8" + b"%02x" % (position % 256) + b"fund" if position % 2 else b"\\udc00Refund")
        r = send(http, raw, JSON, {422})
        assert "surrogate" in r.text or "JSON decode error" in r.text
    else:
        r = send(http, raw[:cut] + bad + raw[cut:], JSON, {422})
        assert "UTF-8" in r.text


media = st.sampled_from(["text/plain", "application/xml", "application/x-www-form-urlencoded", "text/json", "application/jsonx",
                         "application/json; charset=latin-1", "application/json;charset=utf-16", "image/png", "*/*",
                         "application/octet-stream", "json", "application", "multipart/mixed; boundary=x"])
random_media = st.text(alphabet=string.ascii_letters + string.digits + "/+-.;= ", min_size=1, max_size=40).filter(
    lambda t: t.strip() == t and t.split(";")[0].strip().lower() not in ("application/json", "multipart/form-data"))


@FUZZ
@given(media | random_media)
def test_fuzz_wrong_content_types(http, content_type):
    r = send(http, json.dumps(VALID).encode(), {**AUTH, "content-type": content_type}, {415})
    assert r.json()["detail"]["error_type"] == "unsupported_media_type"


BODY = json.dumps({**VALID, "state": "A long enough state for compression. " * 40}).encode()
FRAME = zstandard.ZstdCompressor().compress(BODY)
BOMBS = [zstandard.ZstdCompressor(level=3).compress(b'{"state": "' + b"a" * ((4 << 20) + 10) + b'"}'),
         zstandard.ZstdCompressor(level=3).compress(b"[" + b"0," * (3 << 20) + b"0]")]
GZIP_BOMB = gzip.compress(b" " * (8 << 20))


@st.composite
def bad_zstd(draw):
    kind = draw(st.sampled_from(["truncated", "trailing", "garbage", "bomb", "not_json", "gzip", "encoding"]))
    headers = {**JSON, "content-encoding": "zstd"}
    if kind == "truncated":
        return FRAME[: draw(st.integers(0, len(FRAME) - 1))], headers, {400}
    if kind == "trailing":
        return FRAME + draw(st.binary(min_size=1, max_size=64)), headers, {400}
    if kind == "garbage":
        return draw(st.sampled_from([b"", b"\x28\xb5\x2f\xfd"])) + draw(st.binary(max_size=256)), headers, {400}
    if kind == "bomb":
        return draw(st.sampled_from(BOMBS)), headers, {413}
    if kind == "not_json":
        return zstandard.ZstdCompressor().compress(draw(st.binary(min_size=1, max_size=200))), headers, {422}
    if kind == "gzip":
        data = draw(st.sampled_from([GZIP_BOMB, gzip.compress(BODY)[:-draw(st.integers(1, 40))], b"\x1f\x8b" + draw(st.binary(max_size=64))]))
        return data, {**JSON, "content-encoding": "gzip"}, {400, 413}
    encoding = draw(st.sampled_from(["br", "deflate", "compress", "zstd, gzip", "x-unknown"]) | st.text(string.ascii_letters, min_size=1, max_size=12).filter(
        lambda e: e.lower() not in ("zstd", "gzip", "x-gzip", "identity")))
    return FRAME, {**JSON, "content-encoding": encoding}, {415}


@FUZZ
@given(bad_zstd())
def test_fuzz_truncated_oversized_and_garbage_compressed_bodies(http, case):
    data, headers, statuses = case
    send(http, data, headers, statuses)


@FUZZ
@given(st.binary(max_size=512), st.sampled_from(["application/json", "multipart/form-data; boundary=b", "multipart/form-data"]))
def test_fuzz_random_bytes(http, data, content_type):
    send(http, data, {**AUTH, "content-type": content_type}, {400, 422})


@st.composite
def broken_multipart(draw):
    boundary = draw(st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=20))
    name = draw(st.sampled_from(["request", "req", "", "image"]))
    part = draw(st.sampled_from([b"{}", json.dumps(VALID).encode()[:-1], b"\xff\xfe", b"[1,2]"]) | st.binary(max_size=64))
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n").encode() + part + f"\r\n--{boundary}--\r\n".encode()
    if draw(st.booleans()):
        body += f"--{boundary}\r\nContent-Disposition: form-data; name=\"img\"\r\n\r\nxx\r\n--{boundary}--\r\n".encode()
    sent_boundary = draw(st.sampled_from([boundary, boundary + "x", ""]))
    return body, f"multipart/form-data; boundary={sent_boundary}" if sent_boundary else "multipart/form-data"


@FUZZ
@given(broken_multipart())
def test_fuzz_broken_multipart(http, case):
    body, content_type = case
    send(http, body, {**AUTH, "content-type": content_type}, {400, 422})


header_text = st.text(alphabet=string.ascii_letters + string.digits + "-_.=+/ :", max_size=60).map(str.strip)


@FUZZ
@given(header_text, st.sampled_from(["/v1/systemone", "/v1/models", "/metrics"]))
def test_fuzz_random_authorization_headers_are_401(http, value, path):
    headers = {"content-type": "application/json"}
    if value:
        headers["authorization"] = value
    r = send(http, json.dumps(VALID).encode(), headers, {401}, path=path, method="POST" if path == "/v1/systemone" else "GET")
    assert r.json()["detail"]["error_type"] == "authentication_error"


@FUZZ
@given(st.text(alphabet=string.ascii_letters + string.digits + "/-_.%~", max_size=40), st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
def test_fuzz_random_paths_and_methods(http, path, method):
    path = "/" + path.lstrip("/")
    known = {"/v1/systemone": {"POST"}, "/v1/models": {"GET"}, "/healthz": {"GET"}, "/readyz": {"GET"}, "/metrics": {"GET"}, "/openapi.json": {"GET"},
             "/v1/systemone/batch": {"POST"}, "/": {"GET"}, "/calibration": {"GET"}, "/calibration.json": {"GET"},
             "/favicon.ico": {"GET"}, **{f"/static/{name}": {"GET"} for name in playground.ASSETS}}  # the browser pages
    if method in known.get(http.build_request(method, path).url.path, set()):  # as sent ("/." is "/")
        return
    SENT["count"] += 1
    r = http.request(method, path, content=b"{}", headers=JSON)
    assert_error_shape(r, {404, 405})


def test_fuzzing_sent_at_least_1000_bad_requests(request):
    fuzz_tests = [item for item in request.session.items if item.module is request.module and item.name.startswith("test_fuzz_")]
    if len(fuzz_tests) < 11:
        pytest.skip("only part of the fuzz suite was selected")
    print(f"fuzzing sent {SENT['count']} bad requests")
    assert SENT["count"] >= 1000, SENT
