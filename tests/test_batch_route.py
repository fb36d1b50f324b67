"""POST /v1/systemone/batch end to end: one question set over several states, over HTTP on 127.0.0.1."""

from __future__ import annotations

import time
import uuid

import httpx
import pytest
from conftest import KEYS, ServerThread

from onepass.config import ServerConfig
from onepass.errors import ConfigError
from onepass.server import create_app

QUESTIONS = {
    "team": {"type": "choice", "instructions": "Which team should handle it?",
             "criteria": {"billing": None, "shipping": None, "technical support": None}},
    "urgent": {"type": "noul", "instructions": "Is it urgent?"},
}
STATES = [
    "I was charged twice for order #4411.",
    "My parcel never arrived.",
    {"ticket": 7, "text": "The app crashes when I log in."},  # states may be objects, as in /v1/systemone
]
AUTH = {"authorization": f"Bearer {KEYS[0]}"}


@pytest.fixture(scope="module")
def batch_server(smol):
    with ServerThread(create_app(smol, ServerConfig(api_keys=KEYS, max_batch_states=4, max_state_chars=2000))) as running:
        yield running


def post(server, path: str, body, headers=AUTH, **kwargs) -> httpx.Response:
    return httpx.post(server.url + path, json=body, headers=headers, timeout=120, **kwargs)


def metric(server, name: str) -> float:
    text = httpx.get(server.url + "/metrics", headers=AUTH, timeout=30).text
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_each_result_is_the_single_answer_in_order(batch_server):
    questions_before = metric(batch_server, "onepass_questions_total")
    r = post(batch_server, "/v1/systemone/batch", {"model": "jev-latest", "states": STATES, "questions": QUESTIONS})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert len(r.headers["x-typesafe-request-id"]) == 32
    body = r.json()
    assert set(body) == {"model", "results"} and body["model"] == "smollm2-135m"
    assert len(body["results"]) == len(STATES)
    for state, result in zip(STATES, body["results"]):
        single = post(batch_server, "/v1/systemone", {"model": "jev-latest", "state": state, "questions": QUESTIONS})
        assert single.status_code == 200
        expected = single.json()
        # The very body /v1/systemone answers: same keys, same usage, same numbers (the states of a batch
        # may share forward passes: float rounding of another layout, within 1e-4).
        assert set(result) == set(expected) == {"model", "answers", "usage"}
        assert result["model"] == expected["model"]
        assert result["usage"] == expected["usage"]
        assert list(result["answers"]) == list(expected["answers"])
        for qid, answer in expected["answers"].items():
            got = result["answers"][qid]
            assert set(got) == set(answer)
            if answer["type"] == "choice":
                ranked = sorted(answer["probabilities"].values(), reverse=True)
                if ranked[0] - ranked[1] > 1e-3:  # not a near tie that rounding could flip
                    assert got["choice"] == answer["choice"]
                for name, p in answer["probabilities"].items():
                    assert got["probabilities"][name] == pytest.approx(p, abs=1e-4)
            else:
                assert got["noul"] == pytest.approx(answer["noul"], abs=1e-4)
    # Every state's questions are counted, like one request each (3 states x 2 questions, then 3 singles).
    assert metric(batch_server, "onepass_questions_total") - questions_before == 12
    assert metric(batch_server, "onepass_batch_states_count") >= 1


def test_options_apply_to_every_state(batch_server):
    r = post(batch_server, "/v1/systemone/batch", {"model": "jev-latest", "states": STATES[:2], "x_readout": "isolated",
                                                   "questions": {"team": QUESTIONS["team"]}})
    assert r.status_code == 200, r.text
    assert [res["answers"]["team"]["x_readout"] for res in r.json()["results"]] == ["isolated", "isolated"]


def test_a_bad_state_fails_the_call_naming_its_index(batch_server):
    body = {"model": "jev-latest", "questions": QUESTIONS}
    # Wrong type at index 1.
    r = post(batch_server, "/v1/systemone/batch", {**body, "states": ["fine", 5, "fine"]})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail and all(d["loc"][:3] == ["body", "states", 1] for d in detail)
    # Over --max-state-chars at index 2: the same limit a single request has.
    r = post(batch_server, "/v1/systemone/batch", {**body, "states": ["fine", "fine", "x" * 2001]})
    assert r.status_code == 422
    [entry] = r.json()["detail"]
    assert entry["loc"] == ["body", "states", 2] and entry["type"] == "string_too_long"
    assert "--max-state-chars" in entry["msg"]
    # Too deep at index 0 (the depth of the state as a single request would have it).
    deep: object = "x"
    for _ in range(40):
        deep = [deep]
    r = post(batch_server, "/v1/systemone/batch", {**body, "states": [deep]})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"][:3] == ["body", "states", 0] and r.json()["detail"][0]["type"] == "too_deep"


def test_a_state_failing_while_it_runs_names_its_index(batch_server, smol):
    long_state = "word " * (smol.backend.max_context + 100)  # past the model's context: found when it runs
    with ServerThread(create_app(smol, ServerConfig(api_keys=KEYS))) as running:
        r = post(running, "/v1/systemone/batch", {"model": "jev-latest", "questions": {"urgent": QUESTIONS["urgent"]},
                                                  "states": ["short one", long_state, "short two"]})
        assert r.status_code == 400, r.text
        detail = r.json()["detail"]
        assert detail["error_type"] == "max_tokens_exceeded"
        assert detail["message"].startswith("states[1]: ")
        # Nothing is left behind: the other states were stopped (a worker frees its slot once its current
        # forward pass ends).
        assert metric(running, "onepass_requests_admitted") == 0
        deadline = time.monotonic() + 30
        while metric(running, "onepass_workers_busy") != 0:
            assert time.monotonic() < deadline, "a stopped state kept its worker"
            time.sleep(0.1)


def test_shared_mistakes_keep_their_place(batch_server):
    r = post(batch_server, "/v1/systemone/batch",
             {"model": "jev-latest", "states": ["a", "b"], "questions": {"q": {"type": "score", "criteria": {"0": "x", "1": "y"}}}})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"][:3] == ["body", "questions", "q"]
    r = post(batch_server, "/v1/systemone/batch", {"model": "no-such-model", "states": ["a"], "questions": QUESTIONS})
    assert r.status_code == 404 and r.json()["detail"]["error_type"] == "model_not_found"


@pytest.mark.parametrize("body, loc, kind", [
    ({"questions": QUESTIONS}, ["body", "states"], "missing"),
    ({"states": "one state", "questions": QUESTIONS}, ["body", "states"], "list_type"),
    ({"states": [], "questions": QUESTIONS}, ["body", "states"], "too_short"),
    ({"states": ["a"] * 5, "questions": QUESTIONS}, ["body", "states"], "too_long"),
    ({"state": "a", "states": ["a"], "questions": QUESTIONS}, ["body", "state"], "extra_forbidden"),
])
def test_the_batch_shape_is_checked(batch_server, body, loc, kind):
    r = post(batch_server, "/v1/systemone/batch", {"model": "jev-latest", **body})
    assert r.status_code == 422, r.text
    [entry] = r.json()["detail"]
    assert entry["loc"] == loc and entry["type"] == kind
    if kind == "too_long":
        assert "--max-batch-states 4" in entry["msg"]


def test_each_state_takes_an_admission_slot(smol):
    # workers 1 + queue 1: at most 2 requests inside the server, so at most 2 states per call.
    with ServerThread(create_app(smol, ServerConfig(workers=1, max_queue=1))) as running:
        r = post(running, "/v1/systemone/batch", {"model": "jev-latest", "states": ["a", "b", "c"], "questions": QUESTIONS},
                 headers={})
        assert r.status_code == 422
        assert "admits at most 2 requests at once" in r.json()["detail"][0]["msg"]
        r = post(running, "/v1/systemone/batch", {"model": "jev-latest", "states": ["a", "b"], "questions": QUESTIONS},
                 headers={})
        assert r.status_code == 200, r.text
        assert len(r.json()["results"]) == 2
        assert metric(running, "onepass_requests_admitted") == 0


def test_keys_and_methods(batch_server):
    r = post(batch_server, "/v1/systemone/batch", {"model": "jev-latest", "states": ["a"], "questions": QUESTIONS}, headers={})
    assert r.status_code == 401 and r.json()["detail"]["error_type"] == "authentication_error"
    r = httpx.get(batch_server.url + "/v1/systemone/batch", headers=AUTH, timeout=30)
    assert r.status_code == 405 and r.json()["detail"]["error_type"] == "method_not_allowed"
    r = httpx.post(batch_server.url + "/v1/systemone/batch", content=b"{", headers={**AUTH, "content-type": "application/json"},
                   timeout=30)
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "json_invalid"


def test_the_states_limit_is_a_checked_setting():
    assert ServerConfig().max_batch_states == 16
    with pytest.raises(ConfigError, match="--max-batch-states"):
        ServerConfig(max_batch_states=0)


def test_a_repeated_state_gets_the_same_answer(batch_server):
    state = f"Ticket {uuid.uuid4().hex}: the printer is on fire."
    r = post(batch_server, "/v1/systemone/batch", {"model": "jev-latest", "states": [state, state],
                                                   "questions": {"urgent": QUESTIONS["urgent"]}})
    assert r.status_code == 200
    first, second = r.json()["results"]
    assert first["answers"]["urgent"]["noul"] == pytest.approx(second["answers"]["urgent"]["noul"], abs=1e-4)
