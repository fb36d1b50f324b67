"""How `onepass learn` chooses (validation log loss over re-drawn splits, temperatures) and the retrieved-examples method it can
fit and serve by name, end to end through the official SDK.

The examples tests run on a 2-layer random Llama with SmolLM2's tokenizer (reads cost nothing) over the
synthetic ticket task of tests/test_learn.py; what is checked is the mechanics, not the model's skill."""

from __future__ import annotations

import json

import httpx
import numpy as np
import pytest
from typesafe_sdk import Choice, Noul, RetryPolicy, TypeSafeClient

from onepass import Engine, cli
from onepass.config import ServerConfig
from onepass.learn import adapter as adapter_mod
from onepass.learn.calibration import fit_temperature
from onepass.learn.examples_method import add_examples, examples_read
from onepass.learn.features import FeatureStore, embed_texts
from onepass.learn.labels import question_signature, read_labels, read_questions
from onepass.learn.learner import learn_question
from onepass.learn.methods import Fitted, View, log_softmax
from onepass.learn.splits import stratified
from onepass.readouts.base import softmax
from onepass.server import create_app
from onepass.wire import parse_request
from tests.test_hardening_support import LoopbackServer
from tests.test_learn import QUESTIONS, synthetic
from tests.tiny_random import llama_with_smollm_tokenizer


# -- the choice over re-drawn splits --------------------------------------------------------------------------
def _separable(n: int, seed: int, noise: float) -> View:
    """Two classes; the hidden feature separates them except for `noise` of the items (flipped labels)."""
    rng = np.random.default_rng(seed)
    gold = np.arange(n) % 2
    h = rng.normal(size=(n, 6))
    h[:, 0] += np.where(gold == 1, 3.0, -3.0)
    flip = rng.random(n) < noise
    gold = np.where(flip, 1 - gold, gold)
    return View(np.log(np.full((n, 2), 0.5)), h, None, gold, 2)


def test_a_fitted_head_is_only_softened_so_a_perfect_validation_split_cannot_make_it_certain():
    view = _separable(120, seed=1, noise=0.05)
    wrong = np.flatnonzero(view.gold != (view.h[:, 0] > 0))
    assert len(wrong) >= 3  # some labels disagree with the feature
    clean = np.array([i for i in range(120) if i not in set(wrong)])
    val = clean[:20]  # a given validation split the head gets entirely right
    train = np.setdiff1d(np.arange(100), val)
    test = np.arange(100, 120)
    result = learn_question("q", view, train, val, test, binary=True, methods=["zero-shot", "head-hidden", "knn-hidden"])
    assert result.validation["head-hidden"]["accuracy"] == 1.0
    head_scores = result.fitted["head-hidden"].scores(view.take(val))
    # free, the validation log loss keeps falling as T shrinks: the search ends at its bound
    assert fit_temperature(list(head_scores), list(view.gold[val])) == pytest.approx(0.05, rel=0.01)
    assert result.temperature["head-hidden"] >= 1.0
    knn_scores = result.fitted["knn-hidden"].scores(view.take(val))  # a vote may still be sharpened
    assert result.temperature["knn-hidden"] == pytest.approx(fit_temperature(list(knn_scores), list(view.gold[val])))


def test_a_combination_never_sharpens_its_fitted_head():
    from onepass.learn.methods import METHODS, fit_combo, fit_knn, fit_weights

    view = _separable(80, seed=4, noise=0.0)  # a head is never wrong out of fold here
    tr, va = view.take(np.arange(60)), view.take(np.arange(60, 80))
    combo = METHODS["zs+head-hidden"][1](tr, va)
    assert combo.params["weights"][1] <= 1.0
    # unbounded, the same fit runs the head's weight up: the cap is what holds it
    head = METHODS["head-hidden"][1](tr, va)
    free = fit_weights(tr.lp, head.scores(tr), tr.gold)
    assert free[1] > 1.5
    vote = fit_combo(tr, va, "knn-hidden", lambda a, b: fit_knn(a, b, "h"))  # a vote is no fitted head: its weight is free
    assert vote.params["weights"][1] > 1.0


def test_the_choice_is_the_lowest_mean_log_loss_over_splits_and_resplits_one_is_the_given_split_alone():
    view = _separable(90, seed=2, noise=0.1)
    train, val, test = np.arange(0, 50), np.arange(50, 70), np.arange(70, 90)
    methods = ["zero-shot", "knn-hidden", "head-hidden", "zs+head-hidden"]
    result = learn_question("q", view, train, val, test, binary=True, methods=methods, resplits=4, seed=3)
    mean = {m: result.validation[m]["nll_mean_over_splits"] for m in result.fitted}
    assert result.chosen == min(mean, key=mean.get)
    assert "mean over 4 train/validation splits" in result.why
    assert any(abs(mean[m] - result.validation[m]["nll"]) > 1e-6 for m in mean)  # the re-draws count
    again = learn_question("q", view, train, val, test, binary=True, methods=methods, resplits=4, seed=3)
    assert again.chosen == result.chosen and mean == {m: again.validation[m]["nll_mean_over_splits"] for m in mean}
    single = learn_question("q", view, train, val, test, binary=True, methods=methods, resplits=1)
    assert all(v["nll_mean_over_splits"] == v["nll"] for v in single.validation.values())
    given = {m: v["nll"] for m, v in single.validation.items()}
    assert single.chosen == min(given, key=given.get)
    # the served form and its temperature are the given split's, whatever the re-draws say
    for m in result.fitted:
        assert np.array_equal(result.test_scores[m], single.test_scores[m]) and result.temperature[m] == single.temperature[m]


def test_resplits_must_be_a_count(tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli.main(["learn", "--model", "smollm2-135m", "--questions", "q.json", "--data", "l.jsonl", "--name", "x",
                  "--out", str(tmp_path), "--resplits", "0"])
    assert "whole number from 1 to 50" in capsys.readouterr().err


# -- retrieved examples as a learn method ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def task(tmp_path_factory):
    folder = tmp_path_factory.mktemp("task")
    (folder / "questions.json").write_text(json.dumps(QUESTIONS))
    (folder / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in synthetic(36)))
    return folder


@pytest.fixture(scope="module")
def tiny_path(tmp_path_factory):
    return llama_with_smollm_tokenizer(tmp_path_factory.mktemp("tiny") / "tiny", seed=5)


def test_learn_fits_examples_when_asked_and_reports_them(task, tiny_path, tmp_path):
    out = tmp_path / "adapter"
    assert cli.main(["learn", "--model", str(tiny_path), "--dtype", "float32", "--questions", str(task / "questions.json"),
                     "--data", str(task / "labels.jsonl"), "--name", "ex", "--out", str(out),
                     "--methods", "knn-minilm,examples"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["methods_tried"] == ["zero-shot", "knn-minilm", "examples"] and manifest["resplits"] == 5
    for qid, entry in manifest["questions"].items():
        assert {"zero-shot", "knn-minilm", "examples"} == set(entry["validation"]) == set(entry["test"])
        ex = entry["validation"]["examples"]
        assert ex["splits"] == 1 and ex["candidate"].startswith("k=") and ex["extra_tokens"] > 0
        assert entry["details"]["examples"]["k"] in (2, 4, 8) and entry["details"]["examples"]["by"] == "minilm"
        assert entry["test"]["examples"]["n"] == entry["counts"]["test"]
    assert "| examples" in (out / "report.md").read_text()
    # the default leaves examples out (they cost six reads per validation item)
    default = tmp_path / "default"
    assert cli.main(["learn", "--model", str(tiny_path), "--dtype", "float32", "--questions", str(task / "questions.json"),
                     "--data", str(task / "labels.jsonl"), "--name", "d", "--out", str(default),
                     "--methods", "knn-minilm"]) == 0
    assert "examples" not in json.loads((default / "manifest.json").read_text())["questions"]["team"]["test"]


def test_an_examples_adapter_is_served_by_name_and_answers_with_its_demonstrations(task, tiny_path, tmp_path):
    engine = Engine(str(tiny_path), dtype="float32", torch_threads=1, calibration="none", log=lambda _m: None)
    raw = read_questions(task / "questions.json")
    labels = read_labels(task / "labels.jsonl", raw)
    qid = "team"
    store = FeatureStore(engine, labels.items, tmp_path / "cache", log=lambda _m: None)
    lp, h = store.lm(qid, labels.questions[qid])
    gold = np.array([item.gold[qid] for item in labels.items])
    train, val, test = stratified(gold.tolist(), (0.5, 0.3, 0.2), 0)
    view = View(lp, h, store.embed(), gold, 3)
    result = learn_question(qid, view, train, val, test, binary=False, methods=["zero-shot"], log=lambda _m: None)
    add_examples(result, engine, store, labels.questions[qid], labels.items, train, val, test, binary=False,
                 log=lambda _m: None, ks=(2, 4))
    form, temperature = result.fitted["examples"], result.temperature["examples"]
    # through the adapter's own file format, as `onepass serve --adapter` loads it
    adapter_mod.save_fitted(form, tmp_path / "q.npz")
    loaded = adapter_mod.load_fitted(tmp_path / "q.npz")
    assert loaded.info["texts"] == form.info["texts"] and np.array_equal(loaded.params["golds"], form.params["golds"])
    parsed = parse_request({"model": "x", "state": "", "questions": {qid: raw[qid]}}).questions[qid]
    learned = adapter_mod.AdapterQuestion(qid, raw[qid], "examples", loaded, temperature, False, True)
    engine.adapters["ex"] = adapter_mod.Adapter("ex", tmp_path, {"base_model": {"id": engine.info.id}, "labels": {"items": 36},
                                                                 "questions": {}}, {question_signature(parsed.model_dump(mode="json")): learned})
    state = "Hi, it's about a courier who never came (case 99). Please help."
    settings = ServerConfig()
    with LoopbackServer(create_app(engine, settings), settings) as s, \
            TypeSafeClient(base_url=s.url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=120) as client:
        got = client.system_one(state=state, model="ex", questions={
            "which": Choice(instructions=QUESTIONS["team"]["instructions"], criteria=QUESTIONS["team"]["criteria"]),
            "refund": Noul(instructions=QUESTIONS["refund"]["instructions"])})
        body = httpx.post(f"{s.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=120, json={
            "model": "ex", "state": state, "questions": {"which": QUESTIONS["team"], "refund": QUESTIONS["refund"]}}).json()
    assert body["answers"]["which"]["x_adapter"] == {"name": "ex", "question": "team", "method": "examples"}
    assert body["answers"]["refund"]["x_adapter"] == {"name": "ex", "question": None, "method": "zero-shot"}
    # independently: the demonstrations of the state's nearest training examples, then the question, one read
    read = examples_read(loaded, engine.renderer, parsed, embed_texts([state])[0])
    assert len(read.suffix) > len(engine.renderer.question(parsed).suffix) + 20  # the demonstrations are in it
    (want_lp, _h), = engine.backend.features(engine.renderer.prefix(state), [read])
    want = softmax(log_softmax(np.asarray(want_lp)[None, :])[0] / temperature)
    probs = got.choices["which"].probabilities
    assert max(abs(probs[k] - w) for k, w in zip(QUESTIONS["team"]["criteria"], want)) < 1e-9
