"""`onepass learn` end to end: labels in, an adapter directory out, served by name to the official SDK.

A small synthetic two-question task (a yes/no and a three-way choice whose answers follow from the state's
wording, so an encoder can learn them) is learned on SmolLM2 and on a tiny random model; the adapter is then
served, and its answers must be exactly the fitted arithmetic over the model's own reads."""

from __future__ import annotations

import json
import random

import httpx
import numpy as np
import pytest
from typesafe_sdk import Choice, Noul, RetryPolicy, TypeSafeClient

from onepass import Engine, cli
from onepass.config import ServerConfig
from onepass.learn import splits
from onepass.learn.adapter import Adapter
from onepass.learn.labels import LabelsError, read_labels, read_questions
from onepass.server import create_app
from tests.test_hardening_support import LoopbackServer
from tests.tiny_random import llama_with_smollm_tokenizer

QUESTIONS = {
    "refund": {"type": "noul", "instructions": "Does the customer ask for their money back?"},
    "team": {"type": "choice", "instructions": "Which team should handle it?",
             "criteria": {"billing": "charges and invoices", "shipping": "parcels and delivery", "tech": "apps and logins"}},
}
TOPICS = {"billing": ["an invoice with the wrong VAT number", "a double charge on my card", "the price on my bill"],
          "shipping": ["a parcel stuck in the depot", "a courier who never came", "a box delivered to a neighbour"],
          "tech": ["the app crashing on start", "a login code that never arrives", "the website freezing at checkout"]}


def synthetic(n: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        team = list(TOPICS)[i % 3]
        refund = i % 2 == 0
        ask = rng.choice(["Please refund me.", "I want my money back.", "Refund this now."]) if refund else \
            rng.choice(["Can you look into it?", "Any idea what to do?", "Please help."])
        rows.append({"id": f"t-{i}", "state": f"Hi, it's about {rng.choice(TOPICS[team])} (case {i}). {ask}",
                     "gold": {"refund": refund, "team": team}})
    return rows


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    folder = tmp_path_factory.mktemp("task")
    (folder / "questions.json").write_text(json.dumps(QUESTIONS))
    (folder / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in synthetic(36)))
    return folder


def learn(task, out, model: str, *extra: str) -> int:
    return cli.main(["learn", "--model", model, "--dtype", "float32", "--questions", str(task / "questions.json"),
                     "--data", str(task / "labels.jsonl"), "--name", "tickets", "--out", str(out), *extra])


@pytest.fixture(scope="module")
def smol_adapter(task, tmp_path_factory):
    out = tmp_path_factory.mktemp("adapters") / "tickets"
    assert learn(task, out, "smollm2-135m") == 0
    return out


def test_the_adapter_directory_says_what_was_learned_and_how_well(smol_adapter):
    manifest = json.loads((smol_adapter / "manifest.json").read_text())
    assert manifest["schema"] == 1 and manifest["name"] == "tickets"
    assert manifest["base_model"]["id"] == "smollm2-135m" and manifest["base_model"]["weights"]
    assert manifest["dtype"] == "float32" and manifest["labels"]["items"] == 36
    for qid in QUESTIONS:
        entry = manifest["questions"][qid]
        assert entry["chosen"] in entry["validation"] and entry["chosen"] in entry["test"]
        c = entry["counts"]
        assert c["train"] + c["validation"] + c["test"] == 36 and min(c.values()) > 0
        # every fitted method is reported on validation and test, with standard errors
        assert set(entry["validation"]) == set(entry["test"]) and {"zero-shot", "knn-minilm", "logreg-minilm"} <= set(entry["test"])
        assert all(0 < m["accuracy_se"] < 0.5 and m["n"] == c["test"] for m in entry["test"].values())
        # chosen on validation alone: the lowest mean log loss over train/validation splits of the labels
        mean = {m: v["nll_mean_over_splits"] for m, v in entry["validation"].items()}
        assert mean[entry["chosen"]] <= min(mean.values()) + 1e-6
        assert entry["temperature"] > 0 and 0 <= entry["test_ece_noise_floor"] < 0.5
    # the wording decides the answers: what the labels teach beats SmolLM2's chance-level zero-shot reading
    team = manifest["questions"]["team"]["test"]
    assert team[manifest["questions"]["team"]["chosen"]]["accuracy"] > team["zero-shot"]["accuracy"]
    report = (smol_adapter / "report.md").read_text()
    assert "(chosen)" in report and "zero-shot" in report
    assert (smol_adapter / "reliability.png").stat().st_size > 1000


def test_a_rerun_reads_nothing_again(task, smol_adapter, monkeypatch):
    from onepass.backends.embedded import EmbeddedBackend

    calls = []
    original = EmbeddedBackend.features
    monkeypatch.setattr(EmbeddedBackend, "features", lambda self, p, r: calls.append(1) or original(self, p, r))
    before = json.loads((smol_adapter / "manifest.json").read_text())
    assert learn(task, smol_adapter, "smollm2-135m") == 0
    assert calls == []  # every read came from OUT/cache
    after = json.loads((smol_adapter / "manifest.json").read_text())
    assert after["questions"]["team"]["test"] == before["questions"]["team"]["test"]  # and the same numbers


def test_the_adapter_is_served_by_name_to_the_official_sdk(smol_adapter):
    engine = Engine("smollm2-135m", dtype="float32", adapters=(str(smol_adapter),), log=lambda _m: None)
    adapter = Adapter.load(smol_adapter)
    settings = ServerConfig()
    state = "Hi, it's about a parcel stuck in the depot. I want my money back."
    with LoopbackServer(create_app(engine, settings), settings) as s, \
            TypeSafeClient(base_url=s.url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=120) as client:
        listed = {m.name for m in client.models.list().models}
        assert {"smollm2-135m", "tickets"} <= listed
        got = client.system_one(state=state, model="tickets", questions={
            # other ids than the ones learned: questions are matched by content
            "r": Noul(instructions=QUESTIONS["refund"]["instructions"]),
            "t": Choice(instructions=QUESTIONS["team"]["instructions"], criteria=QUESTIONS["team"]["criteria"]),
            "other": Noul(instructions="Is the customer polite?")})
        # what the fitted arithmetic gives over the model's own read, computed here independently
        from onepass.backends.base import Read
        from onepass.learn.features import embed_texts
        from onepass.readouts.base import softmax
        from onepass.wire import parse_request

        parsed = parse_request({"model": "x", "state": state, "questions": QUESTIONS}).questions
        learned = adapter.match(parsed["team"].model_dump(mode="json"))
        rendered = engine.renderer.question(parsed["team"])
        (lp, h), = engine.backend.features(engine.renderer.prefix(state), [Read(rendered.suffix, rendered.label_ids)])
        want = softmax(learned.scores(lp, h, embed_texts([state])[0]))
        assert max(abs(got.choices["t"].probabilities[k] - w) for k, w in zip(QUESTIONS["team"]["criteria"], want)) < 1e-9
        body = httpx.post(f"{s.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=120, json={
            "model": "tickets", "state": state,
            "questions": {"t": QUESTIONS["team"], "other": {"type": "noul", "instructions": "Is the customer polite?"}}}).json()
        assert body["model"] == "tickets"
        assert body["answers"]["t"]["x_adapter"] == {"name": "tickets", "question": "team", "method": learned.method}
        assert body["answers"]["t"]["x_calibrated"] is True
        assert body["answers"]["other"]["x_adapter"] == {"name": "tickets", "question": None, "method": "zero-shot"}
        # the base model is still served as itself, without x_adapter
        plain = httpx.post(f"{s.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=120, json={
            "model": "smollm2-135m", "state": state, "questions": {"t": QUESTIONS["team"]}}).json()
        assert "x_adapter" not in plain["answers"]["t"]
        models = httpx.get(f"{s.url}/v1/models", headers={"Authorization": "Bearer k"}).json()
        row = next(m for m in models["models"] if m["name"] == "tickets")
        assert row["x_adapter"]["base"] == "smollm2-135m" and set(row["x_adapter"]["questions"]) == set(QUESTIONS)


def test_an_adapter_of_another_model_is_refused_at_start(smol_adapter, tmp_path):
    from onepass.errors import ConfigError

    tiny = llama_with_smollm_tokenizer(tmp_path / "tiny")
    with pytest.raises(ConfigError, match="was learned on model smollm2-135m"):
        Engine(str(tiny), dtype="float32", adapters=(str(smol_adapter),), log=lambda _m: None)


def test_learn_runs_on_a_tiny_random_model_with_a_separate_test_file(task, tmp_path):
    tiny = llama_with_smollm_tokenizer(tmp_path / "tiny")
    test_file = tmp_path / "test.jsonl"
    test_file.write_text("".join(json.dumps(r) + "\n" for r in synthetic(12, seed=5)[:12]))
    out = tmp_path / "adapter"
    assert cli.main(["learn", "--model", str(tiny), "--dtype", "float32", "--questions", str(task / "questions.json"),
                     "--data", str(task / "labels.jsonl"), "--test", str(test_file), "--name", "tiny",
                     "--out", str(out), "--methods", "knn-minilm,head-hidden,zs+head-hidden"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["labels"]["test_file"] == str(test_file)
    for entry in manifest["questions"].values():
        assert entry["counts"]["test"] == 12 and entry["counts"]["train"] + entry["counts"]["validation"] == 36
        assert set(entry["test"]) <= {"zero-shot", "knn-minilm", "head-hidden", "zs+head-hidden"}


@pytest.mark.parametrize("line, message", [
    ('{"state": "x", "gold": {"team": "sales"}}', "line 2: question 'team': \"sales\" is not one of the options"),
    ('{"state": "x", "gold": {"refund": "yes"}}', "line 2: question 'refund': a yes/no gold is true or false"),
    ('{"state": "x", "gold": {"urgent": true}}', "line 2: gold names question 'urgent', which is not in the question set"),
    ('{"gold": {"refund": true}}', "line 2: no \"state\" field"),
    ("not json", "line 2: not JSON"),
])
def test_a_bad_labels_line_is_named_with_what_to_fix(tmp_path, capsys, line, message):
    (tmp_path / "q.json").write_text(json.dumps(QUESTIONS))
    (tmp_path / "l.jsonl").write_text('{"state": "ok", "gold": {"refund": true}}\n' + line + "\n")
    with pytest.raises(LabelsError, match="l.jsonl:" + message.split(":")[0].split()[-1]) as error:
        read_labels(tmp_path / "l.jsonl", read_questions(tmp_path / "q.json"))
    assert message.split(": ", 1)[1] in str(error.value)
    code = cli.main(["learn", "--model", "smollm2-135m", "--questions", str(tmp_path / "q.json"),
                     "--data", str(tmp_path / "l.jsonl"), "--name", "x", "--out", str(tmp_path / "out")])
    assert code == 2 and message.split(": ", 1)[1] in capsys.readouterr().err


def test_the_corpus_format_is_matched_to_the_question_set_by_content(tmp_path):
    (tmp_path / "q.json").write_text(json.dumps(QUESTIONS))
    lines = [{"id": "c1", "request": {"model": "jev-latest", "state": "s1", "questions": {"q": QUESTIONS["team"]}}, "gold": "tech"},
             {"id": "c1", "request": {"model": "jev-latest", "state": "s1", "questions": {"zz": QUESTIONS["refund"]}}, "gold": False}]
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    labels = read_labels(tmp_path / "c.jsonl", read_questions(tmp_path / "q.json"))
    assert len(labels.items) == 1 and labels.items[0].gold == {"team": 2, "refund": 1}


def test_splits_are_seeded_stratified_and_disjoint():
    strata = [i % 4 for i in range(103)]
    train, val, test = splits.stratified(strata, (0.6, 0.2, 0.2), seed=3)
    again = splits.stratified(strata, (0.6, 0.2, 0.2), seed=3)
    assert all(np.array_equal(a, b) for a, b in zip((train, val, test), again))
    assert not (set(train) & set(val) or set(train) & set(test) or set(val) & set(test))
    assert len(train) + len(val) + len(test) == 103
    for c in range(4):  # each class in proportion
        assert abs(sum(strata[i] == c for i in test) - 0.2 * sum(s == c for s in strata)) <= 1
    tr, va = splits.budget(strata, 32, test, seed=3)
    assert len(tr) + len(va) == 32 and not (set(tr) | set(va)) & set(test)
    assert {strata[i] for i in tr} == {0, 1, 2, 3}  # a small budget still covers every class
